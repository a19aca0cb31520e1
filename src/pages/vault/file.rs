//! A file's drawer: its versions, newest first, each with a download (an older one with a
//! "Restore this version"); a preview of the latest
//! version when it is an image or a PDF (fetched with the token, shown from a blob URL); and a
//! rename. With `audit:read`, the file's Activity tab. The drawer holds three parts: the
//! preview, the [`Versions`] and the [`RenameForm`].

use leptos::prelude::*;
use moneydesk_model::vault::{FileRecord, VaultEntry};

use super::paths::{join, parent};
use super::use_vault;
use crate::api;
use crate::api::request::{submit, Answer};
use crate::api::ApiError;
use crate::components::download::save_blob;
use crate::components::drawer::Drawer;
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::format::bytes;
use crate::format::format_date_time;
use crate::i18n::{fill, vault::text};
use crate::pages::activity::tab::{WithActivity, FILE};
use crate::session::use_auth;

/// What the browser can show itself.
fn previewable(content_type: &str) -> Option<&'static str> {
    match content_type {
        "image/png" | "image/jpeg" | "image/gif" | "image/webp" => Some("image"),
        "application/pdf" => Some("pdf"),
        _ => None,
    }
}

#[component]
pub fn FileDrawer(entry: VaultEntry, close: Callback<()>) -> impl IntoView {
    let vault = use_vault();
    let auth = use_auth();
    let t = text();
    let user = vault.user.get_untracked();
    let record = Answer::<FileRecord>::new();
    record.load(api::vault::versions(&auth.client(), &user, &entry.path));
    let preview = load_preview(&entry, &user);
    let (name, path) = (entry.name.clone(), entry.path.clone());
    view! {
        <Drawer title=name.clone() id="vault-file" on_close=close>
            <WithActivity target_type=FILE target_id=format!("{user}/{path}")>
                <p class="muted">{format!("/{path}")}</p>
                {move || preview.get().map(|(url, kind)| if kind == "image" {
                    view! { <img class="vault-preview" src=url alt=fill(t.preview_of, &[&entry.name])/> }.into_any()
                } else {
                    view! { <iframe class="vault-preview" src=url title=fill(t.preview_of, &[&entry.name])></iframe> }.into_any()
                })}
                <h3>{t.versions}</h3>
                <Versions record user=user.clone() path=path.clone() name=name.clone()/>
                <Show when=move || vault.writer.get()>
                    <RenameForm user=user.clone() path=path.clone() name=name.clone() close/>
                </Show>
            </WithActivity>
        </Drawer>
    }
}

/// The latest version's preview, when the browser can show it: fetched with the token and
/// shown from a blob URL, revoked when the drawer goes.
fn load_preview(entry: &VaultEntry, user: &str) -> RwSignal<Option<(String, &'static str)>> {
    let preview = RwSignal::new(None::<(String, &'static str)>);
    if let Some(kind) = entry.content_type.as_deref().and_then(previewable) {
        let sent = api::vault::file(&use_auth().client(), user, &entry.path, None);
        leptos::task::spawn_local(async move {
            if let Ok(blob) = sent.await {
                if let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) {
                    if preview.try_set(Some((url.clone(), kind))).is_some() {
                        let _ = web_sys::Url::revoke_object_url(&url);
                    }
                }
            }
        });
    }
    on_cleanup(move || {
        if let Some((url, _)) = preview.try_get_untracked().flatten() {
            let _ = web_sys::Url::revoke_object_url(&url);
        }
    });
    preview
}

/// The file's versions, newest first, each with a download; an older one, for a writer, with
/// "Restore this version" (a new version with its bytes; the history stays).
#[component]
fn Versions(record: Answer<FileRecord>, user: String, path: String, name: String) -> impl IntoView {
    let vault = use_vault();
    let auth = use_auth();
    let toasts = use_toasts();
    let t = text();
    let owner = Owner::current();
    let downloading = RwSignal::new(false);
    let download = {
        let (user, path, owner) = (user.clone(), path.clone(), owner.clone());
        move |version: u32| {
            let (client, user, path, name) = (auth.client(), user.clone(), path.clone(), name.clone());
            submit(
                downloading,
                &owner,
                move || api::vault::file(&client, &user, &path, Some(version)),
                move |r| match r {
                    Ok(blob) => {
                        let _ = save_blob(&blob, &name);
                    }
                    Err(e) => toasts.show(ToastKind::Error, fill(t.download_failed, &[&e.to_string()])),
                },
            );
        }
    };
    let download = StoredValue::new(download);
    let restoring = RwSignal::new(false);
    let restore = move |version: u32| {
        let (client, user, path) = (auth.client(), user.clone(), path.clone());
        let reload = (auth.client(), user.clone(), path.clone());
        submit(
            restoring,
            &owner,
            move || api::vault::restore_version(&client, &user, &path, version),
            move |r: Result<VaultEntry, ApiError>| match r {
                Ok(e) => {
                    let now = e.versions.unwrap_or_default().to_string();
                    toasts.show(ToastKind::Success, fill(t.version_restored, &[&version.to_string(), &now]));
                    record.load(api::vault::versions(&reload.0, &reload.1, &reload.2));
                    vault.reload();
                }
                Err(e) => toasts.show(ToastKind::Error, e.to_string()),
            },
        );
    };
    let restore = StoredValue::new(restore);
    move || {
        record.with(|r| match r {
            None => view! { <p class="muted">{t.loading}</p> }.into_any(),
            Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
            Some(Ok(f)) => view! {
                <ol class="vault-versions" id="vault-versions">
                    {f.versions.iter().enumerate().map(|(i, v)| {
                        let n = v.version;
                        let older = i > 0;
                        view! {
                            <li data-version=n>
                                <span class="vault-version">{fill(t.version_n, &[&n.to_string()])}</span>
                                <span>{bytes(v.size)}</span>
                                <span class="muted">{format_date_time(&v.created_at).unwrap_or_else(|| v.created_at.clone())}</span>
                                <span class="muted">{fill(t.by, &[&v.uploaded_by])}</span>
                                <button type="button" class="button small" aria-label=fill(t.download_version, &[&n.to_string()])
                                    disabled=move || downloading.get()
                                    on:click=move |_| download.with_value(|d| d(n))>{t.download}</button>
                                <Show when=move || older && vault.writer.get()>
                                    <button type="button" class="button small vault-restore-version"
                                        aria-label=fill(t.restore_version_n, &[&n.to_string()])
                                        disabled=move || restoring.get()
                                        on:click=move |_| restore.with_value(|r| r(n))>{t.restore_version}</button>
                                </Show>
                            </li>
                        }
                    }).collect_view()}
                </ol>
            }.into_any(),
        })
    }
}

/// A new name for the file in its folder; the drawer closes once it is renamed.
#[component]
fn RenameForm(user: String, path: String, name: String, close: Callback<()>) -> impl IntoView {
    let vault = use_vault();
    let auth = use_auth();
    let toasts = use_toasts();
    let t = text();
    let owner = Owner::current();
    let new_name = RwSignal::new(name);
    let renaming = RwSignal::new(false);
    let rename_error = RwSignal::new(None::<String>);
    let rename = move || {
        let to_name = new_name.get_untracked().trim().to_string();
        let to = join(&parent(&path), &to_name);
        if to_name.is_empty() || to == path {
            return;
        }
        let (client, user, from) = (auth.client(), user.clone(), path.clone());
        submit(
            renaming,
            &owner,
            move || api::vault::move_file(&client, &user, &from, &to),
            move |r: Result<VaultEntry, ApiError>| match r {
                Ok(e) => {
                    toasts.show(ToastKind::Success, fill(t.renamed, &[&e.name]));
                    vault.reload();
                    close.run(());
                }
                Err(e) => rename_error.set(Some(e.to_string())),
            },
        );
    };
    view! {
        <form class="vault-rename" on:submit=move |ev| { ev.prevent_default(); rename(); }>
            <label for="vault-rename">{t.name}</label>
            <input id="vault-rename" maxlength="255" prop:value=move || new_name.get() on:input=move |ev| new_name.set(event_target_value(&ev))
                aria-describedby="vault-rename-error"/>
            <button type="submit" class="button" disabled=move || renaming.get()>{t.rename}</button>
            <p class="field-error" id="vault-rename-error" role="alert">{move || rename_error.get()}</p>
        </form>
    }
}
