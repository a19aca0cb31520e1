//! Accounts (GET /api/v1/cores/unifi/accounts): every field of the record in the data table;
//! six columns shown by default, the rest in the column chooser, the drawer and the CSV. With
//! `ledger:read`, each page of rows also carries its accounts' available balances (one batch
//! request a page, balances.rs), and a row's drawer shows the account's balances, holds and
//! entries (drawer.rs, entries.rs).

mod amount;
mod balances;
mod drawer;
mod entries;

use leptos::prelude::*;
use moneydesk_model::accounts::{AccountStatus, AccountType};
use moneydesk_model::Scope;

use crate::api;
use crate::components::data_table::{Column, DataTable, Fetcher, FilterDef, Format};
use crate::i18n::accounts::{en, es};
use crate::i18n::accounts::{text, Accounts};
use crate::i18n::pick;
use crate::session::use_auth;

/// `AccountStatus` values (badges and the filter), from the model.
pub const STATUSES: &[(&str, &str)] = AccountStatus::OPTIONS;

/// `AccountType` values with their labels, from the model.
pub const TYPES: &[(&str, &str)] = AccountType::OPTIONS;

/// The table's columns in a language's words.
const fn columns(t: &'static Accounts) -> [Column; 26] {
    let c = &t.columns;
    [
        Column::new("id", c[0], Format::Mono).sortable().hidden(),
        Column::new("accountName", c[1], Format::Text).sortable(),
        Column::new("accountNumber", c[2], Format::Mono),
        Column::new("accountType", c[3], Format::Label(TYPES)).sortable(),
        Column::new("accountStatus", c[4], Format::LabelBadge(STATUSES)).sortable(),
        Column::new("marketValue", c[5], Format::Money).sortable(),
        Column::new(balances::AVAILABLE, c[6], Format::Money),
        Column::new(balances::FLAG, c[7], Format::LabelBadge(t.flags)),
        Column::new("createTime", c[8], Format::DateTime).sortable(),
        Column::new("businessEntityType", c[9], Format::Text).hidden(),
        Column::new("accountEmail", c[10], Format::Text).hidden(),
        Column::new("subRoutingNumber", c[11], Format::Mono).hidden(),
        Column::new("subRoutingName", c[12], Format::Text).hidden(),
        Column::new("parentAccountId", c[13], Format::Mono).hidden(),
        Column::new("tin", c[14], Format::Mono).hidden(),
        Column::new("recordTypeId", c[15], Format::Mono).hidden(),
        Column::new("billingStreet", c[16], Format::Text).hidden(),
        Column::new("billingCity", c[17], Format::Text).hidden(),
        Column::new("billingState", c[18], Format::Text).hidden(),
        Column::new("billingZipcode", c[19], Format::Text).hidden(),
        Column::new("billingCountry", c[20], Format::Text).hidden(),
        Column::new("mailingStreet", c[21], Format::Text).hidden(),
        Column::new("mailingCity", c[22], Format::Text).hidden(),
        Column::new("mailingState", c[23], Format::Text).hidden(),
        Column::new("mailingZipcode", c[24], Format::Text).hidden(),
        Column::new("mailingCountry", c[25], Format::Text).hidden(),
    ]
}

const fn filters(t: &'static Accounts) -> [FilterDef; 5] {
    [
        FilterDef::text("name", t.columns[1], t.name_hint),
        FilterDef::select("accountStatus", t.columns[4], STATUSES),
        FilterDef::select("accountType", t.columns[3], TYPES),
        FilterDef::date("createTimeFrom", t.created_from),
        FilterDef::date("createTimeTo", t.created_to),
    ]
}

pub const COLUMNS: &[Column] = &columns(&en::TEXT);
const COLUMNS_ES: &[Column] = &columns(&es::TEXT);
pub const FILTERS: &[FilterDef] = &filters(&en::TEXT);
const FILTERS_ES: &[FilterDef] = &filters(&es::TEXT);

#[component]
pub fn AccountsPage() -> impl IntoView {
    let auth = use_auth();
    let ledger = auth.can(Scope::LedgerRead);
    let fetcher = Fetcher::new(move |q| {
        let client = auth.client();
        let page = api::accounts::page(&client, q);
        if !ledger {
            return Box::pin(page);
        }
        // The batch request is made in this owner, so a newer view aborts it too.
        let owner = Owner::current();
        Box::pin(async move {
            let mut page = page.await?;
            let ids = balances::ids(&page.content);
            if !ids.is_empty() {
                let request = owner.map(|o| o.with(|| api::ledger::balances_of(&client, &ids)));
                if let Some(found) = request {
                    balances::merge(&mut page.content, &found.await?);
                }
            }
            Ok(page)
        })
    });
    let t = text();
    let (columns, filters) = *pick(&(COLUMNS, FILTERS), &(COLUMNS_ES, FILTERS_ES));
    view! {
        <section class="page collections-page">
            <h1>{t.heading}</h1>
            <p class="muted page-intro">{t.intro}</p>
            <DataTable
                id="accounts"
                caption=t.caption
                noun=t.noun
                columns
                filters
                fetcher
                title_key="accountName"
                detail=drawer::panel
            />
        </section>
    }
}

#[cfg(test)]
mod tests {
    use moneydesk_model::accounts::{AccountSortField, ACCOUNT_FILTERS};
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn columns_and_filters_match_the_model() {
        for c in COLUMNS {
            if let Some(field) = c.sort {
                assert!(AccountSortField::parse(field).is_some(), "{field} is not an API sort field");
            }
        }
        let mut params: Vec<&str> = FILTERS.iter().map(|f| f.param).collect();
        let mut api = ACCOUNT_FILTERS.to_vec();
        params.sort();
        api.sort();
        assert_eq!(params, api);
        assert_eq!(COLUMNS.len(), 26, "every field of the record and the two of its balances");
    }

    /// The model's labels in the Spanish table: an account's type and status, and the status
    /// filter's menu (`i18n::vocab`, whose Spanish comes with the shell's Spanish chunk).
    #[wasm_bindgen_test]
    async fn the_models_labels_show_in_spanish() {
        use leptos_router::components::Router;
        use moneydesk_model::{Page, PageRequest, Sort};

        use crate::i18n::{set_for_test, shell, Lang};
        use crate::test_util::{container, sleep};

        let window = web_sys::window().unwrap();
        let start_url = window.location().href().unwrap();
        let history = window.history().unwrap();
        history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/accounts")).unwrap();
        shell::load_spanish().await.unwrap();
        set_for_test(Lang::Es);
        let account = serde_json::json!({"id": "a1", "accountName": "Ana", "accountNumber": "100",
            "accountType": "Corporate_Client", "accountStatus": "Suspended"});
        let fetcher = Fetcher::new(move |q| {
            let req = PageRequest { index: q.page - 1, size: q.size };
            let page = Page::build(req, 1, vec![account.clone()], Sort::UNSORTED);
            Box::pin(std::future::ready(Ok::<_, crate::api::ApiError>(page)))
        });
        let root = container();
        let owner = Owner::new();
        let handle = owner.with(|| {
            leptos::mount::mount_to(root.clone(), move || view! {
                <Router><DataTable id="accounts" caption="Cuentas" noun=("cuenta", "cuentas") columns=COLUMNS_ES filters=FILTERS_ES fetcher/></Router>
            })
        });
        let said = |selector: &str| {
            root.query_selector(selector).unwrap().and_then(|el| el.text_content()).unwrap_or_default()
        };
        for _ in 0..150 {
            if !said("td[data-key=accountType]").is_empty() {
                break;
            }
            sleep(20).await;
        }
        // Read first, English back before comparing: a panic in wasm runs no destructor.
        let shown = [
            said("td[data-key=accountType]"),
            said("td[data-key=accountStatus] .badge-suspended"),
            said("#accounts-filter-accountStatus option[value=Suspended]"),
        ];
        set_for_test(Lang::En);
        drop(handle);
        owner.cleanup();
        history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&start_url)).unwrap();
        assert_eq!(shown, ["Cliente corporativo", "Suspendido", "Suspendido"]);
    }
}
