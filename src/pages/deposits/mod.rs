//! Deposits: every deposit in the data table (the described list, `GET …/deposits`, each item
//! with the members the table needs asked for by `fields`: `api::deposits::LIST_FIELDS`),
//! filtered by status, kind, dates and amounts; a row's drawer shows its check images, its
//! history and the moves allowed now (detail.rs); "New check deposit" opens the form
//! (form.rs), kept in the URL (`?new=1`) so Back closes it; "Scan a check" the scanning wizard
//! (scan_wizard/, `?new=scan`); "New electronic deposit" an ACH pull (electronic.rs,
//! `?new=pull`); "New cash deposit" cash (cash.rs, `?new=cash`). Below the table, the day's ACH
//! file of electronic deposits. Cash letters have their own page (pages/cash_letters).
//! Selected rows (or every deposit matching the filter) are confirmed, rejected with one
//! reason, cancelled or exported in one request (`BULK`); each row then shows its outcome.

mod cash;
mod chart;
mod detail;
mod electronic;
mod field;
mod form;
mod lookups;
mod particulars;
mod scan;
mod scan_wizard;

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use moneydesk_model::deposits::{DepositStatus, ServiceType};
use moneydesk_model::Scope;

use crate::api;
use crate::components::data_table::{BulkAction, BulkCall, BulkRunner, Column, DataTable, Fetcher, FilterDef, Format};
use crate::components::download;
use crate::i18n::deposits::{en, es, text, Deposits};
use crate::i18n::{fill, pick};
use crate::session::use_auth;

/// The model's vocabularies (a status's label, a kind's label).
pub const STATUSES: &[(&str, &str)] = &DepositStatus::OPTIONS;
pub const SERVICE_TYPES: &[(&str, &str)] = &ServiceType::OPTIONS;

/// The table's columns in a language's words (`c`: the column labels, in this order).
const fn columns(c: &'static [&'static str; 21]) -> [Column; 21] {
    [
        Column::new("id", c[0], Format::Mono),
        // The list item's createdDate: the business time zone's local time, without a zone.
        Column::new("createdDate", c[1], Format::Text).sortable(),
        Column::new("serviceType", c[2], Format::Label(SERVICE_TYPES)),
        Column::new("name", c[3], Format::Text),
        Column::new("amount", c[4], Format::Money).sortable(),
        Column::new("feeApplied", c[5], Format::Money),
        Column::new("status", c[6], Format::Label(STATUSES)),
        Column::new("checkNumber", c[7], Format::Mono),
        Column::new("bankName", c[8], Format::Text).hidden(),
        Column::new("bankRoutingNumber", c[9], Format::Mono).hidden(),
        Column::new("accountNumber", c[10], Format::Mono).hidden(),
        Column::new("acId", c[11], Format::Mono).hidden(),
        Column::new("scheduleDate", c[12], Format::Date).hidden(),
        Column::new("checkDate", c[13], Format::Date).hidden(),
        Column::new("completedDate", c[14], Format::Text).hidden(),
        Column::new("memo", c[15], Format::Text).hidden(),
        Column::new("paymentType", c[16], Format::Text).hidden(),
        Column::new("payerType", c[17], Format::Text).hidden(),
        Column::new("source", c[18], Format::Text).hidden(),
        Column::new("submitterId", c[19], Format::Text).hidden(),
        Column::new("step", c[20], Format::Mono).hidden(),
    ]
}

const fn filters(t: &'static Deposits) -> [FilterDef; 6] {
    [
        FilterDef::select("status", t.columns[6], STATUSES),
        FilterDef::select("serviceType", t.columns[2], SERVICE_TYPES),
        FilterDef::date("createdFrom", t.created_from),
        FilterDef::date("createdTo", t.created_to),
        FilterDef::text("amountMin", t.amount_from, t.amount_from_hint),
        FilterDef::text("amountMax", t.amount_to, t.amount_to_hint),
    ]
}

pub const COLUMNS: &[Column] = &columns(&en::TEXT.columns);
const COLUMNS_ES: &[Column] = &columns(&es::TEXT.columns);
pub const FILTERS: &[FilterDef] = &filters(&en::TEXT);
const FILTERS_ES: &[FilterDef] = &filters(&es::TEXT);

/// The CSV of the selected deposits' records (reading is enough).
const fn export(t: &'static Deposits) -> BulkAction {
    BulkAction::new("export", t.export.0, t.export.1).download()
}
const EXPORT: BulkAction = export(&en::TEXT);

/// What a `deposits:write` token does to many deposits at once: the single moves, each
/// deposit by the state machine's rules (the server refuses the ones that cannot move).
const fn bulk(t: &'static Deposits) -> [BulkAction; 4] {
    [
        BulkAction::new("confirm", t.confirm.0, t.confirm.1).confirm(t.confirm_question),
        BulkAction::new("reject", t.reject.0, t.reject.1).reason(),
        BulkAction::new("cancel", t.cancel_deposits.0, t.cancel_deposits.1).confirm(t.cancel_question),
        export(t),
    ]
}
pub const BULK: &[BulkAction] = &bulk(&en::TEXT);
const BULK_ES: &[BulkAction] = &bulk(&es::TEXT);
const BULK_READ: &[BulkAction] = &[EXPORT];
const BULK_READ_ES: &[BulkAction] = &[export(&es::TEXT)];

/// Sends the table's bulk run: the export saves the CSV; a move bumps `changed` (the chart).
fn bulk_runner(auth: crate::session::Auth, changed: RwSignal<u32>) -> BulkRunner {
    BulkRunner::new(move |call: BulkCall| {
        let client = auth.client();
        Box::pin(async move {
            if call.action == EXPORT.key {
                let blob = api::deposits::export(&client, call.select).await?;
                let name = download::dated_name("deposits", "csv");
                download::save_blob(&blob, &name).map_err(|e| api::ApiError::Other {
                    status: 0,
                    message: fill(text().download_refused, &[&format!("{e:?}")]),
                })?;
                return Ok(None);
            }
            let result = api::deposits::bulk(&client, call.action, call.reason, call.select, &call.key).await?;
            // The page may be gone by the answer: then there is no chart to follow it.
            let _ = changed.try_update(|n| *n += 1);
            Ok(Some(result))
        })
    })
}

#[component]
pub fn DepositsPage() -> impl IntoView {
    let auth = use_auth();
    let query = use_query_map();
    let navigate = use_navigate();
    // Read here: the form closes from an async task, where no router context is at hand.
    let location = leptos_router::hooks::use_location();
    // Embedded, the browser path starts with the host's base path, which navigate adds itself.
    let config = use_context::<crate::config::AppConfig>().unwrap_or_default();
    let writer = Memo::new(move |_| auth.can(Scope::DepositsWrite));
    let form_open = Memo::new(move |_| query.with(|q| q.get_str("new") == Some("1")));
    let pull_open = Memo::new(move |_| query.with(|q| q.get_str("new") == Some("pull")));
    let scan_open = Memo::new(move |_| query.with(|q| q.get_str("new") == Some("scan")));
    let cash_open = Memo::new(move |_| query.with(|q| q.get_str("new") == Some("cash")));
    // Bumped by a new deposit or a move: the table fetches its view again.
    let changed = RwSignal::new(0u32);

    // Which form is open (`?new=1` a check, `?new=pull` an ACH pull, `?new=cash` cash), or none.
    let set_form = move |open: Option<&'static str>| {
        let mut q = query.get_untracked();
        if let Some(which) = open {
            q.replace("new", which.to_string());
        } else {
            q.remove("new");
            q.remove("step");
        }
        let search = q.to_query_string();
        let path = config.relative(&location.pathname.get_untracked()).to_string();
        navigate(&format!("{path}{search}"), NavigateOptions { scroll: false, ..Default::default() });
    };
    let set_form = StoredValue::new(set_form);
    provide_context(detail::Changed(changed));

    let fetcher = Fetcher::new(move |q| Box::pin(api::deposits::list(&auth.client(), q)));
    let bulk = if writer.get_untracked() { pick(&BULK, &BULK_ES) } else { pick(&BULK_READ, &BULK_READ_ES) };
    let bulk = *bulk;
    let bulk_run = bulk_runner(auth, changed);
    let t = text();
    let (columns, filters) = *pick(&(COLUMNS, FILTERS), &(COLUMNS_ES, FILTERS_ES));
    view! {
        <section class="page collections-page deposits-page">
            <div class="page-head">
                <h1>{t.heading}</h1>
                <Show when=move || writer.get() && !form_open.get() && !pull_open.get() && !scan_open.get() && !cash_open.get()>
                    <div class="page-actions">
                        <button type="button" class="button" id="scan-new" on:click=move |_| set_form.with_value(|f| f(Some("scan")))>
                            {t.scan}
                        </button>
                        <button type="button" class="button" id="cash-new" on:click=move |_| set_form.with_value(|f| f(Some("cash")))>
                            {t.new_cash}
                        </button>
                        <button type="button" class="button" id="pull-new" on:click=move |_| set_form.with_value(|f| f(Some("pull")))>
                            {t.new_pull}
                        </button>
                        <button type="button" class="button primary" id="deposit-new" on:click=move |_| set_form.with_value(|f| f(Some("1")))>
                            {t.new_check}
                        </button>
                    </div>
                </Show>
            </div>
            <p class="muted page-intro">{t.intro}</p>
            <Show when=move || writer.get() && form_open.get()>
                <form::NewDeposit
                    on_done=Callback::new(move |made: bool| {
                        if made {
                            changed.update(|n| *n += 1);
                        }
                        set_form.with_value(|f| f(None));
                    })
                />
            </Show>
            <Show when=move || writer.get() && pull_open.get()>
                <electronic::NewPull
                    on_done=Callback::new(move |made: bool| {
                        if made {
                            changed.update(|n| *n += 1);
                        }
                        set_form.with_value(|f| f(None));
                    })
                />
            </Show>
            <Show when=move || writer.get() && cash_open.get()>
                <cash::NewCash
                    on_done=Callback::new(move |made: bool| {
                        if made {
                            changed.update(|n| *n += 1);
                        }
                        set_form.with_value(|f| f(None));
                    })
                />
            </Show>
            <Show when=move || writer.get() && scan_open.get()>
                <scan_wizard::ScanWizard
                    on_done=Callback::new(move |made: bool| {
                        if made {
                            changed.update(|n| *n += 1);
                        }
                        set_form.with_value(|f| f(None));
                    })
                />
            </Show>
            <chart::DepositsChart changed/>
            <DataTable
                id="deposits"
                caption=t.caption
                noun=t.noun
                columns
                filters
                fetcher
                title_key="name"
                detail=detail::panel
                reload=changed
                bulk
                bulk_run
            />
            <electronic::AchFile/>
        </section>
    }
}
