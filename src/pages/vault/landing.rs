//! A link to one file (`/vault?path=FOLDER&file=NAME`, as a search hit opens it): once the
//! folder's listing shows it, the file's row is ticked, scrolled into view and focused; on a
//! later page of a long folder the listing turns to it; a file the folder no longer holds is
//! said so above the listing.

use leptos::prelude::*;
use moneydesk_model::vault::{VaultEntry, VaultEntryKind};
use moneydesk_model::Page;
use wasm_bindgen::JsCast;

use super::paths::join;
use super::Vault;
use crate::api::request::Answer;
use crate::components::selection::Selection;
use crate::i18n::{fill, vault::text};

/// The file a link asks for: its folder and name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wanted {
    pub folder: String,
    pub name: String,
}

impl Wanted {
    /// From a URL's query (`get` reads a parameter): `file=NAME`, in `path=FOLDER` (the root
    /// without one).
    pub fn from_query(get: impl Fn(&str) -> Option<String>) -> Option<Wanted> {
        let name = get("file").filter(|n| !n.trim().is_empty())?;
        Some(Wanted { folder: get("path").unwrap_or_default().trim_matches('/').to_string(), name })
    }

    pub fn path(&self) -> String {
        join(&self.folder, &self.name)
    }
}

/// What a listing page says of the wanted file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// On this page, at this row.
    Here(usize),
    /// Maybe on the next page (1-based).
    Later(u32),
    Gone,
}

/// Looks for `w` among `page`'s files (folders are not what a file link names).
pub fn look(page: &Page<VaultEntry>, w: &Wanted) -> Found {
    let path = w.path();
    if let Some(i) = page.content.iter().position(|e| e.kind == VaultEntryKind::File && e.path == path) {
        return Found::Here(i);
    }
    let next = page.number + 2;
    if next <= page.total_pages {
        Found::Later(next as u32)
    } else {
        Found::Gone
    }
}

/// Follows the listing for the file the page's link names; `said` is the sentence for a file
/// that is gone.
pub fn follow(vault: Vault, listing: Answer<Page<VaultEntry>>, turn: Callback<u32>) -> RwSignal<Option<String>> {
    let said = RwSignal::new(None::<String>);
    // The router's query: set before the page is built, on a navigation as on a load.
    let query = leptos_router::hooks::use_query_map();
    let wanted = StoredValue::new(query.with_untracked(|q| Wanted::from_query(|k| q.get(k))));
    Effect::new(move |_| {
        let Some(w) = wanted.get_value() else { return };
        let (folder, at) = vault.place.with(|p| (p.path.clone(), p.page));
        if folder != w.folder {
            // The user went elsewhere before the file showed.
            wanted.set_value(None);
            return;
        }
        listing.with(|l| {
            let Some(Ok(page)) = l else { return };
            if page.number as u32 + 1 != at {
                return; // an earlier page's answer
            }
            match look(page, &w) {
                Found::Here(i) => {
                    wanted.set_value(None);
                    let path = w.path();
                    vault.bulk.selection.set(Selection::default());
                    vault.bulk.selection.update(|s| s.toggle(i, &path));
                    mark_later(path);
                }
                Found::Later(next) => turn.run(next),
                Found::Gone => {
                    wanted.set_value(None);
                    let t = text();
                    let folder = if w.folder.is_empty() { t.top_folder } else { w.folder.as_str() };
                    said.set(Some(fill(t.gone, &[&w.name, folder])));
                }
            }
        });
    });
    said
}

/// Once the row is drawn: marked (`data-landed`), scrolled into view, its name focused (so Enter opens its versions).
fn mark_later(path: String) {
    request_animation_frame(move || {
        let Ok(rows) = document().query_selector_all("#vault-table tbody tr[data-path]") else { return };
        let row = (0..rows.length())
            .filter_map(|i| rows.get(i)?.dyn_into::<web_sys::Element>().ok())
            .find(|r| r.get_attribute("data-path").as_deref() == Some(path.as_str()));
        let Some(row) = row else { return };
        let _ = row.set_attribute("data-landed", "true");
        // Top-aligned within the page's scroll; focus then keeps it in view.
        row.scroll_into_view_with_bool(true);
        if let Some(button) = row.query_selector(".vault-name").ok().flatten() {
            if let Ok(b) = button.dyn_into::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
        }
    });
}

/// The sentence for a linked file that is gone.
#[component]
pub fn Gone(said: RwSignal<Option<String>>) -> impl IntoView {
    move || said.get().map(|s| view! { <p class="alert warning" role="status" id="vault-file-gone">{s}</p> })
}

#[cfg(test)]
mod tests {
    use moneydesk_model::{PageRequest, Sort};
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn entry(path: &str, kind: VaultEntryKind) -> VaultEntry {
        let name = super::super::paths::name(path).to_string();
        let modified_at = "2026-11-29T10:00:00Z".to_string();
        VaultEntry { name, path: path.into(), kind, size: None, content_type: None, versions: None, modified_at }
    }

    #[wasm_bindgen_test]
    fn a_file_link_is_found_on_its_page_looked_for_later_or_gone() {
        let asked = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        let w = Wanted::from_query(asked(&[("path", "/Clients/Acme/"), ("file", "Q3 report.pdf")])).unwrap();
        assert_eq!(w.path(), "Clients/Acme/Q3 report.pdf");
        assert_eq!(Wanted::from_query(asked(&[("path", "a")])), None, "no file named");
        let page = |number: u64, total: u64, content| {
            Page::build(PageRequest { index: number, size: 2 }, total, content, Sort::UNSORTED)
        };
        let here = page(
            0,
            2,
            vec![
                entry("Clients/Acme/x", VaultEntryKind::File),
                entry("Clients/Acme/Q3 report.pdf", VaultEntryKind::File),
            ],
        );
        assert_eq!(look(&here, &w), Found::Here(1));
        let folder = page(0, 3, vec![entry("Clients/Acme/Q3 report.pdf", VaultEntryKind::Folder)]);
        assert_eq!(look(&folder, &w), Found::Later(2), "a folder of that name is not the file");
        let last = page(1, 3, vec![entry("Clients/Acme/z", VaultEntryKind::File)]);
        assert_eq!(look(&last, &w), Found::Gone);
    }
}
