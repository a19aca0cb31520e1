//! A token's details in a drawer: opened by its name in the list, or by a link's `open=ID` (a
//! search hit lands on `/tokens?open=ID`), as the data tables open a record's drawer. A link
//! naming a token the list does not hold says so instead. With `audit:read`, its Activity tab
//! holds its creation and revocation.

use leptos::prelude::*;
use moneydesk_model::tokens::TokenInfo;

use super::when;
use crate::api::request::Answer;
use crate::components::drawer::Drawer;
use crate::i18n::fill;
use crate::i18n::tokens::text;
use crate::pages::activity::tab::{WithActivity, TOKEN};

/// Which token's details are open, and what the page's link asked for.
#[derive(Clone, Copy)]
pub struct Open {
    pub id: RwSignal<Option<i64>>,
    /// The id a link named that the list does not hold.
    pub missing: RwSignal<Option<String>>,
}

/// The token `wanted` names in `all`, if it holds it.
pub fn find(all: &[TokenInfo], wanted: &str) -> Option<i64> {
    let id = wanted.parse::<i64>().ok()?;
    all.iter().any(|t| t.id == id).then_some(id)
}

impl Open {
    /// Follows the list: the first one that arrives opens the token the page's link names (the
    /// list loaded again after a revoke leaves the drawer as the user left it).
    pub fn follow(tokens: Answer<Vec<TokenInfo>>) -> Open {
        let open = Open { id: RwSignal::new(None), missing: RwSignal::new(None) };
        // The router's query: set before the page is built, on a navigation as on a load.
        let linked = leptos_router::hooks::use_query_map().with_untracked(|q| q.get("open"));
        let wanted = StoredValue::new(linked.map(|l| l.trim().to_string()));
        Effect::new(move |_| {
            tokens.with(|l| {
                let Some(Ok(all)) = l else { return };
                let Some(w) = wanted.get_value() else { return };
                wanted.set_value(None);
                match find(all, &w) {
                    Some(id) => open.id.set(Some(id)),
                    None => open.missing.set(Some(w)),
                }
            })
        });
        open
    }
}

/// The sentence for a link's token that is not in the list.
#[component]
pub fn NotFound(open: Open) -> impl IntoView {
    move || {
        open.missing.get().map(|id| {
            view! { <p class="alert warning" role="status" id="tokens-not-found">{fill(text().not_found, &[&id])}</p> }
        })
    }
}

/// The drawer of the open token, when the list holds it.
#[component]
pub fn TokenDrawer(all: Vec<TokenInfo>, open: Open) -> impl IntoView {
    move || {
        let token = open.id.get().and_then(|id| all.iter().find(|t| t.id == id).cloned())?;
        let t = text();
        let (c, f) = (&t.columns, &t.detail_fields);
        let scopes = token.scopes.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
        let state = match &token.revoked_at {
            Some(_) => fill(t.revoked_at, &[&when(&token.revoked_at, "")]),
            None => "—".to_string(),
        };
        let rows = [
            (f[1], token.id.to_string()),
            (c[1], token.user_id.clone()),
            (c[2], scopes),
            (f[0], when(&Some(token.created_at.clone()), "")),
            (c[3], when(&token.expires_at, t.never)),
            (c[4], when(&token.last_used_at, t.never)),
            (c[5], state),
        ];
        let rows = rows.into_iter().map(|(k, v)| view! { <dt>{k}</dt><dd>{v}</dd> }).collect_view();
        Some(view! {
            <Drawer title=token.name.clone() id="token-details" on_close=Callback::new(move |()| open.id.set(None))>
                <WithActivity target_type=TOKEN target_id=token.id.to_string()>
                    <dl class="record-fields" data-testid="token-details" data-id=token.id.to_string()>{rows}</dl>
                </WithActivity>
            </Drawer>
        })
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn token(id: i64) -> TokenInfo {
        TokenInfo {
            id,
            name: format!("t{id}"),
            user_id: "u1".into(),
            scopes: Vec::new(),
            created_at: "2026-11-29T10:00:00Z".into(),
            expires_at: None,
            last_used_at: None,
            revoked_at: None,
        }
    }

    #[wasm_bindgen_test]
    fn a_link_opens_the_token_it_names_when_the_list_holds_it() {
        let all = [token(7), token(12)];
        assert_eq!(find(&all, "12"), Some(12));
        assert_eq!(find(&all, "13"), None, "not in the list");
        assert_eq!(find(&all, "abc"), None);
    }
}
