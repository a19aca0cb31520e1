//! The Activity tab of an object's drawer (a deposit, a vault file, an email template, an
//! account, a token): the drawer's own content under "Details", the object's audit records under
//! "Activity", newest first and paged, fetched when the tab is first opened. A token without
//! `audit:read` sees the details alone, as before. The target types are the names the server
//! records its changes under (`trail::target`). Its code is shared by the chunks of the pages
//! with such a drawer (and `ChangeTable` by the Activity page's record drawer).

use leptos::either::{Either, EitherOf4};
use leptos::prelude::*;
use moneydesk_model::audit::{AuditChange, AuditRecord};
use moneydesk_model::{Page, Scope};

use super::state::{value_text, who, TargetView};
use crate::api;
use crate::api::request::Answer;
use crate::components::data_table::column::badge_class;
use crate::components::error_view::ApiErrorView;
use crate::format::format_date_time;
use crate::i18n::activity_tab::text;
use crate::i18n::fill;
use crate::i18n::vocab::say;
use crate::session::use_auth;

pub const DEPOSIT: &str = "deposit";
/// An account's books (its balances moved: a hold released); the id is the account's.
pub const ACCOUNT: &str = "ledger_account";
/// A vault file; its id is `<userId>/<path>`.
pub const FILE: &str = "vault_file";
pub const TEMPLATE: &str = "email_template";
/// An API token: its creation and its revocation (never its text).
pub const TOKEN: &str = "token";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tab {
    Details,
    Activity,
}

#[component]
pub fn WithActivity(target_type: &'static str, #[prop(into)] target_id: String, children: Children) -> impl IntoView {
    if !use_auth().can(Scope::AuditRead) {
        return Either::Left(children());
    }
    let tab = RwSignal::new(Tab::Details);
    let opened = RwSignal::new(false);
    let dom_id = move |part: &str| format!("activity-{target_type}-{part}");
    let t = text();
    let button = move |t: Tab, slug: &'static str, label: &'static str| {
        view! {
            <button type="button" role="tab" class="drawer-tab" id=dom_id(&format!("{slug}-tab"))
                aria-controls=dom_id(slug) aria-selected=move || (tab.get() == t).to_string()
                on:click=move |_| {
                    opened.update(|o| *o |= t == Tab::Activity);
                    tab.set(t);
                }>{label}</button>
        }
    };
    Either::Right(view! {
        <div class="drawer-tabs" role="tablist" aria-label=t.sections>
            {button(Tab::Details, "details", t.details)}
            {button(Tab::Activity, "activity", t.activity)}
        </div>
        <div role="tabpanel" id=dom_id("details") aria-labelledby=dom_id("details-tab")
            hidden=move || tab.get() != Tab::Details>{children()}</div>
        <div role="tabpanel" id=dom_id("activity") aria-labelledby=dom_id("activity-tab")
            hidden=move || tab.get() != Tab::Activity>
            {move || opened.get().then(|| view! { <TargetRecords target_type target_id=target_id.clone()/> })}
        </div>
    })
}

/// The object's records, newest first, a page at a time.
#[component]
fn TargetRecords(target_type: &'static str, target_id: String) -> impl IntoView {
    let auth = use_auth();
    let view = RwSignal::new(TargetView::default());
    let records = Answer::<Page<AuditRecord>>::new();
    let id = StoredValue::new(target_id);
    Effect::new(move |_| {
        let v = view.get();
        records.load(id.with_value(|i| api::audit::records_of(&auth.client(), target_type, i, v.page, v.size)));
    });
    let pages = move || records.with(|p| p.as_ref().and_then(|p| p.as_ref().ok()).map_or(1, |p| p.total_pages.max(1)));
    let t = text();
    view! {
        <div class="activity-records" data-testid="activity-records">
            {move || records.with(|r| match r {
                None => EitherOf4::A(view! { <p class="muted">{t.reading}</p> }),
                Some(Err(e)) => EitherOf4::B(view! { <ApiErrorView error=e.clone()/> }),
                Some(Ok(p)) if p.content.is_empty() => EitherOf4::C(view! { <p class="muted">{t.none}</p> }),
                Some(Ok(p)) => EitherOf4::D(view! {
                    <ol class="activity-list">
                        {p.content.iter().cloned().map(|record| view! { <Entry record/> }).collect_view()}
                    </ol>
                }),
            })}
            <div class="pager">
                <button type="button" class="button" disabled=move || view.with(|v| v.page <= 1)
                    on:click=move |_| view.update(|v| *v = v.with_page(v.page - 1, pages()))>{t.newer}</button>
                <span>{move || fill(t.page_of, &[&view.with(|v| v.page).to_string(), &pages().to_string()])}</span>
                <button type="button" class="button" disabled=move || view.with(|v| v.page) >= pages()
                    on:click=move |_| view.update(|v| *v = v.with_page(v.page + 1, pages()))>{t.older}</button>
            </div>
        </div>
    }
}

/// One record: when, who, the operation and its outcome, and what it changed.
#[component]
fn Entry(record: AuditRecord) -> impl IntoView {
    let when = format_date_time(&record.at).unwrap_or_else(|| record.at.clone());
    let outcome = record.outcome;
    view! {
        <li class="activity-entry" data-id=record.id data-outcome=outcome.as_str()>
            <p class="activity-what">
                <time datetime=record.at.clone()>{when}</time>
                " · " {who(&record.actor)} " · "
                <span class="mono">{record.operation.clone()}</span> " "
                <span class=badge_class(outcome.as_str())>{say(outcome.label())}</span>
            </p>
            <ChangeTable changes=record.changes/>
        </li>
    }
}

/// The fields a record changed, before → after; a sentence when it changed none (a refused
/// write, a download).
#[component]
pub fn ChangeTable(changes: Vec<AuditChange>) -> impl IntoView {
    let t = text();
    if changes.is_empty() {
        return Either::Left(view! { <p class="muted" data-testid="audit-no-changes">{t.no_changes}</p> });
    }
    let rows = changes
        .into_iter()
        .map(|c| {
            view! {
                <tr data-field=c.field.clone()>
                    <th scope="row">{c.field.clone()}</th>
                    <td class="audit-before">{value_text(c.before.as_deref())}</td>
                    <td class="audit-after">{value_text(c.after.as_deref())}</td>
                </tr>
            }
        })
        .collect_view();
    Either::Right(view! {
        <table class="audit-changes" data-testid="audit-changes">
            <thead>
                <tr>
                    <th scope="col">{t.change_columns[0]}</th>
                    <th scope="col">{t.change_columns[1]}</th>
                    <th scope="col">{t.change_columns[2]}</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    })
}
