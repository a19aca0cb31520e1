//! Pages guarded by a scope: without it, the access-denied view instead of the page.

use leptos::either::Either;
use leptos::prelude::*;
use moneydesk_model::Scope;

use crate::components::error_view::AccessDenied;
use crate::session::use_auth;

#[component]
pub fn RequireScope(
    scope: Scope,
    #[prop(default = None)] or_scope: Option<Scope>,
    children: ChildrenFn,
) -> impl IntoView {
    let auth = use_auth();
    // While the stored token is being checked the page is built hidden when the scopes the
    // last check found allow it, so it starts loading at once; the new answer then shows it
    // or denies it. With nothing known, nothing is built: no request the token may be refused.
    // Either scope opens it: allowed once one is known granted, denied once both are refused.
    let allowed = Memo::new(move |_| match (auth.may(scope), or_scope.map(|s| auth.may(s))) {
        (Some(true), _) | (_, Some(Some(true))) => Some(true),
        (Some(false), None | Some(Some(false))) => Some(false),
        _ => None,
    });
    move || match allowed.get() {
        Some(true) => Some(Either::Left(children())),
        Some(false) => Some(Either::Right(view! { <AccessDenied scope page=true/> })),
        None => None,
    }
}
