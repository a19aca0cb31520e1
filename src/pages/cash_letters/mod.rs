//! Cash letters (a group of the registry, its own page): the confirmed checks due by a business day previewed
//! (items, bundles, total), then made into one X9.100-187 file (admins: it sends the deposits),
//! and the letters made, newest first, each downloadable and viewable in the X9 viewer
//! (x9_viewer.rs), which also opens any X9 file the user has. What the page says of a letter is
//! letter.rs; the list of letters made is list.rs.

use leptos::prelude::*;
use moneydesk_model::cash_letters::{CashLetter, CashLetterRequest};
use moneydesk_model::Scope;

use crate::api::request::{submit, Answer};
use crate::api::{self, ApiError};
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::{use_toasts, ToastKind, Toasts};
use crate::i18n::cash_letters::text;
use crate::session::{use_auth, Auth};

mod letter;
mod list;
mod x9_viewer;

use letter::{made, money, summary};
use list::LetterList;
use x9_viewer::X9Viewer;

/// How many letters the list shows.
const SHOWN: u32 = 20;

/// Today in the browser's zone, `YYYY-MM-DD` (the server checks it in the business zone).
fn today() -> String {
    let now = js_sys::Date::new_0();
    format!("{:04}-{:02}-{:02}", now.get_full_year(), now.get_month() + 1, now.get_date())
}

/// The page: its title and what it does, then the letters.
#[component]
pub fn CashLettersPage() -> impl IntoView {
    let t = text();
    view! {
        <section class="page cash-letters-page">
            <div class="page-head"><h1>{t.heading}</h1></div>
            <p class="muted page-intro">{t.intro}</p>
            <CashLetters/>
        </section>
    }
}

/// The page's state; `Copy` (signals), handed to each of its parts.
#[derive(Clone, Copy)]
struct Letters {
    auth: Auth,
    toasts: Toasts,
    /// The business day the checks are due by.
    day: RwSignal<String>,
    preview: RwSignal<Option<CashLetter>>,
    busy: RwSignal<bool>,
    failed: RwSignal<Option<ApiError>>,
    /// Bumped by a letter made: the list is fetched again.
    changed: RwSignal<u32>,
    /// The file shown in the viewer: a letter from the list, or one the user opens.
    opened: RwSignal<Option<(String, Vec<u8>)>>,
    owner: StoredValue<Option<Owner>>,
}

impl Letters {
    /// Previews the letter of the day's checks, or (`make`) makes it: a toast, the list
    /// fetched again.
    fn ask(self, make: bool) {
        let Letters { auth, toasts, day, preview, busy, failed, changed, .. } = self;
        if busy.get_untracked() {
            return;
        }
        let request = CashLetterRequest { business_date: Some(day.get_untracked()), deposit_ids: None, preview: !make };
        failed.set(None);
        self.owner.with_value(|owner| {
            submit(
                busy,
                owner,
                || api::cash_letters::create(&auth.client(), &request),
                move |result| match result {
                    Ok(letter) if make => {
                        toasts.show(ToastKind::Success, made(&letter));
                        preview.set(None);
                        changed.update(|n| *n += 1);
                    }
                    Ok(letter) => preview.set(Some(letter)),
                    Err(e) => {
                        preview.set(None);
                        failed.set(Some(e));
                    }
                },
            )
        });
    }
}

#[component]
fn CashLetters() -> impl IntoView {
    let auth = use_auth();
    let page = Letters {
        auth,
        toasts: use_toasts(),
        day: RwSignal::new(today()),
        preview: RwSignal::new(None),
        busy: RwSignal::new(false),
        failed: RwSignal::new(None),
        changed: RwSignal::new(0),
        opened: RwSignal::new(None),
        owner: StoredValue::new(Owner::current()),
    };
    let Letters { day, busy, failed, changed, opened, .. } = page;
    let letters = Answer::<moneydesk_model::Page<CashLetter>>::new();
    let t = text();
    Effect::new(move |_| {
        changed.track();
        letters.load(api::cash_letters::list(&auth.client(), 1, SHOWN));
    });

    view! {
        <section class="panel cash-letters" aria-labelledby="cash-letters-title" data-testid="cash-letters">
            <h2 id="cash-letters-title">{t.send_heading}</h2>
            <p class="muted">{t.send_intro}</p>
            <form class="cash-letter-form" on:submit=move |ev| { ev.prevent_default(); page.ask(false); }>
                <div class="field">
                    <label for="cash-letter-date">{t.due_by}</label>
                    <input id="cash-letter-date" type="date" prop:value=move || day.get() on:input=move |ev| day.set(event_target_value(&ev))/>
                </div>
                <button type="submit" class="button" id="cash-letter-preview" disabled=move || busy.get()>{t.preview}</button>
            </form>
            {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
            <LetterPreview page/>
            <LetterList page letters/>
            <X9Viewer opened/>
        </section>
    }
}

/// The checks the letter would hold, and for an admin the button that makes it.
#[component]
fn LetterPreview(page: Letters) -> impl IntoView {
    let admin = Memo::new(move |_| page.auth.can(Scope::Admin));
    let (preview, busy) = (page.preview, page.busy);
    let t = text();
    let c = t.preview_columns;
    move || {
        preview.get().map(|p| {
            let summary = summary(&p);
            view! {
                <div class="cash-letter-preview" id="cash-letter-preview-items">
                    <p>{summary}</p>
                    <table class="data-table">
                        <caption class="sr-only">{t.preview_caption}</caption>
                        <thead><tr>
                            <th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th>
                            <th scope="col">{c[3]}</th><th scope="col">{c[4]}</th>
                        </tr></thead>
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
                    <Show when=move || admin.get() fallback=move || view! { <p class="muted">{t.admin_makes}</p> }>
                        <button type="button" class="button primary" id="cash-letter-make" disabled=move || busy.get() on:click=move |_| page.ask(true)>
                            {move || if busy.get() { t.making } else { t.make }}
                        </button>
                    </Show>
                </div>
            }
        })
    }
}
