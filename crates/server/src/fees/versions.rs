//! The schedule versions held in memory: a quote picks the version in force at the request's
//! time without touching the database. Versions loaded by another process (the CLI, another
//! instance) are picked up within `RECHECK` (one `SELECT max(id)` per interval, made by
//! whichever request comes first after it).

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use anyhow::Context;
use arc_swap::ArcSwap;
use chrono::{DateTime, SecondsFormat, Utc};
use moneydesk_model::fees::{FeeSchedule, ScheduleFile, DEFAULT_SCHEDULE_TOML};

use super::store::{FeeStore, StoredVersion};

/// How stale the in-memory versions may be with respect to the database.
pub const RECHECK_SECS: i64 = 5;

#[derive(Debug, Clone)]
pub struct Version {
    pub id: i64,
    pub effective_from: DateTime<Utc>,
    pub schedule: Arc<FeeSchedule>,
    /// Each tier's description, worked out once: a quote copies them instead of formatting
    /// amounts on every request.
    pub descriptions: Arc<[String]>,
    /// Each tier's JSON around its amount (`super::answer`), rendered once for the same reason.
    pub pieces: Arc<[super::answer::EntryJson]>,
    pub loaded_at: String,
    pub loaded_by: String,
}

#[derive(Debug)]
pub struct Versions {
    /// Oldest first.
    all: ArcSwap<Vec<Arc<Version>>>,
    latest_id: AtomicI64,
    /// Unix seconds of the last database check.
    checked_at: AtomicI64,
}

impl Versions {
    /// Loads every version; on a database without one, stores the default schedule first.
    pub async fn load(db: &FeeStore) -> anyhow::Result<Versions> {
        if db.put_first(&default_schedule()?).await? {
            tracing::info!("fee schedule: stored the default schedule (none was loaded yet)");
        }
        let all = read(db).await?;
        let latest = all.iter().map(|v| v.id).max().unwrap_or(0);
        Ok(Versions {
            all: ArcSwap::from_pointee(all),
            latest_id: AtomicI64::new(latest),
            checked_at: AtomicI64::new(Utc::now().timestamp()),
        })
    }

    /// The version in force at `at`: the latest whose `effective_from` is not after it.
    pub fn in_force(&self, at: DateTime<Utc>) -> Option<Arc<Version>> {
        self.all.load().iter().rev().find(|v| v.effective_from <= at).cloned()
    }

    /// The returned-item fee (cents) of the version in force at `at`, if it sets one.
    pub fn returned_item_fee_cents(&self, at: DateTime<Utc>) -> Option<i64> {
        self.in_force(at)?.schedule.returned_item_fee_cents()
    }

    /// The version in force now and every later one.
    pub fn current_and_future(&self, now: DateTime<Utc>) -> Vec<Arc<Version>> {
        let all = self.all.load();
        let first = all.iter().rposition(|v| v.effective_from <= now).unwrap_or(0);
        all[first..].to_vec()
    }

    /// Re-reads the versions when another process may have added one (at most once per
    /// `RECHECK_SECS`); a failed check keeps the versions held and is logged.
    pub async fn recheck(&self, db: &FeeStore, now: DateTime<Utc>) {
        let now = now.timestamp();
        let last = self.checked_at.load(Ordering::Relaxed);
        if now - last < RECHECK_SECS
            || self.checked_at.compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_err()
        {
            return;
        }
        match db.latest_id().await {
            Ok(id) if id != self.latest_id.load(Ordering::Relaxed) => {
                if let Err(e) = self.reload(db).await {
                    tracing::warn!("fee schedule: re-reading the versions failed, keeping those held: {e:#}");
                }
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("fee schedule: checking for new versions failed: {e}"),
        }
    }

    /// Re-reads every version now (after this process stored one).
    pub async fn reload(&self, db: &FeeStore) -> anyhow::Result<()> {
        let all = read(db).await?;
        self.latest_id.store(all.iter().map(|v| v.id).max().unwrap_or(0), Ordering::Relaxed);
        self.all.store(Arc::new(all));
        Ok(())
    }
}

async fn read(db: &FeeStore) -> anyhow::Result<Vec<Arc<Version>>> {
    db.versions().await?.into_iter().map(version).collect()
}

fn version(v: StoredVersion) -> anyhow::Result<Arc<Version>> {
    let effective_from = DateTime::parse_from_rfc3339(&v.schedule.effective_from)
        .with_context(|| format!("fee schedule version {}: effective_from", v.id))?
        .with_timezone(&Utc);
    let descriptions: Vec<String> = v.schedule.tiers.iter().map(|t| t.description()).collect();
    let pieces = super::answer::pieces(&v.schedule, &descriptions).into();
    Ok(Arc::new(Version {
        id: v.id,
        effective_from,
        descriptions: descriptions.into(),
        pieces,
        schedule: Arc::new(v.schedule),
        loaded_at: v.loaded_at,
        loaded_by: v.loaded_by,
    }))
}

/// The built-in default schedule (crates/model/src/fees/default-schedule.toml).
pub fn default_schedule() -> anyhow::Result<FeeSchedule> {
    parse_schedule_text(DEFAULT_SCHEDULE_TOML, Format::Toml)
        .map_err(|e| anyhow::anyhow!("the default fee schedule: {e}"))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Toml,
    Json,
}

/// A schedule file's text, validated all-or-nothing: the schedule, or every problem (the
/// parser's own with its line and column, or each rule's with its place).
pub fn parse_schedule_text(text: &str, format: Format) -> Result<FeeSchedule, String> {
    match format {
        Format::Json => FeeSchedule::from_json(text).map_err(|e| e.to_string()),
        Format::Toml => {
            let file: ScheduleFile =
                toml::from_str(text).map_err(|e| format!("the fee schedule does not parse: {e}"))?;
            FeeSchedule::from_file(&file).map_err(|e| e.to_string())
        }
    }
}

/// Now as the schedule's text form (RFC 3339 UTC, whole seconds).
pub fn now_rfc3339(now: DateTime<Utc>) -> String {
    now.to_rfc3339_opts(SecondsFormat::Secs, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn versions(dates: &[&str]) -> Versions {
        let schedule = default_schedule().unwrap();
        let all = dates
            .iter()
            .enumerate()
            .map(|(i, d)| {
                Arc::new(Version {
                    id: i as i64 + 1,
                    descriptions: Arc::from(Vec::new()),
                    pieces: Arc::from(Vec::new()),
                    effective_from: DateTime::parse_from_rfc3339(d).unwrap().with_timezone(&Utc),
                    schedule: Arc::new(FeeSchedule { effective_from: d.to_string(), ..schedule.clone() }),
                    loaded_at: String::new(),
                    loaded_by: String::new(),
                })
            })
            .collect();
        Versions { all: ArcSwap::from_pointee(all), latest_id: AtomicI64::new(0), checked_at: AtomicI64::new(0) }
    }

    #[test]
    fn a_version_is_in_force_from_its_instant_exactly() {
        let v = versions(&["2026-01-01T00:00:00Z", "2026-07-01T12:00:00Z"]);
        let at = |t: &str| v.in_force(DateTime::parse_from_rfc3339(t).unwrap().with_timezone(&Utc)).map(|v| v.id);
        assert_eq!(at("2025-12-31T23:59:59.999999999Z"), None);
        assert_eq!(at("2026-01-01T00:00:00Z"), Some(1));
        assert_eq!(at("2026-07-01T11:59:59.999999999Z"), Some(1));
        assert_eq!(at("2026-07-01T12:00:00Z"), Some(2));
        let now = DateTime::parse_from_rfc3339("2026-03-01T00:00:00Z").unwrap().with_timezone(&Utc);
        assert_eq!(v.current_and_future(now).iter().map(|v| v.id).collect::<Vec<_>>(), [1, 2]);
    }
}
