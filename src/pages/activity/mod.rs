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
use crate::i18n::activity::{en, es, text, Activity};
use crate::i18n::pick;
use crate::session::use_auth;

/// The table's columns in a language's words (`c`: the column labels, in this order).
const fn columns(c: &'static [&'static str; 11]) -> [Column; 11] {
    [
        Column::new("at", c[0], Format::DateTime),
        Column::new("who", c[1], Format::Text),
        Column::new("operation", c[2], Format::Mono),
        Column::new("target", c[3], Format::Text),
        Column::new("outcome", c[4], Format::LabelBadge(&AuditOutcome::OPTIONS)),
        Column::new("requestId", c[5], Format::Mono),
        Column::new("id", c[6], Format::Number).hidden(),
        Column::new("method", c[7], Format::Mono).hidden(),
        Column::new("path", c[8], Format::Mono).hidden(),
        Column::new("clientAddress", c[9], Format::Mono).hidden(),
        Column::new("userAgent", c[10], Format::Text).hidden(),
    ]
}

const fn filters(t: &'static Activity) -> [FilterDef; 7] {
    [
        FilterDef::date("from", t.from),
        FilterDef::date("to", t.to),
        FilterDef::text("userId", t.user, "usr_…"),
        FilterDef::text("operation", t.columns[2], t.operation_hint),
        FilterDef::text("targetType", t.target_type, t.target_type_hint),
        FilterDef::text("targetId", t.target_id, ""),
        FilterDef::select("outcome", t.columns[4], &AuditOutcome::OPTIONS),
    ]
}

pub const COLUMNS: &[Column] = &columns(&en::TEXT.columns);
const COLUMNS_ES: &[Column] = &columns(&es::TEXT.columns);
pub const FILTERS: &[FilterDef] = &filters(&en::TEXT);
const FILTERS_ES: &[FilterDef] = &filters(&es::TEXT);

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
    let t = text();
    let (columns, filters) = *pick(&(COLUMNS, FILTERS), &(COLUMNS_ES, FILTERS_ES));
    view! {
        <section class="page collections-page activity-page">
            <div class="page-head"><h1>{t.heading}</h1></div>
            <p class="muted page-intro">{t.intro}</p>
            <verify::ChainStatus view/>
            <export::Exports view/>
            <DataTable
                id="activity"
                caption=t.heading
                noun=t.noun
                columns
                filters
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
