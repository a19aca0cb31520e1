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
use crate::session::use_auth;

/// `AccountStatus` values (badges and the filter), from the model.
pub const STATUSES: &[(&str, &str)] = AccountStatus::OPTIONS;

/// `AccountType` values with their labels, from the model.
pub const TYPES: &[(&str, &str)] = AccountType::OPTIONS;

pub const COLUMNS: &[Column] = &[
    Column::new("id", "Account id", Format::Mono).sortable().hidden(),
    Column::new("accountName", "Name", Format::Text).sortable(),
    Column::new("accountNumber", "Account number", Format::Mono),
    Column::new("accountType", "Type", Format::Label(TYPES)).sortable(),
    Column::new("accountStatus", "Status", Format::Badge).sortable(),
    Column::new("marketValue", "Posted balance", Format::Money).sortable(),
    Column::new(balances::AVAILABLE, "Available balance", Format::Money),
    Column::new(balances::FLAG, "Below zero", Format::Badge),
    Column::new("createTime", "Created", Format::DateTime).sortable(),
    Column::new("businessEntityType", "Business entity", Format::Text).hidden(),
    Column::new("accountEmail", "Email", Format::Text).hidden(),
    Column::new("subRoutingNumber", "Sub-routing number", Format::Mono).hidden(),
    Column::new("subRoutingName", "Sub-routing name", Format::Text).hidden(),
    Column::new("parentAccountId", "Parent account", Format::Mono).hidden(),
    Column::new("tin", "TIN", Format::Mono).hidden(),
    Column::new("recordTypeId", "Record type id", Format::Mono).hidden(),
    Column::new("billingStreet", "Billing street", Format::Text).hidden(),
    Column::new("billingCity", "Billing city", Format::Text).hidden(),
    Column::new("billingState", "Billing state", Format::Text).hidden(),
    Column::new("billingZipcode", "Billing zipcode", Format::Text).hidden(),
    Column::new("billingCountry", "Billing country", Format::Text).hidden(),
    Column::new("mailingStreet", "Mailing street", Format::Text).hidden(),
    Column::new("mailingCity", "Mailing city", Format::Text).hidden(),
    Column::new("mailingState", "Mailing state", Format::Text).hidden(),
    Column::new("mailingZipcode", "Mailing zipcode", Format::Text).hidden(),
    Column::new("mailingCountry", "Mailing country", Format::Text).hidden(),
];

pub const FILTERS: &[FilterDef] = &[
    FilterDef::text("name", "Name", "contains…"),
    FilterDef::select("accountStatus", "Status", STATUSES),
    FilterDef::select("accountType", "Type", TYPES),
    FilterDef::date("createTimeFrom", "Created from"),
    FilterDef::date("createTimeTo", "Created to"),
];

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
    view! {
        <section class="page collections-page">
            <h1>"Accounts"</h1>
            <p class="muted page-intro">
                "Every unified account. Sort by a column's header, filter above the table, and select a row to see all of its fields."
            </p>
            <DataTable
                id="accounts"
                caption="Accounts"
                noun="accounts"
                columns=COLUMNS
                filters=FILTERS
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
}
