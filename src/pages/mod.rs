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
pub mod search;
pub mod signin;
pub mod tokens;
pub mod vault;
pub mod webhooks;

use leptos::prelude::*;

use crate::groups;
use crate::shell::guard::RequireScope;
use lazy::LoadFuture;
use not_found::NotFound;

/// The home page at `/` (issue 45: the operator's day): not a group (no nav link, no scope of
/// its own), but its own chunk like theirs, loading its stylesheets with it. The release build
/// reads this `home! { ... }` like `groups!` (xtask/src/groups.rs; it is written here, not in
/// `src/groups.rs`, because the dashboard reads that list: written there, the two would import
/// each other) and starts its chunk on a cold load of `/`.
macro_rules! home {
    ($slug:ident { scope: any, page: split($component:path), stylesheets: [$($css:literal),*] $(,)? }) => {
        // In a module of its own: the split's module is named like the page's (`dashboard`).
        mod home_split {
            crate::pages::lazy::split_page!($slug, $component, [$($css),*]);
        }

        /// Fetches the home page's code (its chunk in the release build).
        pub fn home() -> LoadFuture {
            home_split::$slug::load()
        }
    };
}

home! {
    dashboard {
        scope: any,
        page: split(crate::pages::dashboard::Dashboard),
        stylesheets: ["dashboard"],
    }
}

/// The page for a path relative to the base: `/` the dashboard, `/<group>[/...]` the group's
/// page behind the scope it needs, anything else a 404.
pub fn page_for(relative_path: &str) -> AnyView {
    let first = relative_path.trim_start_matches('/').split('/').next().unwrap_or_default();
    if first.is_empty() {
        return lazy::page(home());
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
