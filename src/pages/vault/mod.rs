//! The document vault as a file manager: a folder tree (tree.rs), breadcrumbs and a sortable
//! listing of one folder (folders first), new folder, uploads by button or drop (files and whole folders) with
//! progress, multi-select to move (a folder picker), download as zip or delete (a confirmation
//! that counts what goes), and a file's versions with downloads and a preview (file.rs).
//! The user (an admin may pick any), the folder, the sort and the page live in the URL.

mod dialogs;
mod file;
mod listing;
mod paths;
mod tree;
mod uploads;

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use moneydesk_model::vault::{VaultEntry, VaultUsage};
use moneydesk_model::{Page, Scope};

use crate::api;
use crate::api::request::{submit, Answer};
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::session::use_auth;
use paths::{bytes, count, crumbs, join};

/// What a dialog is open for.
#[derive(Clone, Debug, PartialEq)]
pub enum Dialog {
    Move(Vec<VaultEntry>),
    Delete(Vec<VaultEntry>),
    Zip(Vec<String>),
    File(VaultEntry),
}

/// The page's place: whose vault, which folder, in what order, which page.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub user: String,
    pub path: String,
    pub sort: String,
    pub page: u32,
}

/// What the page's parts share (context).
#[derive(Clone, Copy)]
pub struct Vault {
    pub place: Memo<Place>,
    pub user: Signal<String>,
    /// Bumped by any change: the listing and the usage load again.
    pub changed: RwSignal<u32>,
    pub dialog: RwSignal<Option<Dialog>>,
    pub writer: Memo<bool>,
    /// The entries ticked in the listing (cleared when the folder changes).
    pub selected: RwSignal<Vec<VaultEntry>>,
}

impl Vault {
    /// Something changed: what was ticked may be gone, and the listing loads again.
    pub fn reload(&self) {
        self.selected.try_set(Vec::new());
        self.changed.try_update(|n| *n += 1);
    }
}

pub fn use_vault() -> Vault {
    expect_context::<Vault>()
}

#[component]
pub fn VaultPage() -> impl IntoView {
    let auth = use_auth();
    let query = use_query_map();
    let navigate = use_navigate();
    let location = use_location();
    // Embedded, the browser path starts with the host's base path, which navigate adds itself.
    let config = use_context::<crate::config::AppConfig>().unwrap_or_default();
    let toasts = use_toasts();
    let admin = Memo::new(move |_| auth.can(Scope::Admin));
    let own = Memo::new(move |_| auth.session.with(|s| s.as_ref().and_then(|s| s.user_id.clone())).unwrap_or_default());
    let place = Memo::new(move |_| {
        query.with(|q| Place {
            // Only an admin reaches another user's vault; anyone else sees their own.
            user: q
                .get_str("user")
                .filter(|u| !u.is_empty() && admin.get())
                .map(str::to_string)
                .unwrap_or_else(|| own.get()),
            path: q.get_str("path").unwrap_or_default().trim_matches('/').to_string(),
            sort: q.get_str("sort").filter(|s| !s.is_empty()).unwrap_or("name,asc").to_string(),
            page: q.get_str("page").and_then(|p| p.parse().ok()).filter(|p| *p >= 1).unwrap_or(1),
        })
    });
    let user = Signal::derive(move || place.with(|p| p.user.clone()));
    let changed = RwSignal::new(0u32);
    let vault = Vault {
        place,
        user,
        changed,
        dialog: RwSignal::new(None),
        writer: Memo::new(move |_| auth.can(Scope::VaultWrite)),
        selected: RwSignal::new(Vec::new()),
    };
    Effect::new(move |_| {
        place.track();
        vault.selected.set(Vec::new());
    });
    provide_context(vault);
    let queue = uploads::Queue::new(user, changed);
    provide_context(queue);

    // Moves to another place of the vault (the URL keeps it; Back returns).
    let go = StoredValue::new(move |p: Place| {
        let mut pairs: Vec<(String, String)> = Vec::new();
        if admin.get_untracked() && p.user != own.get_untracked() {
            pairs.push(("user".into(), p.user.clone()));
        }
        if !p.path.is_empty() {
            pairs.push(("path".into(), p.path.clone()));
        }
        if p.sort != "name,asc" {
            pairs.push(("sort".into(), p.sort.clone()));
        }
        if p.page > 1 {
            pairs.push(("page".into(), p.page.to_string()));
        }
        let search: Vec<String> =
            pairs.iter().map(|(k, v)| format!("{k}={}", String::from(js_sys::encode_uri_component(v)))).collect();
        let search = search.join("&");
        let path = config.relative(&location.pathname.get_untracked()).to_string();
        let to = if search.is_empty() { path } else { format!("{path}?{search}") };
        navigate(&to, NavigateOptions { scroll: false, ..Default::default() });
    });
    let open = Callback::new(move |path: String| {
        let p = place.get_untracked();
        go.with_value(|g| g(Place { path, page: 1, ..p }));
    });
    let resort = Callback::new(move |sort: String| {
        let p = place.get_untracked();
        go.with_value(|g| g(Place { sort, page: 1, ..p }));
    });
    let turn = Callback::new(move |page: u32| {
        let p = place.get_untracked();
        go.with_value(|g| g(Place { page, ..p }));
    });

    let listing = Answer::<Page<VaultEntry>>::new();
    let usage = Answer::<VaultUsage>::new();
    Effect::new(move |_| {
        let p = place.get();
        changed.track();
        if p.user.is_empty() {
            return;
        }
        listing.load(api::vault::contents(&auth.client(), &p.user, &p.path, p.page, &p.sort));
        usage.load(api::vault::usage(&auth.client(), &p.user));
    });

    // New folder: the name typed, the server's refusal shown beside the field.
    let naming = RwSignal::new(false);
    let new_name = RwSignal::new(String::new());
    let name_error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let owner = Owner::current();
    let create = Callback::new(move |()| {
        let name = new_name.get_untracked().trim().to_string();
        if name.is_empty() {
            name_error.set(Some("Give the folder a name.".into()));
            return;
        }
        let p = place.get_untracked();
        name_error.set(None);
        submit(
            busy,
            &owner,
            || api::vault::create_folder(&auth.client(), &p.user, &p.path, &name),
            move |r| match r {
                Ok(f) => {
                    toasts.show(ToastKind::Success, format!("Folder “{}” created.", f.name));
                    naming.set(false);
                    new_name.set(String::new());
                    vault.reload();
                }
                Err(e) => name_error.set(Some(e.to_string())),
            },
        );
    });

    let file_input = NodeRef::<leptos::html::Input>::new();
    let on_files = move |_| {
        let Some(input) = file_input.get() else { return };
        if let Some(list) = input.files() {
            let folder = place.get_untracked().path;
            for i in 0..list.length() {
                if let Some(f) = list.get(i) {
                    queue.add(&folder, f);
                }
            }
        }
        input.set_value("");
    };
    let dragging = RwSignal::new(false);
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        if !vault.writer.get_untracked() {
            return;
        }
        let Some(data) = ev.data_transfer() else { return };
        let p = place.get_untracked();
        let client = auth.client();
        leptos::task::spawn_local(async move {
            let (folders, files) = uploads::dropped(data).await;
            for f in &folders {
                let (parent, name) = (paths::parent(&join(&p.path, f)), paths::name(f).to_string());
                // An existing folder is fine (409): the files go into it.
                if let Err(e) = api::vault::create_folder(&client, &p.user, &parent, &name).await {
                    if e.status() != Some(409) {
                        toasts.show(ToastKind::Error, format!("Folder “{f}” could not be created: {e}"));
                    }
                }
            }
            for (dir, file) in files {
                queue.add(&join(&p.path, &dir), file);
            }
            vault.reload();
        });
    };

    let picked_user = RwSignal::new(String::new());
    view! {
        <section
            class="page vault-page"
            class:vault-dragging=move || dragging.get()
            on:dragover=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                dragging.set(vault.writer.get_untracked());
            }
            on:dragleave=move |_| dragging.set(false)
            on:drop=on_drop
        >
            <div class="page-head">
                <h1>"Document vault"</h1>
                <span class="muted vault-usage" id="vault-usage">
                    {move || usage.with(|u| match u {
                        Some(Ok(u)) => format!(
                            "{}: {}, {}, {} · {} ({} stored)",
                            u.user_id,
                            count(u.folders, "folder", "folders"),
                            count(u.files, "file", "files"),
                            count(u.versions, "version", "versions"),
                            bytes(u.bytes),
                            bytes(u.stored_bytes)
                        ),
                        _ => String::new(),
                    })}
                </span>
            </div>
            <Show when=move || admin.get()>
                <form class="vault-user" on:submit=move |ev| {
                    ev.prevent_default();
                    let u = picked_user.get_untracked().trim().to_string();
                    go.with_value(|g| g(Place { user: u, path: String::new(), sort: "name,asc".into(), page: 1 }));
                }>
                    <label for="vault-user">"User"</label>
                    <input id="vault-user" list="vault-users" placeholder=move || user.get() autocomplete="off"
                        prop:value=move || picked_user.get() on:input=move |ev| picked_user.set(event_target_value(&ev))/>
                    <listing::UserOptions/>
                    <button type="submit" class="button">"Open vault"</button>
                </form>
            </Show>
            <nav class="vault-crumbs" aria-label="Folder">
                <ol>
                    <li><button type="button" class="link-button" on:click=move |_| open.run(String::new())
                        aria-current=move || place.with(|p| p.path.is_empty()).then_some("location")>"Vault"</button></li>
                    {move || crumbs(&place.get().path).into_iter().map(|(name, path)| {
                        let here = place.with_untracked(|p| p.path == path);
                        view! { <li><button type="button" class="link-button" aria-current=here.then_some("location")
                            on:click=move |_| open.run(path.clone())>{name}</button></li> }
                    }).collect_view()}
                </ol>
            </nav>
            <div class="vault-toolbar" role="toolbar" aria-label="Folder actions">
                <Show when=move || vault.writer.get()>
                    <button type="button" class="button" id="vault-new-folder" on:click=move |_| naming.set(true)>"New folder"</button>
                    <button type="button" class="button" id="vault-upload" on:click=move |_| {
                        if let Some(i) = file_input.get() {
                            i.click();
                        }
                    }>"Upload files"</button>
                    // Reached through the button (a file input cannot be styled as one).
                    <input type="file" id="vault-upload-input" class="sr-only" multiple tabindex="-1" aria-hidden="true"
                        node_ref=file_input on:change=on_files/>
                </Show>
                <listing::SelectionActions/>
            </div>
            <Show when=move || naming.get()>
                <form class="vault-new-folder" on:submit=move |ev| { ev.prevent_default(); create.run(()); }>
                    <label for="vault-folder-name">"Folder name"</label>
                    <input id="vault-folder-name" autofocus maxlength="255"
                        aria-invalid=move || name_error.with(Option::is_some).then_some("true")
                        aria-describedby="vault-folder-name-error"
                        prop:value=move || new_name.get() on:input=move |ev| new_name.set(event_target_value(&ev))
                        on:keydown=move |ev: web_sys::KeyboardEvent| if ev.key() == "Escape" { naming.set(false); }/>
                    <button type="submit" class="button primary" disabled=move || busy.get()>"Create"</button>
                    <button type="button" class="button" on:click=move |_| { naming.set(false); name_error.set(None); }>"Cancel"</button>
                    <p class="field-error" id="vault-folder-name-error" role="alert">{move || name_error.get()}</p>
                </form>
            </Show>
            <p class="muted vault-hint">
                {move || if vault.writer.get() { "Drop files or folders anywhere on this page to upload them here." } else { "This token can read the vault; changing it needs vault:write." }}
            </p>
            <uploads::UploadPanel queue/>
            <div class="vault-body">
                <tree::FolderTree open/>
                <div class="vault-main">
                    {move || listing.with(|l| match l {
                        None => view! { <p class="muted" aria-busy="true">"Loading…"</p> }.into_any(),
                        Some(Err(e)) => view! { <ApiErrorView error=e.clone() retry=Callback::new(move |()| vault.reload())/> }.into_any(),
                        Some(Ok(page)) => view! { <listing::Listing page=page.clone() open resort turn/> }.into_any(),
                    })}
                </div>
            </div>
            <dialogs::Dialogs/>
        </section>
    }
}
