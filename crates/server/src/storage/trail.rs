//! The audit trail's writer: one record for each write, appended **in the transaction of the
//! change** — the first transaction a write request commits (`Tx::commit` runs
//! [`pending_record`]), so a change without its record, or a record without its change, cannot be.
//!
//! A write request runs inside a [`Recording`] (the auth guard opens it, knowing the caller,
//! the operation and where the request came from: `tokio::task_local!`, so every store the
//! handler calls sees it without being handed it). The store says what it changed before it
//! commits: [`target`] (the object's type and id) and [`change`] (a field's value before and
//! after). A transaction that is bookkeeping rather than the change (an idempotency key kept
//! before the work) commits with `Tx::commit_unrecorded`. The server's own jobs record
//! their changes the same way inside [`job`].
//!
//! The records are chained (hashed) afterwards by the audit group's sealer, in the order it
//! finds them committed: chaining here would make every write of every instance wait on the
//! one chain head until its transaction ends.

use std::future::Future;
use std::sync::{Arc, Mutex};

use chrono::Utc;

use super::time::millis;
use super::{Dialect, Sql};

/// What a write request (or a job) records of itself, and what its stores add.
#[derive(Debug, Default)]
pub struct Recording {
    pub token_id: Option<i64>,
    pub user_id: Option<String>,
    pub token_name: Option<String>,
    pub client_address: Option<String>,
    pub user_agent: Option<String>,
    /// The OpenAPI operation id, or `job:<name>`.
    pub operation: String,
    pub method: Option<String>,
    /// The route as the API document writes it.
    pub path: Option<String>,
    pub request_id: Option<String>,
    /// The route's path parameters: the target's id when no store names one (`{id}`).
    pub path_id: Option<String>,
    pub(crate) noted: Mutex<Noted>,
}

#[derive(Debug, Default)]
pub(crate) struct Noted {
    target: Option<(String, String)>,
    changes: Vec<(String, Option<String>, Option<String>)>,
    written: bool,
}

tokio::task_local! {
    static RECORDING: Arc<Recording>;
}

impl Recording {
    /// Runs `f` with this recording open: the first transaction it commits carries the record.
    pub async fn run<F: Future>(self, f: F) -> F::Output {
        RECORDING.scope(Arc::new(self), f).await
    }

    /// Whether a record was written (the request's change committed).
    pub fn written(&self) -> bool {
        self.noted.lock().map(|n| n.written).unwrap_or(false)
    }
}

/// Runs a job's work with a recording of its own: its changes are on record as the server's
/// (no token), under `job:<name>`.
pub async fn job<F: Future>(name: &str, f: F) -> F::Output {
    Recording { operation: format!("job:{name}"), ..Recording::default() }.run(f).await
}

fn with<R>(f: impl FnOnce(&mut Noted) -> R) -> Option<R> {
    RECORDING.try_with(|r| r.noted.lock().ok().map(|mut n| f(&mut n))).ok().flatten()
}

/// Names the object the open recording's change is to (`deposit`, `42`). The first name
/// given stands: a write that makes several objects is recorded under the one it was asked
/// for. Outside a recording, nothing.
pub fn target(kind: &str, id: impl ToString) {
    with(|n| {
        if n.target.is_none() {
            n.target = Some((kind.to_string(), id.to_string()));
        }
    });
}

/// Notes one field's change (short texts; never a secret, a body or an image).
pub fn change(field: &str, before: Option<impl ToString>, after: Option<impl ToString>) {
    let cut = |v: String| if v.chars().count() > 200 { v.chars().take(199).chain(['…']).collect() } else { v };
    with(|n| {
        n.changes.push((field.to_string(), before.map(|v| cut(v.to_string())), after.map(|v| cut(v.to_string()))))
    });
}

/// Whether the open recording's change committed (its record written); false outside one.
pub fn written() -> bool {
    RECORDING.try_with(|r| r.written()).unwrap_or(false)
}

/// Whether a recording is open here (a write request or a job).
pub fn recording() -> bool {
    RECORDING.try_with(|_| ()).is_ok()
}

/// The open recording, to carry into a task the write spawns ([`within`]): a task-local does
/// not cross `tokio::spawn`.
pub fn current() -> Option<Arc<Recording>> {
    RECORDING.try_with(Arc::clone).ok()
}

/// Runs `f` inside `recording` (from [`current`]) when there is one.
pub async fn within<F: Future>(recording: Option<Arc<Recording>>, f: F) -> F::Output {
    match recording {
        Some(r) => RECORDING.scope(r, f).await,
        None => f.await,
    }
}

/// The open recording's record as a statement, once per recording: what `Tx::commit`
/// runs in the transaction just before it commits (`None`: no recording, or written already).
pub(crate) fn pending_record(dialect: Dialect) -> Option<Sql> {
    let recording = RECORDING.try_with(Arc::clone).ok()?;
    let (target, changes) = {
        let mut n = recording.noted.lock().ok()?;
        if n.written {
            return None;
        }
        n.written = true;
        (n.target.clone(), std::mem::take(&mut n.changes))
    };
    let target = target.or_else(|| recording.path_id.clone().map(|id| (target_type(&recording), id)));
    let changes: Vec<serde_json::Value> = changes
        .into_iter()
        .map(|(field, before, after)| serde_json::json!({"field": field, "before": before, "after": after}))
        .collect();
    Some(insert(dialect, &recording, "succeeded", target, &serde_json::Value::Array(changes).to_string()))
}

/// The statement appending one record.
pub fn insert(dialect: Dialect, r: &Recording, outcome: &str, target: Option<(String, String)>, changes: &str) -> Sql {
    let at = Utc::now();
    let (target_type, target_id) = target.unzip();
    Sql::new(
        dialect,
        "INSERT INTO audit_records (at, day, token_id, user_id, token_name, client_address, user_agent, \
         operation, method, path, target_type, target_id, outcome, request_id, changes) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .arg(millis(at))
    .arg(at.date_naive().to_string())
    .arg(r.token_id)
    .arg(r.user_id.clone())
    .arg(r.token_name.clone())
    .arg(r.client_address.clone())
    .arg(r.user_agent.clone())
    .arg(r.operation.clone())
    .arg(r.method.clone())
    .arg(r.path.clone())
    .arg(target_type)
    .arg(target_id)
    .arg(outcome)
    .arg(r.request_id.clone())
    .arg(changes)
}

/// The target's type when only the route names it: the last literal segment before the
/// route's first parameter (`…/deposits/{id}/actions` → `deposits`).
fn target_type(r: &Recording) -> String {
    let path = r.path.as_deref().unwrap_or_default();
    let before = path.split("/{").next().unwrap_or_default();
    before.rsplit('/').next().unwrap_or_default().to_string()
}
