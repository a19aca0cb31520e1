//! The email page: a placeholder until the email feature replaces this file (keep the
//! component's name, `EmailPage`; `app.rs` routes `/email` to it behind the scope guard).

use leptos::prelude::*;

use crate::components::placeholder::Placeholder;
use crate::groups::group;

#[component]
pub fn EmailPage() -> impl IntoView {
    view! { <Placeholder group=group("email")/> }
}
