//! Company-user permissions (GET /api/v2/services/company/users/permissions) in the data table.

use leptos::prelude::*;
use moneydesk_model::Scope;

use crate::api;
use crate::components::data_table::{Column, DataTable, Fetcher, FilterDef, Format};
use crate::session::use_auth;

/// The API's scope names (the `scope` filter), from the model.
pub const SCOPES: &[(&str, &str)] = &Scope::OPTIONS;

pub const COLUMNS: &[Column] = &[
    Column::new("id", "Id", Format::Number).sortable(),
    Column::new("userName", "User", Format::Text).sortable(),
    Column::new("userId", "User id", Format::Mono).sortable(),
    Column::new("userEmail", "Email", Format::Text).hidden(),
    Column::new("companyName", "Company", Format::Text).sortable(),
    Column::new("companyId", "Company id", Format::Mono).hidden(),
    Column::new("scope", "Permission", Format::Mono).sortable(),
    Column::new("grantedBy", "Granted by", Format::Text).sortable(),
    Column::new("grantedAt", "Granted", Format::DateTime).sortable(),
];

pub const FILTERS: &[FilterDef] = &[
    FilterDef::text("user", "User", "id, name or email"),
    FilterDef::select("scope", "Permission", SCOPES),
    FilterDef::text("companyId", "Company id", "e.g. cmp_003"),
];

#[component]
pub fn PermissionsPage() -> impl IntoView {
    let auth = use_auth();
    let fetcher = Fetcher::new(move |q| Box::pin(api::permissions::page(&auth.client(), q)));
    view! {
        <section class="page collections-page">
            <h1>"Permissions"</h1>
            <p class="muted page-intro">"Which company users hold which permission, who granted it and when."</p>
            <DataTable
                id="permissions"
                caption="Company user permissions"
                noun="permissions"
                columns=COLUMNS
                filters=FILTERS
                fetcher
                title_key="userName"
            />
        </section>
    }
}

#[cfg(test)]
mod tests {
    use moneydesk_model::permissions::{PermissionSortField, PERMISSION_FILTERS};
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn columns_and_filters_match_the_model() {
        let params: Vec<&str> = FILTERS.iter().map(|f| f.param).collect();
        assert_eq!(params, PERMISSION_FILTERS);
        for c in COLUMNS {
            if let Some(field) = c.sort {
                assert!(PermissionSortField::parse(field).is_some(), "{field} is not an API sort field");
            }
        }
    }
}
