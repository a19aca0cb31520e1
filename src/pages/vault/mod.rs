//! The document vault as a file manager: a folder tree (tree.rs), breadcrumbs and a sortable
//! listing of one folder (folders first), new folder, uploads by button or drop (files and whole folders) with
//! progress, multi-select (a click, a shift-click range, the page, or everything in the folder)
//! to move (a folder picker), download as zip or delete (a confirmation that counts what goes),
//! each one bulk request whose per-entry outcome the rows show, and a file's versions with
//! downloads and a preview (file.rs).
//! The trash (trash.rs, `trash=1`) lists what was deleted, to restore or delete for good.
//! The user (an admin may pick any), the folder, the sort and the page live in the URL; a
//! link's `file=` marks that file once its folder shows (landing.rs).

mod dialogs;
mod file;
mod head;
mod landing;
mod listing;
mod paths;
mod place;
mod trash;
mod tree;
mod uploads;

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use moneydesk_model::bulk::BulkSelect;
use moneydesk_model::vault::{VaultEntry, VaultUsage};
use moneydesk_model::{Page, Scope};

use self::head::{Crumbs, NewFolderForm, Toolbar, UsageLine, UserPicker};
use self::paths::join;
pub use self::place::Place;
use crate::api;
use crate::api::request::Answer;
use crate::components::error_view::ApiErrorView;
use crate::components::list_bulk::ListBulk;
use crate::components::selection::Selection;
use crate::components::toasts::{use_toasts, ToastKind, Toasts};
use crate::i18n::{fill, vault::text};
use crate::session::use_auth;

/// What a dialog is open for.
#[derive(Clone, Debug, PartialEq)]
pub enum Dialog {
    Move(Picked),
    Delete(Picked),
    /// The selection, or (none) the folder open.
    Zip(Option<Picked>),
    File(VaultEntry),
}

/// What the selection's actions apply to: the entries ticked on the page shown, or (`all`:
/// their count) every entry of the folder `folder`, which the server lists when it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Picked {
    pub folder: String,
    pub entries: Vec<VaultEntry>,
    pub all: Option<u64>,
}

impl Picked {
    /// The selection as a bulk request names it: the paths, or the folder's listing.
    pub fn select(&self) -> BulkSelect {
        match self.all {
            Some(_) => BulkSelect::filter([("path", self.folder.as_str())]),
            None => BulkSelect::ids(self.entries.iter().map(|e| e.path.clone())),
        }
    }

    pub fn count(&self) -> u64 {
        self.all.unwrap_or(self.entries.len() as u64)
    }

    /// The folders' paths when the selection names folders only (not "all matching"): the
    /// description's own folder operations do those (move one, delete several, zip several).
    pub fn folders_only(&self) -> Option<Vec<String>> {
        let all_folders = self.all.is_none()
            && !self.entries.is_empty()
            && self.entries.iter().all(|e| e.kind == moneydesk_model::vault::VaultEntryKind::Folder);
        all_folders.then(|| self.entries.iter().map(|e| e.path.clone()).collect())
    }
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
    /// The entries ticked in the listing (cleared when the place changes) and the last bulk
    /// action's answer.
    pub bulk: ListBulk,
    /// The entries shown, and how many the folder holds.
    pub entries: RwSignal<Vec<VaultEntry>>,
    pub total: RwSignal<Option<u64>>,
}

impl Vault {
    /// Something changed: what was ticked may be gone, and the listing loads again.
    pub fn reload(&self) {
        self.bulk.selection.try_update(Selection::clear);
        self.changed.try_update(|n| *n += 1);
    }

    /// What the selection's actions apply to now.
    pub fn picked(&self) -> Picked {
        let (folder, sel) = (self.place.with_untracked(|p| p.path.clone()), self.bulk.selection.get_untracked());
        let entries = self.entries.with_untracked(|e| e.iter().filter(|e| sel.contains(&e.path)).cloned().collect());
        Picked { folder, entries, all: sel.all_matching.then(|| self.total.get_untracked().unwrap_or(0)) }
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
        query.with(|q| Place::from_query(|k| q.get_str(k).map(str::to_string), admin.get(), &own.get()))
    });
    let user = Signal::derive(move || place.with(|p| p.user.clone()));
    let changed = RwSignal::new(0u32);
    let vault = Vault {
        place,
        user,
        changed,
        dialog: RwSignal::new(None),
        writer: Memo::new(move |_| auth.can(Scope::VaultWrite)),
        bulk: ListBulk::new(),
        entries: RwSignal::new(Vec::new()),
        total: RwSignal::new(None),
    };
    Effect::new(move |_| {
        place.track();
        vault.bulk.selection.set(Selection::default());
        vault.bulk.ran.set(None);
    });
    provide_context(vault);
    let queue = uploads::Queue::new(user, changed);
    provide_context(queue);

    // Moves to another place of the vault (the URL keeps it; Back returns).
    let go = StoredValue::new(move |p: Place| {
        let search = search_of(&p, admin.get_untracked(), &own.get_untracked());
        let path = config.relative(&location.pathname.get_untracked()).to_string();
        let to = if search.is_empty() { path } else { format!("{path}?{search}") };
        navigate(&to, NavigateOptions { scroll: false, ..Default::default() });
    });
    let open = Callback::new(move |path: String| {
        let p = place.get_untracked();
        go.with_value(|g| g(Place { path, page: 1, trash: false, ..p }));
    });
    let resort = Callback::new(move |sort: String| {
        let p = place.get_untracked();
        go.with_value(|g| g(Place { sort, page: 1, ..p }));
    });
    let turn = Callback::new(move |page: u32| {
        let p = place.get_untracked();
        go.with_value(|g| g(Place { page, ..p }));
    });
    // The trash and back (the URL keeps it: `trash=1`).
    let trash_shown = Memo::new(move |_| place.with(|p| p.trash));
    let show_trash = Callback::new(move |on: bool| {
        let p = place.get_untracked();
        go.with_value(|g| g(Place { trash: on, page: 1, ..p }));
    });
    // `try_`: leaving the page changes the location before the page is gone, and this link
    // is read again then, its memos already disposed (a panic, seen in the e2e shell test).
    let trash_href = move || {
        let p = Place { trash: true, page: 1, ..place.try_get()? };
        Some(format!("{}?{}", location.pathname.try_get()?, search_of(&p, admin.try_get()?, &own.try_get()?)))
    };

    let (listing, usage) = load_place(vault);
    let gone = landing::follow(vault, listing, turn);
    let dragging = RwSignal::new(false);
    let t = text();
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        if !vault.writer.get_untracked() {
            return;
        }
        let Some(data) = ev.data_transfer() else { return };
        upload_dropped(data, place.get_untracked(), vault, queue, auth.client(), toasts);
    };

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
                <h1>{move || if trash_shown.get() { t.trash } else { t.heading }}</h1>
                <UsageLine usage/>
                <Show when=move || !trash_shown.get()>
                    <a class="button" id="vault-trash-link" href=trash_href
                        on:click=move |ev| { ev.prevent_default(); show_trash.run(true); }>{t.trash}</a>
                </Show>
            </div>
            <Show when=move || admin.get()>
                <UserPicker go/>
            </Show>
            <Show when=move || trash_shown.get()>
                <trash::TrashView back=Callback::new(move |()| show_trash.run(false))/>
            </Show>
            <Show when=move || !trash_shown.get()>
                <Folder listing gone queue open resort turn/>
            </Show>
            <dialogs::Dialogs/>
        </section>
    }
}

/// The place's listing (not in the trash) and the user's usage, loaded again on any change;
/// the listing's entries and total kept where the selection's actions see them.
fn load_place(vault: Vault) -> (Answer<Page<VaultEntry>>, Answer<VaultUsage>) {
    let auth = use_auth();
    let (place, changed) = (vault.place, vault.changed);
    let listing = Answer::<Page<VaultEntry>>::new();
    let usage = Answer::<VaultUsage>::new();
    Effect::new(move |_| {
        let p = place.get();
        changed.track();
        if p.user.is_empty() {
            return;
        }
        usage.load(api::vault::usage(&auth.client(), &p.user));
        if p.trash {
            return;
        }
        listing.load(api::vault::contents(&auth.client(), &p.user, &p.path, p.page, &p.sort));
    });
    Effect::new(move |_| {
        listing.with(|l| {
            let (entries, total) = match l {
                Some(Ok(page)) => (page.content.clone(), Some(page.total_elements)),
                _ => (Vec::new(), None),
            };
            vault.entries.set(entries);
            vault.total.set(total);
        })
    });
    (listing, usage)
}

/// The query of a place's URL, its values encoded.
fn search_of(p: &Place, admin: bool, own: &str) -> String {
    let pairs = p.query(admin, own);
    let search: Vec<String> =
        pairs.iter().map(|(k, v)| format!("{k}={}", String::from(js_sys::encode_uri_component(v)))).collect();
    search.join("&")
}

/// A folder of the vault: its crumbs, toolbar, uploads, tree and listing.
#[component]
fn Folder(
    listing: Answer<Page<VaultEntry>>,
    gone: RwSignal<Option<String>>,
    queue: uploads::Queue,
    open: Callback<String>,
    resort: Callback<String>,
    turn: Callback<u32>,
) -> impl IntoView {
    let vault = expect_context::<Vault>();
    let naming = RwSignal::new(false);
    let t = text();
    view! {
        <Crumbs open/>
        <landing::Gone said=gone/>
        <Toolbar queue naming/>
        <NewFolderForm naming/>
        <p class="muted vault-hint">
            {move || if vault.writer.get() { t.hint_writer } else { t.hint_reader }}
        </p>
        <uploads::UploadPanel queue/>
        <div class="vault-body">
            <tree::FolderTree open/>
            <div class="vault-main">
                {move || listing.with(|l| match l {
                    None => view! { <p class="muted" aria-busy="true">{t.loading}</p> }.into_any(),
                    Some(Err(e)) => view! { <ApiErrorView error=e.clone() retry=Callback::new(move |()| vault.reload())/> }.into_any(),
                    Some(Ok(page)) => view! { <listing::Listing page=page.clone() open resort turn/> }.into_any(),
                })}
            </div>
        </div>
    }
}

/// What was dropped, uploaded into the place `p`: its folders made first (one already there
/// is fine), then its files queued.
fn upload_dropped(
    data: web_sys::DataTransfer,
    p: Place,
    vault: Vault,
    queue: uploads::Queue,
    client: crate::api::Client,
    toasts: Toasts,
) {
    leptos::task::spawn_local(async move {
        let (folders, files) = uploads::dropped(data).await;
        for f in &folders {
            let (parent, name) = (paths::parent(&join(&p.path, f)), paths::name(f).to_string());
            // An existing folder is fine (409): the files go into it.
            if let Err(e) = api::vault::create_folder(&client, &p.user, &parent, &name).await {
                if e.status() != Some(409) {
                    toasts.show(ToastKind::Error, fill(text().folder_not_created, &[f, &e.to_string()]));
                }
            }
        }
        for (dir, file) in files {
            queue.add(&join(&p.path, &dir), file);
        }
        vault.reload();
    });
}
