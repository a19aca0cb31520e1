//! Pages guarded by a scope: without it, the access-denied view instead of the page.

use leptos::prelude::*;
use moneydesk_model::Scope;

use crate::components::error_view::AccessDenied;
use crate::session::use_auth;

#[component]
pub fn RequireScope(scope: Scope, children: ChildrenFn) -> impl IntoView {
    let auth = use_auth();
    let allowed = Memo::new(move |_| auth.can(scope));
    move || {
        if allowed.get() {
            children().into_any()
        } else {
            view! { <AccessDenied scope page=true/> }.into_any()
        }
    }
}
