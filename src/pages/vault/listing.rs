//! One folder's entries in a table: a checkbox each (and one for all), the name (a folder
//! opens, a file shows its versions), size, modified and versions; the headers sort; pages of
//! 100. The selection's actions (move, zip, delete) sit in the toolbar.

use leptos::prelude::*;
use moneydesk_model::vault::{VaultEntry, VaultEntryKind};
use moneydesk_model::Page;

use super::paths::count;
use super::{use_vault, Dialog};
use crate::format::bytes;
use crate::format::format_date_time;

const SORTS: [(&str, &str); 3] = [("name", "Name"), ("size", "Size"), ("modifiedAt", "Modified")];

#[component]
pub fn Listing(
    page: Page<VaultEntry>,
    open: Callback<String>,
    resort: Callback<String>,
    turn: Callback<u32>,
) -> impl IntoView {
    let vault = use_vault();
    let entries = page.content.clone();
    let all = entries.clone();
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
    let every = StoredValue::new(all);
    let all_ticked = move || {
        let n = every.with_value(Vec::len);
        n > 0 && vault.selected.with(|s| s.len() == n)
    };
    let (number, pages, total) = (page.number as u32 + 1, page.total_pages.max(1) as u32, page.total_elements);
    view! {
        <Show when={let empty = entries.is_empty(); move || empty} fallback=|| ()>
            <p class="muted vault-empty" id="vault-empty">
                {move || if vault.writer.get() { "This folder is empty. Create a folder, or drop files here to upload them." } else { "This folder is empty." }}
            </p>
        </Show>
        <div class="table-scroll vault-table-wrap" tabindex="0" role="region" aria-label="Folder contents">
            <table class="data-table vault-table" id="vault-table">
                <caption class="sr-only">"Folder contents"</caption>
                <thead>
                    <tr>
                        <th scope="col" class="vault-check">
                            <input type="checkbox" aria-label="Select all" prop:checked=all_ticked
                                on:change=move |ev| {
                                    let on = event_target_checked(&ev);
                                    vault.selected.set(if on { every.get_value() } else { Vec::new() });
                                }/>
                        </th>
                        {header("name", SORTS[0].1)}
                        {header("size", SORTS[1].1)}
                        {header("modifiedAt", SORTS[2].1)}
                        <th scope="col">"Versions"</th>
                    </tr>
                </thead>
                <tbody>
                    {entries.into_iter().map(|e| row(e, open)).collect_view()}
                </tbody>
            </table>
        </div>
        <div class="vault-pager">
            <span class="muted table-total">{format!("{} · page {number} of {pages}", count(total, "entry", "entries"))}</span>
            <button type="button" class="button" disabled={number <= 1} on:click=move |_| turn.run(number - 1)>"Previous"</button>
            <button type="button" class="button" disabled={number >= pages} on:click=move |_| turn.run(number + 1)>"Next"</button>
        </div>
    }
}

fn row(e: VaultEntry, open: Callback<String>) -> impl IntoView {
    let vault = use_vault();
    let folder = e.kind == VaultEntryKind::Folder;
    let ticked = {
        let path = e.path.clone();
        move || vault.selected.with(|s| s.iter().any(|x| x.path == path))
    };
    let toggle = {
        let e = e.clone();
        move |ev| {
            let on = event_target_checked(&ev);
            vault.selected.update(|s| {
                s.retain(|x| x.path != e.path);
                if on {
                    s.push(e.clone());
                }
            });
        }
    };
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
    view! {
        <tr data-kind=if folder { "folder" } else { "file" } data-path=e.path.clone()>
            <td class="vault-check"><input type="checkbox" aria-label=format!("Select {name}") prop:checked=ticked on:change=toggle/></td>
            <td data-key="name">
                <button type="button" class="link-button vault-name" on:click=activate>
                    <span class=if folder { "vault-icon vault-icon-folder" } else { "vault-icon vault-icon-file" } aria-hidden="true"></span>
                    {e.name.clone()}
                </button>
            </td>
            <td data-key="size" class="num">{e.size.map(bytes).unwrap_or_default()}</td>
            <td data-key="modifiedAt">{format_date_time(&e.modified_at).unwrap_or_else(|| e.modified_at.clone())}</td>
            <td data-key="versions" class="num">{e.versions.map(|v| v.to_string()).unwrap_or_default()}</td>
        </tr>
    }
}

/// Move, download as zip and delete for what is ticked (zip: the folders ticked, or this one).
#[component]
pub fn SelectionActions() -> impl IntoView {
    let vault = use_vault();
    let some = move || vault.selected.with(|s| !s.is_empty());
    let folders = move || {
        vault
            .selected
            .with(|s| s.iter().filter(|e| e.kind == VaultEntryKind::Folder).map(|e| e.path.clone()).collect::<Vec<_>>())
    };
    view! {
        <button type="button" class="button" id="vault-zip" on:click=move |_| {
            let mut f = folders();
            if f.is_empty() {
                f.push(vault.place.with_untracked(|p| p.path.clone()));
            }
            vault.dialog.set(Some(Dialog::Zip(f)));
        }>
            {move || if folders().is_empty() { "Download folder as zip".to_string() } else { format!("Download {} as zip", count(folders().len() as u64, "folder", "folders")) }}
        </button>
        <Show when=move || vault.writer.get()>
            <button type="button" class="button" id="vault-move" disabled=move || !some() on:click=move |_| {
                vault.dialog.set(Some(Dialog::Move(vault.selected.get_untracked())));
            }>"Move…"</button>
            <button type="button" class="button danger" id="vault-delete" disabled=move || !some() on:click=move |_| {
                vault.dialog.set(Some(Dialog::Delete(vault.selected.get_untracked())));
            }>"Delete…"</button>
        </Show>
        <span class="muted" aria-live="polite">{move || vault.selected.with(|s| if s.is_empty() { String::new() } else { format!("{} selected", s.len()) })}</span>
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
