//! The deposits page: a placeholder until the check deposits feature replaces this file (keep the
//! component's name, `DepositsPage`; `app.rs` routes `/deposits` to it behind the scope guard).

use leptos::prelude::*;

use crate::components::placeholder::Placeholder;
use crate::groups::group;

#[component]
pub fn DepositsPage() -> impl IntoView {
    view! { <Placeholder group=group("deposits")/> }
}
