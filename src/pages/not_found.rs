//! The 404 page.

use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::config::AppConfig;

#[component]
pub fn NotFound() -> impl IntoView {
    let config = expect_context::<AppConfig>();
    let location = use_location();
    view! {
        <section class="page not-found" data-testid="not-found">
            <h1>"Page not found"</h1>
            <div class="panel">
                <p>"There is no page at " <code>{move || location.pathname.get()}</code> "."</p>
                <p><a href=config.href("/")>"Go to the dashboard"</a></p>
            </div>
        </section>
    }
}
