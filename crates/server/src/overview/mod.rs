//! The operator's day (extension, issue 45 "A home that shows the day"): one answer with
//! today's figures of every group the caller's scopes open — deposits by state and rail, what
//! waits for an operator, the next cash letter, the outbox, the routing directory's age, the
//! caller's vault, failing webhook endpoints, ledger balances that moved — each with the list
//! behind it. It reads the groups' tables ([`reads`]) and their in-memory state (the routing
//! directory, the books' clock); the answer is kept a few seconds per (user, scopes).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;

mod handler;
mod reads;

/// How long an answer is reused, and what `Cache-Control: private, max-age` says.
pub const CACHE_SECONDS: u64 = 5;

crate::group_state! {
    /// What the overview reads: the database (each group's tables), the cash letters' store,
    /// the vault's usage, the routing directory, the books' clock and calendar, its cache.
    pub struct OverviewState {
        database: crate::storage::Database = stores.database,
        cash_letters: crate::cash_letters::store::CashLetterStore = stores.cash_letters,
        vault: crate::vault::store::VaultStore = stores.vault,
        routing: crate::routing::directory::State = routing,
        books: crate::ledger::Books = books,
        cache: Cache = overview,
    }
}

/// Answers by (user, scopes), each with when it was read. Expired entries are dropped when
/// another is stored, so it holds at most the callers of the last few seconds.
#[derive(Debug, Default, Clone)]
pub struct Cache(Arc<Mutex<HashMap<String, (Instant, Arc<moneydesk_model::overview::Overview>)>>>);

impl Cache {
    fn get(&self, key: &str) -> Option<Arc<moneydesk_model::overview::Overview>> {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        map.get(key).filter(|(at, _)| at.elapsed() < Duration::from_secs(CACHE_SECONDS)).map(|(_, o)| o.clone())
    }

    fn put(&self, key: String, overview: Arc<moneydesk_model::overview::Overview>) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        map.retain(|_, (at, _)| at.elapsed() < Duration::from_secs(CACHE_SECONDS));
        map.insert(key, (Instant::now(), overview));
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(handler::overview))
}
