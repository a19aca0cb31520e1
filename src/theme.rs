//! Light and dark themes: the system's choice (`prefers-color-scheme`, followed live) until
//! the user toggles; the toggle is remembered on this device.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

const STORAGE_KEY: &str = "moneydesk.theme";
const DARK_QUERY: &str = "(prefers-color-scheme: dark)";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Light,
    Dark,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Light => "light",
            Mode::Dark => "dark",
        }
    }

    fn parse(s: &str) -> Option<Mode> {
        match s {
            "light" => Some(Mode::Light),
            "dark" => Some(Mode::Dark),
            _ => None,
        }
    }

    pub fn other(self) -> Mode {
        match self {
            Mode::Light => Mode::Dark,
            Mode::Dark => Mode::Light,
        }
    }
}

#[derive(Clone, Copy)]
pub struct Theme {
    /// The user's explicit choice, if any.
    pub chosen: RwSignal<Option<Mode>>,
    /// What the system prefers right now.
    pub system: RwSignal<Mode>,
}

impl Theme {
    /// Reads the stored choice and the system preference, and follows the latter's changes.
    pub fn init() -> Theme {
        let stored = local_storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten()).and_then(|s| Mode::parse(&s));
        let media = window().match_media(DARK_QUERY).ok().flatten();
        let system = RwSignal::new(if media.as_ref().is_some_and(|m| m.matches()) { Mode::Dark } else { Mode::Light });
        if let Some(media) = media {
            let on_change =
                Closure::<dyn Fn(web_sys::MediaQueryListEvent)>::new(move |e: web_sys::MediaQueryListEvent| {
                    system.try_set(if e.matches() { Mode::Dark } else { Mode::Light });
                });
            let _ = media.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
            // Lives as long as the page: one listener per mounted portal.
            on_change.forget();
        }
        Theme { chosen: RwSignal::new(stored), system }
    }

    pub fn mode(&self) -> Mode {
        self.chosen.get().unwrap_or_else(|| self.system.get())
    }

    pub fn toggle(&self) {
        let next = self.mode().other();
        self.chosen.set(Some(next));
        if let Some(s) = local_storage() {
            let _ = s.set_item(STORAGE_KEY, next.as_str());
        }
    }
}

fn local_storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

pub fn use_theme() -> Theme {
    expect_context::<Theme>()
}
