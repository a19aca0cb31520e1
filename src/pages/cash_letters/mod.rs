//! Cash letters (a group of the registry, its own page): the confirmed checks due by a business day previewed
//! (items, bundles, total), then made into one X9.100-187 file (admins: it sends the deposits),
//! and the letters made, newest first, each downloadable and viewable in the X9 viewer
//! (x9_viewer.rs), which also opens any X9 file the user has.

use leptos::prelude::*;
use moneydesk_model::cash_letters::{CashLetter, CashLetterRequest};
use moneydesk_model::Scope;

use crate::api::request::{submit, Answer};
use crate::api::{self, ApiError};
use crate::components::data_table::column::format_money;
use crate::components::download::save_blob;
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::format::format_date_time;
use crate::session::use_auth;

mod x9_viewer;

use x9_viewer::X9Viewer;

/// How many letters the list shows.
const SHOWN: u32 = 20;

fn money(m: &moneydesk_model::Money) -> String {
    format_money(&m.to_string()).unwrap_or_else(|| m.to_string())
}

/// Today in the browser's zone, `YYYY-MM-DD` (the server checks it in the business zone).
fn today() -> String {
    let now = js_sys::Date::new_0();
    format!("{:04}-{:02}-{:02}", now.get_full_year(), now.get_month() + 1, now.get_date())
}

/// The page: its title and what it does, then the letters.
#[component]
pub fn CashLettersPage() -> impl IntoView {
    view! {
        <section class="page cash-letters-page">
            <div class="page-head"><h1>"Cash letters"</h1></div>
            <p class="muted page-intro">
                "Confirmed check deposits go to the bank as one X9.100-187 image cash letter a business day. Look inside any X9 file with the viewer."
            </p>
            <CashLetters/>
        </section>
    }
}

#[component]
fn CashLetters() -> impl IntoView {
    let auth = use_auth();
    let toasts = use_toasts();
    let admin = Memo::new(move |_| auth.can(Scope::Admin));
    // Bumped by a letter made: the list is fetched again.
    let changed = RwSignal::new(0u32);
    let day = RwSignal::new(today());
    let preview = RwSignal::new(None::<CashLetter>);
    let busy = RwSignal::new(false);
    let failed = RwSignal::new(None::<ApiError>);
    let letters = Answer::<moneydesk_model::Page<CashLetter>>::new();
    let owner = Owner::current();
    Effect::new(move |_| {
        changed.track();
        letters.load(api::cash_letters::list(&auth.client(), 1, SHOWN));
    });

    let ask = move |make: bool| {
        if busy.get_untracked() {
            return;
        }
        let request = CashLetterRequest { business_date: Some(day.get_untracked()), deposit_ids: None, preview: !make };
        failed.set(None);
        submit(
            busy,
            &owner,
            || api::cash_letters::create(&auth.client(), &request),
            move |result| match result {
                Ok(letter) if make => {
                    toasts.show(
                        ToastKind::Success,
                        format!(
                            "Cash letter {} was made: {} checks, {}.",
                            letter.cash_letter_id,
                            letter.item_count,
                            money(&letter.total_amount)
                        ),
                    );
                    preview.set(None);
                    changed.update(|n| *n += 1);
                }
                Ok(letter) => preview.set(Some(letter)),
                Err(e) => {
                    preview.set(None);
                    failed.set(Some(e));
                }
            },
        );
    };
    let ask = StoredValue::new(ask);
    // The file shown in the viewer: a letter from the list, or one the user opens.
    let opened = RwSignal::new(None::<(String, Vec<u8>)>);
    let view_file = move |id: i64, name: String| {
        let sent = api::cash_letters::file(&auth.client(), id);
        leptos::task::spawn_local(async move {
            match sent.await {
                Ok(blob) => match wasm_bindgen_futures::JsFuture::from(blob.array_buffer()).await {
                    Ok(buffer) => {
                        opened.try_set(Some((format!("{name}.x937"), js_sys::Uint8Array::new(&buffer).to_vec())));
                    }
                    Err(_) => toasts.show(ToastKind::Error, "The browser could not read the file.".to_string()),
                },
                Err(e) => toasts.show(ToastKind::Error, e.to_string()),
            }
        });
    };
    let download = move |id: i64, name: String| {
        let sent = api::cash_letters::file(&auth.client(), id);
        leptos::task::spawn_local(async move {
            match sent.await {
                Ok(blob) => {
                    if save_blob(&blob, &format!("{name}.x937")).is_err() {
                        toasts.show(ToastKind::Error, "The browser refused the download.".to_string());
                    }
                }
                Err(e) => toasts.show(ToastKind::Error, e.to_string()),
            }
        });
    };

    view! {
        <section class="panel cash-letters" aria-labelledby="cash-letters-title" data-testid="cash-letters">
            <h2 id="cash-letters-title">"Send a cash letter"</h2>
            <p class="muted">
                "Confirmed checks go to the bank as one X9.100-187 image cash letter: both sides of each check as G4 images, with its MICR fields."
            </p>
            <form class="cash-letter-form" on:submit=move |ev| { ev.prevent_default(); ask.with_value(|f| f(false)); }>
                <div class="field">
                    <label for="cash-letter-date">"Checks due by"</label>
                    <input id="cash-letter-date" type="date" prop:value=move || day.get() on:input=move |ev| day.set(event_target_value(&ev))/>
                </div>
                <button type="submit" class="button" id="cash-letter-preview" disabled=move || busy.get()>"Preview"</button>
            </form>
            {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
            {move || preview.get().map(|p| {
                let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
                let summary = format!(
                    "{} in {}, {} in all.",
                    plural(p.item_count, "check", "checks"),
                    plural(p.bundle_count, "bundle", "bundles"),
                    money(&p.total_amount)
                );
                view! {
                    <div class="cash-letter-preview" id="cash-letter-preview-items">
                        <p>{summary}</p>
                        <table class="data-table">
                            <caption class="sr-only">"The checks the cash letter would hold"</caption>
                            <thead><tr><th scope="col">"Deposit"</th><th scope="col">"Bundle"</th><th scope="col">"Routing"</th><th scope="col">"On-us"</th><th scope="col">"Amount"</th></tr></thead>
                            <tbody>
                                {p.items.iter().map(|i| view! {
                                    <tr>
                                        <td class="mono">{i.deposit_id}</td>
                                        <td>{i.bundle}</td>
                                        <td class="mono">{i.routing_number.clone()}</td>
                                        <td class="mono">{i.on_us.clone()}</td>
                                        <td class="num">{money(&i.amount)}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                        <Show when=move || admin.get() fallback=|| view! { <p class="muted">"An admin makes the cash letter."</p> }>
                            <button type="button" class="button primary" id="cash-letter-make" disabled=move || busy.get() on:click=move |_| ask.with_value(|f| f(true))>
                                {move || if busy.get() { "Making the cash letter…" } else { "Make the cash letter" }}
                            </button>
                        </Show>
                    </div>
                }
            })}
            {move || letters.with(|a| match a {
                None => view! { <p class="muted">"Loading the cash letters…"</p> }.into_any(),
                Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
                Some(Ok(page)) if page.content.is_empty() => view! { <p class="muted" id="cash-letters-none">"No cash letters yet."</p> }.into_any(),
                Some(Ok(page)) => view! {
                    <table class="data-table" id="cash-letters-list">
                        <caption class="sr-only">"Cash letters made, newest first"</caption>
                        <thead><tr><th scope="col">"Cash letter"</th><th scope="col">"Due by"</th><th scope="col">"Checks"</th><th scope="col">"Total"</th><th scope="col">"Made"</th><th scope="col"><span class="sr-only">"The file"</span></th></tr></thead>
                        <tbody>
                            {page.content.iter().map(|l| {
                                let (id, name) = (l.id, l.cash_letter_id.clone());
                                let made = l.created_at.as_deref().and_then(format_date_time).unwrap_or_default();
                                let label = format!("Download cash letter {name}");
                                let view_label = format!("View cash letter {name}");
                                let shown_name = name.clone();
                                view! {
                                    <tr data-id=id>
                                        <td class="mono">{name.clone()}</td>
                                        <td>{l.business_date.clone()}</td>
                                        <td class="num">{l.item_count}</td>
                                        <td class="num">{money(&l.total_amount)}</td>
                                        <td>{made}</td>
                                        <td class="row-actions">
                                            <button type="button" class="button x9-view" aria-label=view_label on:click=move |_| view_file(id, shown_name.clone())>"View"</button>
                                            <button type="button" class="button x9-download" aria-label=label on:click=move |_| download(id, name.clone())>"Download"</button>
                                        </td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                }
                .into_any(),
            })}
            <X9Viewer opened/>
        </section>
    }
}
