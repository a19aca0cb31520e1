//! One folder's entries in a table: a checkbox each (a shift-click ticks a range; one for the
//! page), the name (a folder opens, a file shows its versions), size, modified, versions and
//! the last bulk action's outcome; the headers sort; pages of 100. The selection's actions
//! (move, zip, delete) sit in the toolbar; the bar above the table counts the selection,
//! offers everything in the folder, and sums up the last action's answer.

use leptos::prelude::*;
use moneydesk_model::vault::{VaultEntry, VaultEntryKind};
use moneydesk_model::Page;

use super::paths::{counted, kind};
use super::{use_vault, Dialog};
use crate::components::list_bulk::{outcome, ListBulkBar, PageCheck, RowCheck};
use crate::format::bytes;
use crate::format::format_date_time;
use crate::i18n::{fill, vault::text};

#[component]
pub fn Listing(
    page: Page<VaultEntry>,
    open: Callback<String>,
    resort: Callback<String>,
    turn: Callback<u32>,
) -> impl IntoView {
    let vault = use_vault();
    let t = text();
    let entries = page.content.clone();
    let all = entries.clone();
    let total_entries = page.total_elements;
    let sort = vault.place.with_untracked(|p| p.sort.clone());
    let (field, dir) =
        sort.split_once(',').map(|(f, d)| (f.to_string(), d.to_string())).unwrap_or((sort.clone(), "asc".into()));
    let header = move |key: &'static str, label: &'static str| {
        let current = field == key;
        let aria = if current {
            if dir == "desc" {
                "descending"
            } else {
                "ascending"
            }
        } else {
            "none"
        };
        let next = if current && dir == "asc" { format!("{key},desc") } else { format!("{key},asc") };
        view! {
            <th scope="col" aria-sort=aria data-key=key>
                <button type="button" class="sort" on:click=move |_| resort.run(next.clone())>
                    {label}
                    <span class="sort-icon" aria-hidden="true">{if !current { "↕" } else if aria == "descending" { "↓" } else { "↑" }}</span>
                </button>
            </th>
        }
    };
    let ids = StoredValue::new(all.iter().map(|e| e.path.clone()).collect::<Vec<_>>());
    let bulk = vault.bulk;
    let (number, pages, total) = (page.number as u32 + 1, page.total_pages.max(1) as u32, page.total_elements);
    view! {
        <Show when={let empty = entries.is_empty(); move || empty} fallback=|| ()>
            <p class="muted vault-empty" id="vault-empty">
                {move || if vault.writer.get() { t.empty_writer } else { t.empty }}
            </p>
        </Show>
        <ListBulkBar id="vault" nouns=t.noun bulk actions=&[] total=Signal::derive(move || Some(total_entries))
            filters=Signal::derive(move || vec![("path".to_string(), vault.place.with(|p| p.path.clone()))])
            page_ids=Signal::derive(move || ids.get_value())/>
        <div class="table-scroll vault-table-wrap" tabindex="0" role="region" aria-label=t.contents_label>
            <table class="data-table vault-table" id="vault-table">
                <caption class="sr-only">{t.contents_label}</caption>
                <thead>
                    <tr>
                        <th scope="col" class="vault-check"><PageCheck bulk page_ids=ids/></th>
                        {header("name", t.sorts[0])}
                        {header("size", t.sorts[1])}
                        {header("modifiedAt", t.sorts[2])}
                        <th scope="col">{t.versions}</th>
                        <th scope="col">{t.bulk_outcome}</th>
                    </tr>
                </thead>
                <tbody>
                    {entries.into_iter().enumerate().map(|(i, e)| row(i, e, open, ids)).collect_view()}
                </tbody>
            </table>
        </div>
        <div class="vault-pager">
            <span class="muted table-total">{fill(t.pager, &[&counted(total, t.entry), &number.to_string(), &pages.to_string()])}</span>
            <button type="button" class="button" disabled={number <= 1} on:click=move |_| turn.run(number - 1)>{t.previous}</button>
            <button type="button" class="button" disabled={number >= pages} on:click=move |_| turn.run(number + 1)>{t.next}</button>
        </div>
    }
}

fn row(index: usize, e: VaultEntry, open: Callback<String>, ids: StoredValue<Vec<String>>) -> impl IntoView {
    let vault = use_vault();
    let folder = e.kind == VaultEntryKind::Folder;
    let activate = {
        let e = e.clone();
        move |_| {
            if folder {
                open.run(e.path.clone());
            } else {
                vault.dialog.set(Some(Dialog::File(e.clone())));
            }
        }
    };
    let name = e.name.clone();
    let (icon, kind) = kind(folder);
    view! {
        <tr data-kind=kind data-path=e.path.clone()>
            <td class="vault-check"><RowCheck bulk=vault.bulk index id=e.path.clone() page_ids=ids label=fill(text().select, &[&name])/></td>
            <td data-key="name">
                <button type="button" class="link-button vault-name" on:click=activate>
                    <span class=icon aria-hidden="true"></span>
                    {e.name.clone()}
                </button>
            </td>
            <td data-key="size" class="num">{e.size.map(bytes).unwrap_or_default()}</td>
            <td data-key="modifiedAt">{format_date_time(&e.modified_at).unwrap_or_else(|| e.modified_at.clone())}</td>
            <td data-key="versions" class="num">{e.versions.map(|v| v.to_string()).unwrap_or_default()}</td>
            <td data-key="outcome">{outcome(vault.bulk, e.path.clone())}</td>
        </tr>
    }
}

/// Move, download as zip and delete for what is ticked (zip: the selection, or this folder).
#[component]
pub fn SelectionActions() -> impl IntoView {
    let vault = use_vault();
    let sel = vault.bulk.selection;
    let some = move || sel.with(|s| !s.is_empty());
    let t = text();
    let zip_label = move || {
        sel.track();
        vault.entries.track();
        let p = vault.picked();
        let folders = p.entries.iter().filter(|e| e.kind == VaultEntryKind::Folder).count() as u64;
        match p.all {
            _ if p.count() == 0 => t.zip_folder.to_string(),
            Some(n) => fill(t.zip_all, &[&counted(n, t.entry)]),
            None if folders == p.count() => fill(t.zip_some, &[&counted(folders, t.folder)]),
            None => fill(t.zip_some, &[&counted(p.count(), t.item)]),
        }
    };
    view! {
        <button type="button" class="button" id="vault-zip" on:click=move |_| {
            let p = vault.picked();
            vault.dialog.set(Some(Dialog::Zip((p.count() > 0).then_some(p))));
        }>{zip_label}</button>
        <Show when=move || vault.writer.get()>
            <button type="button" class="button" id="vault-move" disabled=move || !some() on:click=move |_| {
                vault.dialog.set(Some(Dialog::Move(vault.picked())));
            }>{t.move_dots}</button>
            <button type="button" class="button danger" id="vault-delete" disabled=move || !some() on:click=move |_| {
                vault.dialog.set(Some(Dialog::Delete(vault.picked())));
            }>{t.delete_dots}</button>
        </Show>
    }
}

/// The users an admin may open (the permissions collection's), as the user field's suggestions.
#[component]
pub fn UserOptions() -> impl IntoView {
    let auth = crate::session::use_auth();
    let users = crate::api::request::Answer::<Page<serde_json::Value>>::new();
    let query = moneydesk_model::collections::CollectionQuery { page: 1, size: 500, sort: None, filters: Vec::new() };
    users.load(crate::api::permissions::page(&auth.client(), &query));
    view! {
        <datalist id="vault-users">
            {move || users.with(|u| {
                let mut ids: Vec<(String, String)> = match u {
                    Some(Ok(p)) => p.content.iter().filter_map(|r| Some((r.get("userId")?.as_str()?.to_string(), r.get("userName").and_then(|n| n.as_str()).unwrap_or("").to_string()))).collect(),
                    _ => Vec::new(),
                };
                ids.sort();
                ids.dedup_by(|a, b| a.0 == b.0);
                ids.into_iter().map(|(id, name)| view! { <option value=id>{name}</option> }).collect_view()
            })}
        </datalist>
    }
}
