//! The Activity page (`audit:read`): the audit trail, newest first, in the data table with its
//! filters in the URL (`from`, `to`, `userId`, `operation`, `targetType`, `targetId`,
//! `outcome`: the API's own names) and paged; the server's CSV of the same filters and a day's
//! signed export (export.rs); a record's drawer with its changes, before → after, and its place
//! in the chain (record.rs); the chain's verification above the table (verify.rs). Every
//! object's drawer shows its own records in an Activity tab (tab.rs). `admin` reads everyone's
//! records, any other token only its own user's: the server decides, the page shows what it gets.

mod export;
pub mod record;
pub mod state;
pub mod tab;
mod verify;

use leptos::prelude::*;
use leptos_router::hooks::use_location;
use moneydesk_model::audit::AuditOutcome;

use self::state::{flatten, ActivityView};
use crate::api;
use crate::components::data_table::state::decode;
use crate::components::data_table::{Column, DataTable, Fetcher, FilterDef, Format};
use crate::session::use_auth;

pub const COLUMNS: &[Column] = &[
    Column::new("at", "Time", Format::DateTime),
    Column::new("who", "Who", Format::Text),
    Column::new("operation", "Operation", Format::Mono),
    Column::new("target", "Target", Format::Text),
    Column::new("outcome", "Outcome", Format::Badge),
    Column::new("requestId", "Request id", Format::Mono),
    Column::new("id", "Record", Format::Number).hidden(),
    Column::new("method", "Method", Format::Mono).hidden(),
    Column::new("path", "Route", Format::Mono).hidden(),
    Column::new("clientAddress", "Client address", Format::Mono).hidden(),
    Column::new("userAgent", "User agent", Format::Text).hidden(),
];

pub const FILTERS: &[FilterDef] = &[
    FilterDef::date("from", "From"),
    FilterDef::date("to", "To"),
    FilterDef::text("userId", "User", "usr_…"),
    FilterDef::text("operation", "Operation", "e.g. createCheckDeposit"),
    FilterDef::text("targetType", "Target type", "e.g. deposit"),
    FilterDef::text("targetId", "Target id", ""),
    FilterDef::select("outcome", "Outcome", &AuditOutcome::OPTIONS),
];

#[component]
pub fn ActivityPage() -> impl IntoView {
    let auth = use_auth();
    let location = use_location();
    let view = Memo::new(move |_| {
        location.search.with(|s| {
            let pairs = decode(s);
            ActivityView::from_params(|k| pairs.iter().rev().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
        })
    });
    let fetcher = Fetcher::new(move |q| {
        let page = api::audit::page(&auth.client(), q);
        Box::pin(async move {
            let mut page = page.await?;
            page.content = page.content.into_iter().map(flatten).collect();
            Ok(page)
        })
    });
    view! {
        <section class="page collections-page activity-page">
            <div class="page-head"><h1>"Activity"</h1></div>
            <p class="muted page-intro">
                "Every change made through the API, newest first: who made it, when, from where, and what it changed. Select a record to see its changes, before and after."
            </p>
            <verify::ChainStatus view/>
            <export::Exports view/>
            <DataTable
                id="activity"
                caption="Activity"
                noun="records"
                columns=COLUMNS
                filters=FILTERS
                fetcher
                title_key="operation"
                detail=record::panel
            />
        </section>
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::state::FILTER_PARAMS;
    use super::*;

    #[wasm_bindgen_test]
    fn the_filters_are_the_apis() {
        let params: Vec<&str> = FILTERS.iter().map(|f| f.param).collect();
        assert_eq!(params, FILTER_PARAMS);
        assert!(COLUMNS.iter().all(|c| c.sort.is_none()), "the trail is newest first only");
    }
}
