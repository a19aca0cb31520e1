//! One search across everything (extension, issue 45): `GET SEARCH?q=&limit=` fans the text
//! out to each group the token's scopes open, at once, and answers their hits grouped and
//! ranked. The text's shape (`moneydesk_model::search::Query`) picks the fields each group
//! compares it with; each group asks its own tables in up to three stages (exact, prefix,
//! contains: `stages.rs`), so a query with many exact hits never scans for the others.

use axum::extract::{RawQuery, State};
use moneydesk_model::search::{Query, SearchGroup, SearchGroupHits, SearchResult, DEFAULT_LIMIT, MAX_LIMIT};
use moneydesk_model::{paths, Envelope, Scope};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Json;
use crate::AppState;

mod matching;
mod records;
mod routing;
mod stages;
mod users;

crate::group_state! {
    /// What the search reaches: the database every group's tables are in, and the routing
    /// directory (in memory).
    pub struct SearchState {
        database: crate::storage::Database = stores.database,
        routing: crate::routing::directory::State = routing,
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(search))
}

/// The scope that opens a group's results (tokens: any token, its own user's).
fn opens(caller: &Caller, group: SearchGroup) -> bool {
    match group {
        SearchGroup::Deposits => caller.can(Scope::DepositsRead),
        SearchGroup::Accounts => caller.can(Scope::AccountsRead),
        SearchGroup::Routing => caller.can(Scope::RoutingRead),
        SearchGroup::Vault => caller.can(Scope::VaultRead),
        SearchGroup::Email => caller.can(Scope::EmailSend),
        SearchGroup::Tokens => true,
    }
}

#[derive(Debug, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
struct SearchParams {
    /// The text: 2 to 100 characters once trimmed (a number may be one digit), no control
    /// characters; spaces around it are not counted. Its shape decides the fields asked: 9
    /// digits with a valid ABA check digit a routing number; digits an id, a check, account or
    /// routing number, or whole dollars; a decimal or `$…` an amount; text with `@` an email
    /// address; anything else names, subjects and file names.
    // The length is the trimmed text's, so the pattern bounds it (no maxLength); its spaces are
    // Unicode White_Space as the server trims them, spelled out (a regex's `\s` differs).
    #[param(
        min_length = 1,
        pattern = r"^[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*([0-9]|[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000][^\x00-\x1f\x7f-\x9f]{0,98}[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000])[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$"
    )]
    q: String,
    /// Results per group, 1 to 20 (default 5).
    #[param(minimum = 1, maximum = 20)]
    limit: Option<u32>,
}

#[utoipa::path(operation_id = "search_everything", get, path = paths::SEARCH, tag = "search", params(SearchParams),
    security(("bearer" = [])),
    extensions(("x-extension" = json!(true))),
    description = "One search across every group the token's scopes open: deposits (deposits:read), accounts (accounts:read), the routing directory (routing:read), the caller's own vault files (vault:read, an admin's too: the vault is per user), the email outbox (email:send) and tokens (any token: an admin's every token, anyone else's their own user's). A group the scopes do not open is absent from the answer, never a 403; a group opened that found nothing is present with no hits. Within a group hits are ranked: exact (the whole id, number, amount, address or name), then prefix, then contains, newest first within each; `more` says the group matched more than `limit`. Each hit's `open` is the portal's list path with the query that opens its drawer. Nothing is written or audited.",
    responses((status = 200, body = Envelope<SearchResult>),
        (status = 400, description = "`q` missing, shorter than 2 (a number: 1) or longer than 100 characters, or with control characters; `limit` not 1 to 20; an unknown parameter", body = ErrorEnvelopeDoc)))]
pub(super) async fn search(
    State(state): State<SearchState>,
    caller: Caller,
    RawQuery(raw): RawQuery,
) -> Result<Json<Envelope<SearchResult>>, Error> {
    let (query, limit) = read_params(raw.as_deref())?;
    let q = &query;
    let db = state.database();
    let want = |g| opens(&caller, g);
    // Every group at once: the answer waits for the slowest, not for the sum.
    let (deposits, accounts, vault, email, tokens) = tokio::join!(
        async {
            if want(SearchGroup::Deposits) {
                Some(records::deposits(db, q, limit).await)
            } else {
                None
            }
        },
        async {
            if want(SearchGroup::Accounts) {
                Some(records::accounts(db, q, limit).await)
            } else {
                None
            }
        },
        async {
            if want(SearchGroup::Vault) {
                Some(users::vault(db, q, limit, caller.user_id()).await)
            } else {
                None
            }
        },
        async {
            if want(SearchGroup::Email) {
                Some(users::email(db, q, limit).await)
            } else {
                None
            }
        },
        async {
            let own = (!caller.can(Scope::Admin)).then(|| caller.user_id());
            Some(users::tokens(db, q, limit, own).await)
        },
    );
    let routing = want(SearchGroup::Routing).then(|| Ok(routing::search(&state.routing().view(), q, limit)));
    let mut groups = Vec::new();
    for (group, found) in [
        (SearchGroup::Deposits, deposits),
        (SearchGroup::Accounts, accounts),
        (SearchGroup::Routing, routing),
        (SearchGroup::Vault, vault),
        (SearchGroup::Email, email),
        (SearchGroup::Tokens, tokens),
    ] {
        if let Some(found) = found {
            let (hits, more) = found?;
            groups.push(SearchGroupHits { group, hits, more });
        }
    }
    Ok(Json(Envelope::ok(SearchResult { q: query.text.clone(), shape: query.shape, groups })))
}

/// `q` and `limit`, each once; anything else is refused by name.
fn read_params(raw: Option<&str>) -> Result<(Query, u32), Error> {
    let pairs = crate::http::extract::query_pairs(raw);
    let mut q = None;
    let mut limit = DEFAULT_LIMIT;
    for (k, v) in &pairs {
        match k.as_str() {
            "q" if q.is_none() => q = Some(v.as_str()),
            "limit" => {
                limit = v.trim().parse::<u32>().ok().filter(|l| (1..=MAX_LIMIT).contains(l)).ok_or_else(|| {
                    Error::field("limit", format!("must be a whole number from 1 to {MAX_LIMIT}, got {v:?}"))
                })?
            }
            "q" => return Err(Error::field("q", "give q once")),
            other => return Err(Error::field(other, "unknown parameter; use q and limit")),
        }
    }
    let query = Query::parse(q.unwrap_or_default()).map_err(|e| Error::field("q", e.to_string()))?;
    Ok((query, limit))
}
