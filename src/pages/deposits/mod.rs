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
use crate::session::use_auth;

/// The model's vocabularies (a status's label, a kind's label).
pub const STATUSES: &[(&str, &str)] = &DepositStatus::OPTIONS;
pub const SERVICE_TYPES: &[(&str, &str)] = &ServiceType::OPTIONS;

pub const COLUMNS: &[Column] = &[
    Column::new("id", "Deposit", Format::Mono),
    // The list item's createdDate: the business time zone's local time, without a zone.
    Column::new("createdDate", "Created", Format::Text).sortable(),
    Column::new("serviceType", "Kind", Format::Label(SERVICE_TYPES)),
    Column::new("name", "Payee", Format::Text),
    Column::new("amount", "Amount", Format::Money).sortable(),
    Column::new("feeApplied", "Fee", Format::Money),
    Column::new("status", "Status", Format::Label(STATUSES)),
    Column::new("checkNumber", "Check", Format::Mono),
    Column::new("bankName", "Bank", Format::Text).hidden(),
    Column::new("bankRoutingNumber", "Routing number", Format::Mono).hidden(),
    Column::new("accountNumber", "Payee account", Format::Mono).hidden(),
    Column::new("acId", "Payee account id", Format::Mono).hidden(),
    Column::new("scheduleDate", "Scheduled", Format::Date).hidden(),
    Column::new("checkDate", "Check date", Format::Date).hidden(),
    Column::new("completedDate", "Completed", Format::Text).hidden(),
    Column::new("memo", "Memo", Format::Text).hidden(),
    Column::new("paymentType", "Payment type", Format::Text).hidden(),
    Column::new("payerType", "Payer type", Format::Text).hidden(),
    Column::new("source", "Source", Format::Text).hidden(),
    Column::new("submitterId", "Submitted by", Format::Text).hidden(),
    Column::new("step", "Step", Format::Mono).hidden(),
];

pub const FILTERS: &[FilterDef] = &[
    FilterDef::select("status", "Status", STATUSES),
    FilterDef::select("serviceType", "Kind", SERVICE_TYPES),
    FilterDef::date("createdFrom", "Created from"),
    FilterDef::date("createdTo", "Created to"),
    FilterDef::text("amountMin", "Amount from", "e.g. 100.00"),
    FilterDef::text("amountMax", "Amount to", "e.g. 5000.00"),
];

/// The CSV of the selected deposits' records (reading is enough).
const EXPORT: BulkAction = BulkAction::new("export", "Export CSV", "exported").download();

/// What a `deposits:write` token does to many deposits at once: the single moves, each
/// deposit by the state machine's rules (the server refuses the ones that cannot move).
pub const BULK: &[BulkAction] = &[
    BulkAction::new("confirm", "Confirm", "confirmed").confirm("Confirm the selected deposits?"),
    BulkAction::new("reject", "Reject", "rejected").reason(),
    BulkAction::new("cancel", "Cancel deposits", "cancelled")
        .confirm("Cancel the selected deposits? A cancelled deposit cannot be moved again."),
    EXPORT,
];
const BULK_READ: &[BulkAction] = &[EXPORT];

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
                    message: format!("The browser refused the download: {e:?}"),
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
    let bulk = if writer.get_untracked() { BULK } else { BULK_READ };
    let bulk_run = bulk_runner(auth, changed);
    view! {
        <section class="page collections-page deposits-page">
            <div class="page-head">
                <h1>"Check deposits"</h1>
                <Show when=move || writer.get() && !form_open.get() && !pull_open.get() && !scan_open.get() && !cash_open.get()>
                    <div class="page-actions">
                        <button type="button" class="button" id="scan-new" on:click=move |_| set_form.with_value(|f| f(Some("scan")))>
                            "Scan a check"
                        </button>
                        <button type="button" class="button" id="cash-new" on:click=move |_| set_form.with_value(|f| f(Some("cash")))>
                            "New cash deposit"
                        </button>
                        <button type="button" class="button" id="pull-new" on:click=move |_| set_form.with_value(|f| f(Some("pull")))>
                            "New electronic deposit"
                        </button>
                        <button type="button" class="button primary" id="deposit-new" on:click=move |_| set_form.with_value(|f| f(Some("1")))>
                            "New check deposit"
                        </button>
                    </div>
                </Show>
            </div>
            <p class="muted page-intro">
                "Every deposit (checks, electronic pulls and cash), newest first. Select a row to see a check's images, the history and what can happen to it next."
            </p>
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
                caption="Check deposits"
                noun="deposits"
                columns=COLUMNS
                filters=FILTERS
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
