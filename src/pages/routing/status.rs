//! The directory in service: where it came from, as of when, when it was loaded, how many
//! institutions; a warning when it is stale or the last refresh failed; Reload for admins.

use leptos::prelude::*;
use moneydesk_model::Scope;
use serde_json::Value;
use wasm_bindgen::JsValue;

use super::format::{count, iso_date};
use super::records::text;
use super::Loaded;
use crate::api;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::format::format_date_time;
use crate::i18n::fill;
use crate::i18n::routing::text as words;
use crate::session::use_auth;

/// An RFC 3339 time in the user's locale and zone, with how long ago it was.
pub fn local_time(rfc3339: &str) -> String {
    let ms = js_sys::Date::new(&JsValue::from_str(rfc3339)).get_time();
    let Some(text) = format_date_time(rfc3339).filter(|_| !ms.is_nan()) else {
        return rfc3339.to_string();
    };
    let minutes = ((js_sys::Date::now() - ms) / 60_000.0).round() as i64;
    let w = words();
    let ago = match minutes {
        m if m < 0 => return text,
        0..=1 => w.just_now.to_string(),
        2..=119 => fill(w.minutes_ago, &[&minutes.to_string()]),
        120..=2879 => fill(w.hours_ago, &[&(minutes / 60).to_string()]),
        _ => fill(w.days_ago, &[&(minutes / 1440).to_string()]),
    };
    format!("{text} ({ago})")
}

fn number(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

/// `ACH: 18,198 records (FedACHdir.txt, fixed width)` from a `DirectoryPart`.
pub fn part(name: &str, p: &Value) -> String {
    let w = words();
    let file = text(p, "file");
    let how = match text(p, "format") {
        "none" => return fill(w.not_configured, &[name]),
        "demo" => w.demo_format.to_string(),
        "json" => "JSON".to_string(),
        "fixedWidth" => w.fixed_width.to_string(),
        other => other.to_string(),
    };
    let how = if file.is_empty() { how } else { format!("{file}, {how}") };
    fill(w.part_records, &[name, &count(number(p, "records")), &how])
}

/// The status's lines: headline parts, detail parts, warnings.
pub fn summary(s: &Value) -> (Vec<String>, Vec<String>, Vec<String>) {
    let w = words();
    let source = match text(s, "source") {
        "demo" => w.demo_source,
        _ => w.fed_source,
    };
    let as_of = match text(s, "asOf") {
        "" => w.unknown_as_of.to_string(),
        d => fill(w.as_of, &[&iso_date(d)]),
    };
    let head = vec![source.to_string(), as_of, fill(w.institutions, &[&count(number(s, "institutions"))])];
    let [ach, wire] = w.parts;
    let loaded = fill(w.loaded, &[&local_time(text(s, "loadedAt"))]);
    let mut detail = vec![part(ach, &s["ach"]), part(wire, &s["wire"]), loaded];
    if let Some(next) = s.get("nextRefreshAt").and_then(Value::as_str) {
        detail.push(fill(w.next_refresh, &[&local_time(next)]));
    }
    let mut warnings = Vec::new();
    if s.get("stale").and_then(Value::as_bool) == Some(true) {
        warnings.push(fill(w.stale, &[&number(s, "staleAfterHours").to_string()]));
    }
    if let Some(e) = s.get("lastError").filter(|e| e.is_object()) {
        warnings.push(fill(w.last_failed, &[&local_time(text(e, "at")), text(e, "message")]));
    }
    (head, detail, warnings)
}

#[component]
pub fn DirectoryStatusBar() -> impl IntoView {
    let auth = use_auth();
    let toasts = use_toasts();
    let owner = Owner::current();
    let status = Loaded::new();
    status.load(api::routing::directory(&auth.client()));
    let reloading = RwSignal::new(false);
    let w = words();
    let reload = move |_| {
        reloading.set(true);
        let start = || api::routing::refresh(&auth.client());
        let fut = owner.as_ref().map(|o| o.with(start)).unwrap_or_else(start);
        leptos::task::spawn_local(async move {
            let result = fut.await;
            match &result {
                Ok(_) => toasts.show(ToastKind::Success, w.reloaded),
                Err(crate::api::ApiError::Aborted) => return,
                Err(e) => toasts.show(ToastKind::Error, fill(w.reload_failed, &[&e.to_string()])),
            }
            if reloading.try_set(false).is_some() {
                return; // the page is gone
            }
            let fresh = match result {
                Ok(s) => Ok(s),
                // A failed reload records why in the status: show it.
                Err(_) => api::routing::directory(&auth.client()).await,
            };
            status.set(fresh);
        });
    };

    let body = move || {
        status.with(|s| match s {
            None => view! { <p class="muted">{w.reading_status}</p> }.into_any(),
            Some(Err(e)) => view! { <p class="muted">{w.status_unavailable} {e.to_string()}</p> }.into_any(),
            Some(Ok(s)) => {
                let (head, detail, warnings) = summary(s);
                let spans = |parts: Vec<String>| parts.into_iter().map(|p| view! { <span>{p}</span> }).collect_view();
                view! {
                    <p class="routing-status-line" data-testid="routing-status-head">{spans(head)}</p>
                    <p class="routing-status-line muted">{spans(detail)}</p>
                    {warnings.into_iter().map(|w| view! { <p class="alert warning" data-testid="routing-status-warning">{w}</p> }).collect_view()}
                }
                .into_any()
            }
        })
    };

    view! {
        <section class="panel routing-status" aria-label=w.status_label data-testid="routing-directory">
            <div class="routing-status-body">{body}</div>
            <button
                type="button"
                class="button routing-reload"
                hidden=move || !auth.can(Scope::Admin)
                disabled=move || reloading.get()
                on:click=reload
            >
                {move || if reloading.get() { w.reloading } else { w.reload_now }}
            </button>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn the_status_in_words() {
        let s = serde_json::json!({
            "source": "files", "asOf": "2018-12-03", "asOfSource": "newestChangeDate",
            "loadedAt": "2000-01-01T00:00:00Z", "stale": true, "staleAfterHours": 48, "institutions": 19010,
            "ach": {"records": 18198, "format": "fixedWidth", "file": "FedACHdir.txt", "newestChangeDate": "2018-12-03"},
            "wire": {"records": 7693, "format": "json", "file": "fpddir.json", "newestChangeDate": null},
            "refreshSchedule": null, "nextRefreshAt": null, "lastAttemptAt": "2000-01-01T00:00:00Z",
            "lastError": {"at": "2000-01-02T00:00:00Z", "message": "FedACH file FedACHdir.txt line 17: record is 120 characters long, expected 155"}
        });
        let (head, detail, warnings) = summary(&s);
        assert_eq!(head, ["The Federal Reserve's directory files", "as of Dec 3, 2018", "19,010 institutions"]);
        assert_eq!(detail[0], "ACH: 18,198 records (FedACHdir.txt, fixed width)");
        assert_eq!(detail[1], "wire: 7,693 records (fpddir.json, JSON)");
        assert!(detail[2].starts_with("loaded ") && detail[2].contains("days ago"), "{}", detail[2]);
        assert_eq!(detail.len(), 3, "no schedule, no next refresh");
        assert!(warnings[0].contains("stale") && warnings[0].contains("48 hours"));
        assert!(warnings[1].contains("line 17") && warnings[1].contains("previous directory stays"));
        let none = serde_json::json!({"records": 0, "format": "none", "file": null});
        assert_eq!(part("wire", &none), "wire: not configured");
        assert_eq!(local_time("not a time"), "not a time");
    }
}
