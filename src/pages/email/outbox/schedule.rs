//! The Outbox's schedule column: a message's `send_at`, whether its batch is paused, and, while
//! it waits (queued or scheduled, not sent), its batch's buttons: pause or resume, cancel
//! (asked first: a cancelled message is never sent). Each answer reloads the list.

use leptos::prelude::*;
use moneydesk_model::email::suppressions::ScheduledBatch;
use moneydesk_model::email::{MessageState, OutboxMessage};

use super::super::parts::when;
use crate::api::email::{self as api, BatchChange};
use crate::api::request::submit;
use crate::api::ApiError;
use crate::i18n::{email::text, fill};
use crate::session::use_auth;

#[component]
pub fn ScheduleCell(message: OutboxMessage, tick: RwSignal<u32>) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let t = &text().schedule;
    let (busy, problem) = (RwSignal::new(false), RwSignal::new(None::<String>));
    let waiting = matches!(message.state, MessageState::Queued | MessageState::Scheduled) && message.send_at.is_some();
    let batch = message.batch_id.clone();
    let run = move |change: BatchChange| {
        if change == BatchChange::Cancel && !window().confirm_with_message(t.cancel_question).unwrap_or(false) {
            return;
        }
        let b = batch.clone();
        submit(
            busy,
            &owner,
            || api::change_batch(&auth.client(), &b, change),
            move |r: Result<ScheduledBatch, ApiError>| {
                problem.set(r.err().map(|e| e.to_string()));
                tick.update(|n| *n += 1);
            },
        );
    };
    let run = StoredValue::new(run);
    let paused = message.paused;
    view! {
        {message.send_at.as_deref().map(when)}
        {paused.then(|| view! { " " <span class="badge state-paused">{t.paused}</span> })}
        {waiting.then(|| view! {
            <span class="email-batch-actions" role="group" aria-label=fill(t.batch, &[&message.batch_id])>
                " "
                {if paused {
                    view! { <button type="button" class="button batch-resume" disabled=move || busy.get()
                        on:click=move |_| run.with_value(|r| r(BatchChange::Resume))>{t.resume}</button> }.into_any()
                } else {
                    view! { <button type="button" class="button batch-pause" disabled=move || busy.get()
                        on:click=move |_| run.with_value(|r| r(BatchChange::Pause))>{t.pause}</button> }.into_any()
                }}
                " "
                <button type="button" class="button batch-cancel" disabled=move || busy.get()
                    on:click=move |_| run.with_value(|r| r(BatchChange::Cancel))>{t.cancel}</button>
            </span>
        })}
        <span class="field-error" role="alert">{move || problem.get()}</span>
    }
}
