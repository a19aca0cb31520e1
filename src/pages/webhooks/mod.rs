//! The Webhooks page (`webhooks:write`): the endpoints events are pushed to. **Endpoints**
//! (list.rs): a table of each endpoint's URL, event types, state (with the server's reason when
//! it disabled one) and secret hint; a new one (form.rs) answers its secret once (secret.rs).
//! **An endpoint** (`?endpoint=we_…`, detail.rs): change it, enable or disable it, rotate its
//! secret with an overlap, delete it, send it a test event (actions.rs); its last 7 days
//! (chart.rs) and its delivery log, paged (`&page=`), each attempt replayable, and a time
//! range replayed (log.rs). The page's state and what it sends are plain data (state.rs).

mod actions;
mod chart;
mod detail;
mod form;
mod list;
mod log;
mod secret;
pub mod state;
#[cfg(test)]
mod tests;
mod traffic;

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use self::secret::{Revealed, SecretOnce};
use self::state::Place;

/// What the page's parts share; `Copy`.
#[derive(Clone, Copy)]
pub struct WebhooksCtx {
    pub place: Memo<Place>,
    /// Moves to a place (Back returns).
    go: Callback<Place>,
    /// Bumped when an endpoint changed: the list and the open endpoint are read again.
    pub changed: RwSignal<u32>,
    /// A secret the server answered, shown until dismissed (never fetched again).
    pub revealed: RwSignal<Option<Revealed>>,
}

impl WebhooksCtx {
    pub fn open(self, endpoint: Option<String>) {
        self.go.run(Place { endpoint, page: 1 });
    }

    pub fn to_page(self, page: u64) {
        let endpoint = self.place.with_untracked(|p| p.endpoint.clone());
        self.go.run(Place { endpoint, page });
    }

    pub fn touch(self) {
        self.changed.update(|n| *n += 1);
    }
}

fn use_go() -> Callback<Place> {
    let navigate = use_navigate();
    let location = use_location();
    let config = use_context::<crate::config::AppConfig>().unwrap_or_default();
    Callback::new(move |place: Place| {
        let search: Vec<String> = place
            .pairs()
            .iter()
            .map(|(k, v)| format!("{k}={}", String::from(js_sys::encode_uri_component(v))))
            .collect();
        let path = config.relative(&location.pathname.get_untracked()).to_string();
        let to = if search.is_empty() { path } else { format!("{path}?{}", search.join("&")) };
        navigate(&to, NavigateOptions { scroll: false, ..Default::default() });
    })
}

#[component]
pub fn WebhooksPage() -> impl IntoView {
    let query = use_query_map();
    let place = Memo::new(move |_| query.with(|q| Place::from_params(|k| q.get(k))));
    let ctx = WebhooksCtx { place, go: use_go(), changed: RwSignal::new(0), revealed: RwSignal::new(None) };
    let open = Memo::new(move |_| place.with(|p| p.endpoint.clone()));
    let t = crate::i18n::webhooks::text();
    view! {
        <section class="page webhooks-page">
            <div class="page-head"><h1>{t.heading}</h1></div>
            <p class="muted webhooks-intro">
                {t.intro[0]} <code>"Moneydesk-Webhook-Signature"</code> {t.intro[1]}
            </p>
            <SecretOnce ctx/>
            {move || match open.get() {
                None => view! { <list::Endpoints ctx/> }.into_any(),
                Some(id) => view! { <detail::EndpointView ctx id/> }.into_any(),
            }}
        </section>
    }
}
