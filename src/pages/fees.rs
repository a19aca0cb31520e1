//! The fees page: a placeholder until the fee schedules feature replaces this file (keep the
//! component's name, `FeesPage`; `app.rs` routes `/fees` to it behind the scope guard).

use leptos::prelude::*;

use crate::components::placeholder::Placeholder;
use crate::groups::group;

#[component]
pub fn FeesPage() -> impl IntoView {
    view! { <Placeholder group=group("fees")/> }
}
