//! The parts above the listing: the usage line, an admin's user picker, the breadcrumbs, the
//! toolbar (new folder, upload) and the new-folder form.

use leptos::prelude::*;
use moneydesk_model::vault::VaultUsage;

use super::paths::crumbs;
use super::place::{usage_text, Place};
use super::uploads::Queue;
use super::{listing, use_vault};
use crate::api;
use crate::api::request::{submit, Answer};
use crate::components::toasts::{use_toasts, ToastKind};
use crate::i18n::{fill, vault::text};
use crate::session::use_auth;

/// What the vault holds, in one line.
#[component]
pub fn UsageLine(usage: Answer<VaultUsage>) -> impl IntoView {
    view! {
        <span class="muted vault-usage" id="vault-usage">
            {move || usage.with(|u| match u {
                Some(Ok(u)) => usage_text(u),
                _ => String::new(),
            })}
        </span>
    }
}

/// An admin opens another user's vault (`go` moves to a place).
#[component]
pub fn UserPicker<F>(go: StoredValue<F>) -> impl IntoView
where
    F: Fn(Place) + Send + Sync + 'static,
{
    let user = use_vault().user;
    let picked_user = RwSignal::new(String::new());
    let t = text();
    view! {
        <form class="vault-user" on:submit=move |ev| {
            ev.prevent_default();
            let u = picked_user.get_untracked().trim().to_string();
            go.with_value(|g| g(Place::vault_of(u)));
        }>
            <label for="vault-user">{t.user}</label>
            <input id="vault-user" list="vault-users" placeholder=move || user.get() autocomplete="off"
                prop:value=move || picked_user.get() on:input=move |ev| picked_user.set(event_target_value(&ev))/>
            <listing::UserOptions/>
            <button type="submit" class="button">{t.open_vault}</button>
        </form>
    }
}

/// The folder's path, each step opening its folder.
#[component]
pub fn Crumbs(open: Callback<String>) -> impl IntoView {
    let place = use_vault().place;
    let t = text();
    view! {
        <nav class="vault-crumbs" aria-label=t.crumbs_label>
            <ol>
                <li><button type="button" class="link-button" on:click=move |_| open.run(String::new())
                    aria-current=move || place.with(|p| p.path.is_empty()).then_some("location")>{t.vault}</button></li>
                {move || crumbs(&place.get().path).into_iter().map(|(name, path)| {
                    let here = place.with_untracked(|p| p.path == path);
                    view! { <li><button type="button" class="link-button" aria-current=here.then_some("location")
                        on:click=move |_| open.run(path.clone())>{name}</button></li> }
                }).collect_view()}
            </ol>
        </nav>
    }
}

/// New folder (opens the form: `naming`) and uploads by button, for a writer; what the ticked
/// entries can do.
#[component]
pub fn Toolbar(queue: Queue, naming: RwSignal<bool>) -> impl IntoView {
    let vault = use_vault();
    let file_input = NodeRef::<leptos::html::Input>::new();
    let on_files = move |_| {
        let Some(input) = file_input.get() else { return };
        if let Some(list) = input.files() {
            let folder = vault.place.get_untracked().path;
            for i in 0..list.length() {
                if let Some(f) = list.get(i) {
                    queue.add(&folder, f);
                }
            }
        }
        input.set_value("");
    };
    let t = text();
    view! {
        <div class="vault-toolbar" role="toolbar" aria-label=t.toolbar_label>
            <Show when=move || vault.writer.get()>
                <button type="button" class="button" id="vault-new-folder" on:click=move |_| naming.set(true)>{t.new_folder}</button>
                <button type="button" class="button" id="vault-upload" on:click=move |_| {
                    if let Some(i) = file_input.get() {
                        i.click();
                    }
                }>{t.upload_files}</button>
                // Reached through the button (a file input cannot be styled as one).
                <input type="file" id="vault-upload-input" class="sr-only" multiple tabindex="-1" aria-hidden="true"
                    node_ref=file_input on:change=on_files/>
            </Show>
            <listing::SelectionActions/>
        </div>
    }
}

/// New folder: the name typed, the server's refusal shown beside the field.
#[component]
pub fn NewFolderForm(naming: RwSignal<bool>) -> impl IntoView {
    let auth = use_auth();
    let toasts = use_toasts();
    let vault = use_vault();
    let new_name = RwSignal::new(String::new());
    let name_error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let owner = Owner::current();
    let t = text();
    let create = Callback::new(move |()| {
        let name = new_name.get_untracked().trim().to_string();
        if name.is_empty() {
            name_error.set(Some(t.name_needed.into()));
            return;
        }
        let p = vault.place.get_untracked();
        name_error.set(None);
        submit(
            busy,
            &owner,
            || api::vault::create_folder(&auth.client(), &p.user, &p.path, &name),
            move |r| match r {
                Ok(f) => {
                    toasts.show(ToastKind::Success, fill(t.folder_created, &[&f.name]));
                    naming.set(false);
                    new_name.set(String::new());
                    vault.reload();
                }
                Err(e) => name_error.set(Some(e.to_string())),
            },
        );
    });
    view! {
        <Show when=move || naming.get()>
            <form class="vault-new-folder" on:submit=move |ev| { ev.prevent_default(); create.run(()); }>
                <label for="vault-folder-name">{t.folder_name}</label>
                <input id="vault-folder-name" autofocus maxlength="255"
                    aria-invalid=move || name_error.with(Option::is_some).then_some("true")
                    aria-describedby="vault-folder-name-error"
                    prop:value=move || new_name.get() on:input=move |ev| new_name.set(event_target_value(&ev))
                    on:keydown=move |ev: web_sys::KeyboardEvent| if ev.key() == "Escape" { naming.set(false); }/>
                <button type="submit" class="button primary" disabled=move || busy.get()>{t.create}</button>
                <button type="button" class="button" on:click=move |_| { naming.set(false); name_error.set(None); }>{t.cancel}</button>
                <p class="field-error" id="vault-folder-name-error" role="alert">{move || name_error.get()}</p>
            </form>
        </Show>
    }
}
