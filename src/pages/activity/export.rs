//! The trail out of the portal: the server's CSV of every record the view's filters match
//! (`format=csv`, the same filters as the table), and one day's records as signed JSON lines
//! (the server signs them in its `Moneydesk-Signature` header, for an archive to check). A link
//! cannot send the token, so each is fetched and handed over as a file.

use leptos::prelude::*;

use super::state::ActivityView;
use crate::api;
use crate::api::request::submit;
use crate::components::download;
use crate::components::error_view::ApiErrorView;
use crate::i18n::activity::text;
use crate::session::use_auth;

/// Today's date, local, `YYYY-MM-DD`.
fn today() -> String {
    let now = js_sys::Date::new_0();
    format!("{:04}-{:02}-{:02}", now.get_full_year(), now.get_month() + 1, now.get_date())
}

#[component]
pub fn Exports(view: Memo<ActivityView>) -> impl IntoView {
    let auth = use_auth();
    let (exporting, failed) = (RwSignal::new(false), RwSignal::new(None));
    let day = RwSignal::new(view.with_untracked(ActivityView::export_day).unwrap_or_else(today));
    let owner = Owner::current();
    let csv = {
        let owner = owner.clone();
        move |_| {
            failed.set(None);
            let filters = view.with_untracked(|v| v.filters.clone());
            let start = move || api::audit::records_csv(&auth.client(), &filters);
            submit(exporting, &owner, start, move |r| match r {
                Ok(text) => {
                    let name = download::dated_name("activity", "csv");
                    let _ = download::save(&js_sys::Array::of1(&text.into()), &name, download::CSV);
                }
                Err(e) => failed.set(Some(e)),
            });
        }
    };
    let export_day = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        failed.set(None);
        let d = day.get_untracked();
        let name = format!("audit-{d}.jsonl");
        let start = move || api::audit::export_day(&auth.client(), &d);
        submit(exporting, &owner, start, move |r| match r {
            Ok(blob) => {
                let _ = download::save_blob(&blob, &name);
            }
            Err(e) => failed.set(Some(e)),
        });
    };
    let t = text();
    view! {
        <div class="audit-exports">
            <button type="button" class="button" id="activity-csv" disabled=move || exporting.get() on:click=csv>
                {t.export_csv}
            </button>
            <form class="audit-export-day" on:submit=export_day>
                <label for="audit-export-day">{t.day}</label>
                <input id="audit-export-day" type="date" required prop:value=move || day.get()
                    on:input=move |ev| day.set(event_target_value(&ev))/>
                <button type="submit" class="button" disabled=move || exporting.get() || day.with(String::is_empty)>
                    {t.download_day}
                </button>
            </form>
            {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
        </div>
    }
}
