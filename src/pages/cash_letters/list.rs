//! The letters made, newest first: each one's file opens in the viewer or downloads.

use leptos::prelude::*;
use moneydesk_model::cash_letters::CashLetter;

use super::letter::money;
use super::Letters;
use crate::api;
use crate::api::request::Answer;
use crate::components::download::save_blob;
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::ToastKind;
use crate::format::format_date_time;
use crate::i18n::{cash_letters::text, fill};

/// Fetches letter `id`'s file and shows it in the viewer as `name.x937`.
fn view_file(page: Letters, id: i64, name: String) {
    let Letters { toasts, opened, .. } = page;
    let sent = api::cash_letters::file(&page.auth.client(), id);
    leptos::task::spawn_local(async move {
        match sent.await {
            Ok(blob) => match wasm_bindgen_futures::JsFuture::from(blob.array_buffer()).await {
                Ok(buffer) => {
                    opened.try_set(Some((format!("{name}.x937"), js_sys::Uint8Array::new(&buffer).to_vec())));
                }
                Err(_) => toasts.show(ToastKind::Error, text().unreadable.to_string()),
            },
            Err(e) => toasts.show(ToastKind::Error, e.to_string()),
        }
    });
}

/// Fetches letter `id`'s file and saves it as `name.x937`.
fn download(page: Letters, id: i64, name: String) {
    let toasts = page.toasts;
    let sent = api::cash_letters::file(&page.auth.client(), id);
    leptos::task::spawn_local(async move {
        match sent.await {
            Ok(blob) => {
                if save_blob(&blob, &format!("{name}.x937")).is_err() {
                    toasts.show(ToastKind::Error, text().download_refused.to_string());
                }
            }
            Err(e) => toasts.show(ToastKind::Error, e.to_string()),
        }
    });
}

#[component]
pub fn LetterList(page: Letters, letters: Answer<moneydesk_model::Page<CashLetter>>) -> impl IntoView {
    let t = text();
    let c = t.list_columns;
    move || {
        letters.with(|a| match a {
            None => view! { <p class="muted">{t.loading}</p> }.into_any(),
            Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
            Some(Ok(list)) if list.content.is_empty() => view! { <p class="muted" id="cash-letters-none">{t.none}</p> }.into_any(),
            Some(Ok(list)) => view! {
                <table class="data-table" id="cash-letters-list">
                    <caption class="sr-only">{t.list_caption}</caption>
                    <thead><tr>
                        <th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th>
                        <th scope="col">{c[3]}</th><th scope="col">{c[4]}</th>
                        <th scope="col"><span class="sr-only">{t.the_file}</span></th>
                    </tr></thead>
                    <tbody>
                        {list.content.iter().map(|l| {
                            let (id, name) = (l.id, l.cash_letter_id.clone());
                            let made = l.created_at.as_deref().and_then(format_date_time).unwrap_or_default();
                            let label = fill(t.download_label, &[&name]);
                            let view_label = fill(t.view_label, &[&name]);
                            let shown_name = name.clone();
                            view! {
                                <tr data-id=id>
                                    <td class="mono">{name.clone()}</td>
                                    <td>{l.business_date.clone()}</td>
                                    <td class="num">{l.item_count}</td>
                                    <td class="num">{money(&l.total_amount)}</td>
                                    <td>{made}</td>
                                    <td class="row-actions">
                                        <button type="button" class="button x9-view" aria-label=view_label on:click=move |_| view_file(page, id, shown_name.clone())>{t.view}</button>
                                        <button type="button" class="button x9-download" aria-label=label on:click=move |_| download(page, id, name.clone())>{t.download}</button>
                                    </td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            }
            .into_any(),
        })
    }
}
