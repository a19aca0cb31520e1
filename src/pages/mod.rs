//! One file (or folder) per page, and the page for a path. The groups' pages are listed in
//! `src/groups.rs`.

pub mod accounts;
pub mod activity;
pub mod cash_letters;
pub mod dashboard;
pub mod deposits;
pub mod email;
pub mod fees;
pub mod lazy;
pub mod ledger;
pub mod not_found;
pub mod permissions;
pub mod routing;
pub mod signin;
pub mod tokens;
pub mod vault;
pub mod webhooks;

use leptos::prelude::*;

use crate::groups;
use crate::shell::guard::RequireScope;
use dashboard::Dashboard;
use not_found::NotFound;

/// The page for a path relative to the base: `/` the dashboard, `/<group>[/...]` the group's
/// page behind the scope it needs, anything else a 404.
pub fn page_for(relative_path: &str) -> AnyView {
    let first = relative_path.trim_start_matches('/').split('/').next().unwrap_or_default();
    if first.is_empty() {
        return view! { <Dashboard/> }.into_any();
    }
    let Some(group) = groups::find(first) else {
        return view! { <NotFound/> }.into_any();
    };
    if group.any {
        return group_page(group);
    }
    view! { <RequireScope scope=group.scope or_scope=group.or_scope>{group_page(group)}</RequireScope> }.into_any()
}

fn group_page(group: &'static groups::Group) -> AnyView {
    lazy::page((group.page)())
}

/// The sign-in page (its own chunk: a signed-in start never needs it).
pub fn sign_in() -> AnyView {
    lazy::page(lazy::sign_in::load())
}
