//! The Routing page: the directory's status, then three tabs — look up one number, search the
//! directory, check a list. The tab and its inputs live in the URL (see `url.rs`).

mod bulk;
mod csv;
mod format;
mod lookup;
mod records;
mod search;
mod status;
mod url;

use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;

use self::url::{Tab, UrlState};

/// A routing request's answer for the view (JSON: the page renders the API's fields).
pub type Loaded = crate::api::request::Answer<Value>;

#[component]
pub fn RoutingPage() -> impl IntoView {
    let url = UrlState::new();
    let tab = Memo::new(move |_| url.tab());
    // Kept by the page: a bulk run goes on, and its results stay, while another tab is open.
    let bulk = bulk::BulkState::new();

    let go = move |t: Tab, focus: bool| {
        if t != tab.get_untracked() {
            url.set(&[("tab", Some(t.key().to_string()))], false);
        }
        if focus {
            if let Some(el) = document().get_element_by_id(&format!("routing-tab-{}", t.key())) {
                let _ = el.unchecked_into::<web_sys::HtmlElement>().focus();
            }
        }
    };
    // Arrow keys, Home and End move between tabs (the ARIA tabs pattern).
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let i = Tab::ALL.iter().position(|t| *t == tab.get_untracked()).unwrap_or(0);
        let n = Tab::ALL.len();
        let next = match ev.key().as_str() {
            "ArrowRight" => (i + 1) % n,
            "ArrowLeft" => (i + n - 1) % n,
            "Home" => 0,
            "End" => n - 1,
            _ => return,
        };
        ev.prevent_default();
        go(Tab::ALL[next], true);
    };

    let tabs = Tab::ALL
        .iter()
        .map(|&t| {
            let selected = move || tab.get() == t;
            view! {
                <button
                    type="button"
                    role="tab"
                    class="routing-tab"
                    id=format!("routing-tab-{}", t.key())
                    aria-controls=format!("routing-panel-{}", t.key())
                    aria-selected=move || selected().to_string()
                    tabindex=move || if selected() { "0" } else { "-1" }
                    on:click=move |_| go(t, false)
                >
                    {t.label()}
                </button>
            }
        })
        .collect_view();

    let t = crate::i18n::routing::text();
    view! {
        <section class="page routing">
            <h1>{t.heading}</h1>
            <status::DirectoryStatusBar/>
            <div class="routing-tabs" role="tablist" aria-label=t.tools on:keydown=on_key>
                {tabs}
            </div>
            // Every panel stays mounted (hidden when not selected): switching tabs keeps each
            // one's state, and the page needs no type-erased view for the switch (wasm size).
            <div
                class="routing-panel"
                role="tabpanel"
                id="routing-panel-lookup"
                aria-labelledby="routing-tab-lookup"
                hidden=move || tab.get() != Tab::Lookup
            >
                <lookup::LookupTab url/>
            </div>
            <div
                class="routing-panel"
                role="tabpanel"
                id="routing-panel-search"
                aria-labelledby="routing-tab-search"
                hidden=move || tab.get() != Tab::Search
            >
                <search::SearchTab/>
            </div>
            <div
                class="routing-panel"
                role="tabpanel"
                id="routing-panel-bulk"
                aria-labelledby="routing-tab-bulk"
                hidden=move || tab.get() != Tab::Bulk
            >
                <bulk::BulkTab state=bulk/>
            </div>
        </section>
    }
}
