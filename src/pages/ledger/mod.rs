//! The Ledger page: two views, named in the URL (`?view=returns`, `?view=reconciliation`).
//! **Returns** (returns.rs, return_items.rs): upload a return file and see what it came to, list
//! the returned items by state, match or dismiss an unmatched one. **Reconciliation**
//! (reconciliation.rs, clearing_chart.rs): a business day's table per ledger account, whether
//! clearing closed, what keeps it open, and the clearing accounts over 30 days. Each view
//! shows to a token with its scope (`deposits:read` for returns, `ledger:read` for the day).

mod clearing_chart;
mod reconciliation;
mod return_items;
mod returns;

use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use moneydesk_model::Scope;

use crate::i18n::ledger::text;
use crate::session::use_auth;

/// The page's views, as the URL names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Returns,
    Reconciliation,
}

impl View {
    const ALL: [View; 2] = [View::Returns, View::Reconciliation];

    fn slug(self) -> &'static str {
        match self {
            View::Returns => "returns",
            View::Reconciliation => "reconciliation",
        }
    }

    fn label(self) -> &'static str {
        let views = &text().views;
        match self {
            View::Returns => views[0],
            View::Reconciliation => views[1],
        }
    }

    fn scope(self) -> Scope {
        match self {
            View::Returns => Scope::DepositsRead,
            View::Reconciliation => Scope::LedgerRead,
        }
    }

    /// The view the URL names when it is one of `shown`, else the first of them.
    pub fn pick(asked: Option<&str>, shown: &[View]) -> View {
        let asked = View::ALL.into_iter().find(|v| Some(v.slug()) == asked);
        asked.filter(|v| shown.contains(v)).or_else(|| shown.first().copied()).unwrap_or(View::Returns)
    }
}

/// Moves to this page with the query `pairs` (empty values left out; Back returns).
pub fn use_go() -> Callback<Vec<(&'static str, String)>> {
    let navigate = use_navigate();
    let location = use_location();
    let config = use_context::<crate::config::AppConfig>().unwrap_or_default();
    Callback::new(move |pairs: Vec<(&'static str, String)>| {
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
pub fn LedgerPage() -> impl IntoView {
    let query = use_query_map();
    let go = use_go();
    let auth = use_auth();
    let shown = Memo::new(move |_| View::ALL.into_iter().filter(|v| auth.can(v.scope())).collect::<Vec<_>>());
    let view = Memo::new(move |_| query.with(|q| shown.with(|s| View::pick(q.get_str("view"), s))));
    view! {
        <section class="page ledger-page">
            <div class="page-head"><h1>{text().heading}</h1></div>
            <div class="ledger-tabs" role="tablist" aria-label=text().heading>
                {move || shown.get().into_iter().map(|v| view! {
                    <button type="button" role="tab" class="ledger-tab" id=format!("ledger-tab-{}", v.slug())
                        aria-selected=move || (view.get() == v).to_string()
                        on:click=move |_| go.run(vec![("view", v.slug().into())])>{v.label()}</button>
                }).collect_view()}
            </div>
            <div role="tabpanel" aria-labelledby=move || format!("ledger-tab-{}", view.get().slug())>
                {move || match view.get() {
                    View::Returns => Either::Left(view! { <returns::Returns/> }),
                    View::Reconciliation => Either::Right(view! { <reconciliation::Reconciliation/> }),
                }}
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn the_url_picks_a_view_the_token_may_see() {
        let both = [View::Returns, View::Reconciliation];
        assert_eq!(View::pick(Some("reconciliation"), &both), View::Reconciliation);
        assert_eq!(View::pick(None, &both), View::Returns);
        assert_eq!(View::pick(Some("reconciliation"), &[View::Returns]), View::Returns);
        assert_eq!(View::pick(Some("returns"), &[View::Reconciliation]), View::Reconciliation);
    }
}
