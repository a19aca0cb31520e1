//! The shared components' words, in two parts placed as their components are: [`Start`], the
//! error view's and the toasts' (the shell shows them: in the start bundle, with fn pointers
//! rather than templates, so the start bundle carries no template filler), and
//! [`Components`], the data table's (its controls, states, bulk bar, shortcuts, saved views),
//! the drawer's and the lists' bulk bar's (in the pages' shared chunks, with the pages that
//! use them). Both Spanish parts come with the shell's Spanish chunk
//! ([`super::shell::load_spanish`]), before the portal shows Spanish. A `{}` is filled in turn
//! by `crate::i18n::fill`; a `noun` is the page's plural noun ("accounts"), so the Spanish
//! avoids words that agree with its gender.

pub mod en;
pub mod es;

use std::cell::Cell;

use super::{lang, Lang};

/// The data table's controls and states (`components/data_table/`).
pub struct Table {
    /// The records' noun when a table names none.
    pub records: (&'static str, &'static str),
    /// The filters' form, given the noun.
    pub filter_noun: &'static str,
    pub any: &'static str,
    /// A date filter's placeholder until it becomes a date input.
    pub date_hint: &'static str,
    pub clear: &'static str,
    pub columns_to_show: &'static str,
    pub columns: &'static str,
    pub export_csv: &'static str,
    pub cancel: &'static str,
    pub keys_hint: &'static str,
    // The pager.
    pub page: &'static str,
    pub go: &'static str,
    pub first_page: &'static str,
    pub previous_page: &'static str,
    pub next_page: &'static str,
    pub last_page: &'static str,
    pub prev: &'static str,
    pub next: &'static str,
    /// The pager's label, given the noun.
    pub pages_of: &'static str,
    pub rows_per_page: &'static str,
    /// The jump's "of N".
    pub of_pages: &'static str,
    // The header and rows.
    /// The header's box, given the noun.
    pub select_page: &'static str,
    /// A row's box, given its key.
    pub select_row: &'static str,
    pub outcome: &'static str,
    /// A sortable header's title, given its label.
    pub sorted_asc: &'static str,
    pub sorted_desc: &'static str,
    pub sort_by: &'static str,
    /// The caption, the column's label, `ascending` or `descending`.
    pub sorted_caption: &'static str,
    pub ascending: &'static str,
    pub descending: &'static str,
    /// A missing value's title.
    pub not_given: &'static str,
    pub yes: &'static str,
    pub no: &'static str,
    // The states and the live region.
    /// None shown: the total, the noun.
    pub range_none: &'static str,
    /// From, to, the total, the noun.
    pub range: &'static str,
    /// The page asked for, the last page.
    pub past_end: &'static str,
    pub to_last_page: &'static str,
    pub no_match: &'static str,
    pub clear_filters: &'static str,
    pub none_yet: &'static str,
    pub loading: &'static str,
    /// The page, the pages, the range.
    pub page_status: &'static str,
    pub idle: &'static str,
    // The CSV export.
    pub exporting: &'static str,
    /// The count, the noun.
    pub exported: &'static str,
    pub not_saved: &'static str,
    pub export_cancelled: &'static str,
    pub export_failed: &'static str,
    // The `?` list.
    pub shortcuts_title: &'static str,
    /// The keys and what each does (`data_table/keys.rs`).
    pub shortcuts: [(&'static str, &'static str); 7],
}

/// The bulk bars (the table's and the lists') and a run's summary and badges.
pub struct Bulk {
    /// All matching, no filter: " N" (or nothing when not known) and the noun.
    pub all_selected: &'static str,
    pub all_matching: &'static str,
    /// Selected, of the total, the noun.
    pub some_of: &'static str,
    /// Selected, the noun (a list whose total is not known).
    pub some: &'static str,
    pub select_all_n: &'static str,
    pub select_all: &'static str,
    pub clear_selection: &'static str,
    /// The bar's label, given the noun.
    pub selected_noun: &'static str,
    pub actions_label: &'static str,
    pub select_every_row: &'static str,
    pub reason_needed: &'static str,
    /// The action (lowercased), the noun.
    pub reason_to: &'static str,
    pub applies: &'static str,
    pub back: &'static str,
    /// The action, lowercased.
    pub yes_do: &'static str,
    /// The action's label.
    pub working: &'static str,
    pub done_toast: &'static str,
    pub hide_refused: &'static str,
    pub show_refused: &'static str,
    pub and_more: &'static str,
    pub nothing_matched: &'static str,
    /// Done, the action's past participle, refused.
    pub summary: &'static str,
    pub done: &'static str,
    pub refused: &'static str,
    pub no_reason: &'static str,
}

/// The error view (`components/error_view.rs`).
pub struct Errors {
    pub access_denied: &'static str,
    pub no_scopes: &'static str,
    /// The token's name, its scopes.
    pub token_has: fn(&str, &str) -> String,
    /// The scope the page needs.
    pub needs_scope: fn(&str) -> String,
    pub refused: &'static str,
    /// The server's message.
    pub server_said: fn(&str) -> String,
    pub unreachable: &'static str,
    pub signed_out: &'static str,
    pub not_found: &'static str,
    pub check_input: &'static str,
    pub went_wrong: &'static str,
    pub retry: &'static str,
}

/// The table's saved views (`components/saved_views.rs`).
pub struct Views {
    pub not_loaded: &'static str,
    pub name_needed: &'static str,
    pub saved: &'static str,
    pub not_saved: &'static str,
    pub deleted: &'static str,
    pub not_deleted: &'static str,
    pub copied: &'static str,
    pub copy_refused: &'static str,
    pub copy_link_to: &'static str,
    pub delete_named: &'static str,
    pub copy_link: &'static str,
    pub delete: &'static str,
    pub none: &'static str,
    pub views: &'static str,
    pub saved_views: &'static str,
    pub save_as: &'static str,
    pub name: &'static str,
    pub save: &'static str,
}

/// The words of the components the shell shows (the start bundle's).
pub struct Start {
    /// A toast's close button.
    pub dismiss: &'static str,
    pub errors: Errors,
}

/// The words of the components only pages use (the pages' shared chunks).
pub struct Components {
    pub close: &'static str,
    pub close_esc: &'static str,
    pub dismiss: &'static str,
    pub table: Table,
    pub bulk: Bulk,
    pub views: Views,
}

thread_local! {
    /// The Spanish words, once the shell's Spanish chunk is here.
    static SPANISH_START: Cell<Option<&'static Start>> = const { Cell::new(None) };
    static SPANISH: Cell<Option<&'static Components>> = const { Cell::new(None) };
}

/// The error view's and the toasts' words in the current language.
pub fn start() -> &'static Start {
    match lang() {
        Lang::Es => SPANISH_START.with(Cell::get).unwrap_or(&en::START),
        Lang::En => &en::START,
    }
}

/// The pages' components' words in the current language. (Only those components call it: a
/// call from the shell's code would bring all of the English into the start bundle.)
pub fn text() -> &'static Components {
    match lang() {
        Lang::Es => SPANISH.with(Cell::get).unwrap_or(&en::TEXT),
        Lang::En => &en::TEXT,
    }
}

/// Keeps the Spanish words the shell's chunk brought.
pub(super) fn set_spanish(start: &'static Start, text: &'static Components) {
    SPANISH_START.with(|s| s.set(Some(start)));
    SPANISH.with(|s| s.set(Some(text)));
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::i18n::{set_for_test, shell};

    /// The string literals of a catalogue's source, in order (comments left out).
    fn literals(source: &str) -> Vec<&str> {
        let code = source.lines().filter(|l| !l.trim_start().starts_with("//"));
        code.flat_map(|l| l.split('"').skip(1).step_by(2)).collect()
    }

    #[wasm_bindgen_test]
    fn both_languages_have_the_same_texts_with_the_same_holes() {
        let (en, es) = (literals(include_str!("en.rs")), literals(include_str!("es.rs")));
        assert_eq!(en.len(), es.len());
        for (e, s) in en.iter().zip(&es) {
            assert_eq!(e.matches("{}").count(), s.matches("{}").count(), "{e:?} and {s:?}");
        }
    }

    #[wasm_bindgen_test]
    async fn spanish_comes_with_the_shells_chunk() {
        shell::load_spanish().await.unwrap();
        set_for_test(Lang::Es);
        let (close, next, denied) = (text().close, text().table.next, start().errors.access_denied);
        let needs = (start().errors.needs_scope)("vault:read");
        set_for_test(Lang::En);
        assert_eq!((close, next, denied), ("Cerrar", "Siguiente ›", "Acceso denegado"));
        assert!(needs.contains("vault:read") && needs.starts_with("Esta página"), "{needs}");
        assert_eq!((text().close, start().errors.access_denied), ("Close", "Access denied"));
    }
}
