//! Pages guarded by a scope: without it, the access-denied view instead of the page.

use leptos::either::Either;
use leptos::prelude::*;
use moneydesk_model::Scope;

use crate::components::error_view::AccessDenied;
use crate::session::use_auth;

#[component]
pub fn RequireScope(scope: Scope, children: ChildrenFn) -> impl IntoView {
    let auth = use_auth();
    // While the stored token is being checked the page is built hidden when the scopes the
    // last check found allow it, so it starts loading at once; the new answer then shows it
    // or denies it. With nothing known, nothing is built: no request the token may be refused.
    let allowed = Memo::new(move |_| auth.may(scope));
    move || match allowed.get() {
        Some(true) => Some(Either::Left(children())),
        Some(false) => Some(Either::Right(view! { <AccessDenied scope page=true/> })),
        None => None,
    }
}
