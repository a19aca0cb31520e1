//! The data table's saved views: a menu in the table's toolbar that saves the current view
//! (the URL query the table owns, without `page`, with the columns shown as `cols=`) by name
//! on the server, lists the user's views of this table (fetched when the menu first opens),
//! applies one (a link: the page's path and the view's query), deletes one and copies a
//! view's link. Mounted by the table's
//! toolbar (`data_table/build.rs`), so it loads with the table, in the pages' lazy chunks.

use leptos::prelude::*;
use moneydesk_model::views::{view_link, SavedView, ViewName};

use crate::api;
use crate::components::data_table::state::{columns_pair, encode};
use crate::components::data_table::Ctx;
use crate::i18n::components::text;
use crate::i18n::fill;
use crate::session::Auth;

/// Mounts the menu at the end of `parent` (the toolbar's actions), owned by the table: it goes
/// when the table goes.
pub(crate) fn mount(parent: &web_sys::Element, ctx: Ctx) {
    use wasm_bindgen::JsCast;
    let (Some(owner), Ok(parent)) = (ctx.owner.get_value(), parent.clone().dyn_into::<web_sys::HtmlElement>()) else {
        return;
    };
    let (view, visible) = (ctx.view, ctx.visible);
    let table = ctx.id;
    owner.with(move || {
        // The view as a link would carry it, but on its first page, with the columns shown.
        let query = Signal::derive(move || {
            let cols = visible.with(|c| columns_pair(Some(c)));
            view.with(|v| {
                encode(&v.url_pairs().into_iter().filter(|(k, _)| k != "page").chain(cols).collect::<Vec<_>>())
            })
        });
        // Untracked: built inside one of the table's effects, which must not rerun on its reads.
        let handle = untrack(|| leptos::mount::mount_to(parent, move || view! { <SavedViews table query/> }));
        StoredValue::new_local(handle);
    });
}

/// The page's URL (its path as the browser shows it) with `query`.
fn link(query: &str) -> String {
    let path = window().location().pathname().unwrap_or_default();
    view_link(&path, query)
}

#[component]
fn SavedViews(table: &'static str, query: Signal<String>) -> impl IntoView {
    let Some(auth) = use_context::<Auth>() else { return ().into_any() };
    let views = RwSignal::new(None::<Vec<SavedView>>);
    let said = RwSignal::new(String::new());
    let name = RwSignal::new(String::new());
    let menu = NodeRef::<leptos::html::Details>::new();
    let name_id = format!("{table}-view-name");
    let t = &text().views;

    let load = move || {
        if views.with_untracked(Option::is_some) {
            return;
        }
        views.set(Some(Vec::new()));
        let list = api::views::list(&auth.client(), table);
        leptos::task::spawn_local(async move {
            match list.await {
                Ok(found) => drop(views.try_set(Some(found))),
                Err(e) => drop(said.try_set(fill(t.not_loaded, &[&e.to_string()]))),
            }
        });
    };
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let given = name.get_untracked();
        let wanted = match given.parse::<ViewName>() {
            Ok(n) => n,
            Err(e) => return said.set(fill(t.name_needed, &[&e.to_string()])),
        };
        let request = api::views::save(&auth.client(), table, wanted.as_str(), &query.get_untracked());
        leptos::task::spawn_local(async move {
            match request.await {
                Ok(saved) => {
                    let text = fill(t.saved, &[&saved.name]);
                    views.try_update(|v| {
                        let list = v.get_or_insert_with(Vec::new);
                        list.retain(|old| old.name != saved.name);
                        list.push(saved);
                        list.sort_by(|a, b| a.name.cmp(&b.name));
                    });
                    name.try_set(String::new());
                    said.try_set(text);
                }
                Err(e) => drop(said.try_set(fill(t.not_saved, &[&e.to_string()]))),
            }
        });
    };
    let remove = move |gone: String| {
        let request = api::views::delete(&auth.client(), table, &gone);
        leptos::task::spawn_local(async move {
            match request.await {
                Ok(_) => {
                    views.try_update(|v| v.iter_mut().for_each(|l| l.retain(|old| old.name != gone)));
                    said.try_set(fill(t.deleted, &[&gone]));
                }
                Err(e) => drop(said.try_set(fill(t.not_deleted, &[&e.to_string()]))),
            }
        });
    };
    let copy = move |v: &SavedView| {
        let origin = window().location().origin().unwrap_or_default();
        let promise = window().navigator().clipboard().write_text(&format!("{origin}{}", link(&v.query)));
        let name = v.name.clone();
        leptos::task::spawn_local(async move {
            let done = wasm_bindgen_futures::JsFuture::from(promise).await;
            said.try_set(match done {
                Ok(_) => fill(t.copied, &[&name]),
                Err(_) => t.copy_refused.into(),
            });
        });
    };
    let close = move || {
        if let Some(d) = menu.get_untracked() {
            let _ = d.remove_attribute("open");
        }
    };

    let row = move |v: SavedView| {
        let (href, label, gone, key) = (link(&v.query), v.name.clone(), v.name.clone(), v.name.clone());
        let (copy_label, delete_label) = (fill(t.copy_link_to, &[&label]), fill(t.delete_named, &[&label]));
        view! {
            <li class="saved-view">
                <a href=href class="saved-view-open" data-view=key on:click=move |_| close()>{label}</a>
                <button type="button" class="button" aria-label=copy_label on:click=move |_| copy(&v)>{t.copy_link}</button>
                <button type="button" class="button" aria-label=delete_label
                    on:click=move |_| remove(gone.clone())>{t.delete}</button>
            </li>
        }
    };
    let list = move || match views.get() {
        None => ().into_any(),
        Some(l) if l.is_empty() => view! { <p class="saved-views-none">{t.none}</p> }.into_any(),
        Some(l) => view! { <ul class="saved-views-list">{l.into_iter().map(row).collect_view()}</ul> }.into_any(),
    };
    view! {
        <details class="column-chooser saved-views" data-testid="saved-views" node_ref=menu on:toggle=move |_| load()>
            <summary class="button">{t.views}</summary>
            <fieldset>
                <legend class="sr-only">{t.saved_views}</legend>
                {list}
                <form class="saved-views-save" on:submit=save>
                    <label for=name_id.clone()>{t.save_as}</label>
                    <input type="text" id=name_id maxlength="80" autocomplete="off" placeholder=t.name
                        prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/>
                    <button type="submit" class="button">{t.save}</button>
                </form>
                <p class="saved-views-said" role="status" aria-live="polite">{move || said.get()}</p>
            </fieldset>
        </details>
    }
    .into_any()
}
