//! The 404 page.

use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::config::AppConfig;
use crate::i18n::shell::shell;

#[component]
pub fn NotFound() -> impl IntoView {
    let home = use_context::<AppConfig>().unwrap_or_default().href("/");
    let path = use_location().pathname.get_untracked();
    let t = shell();
    view! {
        <section class="page not-found" data-testid="not-found">
            <h1>{t.not_found}</h1>
            <div class="panel">
                <p>{t.no_page_at} " " <code>{path}</code> "."</p>
                <p><a href=home>{t.to_dashboard}</a></p>
            </div>
        </section>
    }
}
