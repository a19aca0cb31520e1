//! The trash (`?trash=1`): what was deleted from the vault and not yet purged, newest first,
//! each with Restore (to where it was, or another path when that place is taken) and Delete
//! forever, and Empty trash; each through a confirmation drawer like the page's others.

use leptos::prelude::*;
use moneydesk_model::vault::{TrashItem, VaultEntry, VaultEntryKind};
use moneydesk_model::Page;

use super::paths::{counted, kind};
use super::use_vault;
use crate::api;
use crate::api::request::{submit, Answer};
use crate::api::ApiError;
use crate::components::drawer::Drawer;
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::format::{bytes, format_date_time};
use crate::i18n::{fill, vault::text};
use crate::session::use_auth;

/// What a trash dialog is open for.
#[derive(Clone, Debug, PartialEq)]
enum Ask {
    Restore(TrashItem),
    Forget(TrashItem),
    Empty(u64),
}

fn when(t: &str) -> String {
    format_date_time(t).unwrap_or_else(|| t.to_string())
}

#[component]
pub fn TrashView(back: Callback<()>) -> impl IntoView {
    let vault = use_vault();
    let auth = use_auth();
    let t = text();
    let page = RwSignal::new(1u32);
    let ask = RwSignal::new(None::<Ask>);
    let listing = Answer::<Page<TrashItem>>::new();
    Effect::new(move |_| {
        vault.changed.track();
        let user = vault.user.get();
        if !user.is_empty() {
            listing.load(api::vault::trash(&auth.client(), &user, page.get()));
        }
    });
    let close = Callback::new(move |()| ask.set(None));
    view! {
        <div class="vault-trash" id="vault-trash">
            <div class="vault-toolbar">
                <button type="button" class="button" id="vault-trash-back" on:click=move |_| back.run(())>{t.back_to_vault}</button>
                {move || listing.with(|l| match l {
                    Some(Ok(p)) if p.total_elements > 0 && vault.writer.get() => {
                        let n = p.total_elements;
                        Some(view! {
                            <button type="button" class="button danger" id="vault-empty-trash"
                                on:click=move |_| ask.set(Some(Ask::Empty(n)))>{t.empty_trash}</button>
                        })
                    }
                    _ => None,
                })}
            </div>
            <p class="muted vault-hint">{t.trash_hint}</p>
            {move || listing.with(|l| match l {
                None => view! { <p class="muted" aria-busy="true">{t.loading}</p> }.into_any(),
                Some(Err(e)) => view! { <ApiErrorView error=e.clone() retry=Callback::new(move |()| vault.reload())/> }.into_any(),
                Some(Ok(p)) if p.content.is_empty() => view! { <p class="muted vault-empty" id="vault-trash-empty">{t.trash_empty}</p> }.into_any(),
                Some(Ok(p)) => view! { <TrashTable page=p.clone() ask turn=Callback::new(move |n| page.set(n))/> }.into_any(),
            })}
            {move || ask.get().map(|a| match a {
                Ask::Restore(item) => view! { <RestoreDialog item close/> }.into_any(),
                Ask::Forget(item) => view! { <ForgetDialog item close/> }.into_any(),
                Ask::Empty(n) => view! { <EmptyDialog n close/> }.into_any(),
            })}
        </div>
    }
}

#[component]
fn TrashTable(page: Page<TrashItem>, ask: RwSignal<Option<Ask>>, turn: Callback<u32>) -> impl IntoView {
    let vault = use_vault();
    let t = text();
    let (number, pages, total) = (page.number as u32 + 1, page.total_pages.max(1) as u32, page.total_elements);
    let rows = page.content.into_iter().map(|item| {
        let (icon, _) = kind(item.kind == VaultEntryKind::Folder);
        let (restore, forget) = (item.clone(), item.clone());
        let label = |action: &str| fill(t.item_action, &[action, &item.name]);
        let (restore_label, forget_label) = (label(t.restore), label(t.delete_forever));
        view! {
            <tr data-path=item.path.clone()>
                <td><span class=icon aria-hidden="true"></span>{item.name.clone()}</td>
                <td>{format!("/{}", item.path)}</td>
                <td>{bytes(item.size)}</td>
                <td>{when(&item.deleted_at)}</td>
                <td>{item.deleted_by.clone()}</td>
                <td>{when(&item.purge_at)}</td>
                <td>
                    <Show when=move || vault.writer.get()>
                        <button type="button" class="button small vault-restore" aria-label=restore_label.clone()
                            on:click={let r = restore.clone(); move |_| ask.set(Some(Ask::Restore(r.clone())))}>{t.restore}</button>
                        <button type="button" class="button small danger vault-forget" aria-label=forget_label.clone()
                            on:click={let f = forget.clone(); move |_| ask.set(Some(Ask::Forget(f.clone())))}>{t.delete_forever}</button>
                    </Show>
                </td>
            </tr>
        }
    });
    view! {
        <div class="table-scroll vault-table-wrap" tabindex="0" role="region" aria-label=t.trash>
            <table class="data-table vault-table" id="vault-trash-table">
                <caption class="sr-only">{t.trash}</caption>
                <thead>
                    <tr>
                        {t.trash_columns.iter().map(|c| view! { <th scope="col">{*c}</th> }).collect_view()}
                        <th scope="col"><span class="sr-only">{t.restore}</span></th>
                    </tr>
                </thead>
                <tbody>{rows.collect_view()}</tbody>
            </table>
        </div>
        <div class="vault-pager">
            <span class="muted table-total">{fill(t.pager, &[&counted(total, t.item), &number.to_string(), &pages.to_string()])}</span>
            <button type="button" class="button" disabled={number <= 1} on:click=move |_| turn.run(number - 1)>{t.previous}</button>
            <button type="button" class="button" disabled={number >= pages} on:click=move |_| turn.run(number + 1)>{t.next}</button>
        </div>
    }
}

/// Restores to the path it had, or to the path typed (when that place is taken: the 409 says
/// so in the drawer).
#[component]
fn RestoreDialog(item: TrashItem, close: Callback<()>) -> impl IntoView {
    let (vault, auth, toasts, t) = (use_vault(), use_auth(), use_toasts(), text());
    let (busy, failed) = (RwSignal::new(false), RwSignal::new(None::<ApiError>));
    let to = RwSignal::new(format!("/{}", item.path));
    let owner = Owner::current();
    let (id, was, name) = (item.id, item.path.clone(), item.name.clone());
    let confirm = move || {
        let typed = to.get_untracked().trim().trim_matches('/').to_string();
        let chosen = (typed != was).then_some(typed);
        let (client, user, name) = (auth.client(), vault.user.get_untracked(), name.clone());
        submit(
            busy,
            &owner,
            move || api::vault::restore(&client, &user, id, chosen.as_deref()),
            move |r: Result<VaultEntry, ApiError>| match r {
                Ok(e) => {
                    toasts.show(ToastKind::Success, fill(t.restored, &[&name, &e.path]));
                    vault.reload();
                    close.run(());
                }
                Err(e) => failed.set(Some(e)),
            },
        );
    };
    view! {
        <Drawer title=fill(t.restore_title, &[&item.name]) id="vault-restore-dialog" on_close=close>
            <form on:submit={let confirm = confirm.clone(); move |ev| { ev.prevent_default(); confirm(); }}>
                <label for="vault-restore-path">{t.restore_to}</label>
                <input id="vault-restore-path" maxlength="4096" aria-describedby="vault-restore-hint"
                    prop:value=move || to.get() on:input=move |ev| to.set(event_target_value(&ev))/>
                <p class="muted" id="vault-restore-hint">{t.restore_to_hint}</p>
                {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
                <div class="drawer-actions">
                    <button type="submit" class="button primary" id="vault-restore-confirm" disabled=move || busy.get()>{t.restore}</button>
                    <button type="button" class="button" on:click=move |_| close.run(())>{t.cancel}</button>
                </div>
            </form>
        </Drawer>
    }
}

/// One trashed item deleted for good, after a confirmation.
#[component]
fn ForgetDialog(item: TrashItem, close: Callback<()>) -> impl IntoView {
    let (vault, auth, toasts, t) = (use_vault(), use_auth(), use_toasts(), text());
    let (busy, failed) = (RwSignal::new(false), RwSignal::new(None::<ApiError>));
    let owner = Owner::current();
    let (id, name) = (item.id, item.name.clone());
    let confirm = move || {
        let (client, user, name) = (auth.client(), vault.user.get_untracked(), name.clone());
        submit(
            busy,
            &owner,
            move || api::vault::purge(&client, &user, id),
            move |r| match r {
                Ok(_) => {
                    toasts.show(ToastKind::Success, fill(t.deleted_forever, &[&name]));
                    vault.reload();
                    close.run(());
                }
                Err(e) => failed.set(Some(e)),
            },
        );
    };
    view! {
        <Drawer title=fill(t.delete_forever_title, &[&item.name]) id="vault-forget-dialog" on_close=close>
            <p>{format!("/{}", item.path)}</p>
            <p role="status">{t.delete_forever_body}</p>
            {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
            <div class="drawer-actions">
                <button type="button" class="button danger" id="vault-forget-confirm" disabled=move || busy.get()
                    on:click=move |_| confirm()>{t.delete_forever}</button>
                <button type="button" class="button" on:click=move |_| close.run(())>{t.cancel}</button>
            </div>
        </Drawer>
    }
}

/// The whole trash deleted for good, after a confirmation that counts it.
#[component]
fn EmptyDialog(n: u64, close: Callback<()>) -> impl IntoView {
    let (vault, auth, toasts, t) = (use_vault(), use_auth(), use_toasts(), text());
    let (busy, failed) = (RwSignal::new(false), RwSignal::new(None::<ApiError>));
    let owner = Owner::current();
    let confirm = move || {
        let (client, user) = (auth.client(), vault.user.get_untracked());
        submit(
            busy,
            &owner,
            move || api::vault::empty_trash(&client, &user),
            move |r| match r {
                Ok(_) => {
                    toasts.show(ToastKind::Success, t.emptied.to_string());
                    vault.reload();
                    close.run(());
                }
                Err(e) => failed.set(Some(e)),
            },
        );
    };
    view! {
        <Drawer title=t.empty_trash_title id="vault-empty-dialog" on_close=close>
            <p role="status">{fill(t.empty_trash_body, &[&counted(n, t.item)])}</p>
            {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
            <div class="drawer-actions">
                <button type="button" class="button danger" id="vault-empty-confirm" disabled=move || busy.get()
                    on:click=move |_| confirm()>{t.empty_trash}</button>
                <button type="button" class="button" on:click=move |_| close.run(())>{t.cancel}</button>
            </div>
        </Drawer>
    }
}
