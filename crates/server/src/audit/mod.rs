//! The audit trail (extension; issue "every change on record"): one record for every write
//! of every group, appended in the change's own transaction (`storage::trail`, opened by the
//! auth guard), chained per day by SHA-256 (`seal`), read, verified and exported here
//! (`store`, `handlers`; scope `audit:read`, `admin` sees every user's records).
//!
//! What the chain protects against: a record edited, removed from the middle of a day, or
//! reordered, by anyone who does not also recompute every later hash of that day — the
//! verification names the first broken link. What it does not: a reader with write access to
//! the database who rewrites a whole day's tail and its hashes, or deletes a day's last
//! records. Against those, keep the signed export of each day (its last hash) outside the
//! database and compare: the signing key (`MONEYDESK_AUDIT_SIGNING_KEY`) belongs outside it too.

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::storage::Database;
use crate::AppState;

mod handlers;
pub mod seal;
pub mod store;

crate::group_state! {
    /// What the audit handlers reach: the database the trail is in, and its settings.
    pub struct AuditState {
        database: crate::storage::Database = stores.database,
        settings: crate::storage::SettingStore = stores.settings,
        config: std::sync::Arc<crate::Config> = config,
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::list))
        .routes(routes!(handlers::verify))
        .routes(routes!(handlers::get))
        .routes(routes!(handlers::export))
}

/// Runs [`seal`] every second (each instance asks; one runs it at a time, by the lock), and
/// the retention purge once a day when a retention is set.
pub fn spawn(db: Database, retention_days: Option<u32>) {
    use std::time::Duration;
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut purged_on = None;
        loop {
            tick.tick().await;
            if let Err(e) = seal::seal(&db).await {
                tracing::warn!(error = %e, "sealing the audit trail failed; the next pass tries again");
            }
            let today = chrono::Utc::now().date_naive();
            if let (Some(days), true) = (retention_days, purged_on != Some(today)) {
                match store::purge(&db, today - chrono::Days::new(u64::from(days))).await {
                    Ok(n) if n > 0 => tracing::info!(days = n, "audit days purged under retention"),
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %e, "purging audit days failed; tried again tomorrow"),
                }
                purged_on = Some(today);
            }
        }
    });
}
