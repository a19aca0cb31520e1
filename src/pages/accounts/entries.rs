//! An account's entries in its drawer: newest first, each with its ledger account's running
//! balance, paged, filtered to one of the account's ledger accounts, and every matching entry
//! as the server's CSV (`format=csv`). The view is a struct with pure functions; it is kept
//! in the drawer, not the URL, whose `page` and `size` are the accounts table's.

use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;
use moneydesk_model::ledger::{Direction, LedgerEntry};
use moneydesk_model::Page;

use super::amount::amount_cell;
use crate::api;
use crate::api::request::{submit, Answer};
use crate::components::download;
use crate::components::error_view::ApiErrorView;
use crate::format::format_date_time;
use crate::i18n::account_books::text;
use crate::i18n::fill;
use crate::i18n::vocab::say;
use crate::session::use_auth;

/// The entries' view: page (1-based), size, and the ledger account (`pending`, `posted`,
/// `held`) when one is chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntriesView {
    pub page: u64,
    pub size: u32,
    pub ledger_account: Option<&'static str>,
}

impl Default for EntriesView {
    fn default() -> Self {
        EntriesView { page: 1, size: 10, ledger_account: None }
    }
}

/// The values of the ledger account filter (their labels: the catalogue's `ledger_accounts`).
pub const LEDGER_ACCOUNTS: [&str; 4] = ["", "pending", "posted", "held"];

impl EntriesView {
    /// The filters (the CSV's query too).
    pub fn filters(&self) -> Vec<(String, String)> {
        self.ledger_account.map(|a| vec![("ledgerAccount".to_string(), a.to_string())]).unwrap_or_default()
    }

    /// The page's query: the filters, `page` and `size`.
    pub fn pairs(&self) -> Vec<(String, String)> {
        let mut out = self.filters();
        out.push(("page".into(), self.page.to_string()));
        out.push(("size".into(), self.size.to_string()));
        out
    }

    pub fn with_ledger_account(&self, value: &str) -> EntriesView {
        let chosen = LEDGER_ACCOUNTS.into_iter().find(|v| *v == value && !v.is_empty());
        EntriesView { page: 1, ledger_account: chosen, ..self.clone() }
    }

    /// Another page, kept within 1..=`pages`.
    pub fn with_page(&self, page: u64, pages: u64) -> EntriesView {
        EntriesView { page: page.clamp(1, pages.max(1)), ..self.clone() }
    }
}

/// The debit and the credit cell of an entry: its amount on its side.
pub fn sides(e: &LedgerEntry) -> (Option<&moneydesk_model::Money>, Option<&moneydesk_model::Money>) {
    match e.direction {
        Direction::Debit => (Some(&e.amount), None),
        Direction::Credit => (None, Some(&e.amount)),
    }
}

#[component]
pub fn Entries(account: String) -> impl IntoView {
    let auth = use_auth();
    let view = RwSignal::new(EntriesView::default());
    let page = Answer::<Page<LedgerEntry>>::new();
    let acc = StoredValue::new(account);
    Effect::new(move |_| {
        let v = view.get();
        page.load(acc.with_value(|a| api::ledger::entries(&auth.client(), a, &v.pairs())));
    });
    let pages = move || page.with(|p| p.as_ref().and_then(|p| p.as_ref().ok()).map_or(1, |p| p.total_pages.max(1)));
    let exporting = RwSignal::new(false);
    let failed = RwSignal::new(None);
    let owner = Owner::current();
    let export = move |_| {
        let filters = view.with_untracked(EntriesView::filters);
        let name = acc.with_value(|a| download::dated_name(&format!("entries-{a}"), "csv"));
        let start = || acc.with_value(|a| api::ledger::entries_csv(&auth.client(), a, &filters));
        submit(exporting, &owner, start, move |r| match r {
            Ok(text) => {
                let _ = download::save(&js_sys::Array::of1(&text.into()), &name, download::CSV);
            }
            Err(e) => failed.set(Some(e)),
        });
    };
    let t = text();
    let choices = LEDGER_ACCOUNTS.into_iter().zip(t.ledger_accounts);
    view! {
        <div class="ledger-entries" data-testid="entries">
            <div class="entries-head">
                <h3>{t.entries}</h3>
                <label>
                    {t.ledger_account}
                    <select on:change=move |ev| view.update(|v| *v = v.with_ledger_account(&event_target_value(&ev)))>
                        {choices.map(|(v, l)| view! { <option value=v>{l}</option> }).collect_view()}
                    </select>
                </label>
                <button type="button" class="button" data-testid="entries-csv" disabled=move || exporting.get() on:click=export>
                    {t.export_csv}
                </button>
            </div>
            {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
            {move || page.with(|p| match p {
                None => EitherOf3::A(view! { <p class="muted">{t.reading_entries}</p> }),
                Some(Err(e)) => EitherOf3::B(view! { <ApiErrorView error=e.clone()/> }),
                Some(Ok(p)) => EitherOf3::C(view! { <EntryTable entries=p.content.clone()/> }),
            })}
            <div class="pager">
                <button type="button" class="button" disabled=move || view.with(|v| v.page <= 1)
                    on:click=move |_| view.update(|v| *v = v.with_page(v.page - 1, pages()))>{t.newer}</button>
                <span data-testid="entries-page">{move || fill(t.page_of, &[&view.with(|v| v.page).to_string(), &pages().to_string()])}</span>
                <button type="button" class="button" disabled=move || view.with(|v| v.page) >= pages()
                    on:click=move |_| view.update(|v| *v = v.with_page(v.page + 1, pages()))>{t.older}</button>
            </div>
        </div>
    }
}

#[component]
fn EntryTable(entries: Vec<LedgerEntry>) -> impl IntoView {
    let t = text();
    if entries.is_empty() {
        return Either::Left(view! { <p class="muted">{t.no_entries}</p> });
    }
    let rows = entries
        .into_iter()
        .map(|e| {
            let when = format_date_time(&e.posted_at).unwrap_or_else(|| e.posted_at.clone());
            let (debit, credit) = sides(&e);
            let (debit, credit) = (debit.map(amount_cell), credit.map(amount_cell));
            view! {
                <tr data-kind=e.kind.as_str()>
                    <td><time datetime=e.posted_at.clone()>{when}</time></td>
                    <td>{say(e.kind.label())}</td>
                    <td>{say(e.account_kind.label())}</td>
                    <td class="num">{debit}</td>
                    <td class="num">{credit}</td>
                    <td class="num" data-key="balance">{amount_cell(&e.balance)}</td>
                    <td>{e.memo.clone().unwrap_or_default()}</td>
                </tr>
            }
        })
        .collect_view();
    Either::Right(view! {
        <div class="table-scroll" tabindex="0" role="region" aria-label=t.entries>
            <table class="data-table ledger-table">
                <thead>
                    <tr>
                        <th scope="col">{t.entry_columns[0]}</th>
                        <th scope="col">{t.entry_columns[1]}</th>
                        <th scope="col">{t.entry_columns[2]}</th>
                        <th scope="col" class="num">{t.entry_columns[3]}</th>
                        <th scope="col" class="num">{t.entry_columns[4]}</th>
                        <th scope="col" class="num">{t.entry_columns[5]}</th>
                        <th scope="col">{t.entry_columns[6]}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    })
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn the_view_pages_within_bounds_and_filters_back_to_page_one() {
        let v = EntriesView::default().with_page(3, 5);
        assert_eq!(v.page, 3);
        assert_eq!(v.with_page(9, 5).page, 5);
        assert_eq!(v.with_page(0, 5).page, 1);
        let f = v.with_ledger_account("held");
        assert_eq!((f.page, f.ledger_account), (1, Some("held")));
        assert_eq!(f.pairs()[0], ("ledgerAccount".to_string(), "held".to_string()));
        assert_eq!(f.with_ledger_account("bogus").ledger_account, None);
        assert!(EntriesView::default().filters().is_empty());
    }
}
