//! The returned items, newest first, filtered by state and paged (both in the URL: `state`,
//! `page`); an unmatched item is matched to a deposit by its id or dismissed with a note.

use leptos::either::EitherOf4;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use moneydesk_model::ledger::{ReturnAction, ReturnItem, ReturnItemState};
use moneydesk_model::{Page, Scope};

use super::use_go;
use crate::api;
use crate::api::request::{submit, Answer};
use crate::components::error_view::ApiErrorView;
use crate::format::{format_amount, format_date_time};
use crate::i18n::fill;
use crate::i18n::ledger::text;
use crate::i18n::vocab::say;
use crate::session::use_auth;

const SIZE: u32 = 25;

/// An operator's act from the two fields: a deposit id matches, else a note dismisses.
pub fn action(deposit: &str, note: &str) -> Option<ReturnAction> {
    let note = note.trim();
    let note = (!note.is_empty()).then(|| note.to_string());
    match deposit.trim() {
        "" => note.map(|n| ReturnAction { action: "dismiss".into(), deposit_id: None, note: Some(n) }),
        d => d.parse().ok().map(|id| ReturnAction { action: "match".into(), deposit_id: Some(id), note }),
    }
}

#[component]
pub fn ReturnItems(changed: RwSignal<u32>) -> impl IntoView {
    let auth = use_auth();
    let query = use_query_map();
    let go = use_go();
    let state = Memo::new(move |_| query.with(|q| q.get("state").filter(|s| ReturnItemState::parse(s).is_some())));
    let page =
        Memo::new(move |_| query.with(|q| q.get_str("page").and_then(|p| p.parse().ok()).unwrap_or(1u64).max(1)));
    let items = Answer::<Page<ReturnItem>>::new();
    Effect::new(move |_| {
        changed.track();
        items.load(api::ledger::return_items(&auth.client(), page.get(), SIZE, state.get().as_deref()));
    });
    let set = move |s: String, p: u64| {
        go.run(vec![
            ("view", "returns".into()),
            ("state", s),
            ("page", if p > 1 { p.to_string() } else { String::new() }),
        ])
    };
    let pages = move || items.with(|i| i.as_ref().and_then(|i| i.as_ref().ok()).map_or(1, |p| p.total_pages.max(1)));
    let t = text();
    view! {
        <section class="return-items" data-testid="return-items">
            <div class="entries-head">
                <h2>{t.returned_items}</h2>
                <label>
                    {t.state}
                    <select id="returns-state" on:change=move |ev| set(event_target_value(&ev), 1)>
                        <option value="" selected=move || state.get().is_none()>{t.every_state}</option>
                        {ReturnItemState::OPTIONS.iter().map(|(v, l)| view! {
                            <option value=*v selected=move || state.get().as_deref() == Some(*v)>{say(l)}</option>
                        }).collect_view()}
                    </select>
                </label>
            </div>
            {move || items.with(|i| match i {
                None => EitherOf4::A(view! { <p class="muted">{t.reading_items}</p> }),
                Some(Err(e)) => EitherOf4::B(view! { <ApiErrorView error=e.clone()/> }),
                Some(Ok(p)) if p.content.is_empty() => EitherOf4::C(view! { <p class="muted">{t.no_items}</p> }),
                Some(Ok(p)) => EitherOf4::D(p.content.iter().cloned().map(|item| view! { <Item item changed/> }).collect_view()),
            })}
            <div class="pager">
                <button type="button" class="button" disabled=move || page.get() <= 1
                    on:click=move |_| set(state.get().unwrap_or_default(), page.get() - 1)>{t.newer}</button>
                <span>{move || fill(t.page_of, &[&page.get().to_string(), &pages().to_string()])}</span>
                <button type="button" class="button" disabled=move || page.get() >= pages()
                    on:click=move |_| set(state.get().unwrap_or_default(), page.get() + 1)>{t.older}</button>
            </div>
        </section>
    }
}

#[component]
fn Item(item: ReturnItem, changed: RwSignal<u32>) -> impl IntoView {
    let when = format_date_time(&item.received_at).unwrap_or_else(|| item.received_at.clone());
    let reason = format!("{} {}", item.reason_code, item.reason.clone().unwrap_or_default());
    let t = text();
    let record = item.record_number.map(|n| fill(t.record, &[&n.to_string()])).unwrap_or_default();
    let deposit = item.deposit_id.map(|d| fill(t.deposit, &[&d.to_string()])).unwrap_or_else(|| t.no_deposit.into());
    let open = item.state == ReturnItemState::Unmatched && use_auth().can(Scope::DepositsWrite);
    let badge = format!("badge badge-{}", item.state.as_str());
    view! {
        <article class="return-item" data-state=item.state.as_str() data-id=item.id>
            <p>
                <span class=badge>{say(item.state.label())}</span>
                " " <span class="amount">{format_amount(&item.amount)}</span>
                " · " {say(item.source.label())} " " {record} " · " {deposit} " · " {reason}
                " · " <time datetime=item.received_at.clone()>{when}</time>
            </p>
            {item.note.map(|n| view! { <p class="muted">{n}</p> })}
            {open.then(|| view! { <Act id=item.id changed/> })}
        </article>
    }
}

/// Match to a deposit (its id) or dismiss with a note.
#[component]
fn Act(id: i64, changed: RwSignal<u32>) -> impl IntoView {
    let auth = use_auth();
    let (deposit, note, busy, failed) =
        (RwSignal::new(String::new()), RwSignal::new(String::new()), RwSignal::new(false), RwSignal::new(None));
    let owner = Owner::current();
    let send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(a) = action(&deposit.get_untracked(), &note.get_untracked()) else { return };
        submit(
            busy,
            &owner,
            || api::ledger::act_on_return(&auth.client(), id, &a),
            move |r| match r {
                Ok(_) => changed.update(|n| *n += 1),
                Err(e) => failed.set(Some(e)),
            },
        );
    };
    let t = text();
    view! {
        <form class="return-act" on:submit=send>
            <label for=format!("return-deposit-{id}")>{t.deposit_id}</label>
            <input id=format!("return-deposit-{id}") inputmode="numeric" prop:value=move || deposit.get()
                on:input=move |ev| deposit.set(event_target_value(&ev))/>
            <label for=format!("return-note-{id}")>{t.note}</label>
            <input id=format!("return-note-{id}") maxlength="500" prop:value=move || note.get()
                on:input=move |ev| note.set(event_target_value(&ev))/>
            <button type="submit" class="button" disabled=move || busy.get() || action(&deposit.get(), &note.get()).is_none()>
                {move || if deposit.with(|d| d.trim().is_empty()) { t.dismiss } else { t.match_ }}
            </button>
            {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
        </form>
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn a_deposit_id_matches_a_note_alone_dismisses() {
        assert_eq!(action(" 42 ", "").map(|a| (a.action, a.deposit_id)), Some(("match".into(), Some(42))));
        assert_eq!(
            action("", " not ours ").map(|a| (a.action, a.note)),
            Some(("dismiss".into(), Some("not ours".into())))
        );
        assert_eq!(action("", "  "), None, "dismissing needs a note");
        assert_eq!(action("x1", "note"), None);
    }
}
