//! The folder tree beside the listing: the vault's folders, each expanded on demand (its
//! subfolders are loaded then, and again after a change), the way to the open folder expanded
//! and the open folder marked. A disclosure list (buttons with `aria-expanded`), so Tab and
//! Enter are all it needs.

use leptos::prelude::*;
use moneydesk_model::vault::{VaultEntry, VaultEntryKind};
use moneydesk_model::Page;

use super::use_vault;
use crate::api;
use crate::api::request::Answer;
use crate::i18n::{fill, vault::text};
use crate::session::use_auth;

/// Subfolders listed under a node (the first page of its contents, by name).
const SHOWN: &str = "name,asc";

#[component]
pub fn FolderTree(open: Callback<String>) -> impl IntoView {
    let t = text();
    view! {
        <nav class="vault-tree" aria-label=t.tree_label>
            <ul>{tree_node(String::new(), t.vault.to_string(), open)}</ul>
        </nav>
    }
}

fn tree_node(path: String, name: String, open: Callback<String>) -> AnyView {
    view! { <TreeNode path name open/> }.into_any()
}

#[component]
fn TreeNode(path: String, name: String, open: Callback<String>) -> impl IntoView {
    let vault = use_vault();
    let auth = use_auth();
    let here = path.clone();
    let on_the_way =
        move || vault.place.with(|p| here.is_empty() || p.path == here || p.path.starts_with(&format!("{here}/")));
    let expanded = RwSignal::new(on_the_way());
    // The way to a folder opened elsewhere (the listing, Back) unfolds.
    Effect::new(move |_| {
        if on_the_way() {
            expanded.set(true);
        }
    });
    let children = Answer::<Page<VaultEntry>>::new();
    let at = path.clone();
    Effect::new(move |_| {
        vault.changed.track();
        let user = vault.user.get();
        if expanded.get() && !user.is_empty() {
            children.load(api::vault::contents(&auth.client(), &user, &at, 1, SHOWN));
        }
    });
    let current = {
        let path = path.clone();
        move || vault.place.with(|p| p.path == path)
    };
    let target = path.clone();
    let label = name.clone();
    view! {
        <li class="vault-tree-node">
            <button type="button" class="vault-tree-toggle" aria-expanded=move || expanded.get().to_string()
                aria-label=fill(text().subfolders_of, &[&label]) on:click=move |_| expanded.update(|e| *e = !*e)>
                <span aria-hidden="true">{move || if expanded.get() { "▾" } else { "▸" }}</span>
            </button>
            <button type="button" class="link-button" aria-current=move || current().then_some("location")
                on:click=move |_| open.run(target.clone())>
                {name}
            </button>
            <Show when=move || expanded.get()>
                {move || children.with(|c| match c {
                    Some(Ok(page)) => {
                        let subs: Vec<VaultEntry> = page.content.iter().filter(|e| e.kind == VaultEntryKind::Folder).cloned().collect();
                        view! { <ul>{subs.into_iter().map(|e| tree_node(e.path, e.name, open)).collect_view()}</ul> }.into_any()
                    }
                    _ => ().into_any(),
                })}
            </Show>
        </li>
    }
}
