//! One deposit in the table's drawer: its check images, its history (who moved it, when,
//! why) and a button for each move allowed now. Reject and return ask for a reason; send and
//! settle (the cash-letter and settlement jobs' moves) show only to an admin, as the server
//! allows them only to one. Which moves, what a click does and the words are moves.rs; what
//! the deposit posted to the books and its hold, postings.rs.

mod moves;
mod postings;

use leptos::prelude::*;
use moneydesk_model::deposits::{DepositAction, DepositDetail, DepositEvent};
use moneydesk_model::Scope;
use serde_json::Value;

use self::moves::{button_text, offered, reason_label, step, summary, undoes, what, Moves, Step};

use crate::api::request::{submit, Answer};
use crate::api::{self, ApiError};
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::format::format_date_time;
use crate::i18n::{deposits::text, fill, vocab::say};
use crate::pages::activity::tab::{WithActivity, DEPOSIT};
use crate::session::use_auth;

/// Bumped when a deposit changed: the page's table fetches its view again.
#[derive(Clone, Copy)]
pub struct Changed(pub RwSignal<u32>);

/// The drawer's part for a deposit of the table (a list item with its id and kind).
pub fn panel(record: Value) -> AnyView {
    // Cash and ACH pulls have no paper, hence no images to fetch.
    let images = !matches!(record.get("serviceType").and_then(Value::as_str), Some("Cash" | "Electronic_Deposit"));
    match record.get("id").and_then(Value::as_i64) {
        Some(id) => {
            view! { <WithActivity target_type=DEPOSIT target_id=id.to_string()><DepositPanel id images/></WithActivity> }
                .into_any()
        }
        None => ().into_any(),
    }
}

#[component]
fn DepositPanel(id: i64, images: bool) -> impl IntoView {
    let auth = use_auth();
    let toasts = use_toasts();
    let changed = use_context::<Changed>();
    let detail = Answer::<DepositDetail>::new();
    detail.load(api::deposits::detail(&auth.client(), id));

    let moves = Moves::new();
    let Moves { asking, reason, busy, failed } = moves;
    // Bumped by each move: the postings are read again.
    let moved = RwSignal::new(0u32);
    let owner = Owner::current();
    let act = Callback::new(move |action: DepositAction| {
        let why = match reason.with_untracked(|r| step(action, asking.get_untracked(), r)) {
            Step::Ask => return asking.set(Some(action)),
            Step::Wait => return,
            Step::Apply(why) => why,
        };
        failed.set(None);
        submit(
            busy,
            &owner,
            || api::deposits::apply(&auth.client(), id, action, why),
            move |result| match result {
                Ok(d) => {
                    toasts.show(
                        ToastKind::Success,
                        fill(text().detail.moved, &[&id.to_string(), say(d.record.status.label())]),
                    );
                    moves.done();
                    detail.set(Ok(d));
                    moved.update(|n| *n += 1);
                    if let Some(Changed(c)) = changed {
                        c.update(|n| *n += 1);
                    }
                }
                Err(e) => {
                    failed.set(Some(e));
                }
            },
        );
    });

    let body = move || {
        detail.with(|d| match d {
            None => view! { <p class="muted">{text().detail.reading}</p> }.into_any(),
            Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
            Some(Ok(d)) => {
                let offered = offered(&d.allowed_actions, auth.can(Scope::Admin), auth.can(Scope::DepositsWrite));
                view! { <Detail detail=d.clone() offered busy act/> }.into_any()
            }
        })
    };
    view! {
        <div class="deposit-detail" data-testid="deposit-detail">
            {images.then(|| view! { <CheckImages id/> })}
            {body}
            <ReasonForm moves act/>
            {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
            <postings::Postings id version=moved/>
        </div>
    }
}

/// What the deposit is, a button for each move `offered`, and its history.
#[component]
fn Detail(
    detail: DepositDetail,
    offered: Vec<DepositAction>,
    busy: RwSignal<bool>,
    act: Callback<DepositAction>,
) -> impl IntoView {
    let r = &detail.record;
    let summary = summary(detail.service_type, &r.amount, &r.fee_applied, r.status);
    let t = &text().detail;
    let duplicate = detail.duplicate_of.map(|first| {
        let why = detail.override_reason.clone().unwrap_or_default();
        view! { <p class="notice">{fill(t.duplicate, &[&first.to_string(), &why])}</p> }
    });
    view! {
        <p class="deposit-summary" data-testid="deposit-status">{summary}</p>
        {duplicate}
        <div class="deposit-moves" role="group" aria-label=t.moves>
            {offered
                .into_iter()
                .map(|a| {
                    view! {
                        <button
                            type="button"
                            class="button"
                            class:danger=undoes(a)
                            data-move=a.as_str()
                            disabled=move || busy.get()
                            on:click=move |_| act.run(a)
                        >
                            {button_text(a)}
                        </button>
                    }
                })
                .collect_view()}
        </div>
        <h3>{t.history}</h3>
        <ol class="deposit-history">{detail.history.into_iter().map(|e| view! { <HistoryEvent event=e/> }).collect_view()}</ol>
    }
}

/// One move of the history: what, by whom, when, and why.
#[component]
fn HistoryEvent(event: DepositEvent) -> impl IntoView {
    let when = format_date_time(&event.at).unwrap_or_else(|| event.at.clone());
    view! {
        <li>
            <span class="history-what">{what(&event)}</span>
            <time datetime=event.at>{when}</time>
            {event.reason.map(|r| view! { <span class="history-reason">{r}</span> })}
        </li>
    }
}

/// The reason reject and return ask for, while one waits for it.
#[component]
fn ReasonForm(moves: Moves, act: Callback<DepositAction>) -> impl IntoView {
    let Moves { asking, reason, busy, .. } = moves;
    move || {
        asking.get().map(|a| {
            view! {
                <form class="deposit-reason" on:submit=move |ev| {
                    ev.prevent_default();
                    act.run(a);
                }>
                    <label for="deposit-reason">{reason_label(a)}</label>
                    <input
                        id="deposit-reason"
                        type="text"
                        maxlength="500"
                        required
                        prop:value=move || reason.get()
                        on:input=move |ev| reason.set(event_target_value(&ev))
                    />
                    <button type="submit" class="button danger" disabled=move || busy.get() || reason.with(|r| r.trim().is_empty())>
                        {button_text(a).trim_end_matches('…')}
                    </button>
                    <button type="button" class="button" on:click=move |_| asking.set(None)>{text().detail.keep_it}</button>
                </form>
            }
        })
    }
}

/// The check's two sides, fetched with the token and shown through object URLs (revoked when
/// the drawer closes), each zoomable.
#[component]
fn CheckImages(id: i64) -> impl IntoView {
    let auth = use_auth();
    let t = &text().detail;
    let side = move |name: &'static str, word: &'static str| {
        let url = Answer::<String>::new();
        let blob = api::deposits::image(&auth.client(), id, name);
        url.load(async move {
            let blob = blob.await?;
            web_sys::Url::create_object_url_with_blob(&blob)
                .map_err(|e| ApiError::Decode { status: 200, message: fill(t.image_error, &[&format!("{e:?}")]) })
        });
        on_cleanup(move || {
            if let Some(Some(Ok(u))) = url.state.try_get_untracked() {
                let _ = web_sys::Url::revoke_object_url(&u);
            }
        });
        let alt = fill(t.image_alt, &[word, &id.to_string()]);
        // Click (or Enter) to read the MICR line and the amounts up close: the picture at
        // twice the drawer's width, scrolled inside its frame; again to fit it back.
        let zoomed = RwSignal::new(false);
        move || {
            url.with(|u| match u {
                Some(Ok(src)) => view! {
                    <button type="button" class="check-image" class:zoomed=move || zoomed.get()
                        aria-pressed=move || if zoomed.get() { "true" } else { "false" }
                        title=t.zoom on:click=move |_| zoomed.update(|z| *z = !*z)>
                        <img src=src.clone() alt=alt.clone() data-side=name/>
                    </button>
                }
                .into_any(),
                Some(Err(_)) => view! { <p class="muted">{fill(t.no_image, &[word])}</p> }.into_any(),
                None => view! { <div class="check-image-loading" aria-hidden="true"></div> }.into_any(),
            })
        }
    };
    view! { <div class="check-images">{side("front", t.sides.0)}{side("back", t.sides.1)}</div> }
}
