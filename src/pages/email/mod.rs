//! The Email page: Compose (compose/: recipients as chips, plain and HTML with a sandboxed
//! preview, templates with their variables, attachments, bulk from a CSV), Outbox (outbox/:
//! each message's state and attempts, filterable; message.rs reads one, the development
//! mailbox's included), Templates (templates/: list, edit with a live preview) and Verify
//! (verify.rs: one address with every check explained, or a list in bulk) and Domains
//! (domains.rs: sending domains, their records and verification) and Inbound (inbound/:
//! routes with their URL and secret, the messages received; inbound_message.rs: one with its
//! deliveries) and Suppressions (suppressions.rs: a sender domain's suppression list) and
//! Deliverability (deliverability.rs: figures per sending domain, the latest bounces and
//! complaints; bounce_table.rs shows them, and a message's own).
//! What several tabs show alike is parts.rs, so the tabs never import each other.
//! The tab, the Outbox's filters and page, the message open, the verified address and the
//! inbound domain and message live in the URL.

mod attachments;
mod bounce_table;
mod bulk;
mod bulk_preview;
mod compose;
mod deliverability;
mod domains;
mod inbound;
mod inbound_message;
mod message;
mod outbox;
mod parts;
mod recipients;
mod suppressions;
mod templates;
mod verify;
mod verify_list;

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use crate::i18n::email::text;

/// The page's tabs, as the URL names them (`?tab=outbox`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Compose,
    Outbox,
    Templates,
    Verify,
    Domains,
    Inbound,
    Suppressions,
    Deliverability,
}

impl Tab {
    const ALL: [Tab; 8] = [
        Tab::Compose,
        Tab::Outbox,
        Tab::Templates,
        Tab::Verify,
        Tab::Domains,
        Tab::Inbound,
        Tab::Suppressions,
        Tab::Deliverability,
    ];

    fn slug(self) -> &'static str {
        match self {
            Tab::Compose => "compose",
            Tab::Outbox => "outbox",
            Tab::Templates => "templates",
            Tab::Verify => "verify",
            Tab::Domains => "domains",
            Tab::Inbound => "inbound",
            Tab::Suppressions => "suppressions",
            Tab::Deliverability => "deliverability",
        }
    }

    /// The scope the tab's requests need: Verify asks with `email:verify`, the rest with
    /// `email:send` (a token with one of them sees its tabs only).
    fn scope(self) -> moneydesk_model::Scope {
        match self {
            Tab::Verify => moneydesk_model::Scope::EmailVerify,
            _ => moneydesk_model::Scope::EmailSend,
        }
    }

    fn label(self) -> &'static str {
        let tabs = &text().tabs;
        match self {
            Tab::Compose => tabs[0],
            Tab::Outbox => tabs[1],
            Tab::Templates => tabs[2],
            Tab::Verify => tabs[3],
            Tab::Domains => tabs[4],
            Tab::Inbound => tabs[5],
            Tab::Suppressions => tabs[6],
            Tab::Deliverability => tabs[7],
        }
    }
}

/// Moves to the query `pairs` on this page (the URL keeps the place; Back returns).
pub fn use_go() -> Callback<Vec<(String, String)>> {
    let navigate = use_navigate();
    let location = use_location();
    // Embedded, the browser path starts with the host's base path, which navigate adds itself.
    let config = use_context::<crate::config::AppConfig>().unwrap_or_default();
    Callback::new(move |pairs: Vec<(String, String)>| {
        let search: Vec<String> = pairs
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| format!("{k}={}", String::from(js_sys::encode_uri_component(v))))
            .collect();
        let path = config.relative(&location.pathname.get_untracked()).to_string();
        let to = if search.is_empty() { path } else { format!("{path}?{}", search.join("&")) };
        navigate(&to, NavigateOptions { scroll: false, ..Default::default() });
    })
}

#[component]
pub fn EmailPage() -> impl IntoView {
    let query = use_query_map();
    let go = use_go();
    let auth = crate::session::use_auth();
    let shown =
        Memo::new(move |_| Tab::ALL.into_iter().filter(|t| auth.may(t.scope()) == Some(true)).collect::<Vec<_>>());
    // The tab the URL names when this token may use it, else the first it may.
    let tab = Memo::new(move |_| {
        let asked = query.with(|q| Tab::ALL.into_iter().find(|t| q.get_str("tab") == Some(t.slug())));
        shown.with(|s| asked.filter(|t| s.contains(t)).or_else(|| s.first().copied()).unwrap_or(Tab::Compose))
    });
    let t = text();
    view! {
        <section class="page email-page">
            <div class="page-head"><h1>{t.heading}</h1></div>
            <div class="email-tabs" role="tablist" aria-label=t.tabs_label>
                {move || shown.get().into_iter().map(|t| view! {
                    <button type="button" role="tab" class="email-tab" id=format!("email-tab-{}", t.slug())
                        aria-selected=move || (tab.get() == t).to_string()
                        on:click=move |_| go.run(vec![("tab".into(), t.slug().into())])>{t.label()}</button>
                }).collect_view()}
            </div>
            <div role="tabpanel" aria-labelledby=move || format!("email-tab-{}", tab.get().slug())>
                {move || match tab.get() {
                    Tab::Compose => view! { <compose::Compose/> }.into_any(),
                    Tab::Outbox => view! { <outbox::Outbox/> }.into_any(),
                    Tab::Templates => view! { <templates::Templates/> }.into_any(),
                    Tab::Verify => view! { <verify::Verify/> }.into_any(),
                    Tab::Domains => view! { <domains::Domains/> }.into_any(),
                    Tab::Inbound => view! { <inbound::Inbound/> }.into_any(),
                    Tab::Suppressions => view! { <suppressions::Suppressions/> }.into_any(),
                    Tab::Deliverability => view! { <deliverability::Deliverability/> }.into_any(),
                }}
            </div>
        </section>
    }
}
