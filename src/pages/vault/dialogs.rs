//! The page's dialogs (drawers): move (a folder picker), delete (what goes, counted first),
//! download as zip (the archive's name), and a file's versions (file.rs). A move or delete of
//! the selection is one bulk request; its answer (each entry done or refused) shows on the
//! rows and in the bar's summary, and a toast says both counts.

use leptos::prelude::*;
use moneydesk_model::vault::{VaultEntry, VaultEntryKind};
use moneydesk_model::Page;

use std::sync::Arc;

use moneydesk_model::bulk::{BulkItem, BulkResult};

use super::paths::{counted, crumbs, join, kind, name};
use super::{file, use_vault, Dialog, Picked};
use crate::api;
use crate::api::request::{submit, Answer};
use crate::api::ApiError;
use crate::components::data_table::bulk::{new_key, BulkAction, Ran};
use crate::components::download::save_blob;
use crate::components::drawer::Drawer;
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::format::bytes;
use crate::i18n::vault::{en, es, text};
use crate::i18n::{fill, pick};
use crate::session::use_auth;

#[component]
pub fn Dialogs() -> impl IntoView {
    let vault = use_vault();
    let close = Callback::new(move |()| vault.dialog.set(None));
    move || {
        vault.dialog.get().map(|d| match d {
            Dialog::Move(picked) => view! { <MoveDialog picked close/> }.into_any(),
            Dialog::Delete(picked) => view! { <DeleteDialog picked close/> }.into_any(),
            Dialog::Zip(picked) => view! { <ZipDialog picked close/> }.into_any(),
            Dialog::File(entry) => view! { <file::FileDrawer entry close/> }.into_any(),
        })
    }
}

/// One bulk move or delete from a dialog: its answer (each entry done or refused) kept for
/// the rows and the summary, a toast with both counts (a partial success is never told as a
/// success), the dialog closed; a refused request stays in the dialog. The `Idempotency-Key`
/// is the dialog's: a retry after a lost answer sends the same one.
#[derive(Clone, Copy)]
struct BulkSender {
    vault: super::Vault,
    auth: crate::session::Auth,
    toasts: crate::components::toasts::Toasts,
    owner: StoredValue<Option<Owner>>,
    key: StoredValue<String>,
    busy: RwSignal<bool>,
    failed: RwSignal<Option<ApiError>>,
    close: Callback<()>,
}

impl BulkSender {
    /// Made in the dialog (its owner and context).
    fn new(close: Callback<()>) -> BulkSender {
        BulkSender {
            vault: use_vault(),
            auth: use_auth(),
            toasts: use_toasts(),
            owner: StoredValue::new(Owner::current()),
            key: StoredValue::new(new_key()),
            busy: RwSignal::new(false),
            failed: RwSignal::new(None),
            close,
        }
    }

    fn send(self, action: BulkAction, to: Option<String>, picked: &Picked) {
        let BulkSender { vault, auth, toasts, key, busy, failed, close, .. } = self;
        let (client, user, select) = (auth.client(), vault.user.get_untracked(), picked.select());
        let folders = picked.folders_only();
        failed.set(None);
        let k = key.get_value();
        // Folders alone go through the description's folder operations (a folder moved, folders
        // deleted), as before bulk actions existed; files and mixes through `…/bulk`. Either way
        // the answer is told per entry.
        let start = move || async move {
            match (action.key, folders) {
                ("delete", Some(f)) => api::vault::delete_folders(&client, &user, &f)
                    .await
                    .map(|_| BulkResult::new("delete", f.into_iter().map(BulkItem::done).collect())),
                ("move", Some(f)) if f.len() == 1 => {
                    let new_path = join(to.as_deref().unwrap_or_default(), name(&f[0]));
                    api::vault::move_folder(&client, &user, &f[0], &new_path)
                        .await
                        .map(|_| BulkResult::new("move", f.into_iter().map(BulkItem::done).collect()))
                }
                _ => api::vault::bulk(&client, &user, action.key, to.as_deref(), &select, &k).await,
            }
        };
        let done = move |r: Result<BulkResult, ApiError>| match r {
            Ok(result) => {
                let ran = Ran::new(action, result);
                let kind = if ran.result.refused > 0 { ToastKind::Error } else { ToastKind::Success };
                toasts.show(kind, ran.summary());
                vault.bulk.ran.set(Some(Arc::new(ran)));
                vault.reload();
                close.run(());
            }
            Err(e) => {
                if !matches!(e, ApiError::Network { .. }) {
                    key.set_value(new_key());
                }
                failed.set(Some(e))
            }
        };
        self.owner.with_value(|o| submit(busy, o, start, done));
    }
}

/// The bulk actions in each language's words, as `(move, delete)`.
const ACTIONS: (BulkAction, BulkAction) = (
    BulkAction::new("move", en::TEXT.move_action.0, en::TEXT.move_action.1),
    BulkAction::new("delete", en::TEXT.delete_action.0, en::TEXT.delete_action.1),
);
const ACTIONS_ES: (BulkAction, BulkAction) = (
    BulkAction::new("move", es::TEXT.move_action.0, es::TEXT.move_action.1),
    BulkAction::new("delete", es::TEXT.delete_action.0, es::TEXT.delete_action.1),
);

/// Picks a folder by walking the vault from the current one; "Move here" moves every item.
#[component]
fn MoveDialog(picked: Picked, close: Callback<()>) -> impl IntoView {
    let vault = use_vault();
    let auth = use_auth();
    let user = vault.user.get_untracked();
    let sender = BulkSender::new(close);
    let (busy, failed) = (sender.busy, sender.failed);
    let t = text();
    let target = RwSignal::new(vault.place.with_untracked(|p| p.path.clone()));
    let folders = Answer::<Page<VaultEntry>>::new();
    let u = user.clone();
    Effect::new(move |_| folders.load(api::vault::contents(&auth.client(), &u, &target.get(), 1, "name,asc")));
    let moving: Vec<String> =
        picked.entries.iter().filter(|e| e.kind == VaultEntryKind::Folder).map(|e| e.path.clone()).collect();
    // Everything in the folder moves: none of its subfolders can take it.
    let (here, all) = (picked.folder.clone(), picked.all.is_some());
    let blocked = move |path: &str| {
        moving.iter().any(|m| moneydesk_model::vault::is_within(path, m))
            || (all && path != here && moneydesk_model::vault::is_within(path, &here))
    };
    let blocked = StoredValue::new(blocked);
    let what = match (picked.all, picked.entries.as_slice()) {
        (Some(n), _) => fill(t.move_all, &[&counted(n, t.entry)]),
        (None, [one]) => fill(t.move_one, &[&one.name]),
        (None, list) => fill(t.move_many, &[&list.len().to_string()]),
    };
    let picked = StoredValue::new(picked);
    let go = move || {
        let to = target.get_untracked();
        if picked.with_value(|p| p.folder == to) {
            failed.set(Some(ApiError::Decode { status: 0, message: t.already_here.into() }));
            return;
        }
        picked.with_value(|p| sender.send(pick(&ACTIONS, &ACTIONS_ES).0, Some(to), p));
    };
    view! {
        <Drawer title=what id="vault-move-dialog" on_close=close>
            <p>{t.into}<strong id="vault-move-target">{move || { let to = target.get(); if to.is_empty() { t.top_level.to_string() } else { format!("/{to}") } }}</strong></p>
            <nav aria-label=t.target_folder class="vault-crumbs">
                <ol>
                    <li><button type="button" class="link-button" on:click=move |_| target.set(String::new())>{t.vault}</button></li>
                    {move || crumbs(&target.get()).into_iter().map(|(n, p)| view! {
                        <li><button type="button" class="link-button" on:click=move |_| target.set(p.clone())>{n}</button></li>
                    }).collect_view()}
                </ol>
            </nav>
            <ul class="vault-picker" aria-label=t.folders_here>
                {move || folders.with(|f| match f {
                    None => view! { <li class="muted">{t.loading}</li> }.into_any(),
                    Some(Err(e)) => view! { <li><ApiErrorView error=e.clone()/></li> }.into_any(),
                    Some(Ok(page)) => {
                        let subs: Vec<VaultEntry> = page.content.iter().filter(|e| e.kind == VaultEntryKind::Folder).cloned().collect();
                        if subs.is_empty() {
                            return view! { <li class="muted">{t.no_folders}</li> }.into_any();
                        }
                        subs.into_iter().map(|e| {
                            let off = blocked.with_value(|b| b(&e.path));
                            let path = e.path.clone();
                            view! {
                                <li><button type="button" class="link-button" disabled=off
                                    title=if off { t.into_itself } else { "" }
                                    on:click=move |_| target.set(path.clone())><span class="vault-icon vault-icon-folder" aria-hidden="true"></span>{e.name.clone()}</button></li>
                            }
                        }).collect_view().into_any()
                    }
                })}
            </ul>
            {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
            <div class="drawer-actions">
                <button type="button" class="button primary" id="vault-move-here" disabled=move || busy.get() on:click=move |_| go()>{t.move_here}</button>
                <button type="button" class="button" on:click=move |_| close.run(())>{t.cancel}</button>
            </div>
        </Drawer>
    }
}

/// Counts what would go (each folder's record, each file's versions) before the user confirms.
#[component]
fn DeleteDialog(picked: Picked, close: Callback<()>) -> impl IntoView {
    let vault = use_vault();
    let auth = use_auth();
    let user = vault.user.get_untracked();
    let sender = BulkSender::new(close);
    let (busy, failed) = (sender.busy, sender.failed);
    let tally = Answer::<(u64, u64, u64, u64)>::new();
    let t = text();
    let (client, u, p) = (auth.client(), user.clone(), picked.clone());
    tally.load(async move {
        if p.all.is_some() {
            // Everything in the folder: its own record counts what it holds.
            let r = api::vault::folder(&client, &u, &p.folder).await?;
            return Ok((r.folders, r.files, r.versions, r.bytes));
        }
        let (mut folders, mut files, mut versions, mut size) = (0, 0, 0, 0);
        for e in &p.entries {
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
    let title = match (picked.all, picked.entries.as_slice()) {
        (Some(n), _) => fill(t.delete_all, &[&counted(n, t.entry)]),
        (None, [one]) => fill(t.delete_one, &[&one.name]),
        (None, list) => fill(t.delete_many, &[&list.len().to_string()]),
    };
    let items = StoredValue::new(picked.entries.clone());
    let picked = StoredValue::new(picked);
    let confirm = move || picked.with_value(|p| sender.send(pick(&ACTIONS, &ACTIONS_ES).1, None, p));
    view! {
        <Drawer title id="vault-delete-dialog" on_close=close>
            <ul class="vault-doomed">
                {items.with_value(|i| i.iter().map(|e| view! { <li><span class=kind(e.kind == VaultEntryKind::Folder).0 aria-hidden="true"></span>{e.path.clone()}</li> }).collect_view())}
            </ul>
            <p id="vault-delete-counts" role="status">
                {move || tally.with(|answer| match answer {
                    None => t.counting.to_string(),
                    Some(Err(e)) => fill(t.count_failed, &[&e.to_string()]),
                    Some(Ok((folders, files, versions, size))) => fill(
                        t.will_delete,
                        &[
                            &counted(*folders, t.folder),
                            &counted(*files, t.file),
                            &counted(*versions, t.version),
                            &bytes(*size),
                        ],
                    ),
                })}
            </p>
            {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
            <div class="drawer-actions">
                <button type="button" class="button danger" id="vault-delete-confirm"
                    disabled=move || busy.get() || !tally.with(|t| matches!(t, Some(Ok(_))))
                    on:click=move |_| confirm()>{t.move_to_trash}</button>
                <button type="button" class="button" on:click=move |_| close.run(())>{t.cancel}</button>
            </div>
        </Drawer>
    }
}

/// Names the archive, then downloads it (the server streams it; the browser saves it).
#[component]
fn ZipDialog(picked: Option<Picked>, close: Callback<()>) -> impl IntoView {
    let vault = use_vault();
    let auth = use_auth();
    let toasts = use_toasts();
    let user = vault.user.get_untracked();
    let here = vault.place.with_untracked(|p| p.path.clone());
    let t = text();
    let suggested = match picked.as_ref().map(|p| (p.all, p.entries.as_slice())) {
        Some((None, [one])) => name(&one.path).to_string(),
        Some(_) if !here.is_empty() => fill(t.selection_name, &[name(&here)]),
        Some(_) => fill(t.documents_name, &[&user]),
        None if !here.is_empty() => name(&here).to_string(),
        None => user.clone(),
    };
    let shown = match &picked {
        None if here.is_empty() => t.everything.to_string(),
        None => format!("/{here}"),
        Some(p) if p.all.is_some() => fill(t.everything_in, &[&p.folder]),
        Some(p) => p.entries.iter().map(|e| format!("/{}", e.path)).collect::<Vec<_>>().join(", "),
    };
    let archive = RwSignal::new(suggested);
    let busy = RwSignal::new(false);
    let failed = RwSignal::new(None::<ApiError>);
    let owner = Owner::current();
    let picked = StoredValue::new(picked);
    let download = move || {
        let n = archive.get_untracked().trim().to_string();
        let file = if n.to_ascii_lowercase().ends_with(".zip") { n.clone() } else { format!("{n}.zip") };
        let (client, user, select) =
            (auth.client(), user.clone(), picked.with_value(|p| p.as_ref().map(Picked::select)));
        let folders = picked.with_value(|p| p.as_ref().and_then(Picked::folders_only));
        let folder = vault.place.with_untracked(|p| p.path.clone());
        failed.set(None);
        submit(
            busy,
            &owner,
            move || async move {
                // Folders alone (or the folder shown): the description's folder download.
                match (select, folders) {
                    (_, Some(folders)) => api::vault::zip(&client, &user, &folders, &n).await,
                    (Some(select), None) => api::vault::bulk_zip(&client, &user, &select, &n).await,
                    (None, None) => api::vault::zip(&client, &user, &[folder], &n).await,
                }
            },
            move |r| match r {
                Ok(blob) => {
                    let _ = save_blob(&blob, &file);
                    toasts.show(ToastKind::Success, fill(t.downloaded, &[&file, &bytes(blob.size() as u64)]));
                    close.run(());
                }
                Err(e) => failed.set(Some(e)),
            },
        );
    };
    view! {
        <Drawer title=t.zip_title id="vault-zip-dialog" on_close=close>
            <p id="vault-zip-what">{shown}</p>
            <form on:submit=move |ev| { ev.prevent_default(); download(); }>
                <label for="vault-zip-name">{t.archive_name}</label>
                <input id="vault-zip-name" prop:value=move || archive.get() on:input=move |ev| archive.set(event_target_value(&ev))/>
                {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
                <div class="drawer-actions">
                    <button type="submit" class="button primary" id="vault-zip-download" disabled=move || busy.get()>
                        {move || if busy.get() { t.preparing } else { t.download }}
                    </button>
                    <button type="button" class="button" on:click=move |_| close.run(())>{t.cancel}</button>
                </div>
            </form>
        </Drawer>
    }
}
