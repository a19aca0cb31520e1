//! The shell's words: the header, the session gate, the 404 page and the groups' titles and
//! summaries (`src/groups.rs`). English is in the start bundle; Spanish is its own chunk.

pub mod en;
pub mod es;

use std::cell::Cell;

use super::{lang, Lang};

/// A group's words: its title (navigation, page heading) and what its page does.
pub struct GroupText {
    pub title: &'static str,
    pub summary: &'static str,
}

/// One [`GroupText`] per group of `src/groups.rs`, named by its slug.
pub struct Groups {
    pub fees: GroupText,
    pub vault: GroupText,
    pub email: GroupText,
    pub routing: GroupText,
    pub deposits: GroupText,
    pub cash_letters: GroupText,
    pub accounts: GroupText,
    pub ledger: GroupText,
    pub permissions: GroupText,
    pub activity: GroupText,
    pub webhooks: GroupText,
    pub tokens: GroupText,
}

pub struct Shell {
    pub brand: &'static str,
    pub environment: &'static str,
    pub signed_in_as: &'static str,
    pub sign_out: &'static str,
    pub signed_out: &'static str,
    pub signed_out_host: &'static str,
    pub to_dark: &'static str,
    pub to_light: &'static str,
    pub menu: &'static str,
    pub sections: &'static str,
    pub language: &'static str,
    /// The title of a section the token may not open, given the scope it needs. (A function
    /// rather than a template to fill: the start bundle then carries no template filler.)
    pub needs_scope: fn(&str) -> String,
    pub to_sign_in: &'static str,
    pub checking_token: &'static str,
    pub language_failed: &'static str,
    pub not_found: &'static str,
    pub no_page_at: &'static str,
    pub to_dashboard: &'static str,
    pub groups: Groups,
}

thread_local! {
    /// The Spanish shell, once its chunk is here.
    static SPANISH: Cell<Option<&'static Shell>> = const { Cell::new(None) };
}

/// The shell's words in the current language.
pub fn shell() -> &'static Shell {
    match lang() {
        Lang::Es => SPANISH.with(Cell::get).unwrap_or(&en::TEXT),
        Lang::En => &en::TEXT,
    }
}

/// Fetches the Spanish shell, the shared components' Spanish and the model's labels' (one
/// chunk in the release build; at hand in other builds).
pub async fn load_spanish() -> Result<(), NotLoaded> {
    if SPANISH.with(Cell::get).is_none() {
        let (text, start, components, labels) = spanish_chunk::shell_es().await?;
        super::components::set_spanish(start, components);
        super::vocab::set_spanish(labels);
        SPANISH.with(|s| s.set(Some(text)));
    }
    Ok(())
}

/// The Spanish shell's chunk did not load (the network failed): the language stays as it was.
/// Its own type rather than the pages' `LoadError`, so the words do not import the pages.
#[derive(Debug)]
pub struct NotLoaded;

impl From<leptos::wasm_split::SplitLoaderError> for NotLoaded {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> NotLoaded {
        NotLoaded
    }
}

mod spanish_chunk {
    use super::{NotLoaded as LoadError, Shell};
    use crate::i18n::components::{self, Components, Start};
    use crate::i18n::vocab::{self, Table};

    /// The shell's words, the shared components' (both parts) and the model's labels'.
    type Spanish = (&'static Shell, &'static Start, &'static Components, &'static Table);

    #[cfg(moneydesk_split)]
    #[leptos::wasm_split::wasm_split(i18n_es_shell, wasm_split_path = ::leptos::wasm_split, fallible)]
    pub fn shell_es() -> Result<Spanish, LoadError> {
        Ok((&super::es::TEXT, &components::es::START, &components::es::TEXT, vocab::es::TABLE))
    }

    #[cfg(not(moneydesk_split))]
    pub async fn shell_es() -> Result<Spanish, LoadError> {
        Ok((&super::es::TEXT, &components::es::START, &components::es::TEXT, vocab::es::TABLE))
    }
}
