//! The directory in service: where it came from, as of when, when it was loaded, how many
//! institutions; a warning when it is stale or the last refresh failed; Reload for admins.

use leptos::prelude::*;
use moneydesk_model::routing::{DirectoryFormat, DirectorySource, DirectoryStatus};
use moneydesk_model::Scope;
use wasm_bindgen::JsValue;

use super::format::{count, iso_date};
use crate::api;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::session::use_auth;

/// An RFC 3339 time in the user's locale and zone, with how long ago it was.
pub fn local_time(rfc3339: &str) -> String {
    let date = js_sys::Date::new(&JsValue::from_str(rfc3339));
    let ms = date.get_time();
    if ms.is_nan() {
        return rfc3339.to_string();
    }
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"dateStyle".into(), &"medium".into());
    let _ = js_sys::Reflect::set(&opts, &"timeStyle".into(), &"short".into());
    let f = js_sys::Intl::DateTimeFormat::new(&js_sys::Array::new(), &opts);
    let text = f.format().call1(&f, &date).ok().and_then(|v| v.as_string()).unwrap_or_else(|| rfc3339.to_string());
    let minutes = ((js_sys::Date::now() - ms) / 60_000.0).round() as i64;
    let ago = match minutes {
        m if m < 0 => return text,
        0..=1 => "just now".to_string(),
        2..=119 => format!("{minutes} minutes ago"),
        120..=2879 => format!("{} hours ago", minutes / 60),
        _ => format!("{} days ago", minutes / 1440),
    };
    format!("{text} ({ago})")
}

fn part(name: &str, records: u64, format: DirectoryFormat, file: &Option<String>) -> String {
    let how = match (format, file) {
        (DirectoryFormat::None, _) => return format!("{name}: not configured"),
        (DirectoryFormat::Demo, _) => "demo".to_string(),
        (DirectoryFormat::Json, Some(f)) => format!("{f}, JSON"),
        (DirectoryFormat::FixedWidth, Some(f)) => format!("{f}, fixed width"),
        (DirectoryFormat::Json, None) => "JSON".into(),
        (DirectoryFormat::FixedWidth, None) => "fixed width".into(),
    };
    format!("{name}: {} records ({how})", count(records))
}

#[component]
pub fn DirectoryStatusBar() -> impl IntoView {
    let auth = use_auth();
    let toasts = use_toasts();
    let status = LocalResource::new(move || api::routing::directory(&auth.client()));
    let reloading = RwSignal::new(false);
    let reload = move |_| {
        reloading.set(true);
        let fut = api::routing::refresh(&auth.client());
        leptos::task::spawn_local(async move {
            match fut.await {
                Ok(_) => toasts.show(ToastKind::Success, "The routing directory was reloaded."),
                Err(e) => toasts.show(ToastKind::Error, format!("Reload failed: {e}")),
            }
            // The page may be gone by now: then there is nothing to update.
            if reloading.try_set(false).is_none() {
                status.refetch();
            }
        });
    };

    let body = move |s: DirectoryStatus| {
        let source = match s.source {
            DirectorySource::Demo => "Demo directory of fictional institutions",
            DirectorySource::Files => "The Federal Reserve's directory files",
        };
        let as_of = s.as_of.as_deref().map(iso_date).unwrap_or_else(|| "unknown".into());
        view! {
            <p class="routing-status-line">
                <strong>{source}</strong>
                <span>"as of " <b data-testid="routing-as-of">{as_of}</b></span>
                <span><b data-testid="routing-institutions">{count(s.institutions)}</b> " institutions"</span>
            </p>
            <p class="routing-status-line muted">
                <span>{part("ACH", s.ach.records, s.ach.format, &s.ach.file)}</span>
                <span>{part("wire", s.wire.records, s.wire.format, &s.wire.file)}</span>
                <span>"loaded " {local_time(&s.loaded_at)}</span>
                {s.next_refresh_at.as_deref().map(|t| view! { <span>"next refresh " {local_time(t)}</span> })}
            </p>
            {s.stale.then(|| view! {
                <p class="alert warning" data-testid="routing-stale">
                    "This directory is stale: it was last refreshed more than " {s.stale_after_hours}
                    " hours ago. Answers may miss recent changes by the Federal Reserve."
                </p>
            })}
            {s.last_error.map(|e| view! {
                <p class="alert warning">
                    "The last refresh failed (" {local_time(&e.at)} "): " {e.message}
                    ". The previous directory stays in service."
                </p>
            })}
        }
    };

    view! {
        <section class="panel routing-status" aria-label="Directory status" data-testid="routing-directory">
            <Transition fallback=|| view! { <p class="muted">"Reading the directory's status…"</p> }>
                {move || Suspend::new(async move {
                    match status.await {
                        Ok(s) => body(s).into_any(),
                        Err(e) => view! { <p class="muted">"The directory's status is not available: " {e.to_string()}</p> }.into_any(),
                    }
                })}
            </Transition>
            <Show when=move || auth.can(Scope::Admin)>
                <button type="button" class="button routing-reload" disabled=move || reloading.get() on:click=reload>
                    {move || if reloading.get() { "Reloading…" } else { "Reload directory now" }}
                </button>
            </Show>
        </section>
    }
}
