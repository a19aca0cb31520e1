//! The page's dialogs (drawers): move (a folder picker), delete (what goes, counted first),
//! download as zip (the archive's name), and a file's versions (file.rs).

use leptos::prelude::*;
use moneydesk_model::vault::{VaultEntry, VaultEntryKind};
use moneydesk_model::Page;

use super::paths::{count, crumbs, move_target, name};
use super::{file, use_vault, Dialog};
use crate::api;
use crate::api::request::{submit, Answer};
use crate::api::ApiError;
use crate::components::download::save_blob;
use crate::components::drawer::Drawer;
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::format::bytes;
use crate::session::use_auth;

#[component]
pub fn Dialogs() -> impl IntoView {
    let vault = use_vault();
    let close = Callback::new(move |()| vault.dialog.set(None));
    move || {
        vault.dialog.get().map(|d| match d {
            Dialog::Move(items) => view! { <MoveDialog items close/> }.into_any(),
            Dialog::Delete(items) => view! { <DeleteDialog items close/> }.into_any(),
            Dialog::Zip(folders) => view! { <ZipDialog folders close/> }.into_any(),
            Dialog::File(entry) => view! { <file::FileDrawer entry close/> }.into_any(),
        })
    }
}

/// What a batch of moves or deletes did: a toast and the dialog closed, or the error shown in
/// it; the listing loads again either way (a batch may have stopped halfway).
fn settle(
    vault: super::Vault,
    toasts: crate::components::toasts::Toasts,
    verb: &'static str,
    failed: RwSignal<Option<ApiError>>,
    close: Callback<()>,
) -> impl FnOnce(Result<usize, ApiError>) + 'static {
    move |r| {
        vault.reload();
        match r {
            Ok(n) => {
                toasts.show(ToastKind::Success, format!("{verb} {}.", count(n as u64, "item", "items")));
                close.run(());
            }
            Err(e) => failed.set(Some(e)),
        }
    }
}

/// Picks a folder by walking the vault from the current one; "Move here" moves every item.
#[component]
fn MoveDialog(items: Vec<VaultEntry>, close: Callback<()>) -> impl IntoView {
    let vault = use_vault();
    let auth = use_auth();
    let toasts = use_toasts();
    let user = vault.user.get_untracked();
    let target = RwSignal::new(vault.place.with_untracked(|p| p.path.clone()));
    let folders = Answer::<Page<VaultEntry>>::new();
    let u = user.clone();
    Effect::new(move |_| folders.load(api::vault::contents(&auth.client(), &u, &target.get(), 1, "name,asc")));
    let busy = RwSignal::new(false);
    let failed = RwSignal::new(None::<ApiError>);
    let owner = Owner::current();
    let items = StoredValue::new(items);
    let moving: Vec<String> =
        items.with_value(|i| i.iter().filter(|e| e.kind == VaultEntryKind::Folder).map(|e| e.path.clone()).collect());
    let blocked = move |path: &str| moving.iter().any(|m| moneydesk_model::vault::is_within(path, m));
    let blocked = StoredValue::new(blocked);
    let go = move || {
        let to = target.get_untracked();
        let plan: Vec<(VaultEntry, String)> = items.with_value(|i| {
            i.iter()
                .filter_map(|e| Some((e.clone(), move_target(&e.path, e.kind == VaultEntryKind::Folder, &to)?)))
                .collect()
        });
        if plan.is_empty() {
            failed
                .set(Some(ApiError::Decode { status: 0, message: "Nothing would move: pick another folder.".into() }));
            return;
        }
        let (client, user) = (auth.client(), user.clone());
        failed.set(None);
        submit(
            busy,
            &owner,
            move || async move {
                for (e, to) in &plan {
                    if e.kind == VaultEntryKind::Folder {
                        api::vault::move_folder(&client, &user, &e.path, to).await?;
                    } else {
                        api::vault::move_file(&client, &user, &e.path, to).await?;
                    }
                }
                Ok(plan.len())
            },
            settle(vault, toasts, "Moved", failed, close),
        );
    };
    let what = items.with_value(|i| {
        if i.len() == 1 {
            format!("Move “{}”", i[0].name)
        } else {
            format!("Move {} items", i.len())
        }
    });
    view! {
        <Drawer title=what id="vault-move-dialog" on_close=close>
            <p>"Into: " <strong id="vault-move-target">{move || { let t = target.get(); if t.is_empty() { "Vault (top level)".to_string() } else { format!("/{t}") } }}</strong></p>
            <nav aria-label="Target folder" class="vault-crumbs">
                <ol>
                    <li><button type="button" class="link-button" on:click=move |_| target.set(String::new())>"Vault"</button></li>
                    {move || crumbs(&target.get()).into_iter().map(|(n, p)| view! {
                        <li><button type="button" class="link-button" on:click=move |_| target.set(p.clone())>{n}</button></li>
                    }).collect_view()}
                </ol>
            </nav>
            <ul class="vault-picker" aria-label="Folders here">
                {move || folders.with(|f| match f {
                    None => view! { <li class="muted">"Loading…"</li> }.into_any(),
                    Some(Err(e)) => view! { <li><ApiErrorView error=e.clone()/></li> }.into_any(),
                    Some(Ok(page)) => {
                        let subs: Vec<VaultEntry> = page.content.iter().filter(|e| e.kind == VaultEntryKind::Folder).cloned().collect();
                        if subs.is_empty() {
                            return view! { <li class="muted">"No folders inside."</li> }.into_any();
                        }
                        subs.into_iter().map(|e| {
                            let off = blocked.with_value(|b| b(&e.path));
                            let path = e.path.clone();
                            view! {
                                <li><button type="button" class="link-button" disabled=off
                                    title=if off { "A folder cannot move into itself" } else { "" }
                                    on:click=move |_| target.set(path.clone())><span class="vault-icon vault-icon-folder" aria-hidden="true"></span>{e.name.clone()}</button></li>
                            }
                        }).collect_view().into_any()
                    }
                })}
            </ul>
            {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
            <div class="drawer-actions">
                <button type="button" class="button primary" id="vault-move-here" disabled=move || busy.get() on:click=move |_| go()>"Move here"</button>
                <button type="button" class="button" on:click=move |_| close.run(())>"Cancel"</button>
            </div>
        </Drawer>
    }
}

/// Counts what would go (each folder's record, each file's versions) before the user confirms.
#[component]
fn DeleteDialog(items: Vec<VaultEntry>, close: Callback<()>) -> impl IntoView {
    let vault = use_vault();
    let auth = use_auth();
    let toasts = use_toasts();
    let user = vault.user.get_untracked();
    let tally = Answer::<(u64, u64, u64, u64)>::new();
    let (client, u, list) = (auth.client(), user.clone(), items.clone());
    tally.load(async move {
        let (mut folders, mut files, mut versions, mut size) = (0, 0, 0, 0);
        for e in &list {
            if e.kind == VaultEntryKind::Folder {
                let r = api::vault::folder(&client, &u, &e.path).await?;
                folders += 1 + r.folders;
                files += r.files;
                versions += r.versions;
                size += r.bytes;
            } else {
                let r = api::vault::versions(&client, &u, &e.path).await?;
                files += 1;
                versions += r.versions.len() as u64;
                size += r.versions.iter().map(|v| v.size).sum::<u64>();
            }
        }
        Ok((folders, files, versions, size))
    });
    let busy = RwSignal::new(false);
    let failed = RwSignal::new(None::<ApiError>);
    let owner = Owner::current();
    let items = StoredValue::new(items);
    let confirm = move || {
        let (client, user) = (auth.client(), user.clone());
        let list = items.get_value();
        failed.set(None);
        submit(
            busy,
            &owner,
            move || async move {
                let folders: Vec<String> =
                    list.iter().filter(|e| e.kind == VaultEntryKind::Folder).map(|e| e.path.clone()).collect();
                if !folders.is_empty() {
                    api::vault::delete_folders(&client, &user, &folders).await?;
                }
                for e in list.iter().filter(|e| e.kind == VaultEntryKind::File) {
                    api::vault::delete_file(&client, &user, &e.path).await?;
                }
                Ok(list.len())
            },
            settle(vault, toasts, "Deleted", failed, close),
        );
    };
    let title = items.with_value(|i| {
        if i.len() == 1 {
            format!("Delete “{}”?", i[0].name)
        } else {
            format!("Delete {} items?", i.len())
        }
    });
    view! {
        <Drawer title id="vault-delete-dialog" on_close=close>
            <ul class="vault-doomed">
                {items.with_value(|i| i.iter().map(|e| view! { <li><span class=if e.kind == VaultEntryKind::Folder { "vault-icon vault-icon-folder" } else { "vault-icon vault-icon-file" } aria-hidden="true"></span>{e.path.clone()}</li> }).collect_view())}
            </ul>
            <p id="vault-delete-counts" role="status">
                {move || tally.with(|t| match t {
                    None => "Counting what would be deleted…".to_string(),
                    Some(Err(e)) => format!("Could not count what would be deleted: {e}"),
                    Some(Ok((folders, files, versions, size))) => format!(
                        "{}, {} and {} ({}) will be deleted permanently. This cannot be undone.",
                        count(*folders, "folder", "folders"),
                        count(*files, "file", "files"),
                        count(*versions, "version", "versions"),
                        bytes(*size)
                    ),
                })}
            </p>
            {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
            <div class="drawer-actions">
                <button type="button" class="button danger" id="vault-delete-confirm"
                    disabled=move || busy.get() || !tally.with(|t| matches!(t, Some(Ok(_))))
                    on:click=move |_| confirm()>"Delete permanently"</button>
                <button type="button" class="button" on:click=move |_| close.run(())>"Cancel"</button>
            </div>
        </Drawer>
    }
}

/// Names the archive, then downloads it (the server streams it; the browser saves it).
#[component]
fn ZipDialog(folders: Vec<String>, close: Callback<()>) -> impl IntoView {
    let vault = use_vault();
    let auth = use_auth();
    let toasts = use_toasts();
    let user = vault.user.get_untracked();
    let suggested = match folders.as_slice() {
        [one] if !one.is_empty() => name(one).to_string(),
        [_] => user.clone(),
        _ => format!("{user} documents"),
    };
    let archive = RwSignal::new(suggested);
    let busy = RwSignal::new(false);
    let failed = RwSignal::new(None::<ApiError>);
    let owner = Owner::current();
    let folders = StoredValue::new(folders);
    let download = move || {
        let n = archive.get_untracked().trim().to_string();
        let file = if n.to_ascii_lowercase().ends_with(".zip") { n.clone() } else { format!("{n}.zip") };
        let (client, user, list) = (auth.client(), user.clone(), folders.get_value());
        failed.set(None);
        submit(
            busy,
            &owner,
            move || async move { api::vault::zip(&client, &user, &list, &n).await },
            move |r| match r {
                Ok(blob) => {
                    let _ = save_blob(&blob, &file);
                    toasts.show(ToastKind::Success, format!("Downloaded {file} ({}).", bytes(blob.size() as u64)));
                    close.run(());
                }
                Err(e) => failed.set(Some(e)),
            },
        );
    };
    view! {
        <Drawer title="Download as zip" id="vault-zip-dialog" on_close=close>
            <p>{folders.with_value(|f| f.iter().map(|p| if p.is_empty() { "Vault (everything)".to_string() } else { format!("/{p}") }).collect::<Vec<_>>().join(", "))}</p>
            <form on:submit=move |ev| { ev.prevent_default(); download(); }>
                <label for="vault-zip-name">"Archive name"</label>
                <input id="vault-zip-name" prop:value=move || archive.get() on:input=move |ev| archive.set(event_target_value(&ev))/>
                {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
                <div class="drawer-actions">
                    <button type="submit" class="button primary" id="vault-zip-download" disabled=move || busy.get()>
                        {move || if busy.get() { "Preparing…" } else { "Download" }}
                    </button>
                    <button type="button" class="button" on:click=move |_| close.run(())>"Cancel"</button>
                </div>
            </form>
        </Drawer>
    }
}
