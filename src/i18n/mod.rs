//! The portal's words, in one place: a catalogue per area (the shell, each converted page) and
//! per language (`en/`, `es/`), each a struct of the area's texts so that a language missing a
//! text does not compile. Dates, numbers and money follow the language's locale (`format/`).
//!
//! Where the words load: an area's catalogues are used only by its page, so the release build
//! puts them in that page's chunk (wasm-split moves the data only one chunk uses with it). The
//! shell's English is in the start bundle; its Spanish is a chunk of its own
//! ([`shell::load_spanish`]), fetched when Spanish is chosen, before the portal shows it. The
//! shared components' words ([`components`]) are placed as the shell's: their Spanish is in
//! the same chunk, and so is the Spanish of the model's labels ([`vocab`]).
//!
//! A language is chosen by remembering it on this device and reloading the portal ([`choose`]),
//! which starts in the remembered language ([`start_in_stored`], before the portal mounts):
//! texts are read once, as each view is built, with no signal per text and no rebuild of a
//! live tree (whose pages' pending requests and timers would outlive their owners). A reload
//! keeps the session: a token is in session or local storage, or handed over again by the
//! host page that mounts the portal.

pub mod account_books;
pub mod accounts;
pub mod activity;
pub mod activity_tab;
pub mod cash_letters;
pub mod components;
pub mod dashboard;
pub mod deposits;
pub mod email;
pub mod fees;
pub mod ledger;
pub mod locale;

pub mod permissions;
pub mod routing;
pub mod search;
pub mod shell;
pub mod signin;
pub mod tokens;
pub mod vault;
pub mod vocab;
pub mod webhooks;

use std::cell::Cell;

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
}

/// The language the portal speaks now (English unless another was remembered and loaded).
pub fn lang() -> Lang {
    CURRENT.with(Cell::get)
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

/// Before the portal mounts: the remembered language, its shell words loaded first (a small
/// chunk), and `<html lang>` set to it (`html`: not when embedded in a host's page). A failed
/// load starts in English.
pub async fn start_in_stored(html: bool) {
    let Some(lang) = stored().filter(|l| *l != Lang::En) else { return };
    if lang == Lang::Es && shell::load_spanish().await.is_err() {
        return;
    }
    CURRENT.with(|c| c.set(lang));
    if html {
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let _ = root.set_attribute("lang", lang.tag());
        }
    }
}

/// The language menu's choice: its shell words fetched (so a failure is said here, and the
/// reload finds them cached), the choice remembered on this device, and the portal reloaded in
/// it. A failed load or a device that keeps nothing leaves the language as it was.
pub async fn choose(lang: Lang) -> Result<(), shell::NotLoaded> {
    if lang == Lang::Es {
        shell::load_spanish().await?;
    }
    let window = web_sys::window().ok_or(shell::NotLoaded)?;
    let storage = window.local_storage().ok().flatten().ok_or(shell::NotLoaded)?;
    storage.set_item(STORAGE_KEY, lang.tag()).map_err(|_| shell::NotLoaded)?;
    let _ = window.location().reload();
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
