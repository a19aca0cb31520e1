//! Bulk check: a pasted list or an uploaded CSV of routing numbers → valid / invalid (why) /
//! in ACH / in wire / institution, looked up a few at a time with progress, exported as CSV.
//! The state lives with the page, so switching tabs keeps a run and its results; what the rows
//! found is counted in tally.rs.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::csv;
use super::format::count;
use crate::i18n::fill;
use crate::i18n::routing::text;
use crate::session::use_auth;

mod run;
mod tally;

pub use run::BulkState;
use run::{cells, Outcome, Row, MAX_ROWS};
use tally::{progress, Tally};

/// The list's placeholder: numbers, the same in every language.
const PLACEHOLDER: &str = "011000015\n021000021\n…";

/// Uploads larger than this are refused before reading.
const MAX_FILE_BYTES: f64 = 5.0 * 1024.0 * 1024.0;

/// The columns' headings (also each cell's `data-label`, shown beside it on a phone).
fn headings() -> [&'static str; 6] {
    text().bulk_headings
}

/// One result cell, following the row's outcome.
fn cell(o: &ArcRwSignal<Outcome>, i: usize) -> impl IntoView {
    let (a, b) = (o.clone(), o.clone());
    view! {
        <td data-label=headings()[i + 2]>
            <span class=move || a.with(|o| cells(o)[i].0)>{move || b.with(|o| cells(o)[i].1.clone())}</span>
        </td>
    }
}

fn row_view(index: usize, row: Row) -> impl IntoView {
    let o = row.outcome.clone();
    let h = headings();
    view! {
        <tr data-status=move || o.with(Outcome::status)>
            <td class="num" data-label=h[0]>{index + 1}</td>
            <td data-label=h[1]><code>{row.input.clone()}</code></td>
            {cell(&row.outcome, 0)}
            {cell(&row.outcome, 1)}
            {cell(&row.outcome, 2)}
            {cell(&row.outcome, 3)}
        </tr>
    }
}

#[component]
pub fn BulkTab(state: BulkState) -> impl IntoView {
    let s = state;
    view! {
        <BulkForm state/>
        {move || s.notice.get().map(|n| view! { <p class="alert warning" role="status">{n}</p> })}
        <div class="routing-progress" hidden=move || s.lookups.get() == 0>
            <progress max=move || s.lookups.get() value=move || s.done.get() aria-labelledby="routing-bulk-progress"></progress>
            <span id="routing-bulk-progress" aria-live="polite">{move || progress(s.done.get(), s.lookups.get())}</span>
        </div>
        <div hidden=move || s.rows.with(Vec::is_empty)>
            <p class="routing-summary" data-testid="routing-bulk-summary">
                {move || s.rows.with(|rows| rows.iter().fold(Tally::default(), |t, r| r.outcome.with(|o| t.add(o)))).text()}
            </p>
            <div class="routing-table-wrap">
                <table class="routing-table" data-testid="routing-bulk-results">
                    <caption class="routing-sr">{text().results_caption}</caption>
                    <thead>
                        <tr>{headings().map(|h| view! { <th scope="col">{h}</th> }).to_vec()}</tr>
                    </thead>
                    <tbody>
                        {move || s.rows.get().into_iter().enumerate().map(|(i, r)| row_view(i, r)).collect_view()}
                    </tbody>
                </table>
            </div>
        </div>
    }
}

/// The numbers pasted or uploaded, and the run's buttons: check, cancel, export.
#[component]
fn BulkForm(state: BulkState) -> impl IntoView {
    let auth = use_auth();
    let s = state;
    let t = text();

    let on_file = move |ev: web_sys::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        if file.size() > MAX_FILE_BYTES {
            s.notice.set(Some(fill(t.too_large, &[&file.name()])));
            return;
        }
        let name = file.name();
        let client = auth.client();
        spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|t| t.as_string()) {
                Some(text) => {
                    if s.text.try_set(text).is_none() {
                        s.start(client);
                    }
                }
                None => {
                    s.notice.try_set(Some(fill(t.cannot_read, &[&name])));
                }
            }
        });
        input.set_value("");
    };

    let export = move |_| {
        let text = csv::write(&s.export_rows());
        if let Err(e) = csv::download("routing-check.csv", &text) {
            s.notice.set(Some(e));
        }
    };

    view! {
        <form class="routing-bulk" on:submit=move |ev| {
            ev.prevent_default();
            s.start(auth.client());
        }>
            <label for="routing-bulk-input">{t.routing_numbers}</label>
            <textarea
                id="routing-bulk-input"
                rows="6"
                spellcheck="false"
                aria-describedby="routing-bulk-hint"
                placeholder=PLACEHOLDER
                prop:value=move || s.text.get()
                on:input=move |ev| s.text.set(event_target_value(&ev))
            ></textarea>
            <p id="routing-bulk-hint" class="hint">{fill(t.bulk_hint, &[&count(MAX_ROWS as u64)])}</p>
            <label for="routing-bulk-file">{t.upload}</label>
            <input id="routing-bulk-file" type="file" accept=".csv,.txt,text/csv,text/plain" on:change=on_file/>
            <div class="routing-actions">
                <button id="routing-bulk-check" type="submit" class="button primary" disabled=move || s.running.get()>
                    {t.check}
                </button>
                <button
                    id="routing-bulk-cancel"
                    type="button"
                    class="button"
                    hidden=move || !s.running.get()
                    on:click=move |_| s.cancel()
                >
                    {t.cancel}
                </button>
                <button
                    id="routing-bulk-export"
                    type="button"
                    class="button"
                    hidden=move || s.rows.with(Vec::is_empty) || s.running.get()
                    on:click=export
                >
                    {t.export_csv}
                </button>
            </div>
        </form>
    }
}
