//! Progress indicators: the bar at the top during route transitions, and a spinner line.

use leptos::prelude::*;

/// A thin bar across the top while the router waits for the next page's data.
#[component]
pub fn LoadingBar(#[prop(into)] active: Signal<bool>) -> impl IntoView {
    view! { <div class="loading-bar" class:active=active aria-hidden="true"></div> }
}

#[component]
pub fn Loading(#[prop(optional, into)] label: Option<String>) -> impl IntoView {
    view! {
        <p class="loading" aria-busy="true">
            <span class="spinner" aria-hidden="true"></span>
            {label.unwrap_or_else(|| "Loading…".to_string())}
        </p>
    }
}
