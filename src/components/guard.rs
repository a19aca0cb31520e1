//! Pages guarded by a scope: without it, the access-denied view instead of the page.

use leptos::either::Either;
use leptos::prelude::*;
use moneydesk_model::Scope;

use crate::components::error_view::AccessDenied;
use crate::session::use_auth;

#[component]
pub fn RequireScope(scope: Scope, children: ChildrenFn) -> impl IntoView {
    let auth = use_auth();
    // Until the session is known (the stored token is being checked), the page is built
    // hidden and may start loading; the answer then shows it or denies it.
    let allowed = Memo::new(move |_| auth.session.with(Option::is_none) || auth.can(scope));
    move || {
        if allowed.get() {
            Either::Left(children())
        } else {
            Either::Right(view! { <AccessDenied scope page=true/> })
        }
    }
}
