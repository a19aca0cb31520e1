//! The vault page: a placeholder until the document vault feature replaces this file (keep the
//! component's name, `VaultPage`; `app.rs` routes `/vault` to it behind the scope guard).

use leptos::prelude::*;

use crate::components::placeholder::Placeholder;
use crate::groups::group;

#[component]
pub fn VaultPage() -> impl IntoView {
    view! { <Placeholder group=group("vault")/> }
}
