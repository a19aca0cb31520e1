//! The 404 page.

use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::config::AppConfig;

#[component]
pub fn NotFound() -> impl IntoView {
    let home = use_context::<AppConfig>().unwrap_or_default().href("/");
    let path = use_location().pathname.get_untracked();
    view! {
        <section class="page not-found" data-testid="not-found">
            <h1>"Page not found"</h1>
            <div class="panel">
                <p>"There is no page at " <code>{path}</code> "."</p>
                <p><a href=home>"Go to the dashboard"</a></p>
            </div>
        </section>
    }
}
