//! A file's drawer: its versions, newest first, each with a download; a preview of the latest
//! version when it is an image or a PDF (fetched with the token, shown from a blob URL); and a
//! rename. With `audit:read`, the file's Activity tab.

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
    let toasts = use_toasts();
    let t = text();
    let user = vault.user.get_untracked();
    let record = Answer::<FileRecord>::new();
    record.load(api::vault::versions(&auth.client(), &user, &entry.path));

    // The preview's blob URL, revoked when the drawer goes.
    let preview = RwSignal::new(None::<(String, &'static str)>);
    if let Some(kind) = entry.content_type.as_deref().and_then(previewable) {
        let sent = api::vault::file(&auth.client(), &user, &entry.path, None);
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

    let downloading = RwSignal::new(false);
    let owner = Owner::current();
    let (name, path) = (entry.name.clone(), entry.path.clone());
    let download = {
        let (user, path, name, owner) = (user.clone(), path.clone(), name.clone(), owner.clone());
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

    let new_name = RwSignal::new(name.clone());
    let renaming = RwSignal::new(false);
    let rename_error = RwSignal::new(None::<String>);
    let rename = {
        let (user, path) = (user.clone(), path.clone());
        move || {
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
        }
    };
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
                {move || record.with(|r| match r {
                    None => view! { <p class="muted">{t.loading}</p> }.into_any(),
                    Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
                    Some(Ok(f)) => view! {
                        <ol class="vault-versions" id="vault-versions">
                            {f.versions.iter().map(|v| {
                                let n = v.version;
                                view! {
                                    <li data-version=n>
                                        <span class="vault-version">{fill(t.version_n, &[&n.to_string()])}</span>
                                        <span>{bytes(v.size)}</span>
                                        <span class="muted">{format_date_time(&v.created_at).unwrap_or_else(|| v.created_at.clone())}</span>
                                        <span class="muted">{fill(t.by, &[&v.uploaded_by])}</span>
                                        <button type="button" class="button small" aria-label=fill(t.download_version, &[&n.to_string()])
                                            disabled=move || downloading.get()
                                            on:click=move |_| download.with_value(|d| d(n))>{t.download}</button>
                                    </li>
                                }
                            }).collect_view()}
                        </ol>
                    }.into_any(),
                })}
                <Show when=move || vault.writer.get()>
                    <form class="vault-rename" on:submit={let rename = rename.clone(); move |ev| { ev.prevent_default(); rename(); }}>
                        <label for="vault-rename">{t.name}</label>
                        <input id="vault-rename" maxlength="255" prop:value=move || new_name.get() on:input=move |ev| new_name.set(event_target_value(&ev))
                            aria-describedby="vault-rename-error"/>
                        <button type="submit" class="button" disabled=move || renaming.get()>{t.rename}</button>
                        <p class="field-error" id="vault-rename-error" role="alert">{move || rename_error.get()}</p>
                    </form>
                </Show>
            </WithActivity>
        </Drawer>
    }
}
