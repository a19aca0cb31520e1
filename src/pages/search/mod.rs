//! One search across everything (issue 45): a panel opened from the header's search button or
//! with Ctrl+K (⌘K), its code in its own chunk (`global_search`, fetched on first use) with the
//! drawer's stylesheet. The start bundle holds only [`SearchButton`]: the button, the shortcut
//! and the switch.

mod dialog;
pub mod state;

use leptos::prelude::*;

use crate::session::use_auth;

/// Whether the search panel is open: the button opens it, the panel closes it.
#[derive(Clone, Copy, Debug)]
pub struct SearchOpen(pub RwSignal<bool>);

const LABEL: &str = "Search everything (Ctrl+K)";

crate::pages::lazy::split_page!(global_search, crate::pages::search::dialog::SearchDialog, ["table", "record"]);

/// The header's search button; Ctrl+K (⌘K) anywhere opens the panel too, once signed in.
#[component]
pub fn SearchButton() -> impl IntoView {
    let open = RwSignal::new(false);
    provide_context(SearchOpen(open));
    let auth = use_auth();
    // Lives as long as the header, which is the app's lifetime: never removed.
    let _ = window_event_listener(leptos::ev::keydown, move |ev| {
        if (ev.ctrl_key() || ev.meta_key()) && ev.key() == "k" && auth.session.with_untracked(Option::is_some) {
            ev.prevent_default();
            open.set(true);
        }
    });
    view! {
        <button id="search-open" type="button" class="icon-button" aria-label=LABEL title=LABEL aria-haspopup="dialog"
            on:click=move |_| open.set(true)>"⌕"</button>
        {move || open.get().then(|| crate::pages::lazy::page(global_search::load()))}
    }
}
