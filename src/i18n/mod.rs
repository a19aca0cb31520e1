//! The portal's words, in one place: a catalogue per area (the shell, each converted page) and
//! per language (`en/`, `es/`), each a struct of the area's texts so that a language missing a
//! text does not compile. Dates, numbers and money follow the language's locale (`format/`).
//!
//! Where the words load: an area's catalogues are used only by its page, so the release build
//! puts them in that page's chunk (wasm-split moves the data only one chunk uses with it). The
//! shell's English is in the start bundle; its Spanish is a chunk of its own
//! ([`shell::load_spanish`]), fetched when Spanish is chosen, before the portal shows it.
//!
//! A language is switched by rebuilding the portal under the new one (`app.rs` keys its tree
//! on [`track`]): texts are read once, as each view is built, with no signal per text.

pub mod accounts;
pub mod locale;

pub mod permissions;
pub mod shell;
pub mod signin;

use std::cell::Cell;

use leptos::prelude::*;

const STORAGE_KEY: &str = "moneydesk.lang";

/// The languages the portal speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
    Es,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Es];

    /// The BCP 47 tag (`<html lang>`, the stored choice).
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Es => "es",
        }
    }

    /// The language's name in itself, as a language menu lists it.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Es => "Español",
        }
    }

    pub fn parse(tag: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.tag() == tag)
    }
}

thread_local! {
    static CURRENT: Cell<Lang> = const { Cell::new(Lang::En) };
    /// Notified when the language changed (the portal rebuilds its tree).
    static CHANGED: ArcTrigger = ArcTrigger::new();
}

/// The language the portal speaks now (English until another is chosen and loaded).
pub fn lang() -> Lang {
    CURRENT.with(Cell::get)
}

/// The language, tracked: a reactive closure reading it runs again when it changes.
pub fn track() -> Lang {
    CHANGED.with(|t| t.track());
    lang()
}

/// The catalogue of the current language among an area's two.
pub fn pick<T>(en: &'static T, es: &'static T) -> &'static T {
    match lang() {
        Lang::En => en,
        Lang::Es => es,
    }
}

/// The stored choice, if any (English when none: the portal's default).
pub fn stored() -> Option<Lang> {
    let storage = web_sys::window()?.local_storage().ok()??;
    Lang::parse(&storage.get_item(STORAGE_KEY).ok()??)
}

/// Switches to `lang`: loads its shell words when they are not here yet, then remembers the
/// choice on this device, sets `<html lang>` (`html`: not when embedded in a host's page) and
/// rebuilds the portal in it. A failed load leaves the language as it was and says why.
pub async fn switch(lang: Lang, html: bool) -> Result<(), shell::NotLoaded> {
    if lang == Lang::Es {
        shell::load_spanish().await?;
    }
    if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.set_item(STORAGE_KEY, lang.tag());
    }
    if html {
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let _ = root.set_attribute("lang", lang.tag());
        }
    }
    if CURRENT.with(|c| c.replace(lang)) != lang {
        CHANGED.with(|t| t.notify());
    }
    Ok(())
}

/// Sets the language without loading or remembering anything (tests of what depends on it).
#[cfg(test)]
pub(crate) fn set_for_test(lang: Lang) {
    CURRENT.with(|c| c.set(lang));
}

/// Fills a catalogue's template: each `{}` in turn gets the next of `args`.
pub fn fill(template: &str, args: &[&str]) -> String {
    let mut out = String::with_capacity(template.len() + args.iter().map(|a| a.len()).sum::<usize>());
    let mut args = args.iter();
    let mut parts = template.split("{}");
    out.push_str(parts.next().unwrap_or_default());
    for part in parts {
        out.push_str(args.next().copied().unwrap_or_default());
        out.push_str(part);
    }
    out
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn templates_take_their_arguments_in_order() {
        assert_eq!(fill("Signed in as {} ({}).", &["ops", "Local"]), "Signed in as ops (Local).");
        assert_eq!(fill("No arguments.", &[]), "No arguments.");
        assert_eq!(fill("{} and {}", &["one"]), "one and ", "a missing argument is left empty");
    }

    #[wasm_bindgen_test]
    fn languages_are_named_by_their_tags() {
        for l in Lang::ALL {
            assert_eq!(Lang::parse(l.tag()), Some(l));
        }
        assert_eq!(Lang::parse("fr"), None);
    }
}
