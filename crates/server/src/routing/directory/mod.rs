//! The Fed's routing directory: loaded from the configured FedACH and Fedwire files (or the
//! embedded demo), indexed, and swapped atomically on refresh.
//!
//! Lookups read the current [`Directory`] through an `ArcSwap`: no lock, never half a
//! directory. A refresh (daily on the [`Schedule`], or the admin endpoint) builds the new
//! index on a blocking thread off to the side and swaps it in only when the whole load
//! succeeded; a failed load keeps the previous directory and is reported in the status.

use std::fmt;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use arc_swap::ArcSwap;
use chrono::{DateTime, Utc};
use moneydesk_model::routing::{DirectoryStatus, RefreshFailure};

use crate::Config;

pub mod demo;
pub mod index;
pub mod json;
pub mod load;
pub mod parse;
mod record;
pub mod search;
pub mod text;
pub mod validate;

use crate::config::schedule::Schedule;
pub use index::Directory;
pub use load::{LoadError, Sources};
pub use search::{search, SearchQuery};

/// The directory is stale when the last successful refresh is older than this.
pub const STALE_AFTER_HOURS: u32 = 48;
/// After a failed scheduled refresh, try again this often until the next scheduled time.
const RETRY_AFTER: Duration = Duration::from_secs(30 * 60);

/// Per-group state kept in `AppState`: cheap to clone, shared by every handler.
#[derive(Clone)]
pub struct State {
    inner: Arc<Inner>,
}

struct Inner {
    current: ArcSwap<Directory>,
    sources: Sources,
    schedule: Option<Schedule>,
    /// One refresh at a time (a second caller waits, then loads again).
    refreshing: tokio::sync::Mutex<()>,
    attempts: Mutex<Attempts>,
    /// Where a refresh is recorded (its event and audit record); none in tests and tools
    /// that load a directory alone.
    database: std::sync::OnceLock<crate::storage::Database>,
}

struct Attempts {
    last_attempt_at: DateTime<Utc>,
    last_error: Option<RefreshFailure>,
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.current();
        f.debug_struct("directory::State")
            .field("ach", &d.ach.len())
            .field("wire", &d.wire.len())
            .field("sources", &self.inner.sources)
            .finish()
    }
}

impl State {
    /// Loads the configured directory; a bad file fails startup (there is no previous
    /// directory to keep serving). Starts the daily refresh when one is configured.
    pub async fn load(config: &Config) -> anyhow::Result<State> {
        let sources = Sources { fedach: config.fedach_file.clone(), fedwire: config.fedwire_file.clone() };
        let state = State::with_sources(sources, config.routing_refresh).await?;
        if config.routing_refresh.is_some() {
            state.spawn_scheduler();
        }
        Ok(state)
    }

    /// Loads `sources` now (no scheduler): for tests and benchmarks.
    pub async fn with_sources(sources: Sources, schedule: Option<Schedule>) -> Result<State, LoadError> {
        let s = sources.clone();
        let dir = tokio::task::spawn_blocking(move || load::load(&s)).await.expect("directory load panicked")?;
        tracing::info!(ach = dir.ach.len(), wire = dir.wire.len(), source = ?dir.source, "routing directory loaded");
        let attempts = Attempts { last_attempt_at: dir.loaded_at, last_error: None };
        Ok(State {
            inner: Arc::new(Inner {
                current: ArcSwap::from_pointee(dir),
                sources,
                schedule,
                refreshing: tokio::sync::Mutex::new(()),
                attempts: Mutex::new(attempts),
                database: std::sync::OnceLock::new(),
            }),
        })
    }

    /// The directory in service (lock-free; hold it for one request, not longer).
    pub fn current(&self) -> Arc<Directory> {
        self.inner.current.load_full()
    }

    /// A cheaper short-lived view for one lookup (no reference count traffic between cores);
    /// never hold it across an `.await`.
    pub fn view(&self) -> arc_swap::Guard<Arc<Directory>> {
        self.inner.current.load()
    }

    /// Records every refresh from now on in `db`: its `routing.directory.refreshed` event and
    /// its audit record (the first database set stands).
    pub fn record_in(&self, db: crate::storage::Database) {
        let _ = self.inner.database.set(db);
    }

    /// Reloads the configured files off to the side and swaps the new directory in, recorded
    /// first (`record_in`): a directory the record cannot be written for does not go into
    /// service. On failure the previous directory stays in service and the error is kept for
    /// the status.
    pub async fn refresh(&self) -> Result<DirectoryStatus, LoadError> {
        let _one_at_a_time = self.inner.refreshing.lock().await;
        let started = Utc::now();
        let sources = self.inner.sources.clone();
        let mut loaded =
            tokio::task::spawn_blocking(move || load::load(&sources)).await.expect("directory load panicked");
        let mut told = None;
        if let (Ok(dir), Some(db)) = (&loaded, self.inner.database.get()) {
            let mut status = self.status_of(dir, Utc::now());
            (status.last_attempt_at, status.last_error) = (started.to_rfc3339(), None);
            match record::refreshed(db, &self.status(), &status).await {
                Ok(()) => told = Some(status),
                Err(e) => loaded = Err(record::failed(e)),
            }
        }
        let mut attempts = self.inner.attempts.lock().expect("attempts lock");
        attempts.last_attempt_at = started;
        match loaded {
            Ok(dir) => {
                tracing::info!(ach = dir.ach.len(), wire = dir.wire.len(), "routing directory refreshed");
                self.inner.current.store(Arc::new(dir));
                attempts.last_error = None;
                drop(attempts);
                Ok(told.unwrap_or_else(|| self.status()))
            }
            Err(e) => {
                tracing::error!(error = %e, "routing directory refresh failed; the previous directory stays in service");
                attempts.last_error = Some(RefreshFailure { at: started.to_rfc3339(), message: e.to_string() });
                Err(e)
            }
        }
    }

    pub fn status(&self) -> DirectoryStatus {
        self.status_at(Utc::now())
    }

    pub fn status_at(&self, now: DateTime<Utc>) -> DirectoryStatus {
        self.status_of(&self.current(), now)
    }

    /// The status with `d` in service.
    fn status_of(&self, d: &Directory, now: DateTime<Utc>) -> DirectoryStatus {
        let (as_of, as_of_source) = d.as_of();
        let (ach, wire) = d.parts();
        let attempts = self.inner.attempts.lock().expect("attempts lock");
        DirectoryStatus {
            source: d.source,
            as_of: as_of.map(|d| d.to_string()),
            as_of_source,
            loaded_at: d.loaded_at.to_rfc3339(),
            stale: now - d.loaded_at > chrono::Duration::hours(STALE_AFTER_HOURS as i64),
            stale_after_hours: STALE_AFTER_HOURS,
            institutions: d.entries.len() as u64,
            ach,
            wire,
            refresh_schedule: self.inner.schedule.map(|s| s.to_string()),
            next_refresh_at: self.inner.schedule.map(|s| s.next_after(now).to_rfc3339()),
            last_attempt_at: attempts.last_attempt_at.to_rfc3339(),
            last_error: attempts.last_error.clone(),
        }
    }

    /// The daily refresh. The task holds only a weak reference, so it ends with the server.
    fn spawn_scheduler(&self) {
        let Some(schedule) = self.inner.schedule else { return };
        let weak: Weak<Inner> = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let mut retry: Option<DateTime<Utc>> = None;
            loop {
                let now = Utc::now();
                let next = schedule.next_after(now);
                let at = retry.filter(|r| *r < next).unwrap_or(next);
                tokio::time::sleep((at - now).to_std().unwrap_or_default()).await;
                let Some(inner) = weak.upgrade() else { return };
                // On the audit trail as the server's.
                let refresh = async move { (State { inner }).refresh().await };
                retry = match crate::storage::trail::job("routing-refresh", refresh).await {
                    Ok(_) => None,
                    Err(_) => Some(Utc::now() + chrono::Duration::from_std(RETRY_AFTER).unwrap_or_default()),
                };
            }
        });
    }
}
