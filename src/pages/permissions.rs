//! Company-user permissions (GET /api/v2/services/company/users/permissions) in the data table.

use leptos::prelude::*;
use moneydesk_model::Scope;

use crate::api;
use crate::components::data_table::{Column, DataTable, Fetcher, FilterDef, Format};
use crate::i18n::permissions::{en, es};
use crate::i18n::permissions::{text, Permissions};
use crate::i18n::pick;
use crate::session::use_auth;

/// The API's scope names (the `scope` filter), from the model.
pub const SCOPES: &[(&str, &str)] = &Scope::OPTIONS;

/// The table's columns in a language's words (`c`: the column labels, in this order).
const fn columns(c: &'static [&'static str; 9]) -> [Column; 9] {
    [
        Column::new("id", c[0], Format::Number).sortable(),
        Column::new("userName", c[1], Format::Text).sortable(),
        Column::new("userId", c[2], Format::Mono).sortable(),
        Column::new("userEmail", c[3], Format::Text).hidden(),
        Column::new("companyName", c[4], Format::Text).sortable(),
        Column::new("companyId", c[5], Format::Mono).hidden(),
        Column::new("scope", c[6], Format::Mono).sortable(),
        Column::new("grantedBy", c[7], Format::Text).sortable(),
        Column::new("grantedAt", c[8], Format::DateTime).sortable(),
    ]
}

const fn filters(t: &'static Permissions) -> [FilterDef; 3] {
    [
        FilterDef::text("user", t.columns[1], t.user_filter_hint),
        FilterDef::select("scope", t.columns[6], SCOPES),
        FilterDef::text("companyId", t.columns[5], t.company_filter_hint),
    ]
}

pub const COLUMNS: &[Column] = &columns(&en::TEXT.columns);
const COLUMNS_ES: &[Column] = &columns(&es::TEXT.columns);
pub const FILTERS: &[FilterDef] = &filters(&en::TEXT);
const FILTERS_ES: &[FilterDef] = &filters(&es::TEXT);

#[component]
pub fn PermissionsPage() -> impl IntoView {
    let auth = use_auth();
    let t = text();
    let fetcher = Fetcher::new(move |q| Box::pin(api::permissions::page(&auth.client(), q)));
    let (columns, filters) = *pick(&(COLUMNS, FILTERS), &(COLUMNS_ES, FILTERS_ES));
    view! {
        <section class="page collections-page">
            <h1>{t.heading}</h1>
            <p class="muted page-intro">{t.intro}</p>
            <DataTable
                id="permissions"
                caption=t.caption
                noun=t.noun
                columns
                filters
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
