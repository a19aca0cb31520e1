//! One worker for every queue: lanes that take claimed rows one at a time and attempt them,
//! each keeping its own state across rows (the outbox's SMTP connection), the claimed rows
//! shared and topped up by whichever lane finds them running low, and the outcomes written by
//! one committer in groups ([`Recorder`]).
//!
//! - It claims when rows are due: at a wake ([`Options::wake`], rung when this process queues
//!   work), at each poll (rows queued by other instances, retries come due, leases run out),
//!   and whenever the claimed rows run low.
//! - A claimed row whose lease has less than half its time left when its turn comes is given
//!   back untried: behind a receiver that stalls until its timeout, the wait could outlast the
//!   lease, and another instance would take the row over while this one still meant to
//!   attempt it — both would.
//! - A graceful stop ([`Worker::stop`]) lets the attempts under way finish, their outcomes
//!   committed, and gives back the claims not started.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::sync::Notify;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::recorder::{Outcomes, Recorder};

/// A queue as its worker drives it: the claim, one attempt, the give-back, and where the
/// outcomes are written.
pub trait Queue: Send + Sync + 'static {
    type Claimed: Send + Sync + 'static;
    /// A lane's own state, kept from one attempt to the next.
    type Lane: Default + Send;
    type Store: Outcomes;

    /// The queue's name in the logs.
    const KIND: &'static str;

    fn id(claimed: &Self::Claimed) -> &str;

    /// Claims up to `limit` due rows for `worker` until `until`.
    fn claim(
        &self,
        worker: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
        limit: usize,
    ) -> impl Future<Output = anyhow::Result<Vec<Self::Claimed>>> + Send;

    /// Makes one attempt; its outcome, to be recorded.
    fn attempt(
        &self,
        lane: &mut Self::Lane,
        claimed: &Self::Claimed,
    ) -> impl Future<Output = <Self::Store as Outcomes>::Outcome> + Send;

    /// Gives back claims not started.
    fn release(&self, worker: &str, ids: &[String]) -> impl Future<Output = anyhow::Result<()>> + Send;

    fn store(&self) -> Self::Store;
}

/// How a worker runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// Attempts under way at once.
    pub lanes: usize,
    /// Rows claimed at most at once, per lane. A claim on SQLite holds its one write lock, and
    /// the outcomes waiting meanwhile wait in its busy handler: fewer, larger claims cost less.
    pub per_lane: usize,
    /// How long a claim lasts: the lease after which another instance takes the row over.
    pub lease: Duration,
    /// How often an idle worker looks for due rows.
    pub poll: Duration,
    /// Rung when this process queues work.
    pub wake: Arc<Notify>,
}

/// The running worker; [`Worker::stop`] ends it gracefully.
pub struct Worker {
    cancel: CancellationToken,
    task: JoinHandle<()>,
}

impl Worker {
    /// Starts `queue`'s worker, named `worker` in its claims.
    pub fn spawn<Q: Queue>(queue: Q, worker: String, options: Options) -> Worker {
        let cancel = CancellationToken::new();
        let stop = cancel.clone();
        let task = tokio::spawn(async move {
            tracing::info!(kind = Q::KIND, %worker, "worker started");
            let (recorder, committer) = Recorder::start(queue.store(), worker.clone());
            let claimed = Claimed {
                waiting: Mutex::new(VecDeque::new()),
                claiming: tokio::sync::Mutex::new(()),
                batch: options.lanes * options.per_lane,
                low: options.lanes,
            };
            let ctx = Ctx {
                queue: &queue,
                worker: &worker,
                options: &options,
                stop: &stop,
                recorder: &recorder,
                claimed: &claimed,
            };
            futures_util::future::join_all((0..options.lanes).map(|_| run_lane(&ctx))).await;
            // The committer ends once its last handle is dropped, the outcomes handed to it
            // written; then the claims not started are given back.
            drop(recorder);
            let _ = committer.await;
            let unstarted: Vec<String> = (claimed.waiting.into_inner().expect("not poisoned").iter())
                .map(|(c, _)| Q::id(c).to_string())
                .collect();
            if let Err(e) = queue.release(&worker, &unstarted).await {
                tracing::warn!(kind = Q::KIND, error = %e, "giving back claims");
            }
            tracing::info!(kind = Q::KIND, %worker, "worker stopped");
        });
        Worker { cancel, task }
    }

    pub async fn stop(self) {
        self.cancel.cancel();
        let _ = self.task.await;
    }
}

/// What the lanes share: the rows claimed and not yet taken, topped up by whichever lane
/// finds them running low, one claim at a time. No lane waits for the others between claims.
struct Claimed<C> {
    /// Each with the time its lease runs out.
    waiting: Mutex<VecDeque<(C, DateTime<Utc>)>>,
    claiming: tokio::sync::Mutex<()>,
    /// Claimed at most at once, and the level at or below which the next claim is made (a row
    /// a lane, so the others keep going during the claim).
    batch: usize,
    low: usize,
}

struct Ctx<'a, Q: Queue> {
    queue: &'a Q,
    worker: &'a str,
    options: &'a Options,
    stop: &'a CancellationToken,
    recorder: &'a Recorder<Q::Store>,
    claimed: &'a Claimed<Q::Claimed>,
}

/// One lane: its state (kept across rows), taking claimed rows one at a time until the
/// worker stops.
async fn run_lane<Q: Queue>(ctx: &Ctx<'_, Q>) {
    let c = ctx.claimed;
    let mut lane = Q::Lane::default();
    while !ctx.stop.is_cancelled() {
        let (next, left) = {
            let mut waiting = c.waiting.lock().expect("not poisoned");
            (waiting.pop_front(), waiting.len())
        };
        match next {
            Some((row, until)) => {
                if stale(until, ctx.options.lease) {
                    give_back(ctx, &row).await;
                    continue;
                }
                if left <= c.low {
                    // Unless another lane is claiming already.
                    if let Ok(_claiming) = c.claiming.try_lock() {
                        claim(ctx).await;
                    }
                }
                attempt(ctx, &mut lane, row).await;
            }
            None => {
                // Wait for a claim under way, or make one; with nothing due, wait for a wake,
                // the poll or the stop (the other lanes wait for this one).
                let _claiming = c.claiming.lock().await;
                if ctx.stop.is_cancelled() || !c.waiting.lock().expect("not poisoned").is_empty() {
                    continue;
                }
                if claim(ctx).await == 0 {
                    tokio::select! {
                        _ = ctx.options.wake.notified() => {}
                        _ = tokio::time::sleep(ctx.options.poll) => {}
                        _ = ctx.stop.cancelled() => {}
                    }
                }
            }
        }
    }
}

/// Claims due rows up to the batch; how many.
async fn claim<Q: Queue>(ctx: &Ctx<'_, Q>) -> usize {
    let room = ctx.claimed.batch.saturating_sub(ctx.claimed.waiting.lock().expect("not poisoned").len());
    if room == 0 || ctx.stop.is_cancelled() {
        return 0;
    }
    let now = Utc::now();
    let until = now + chrono::Duration::from_std(ctx.options.lease).unwrap_or(chrono::Duration::minutes(5));
    match ctx.queue.claim(ctx.worker, now, until, room).await {
        Ok(rows) => {
            let n = rows.len();
            ctx.claimed.waiting.lock().expect("not poisoned").extend(rows.into_iter().map(|r| (r, until)));
            n
        }
        Err(e) => {
            tracing::warn!(kind = Q::KIND, error = %e, "claiming due work");
            0
        }
    }
}

/// Whether a lease running out at `until` has too little time left for an attempt to start:
/// less than half of it.
fn stale(until: DateTime<Utc>, lease: Duration) -> bool {
    let half = chrono::Duration::from_std(lease / 2).unwrap_or(chrono::Duration::zero());
    Utc::now() + half > until
}

/// Gives a stale claim back untried (due again at once).
async fn give_back<Q: Queue>(ctx: &Ctx<'_, Q>, row: &Q::Claimed) {
    let id = Q::id(row);
    tracing::debug!(kind = Q::KIND, %id, "a claim ran low before its attempt; given back");
    if let Err(e) = ctx.queue.release(ctx.worker, &[id.to_string()]).await {
        tracing::warn!(kind = Q::KIND, %id, error = %e, "giving back a claim; it is taken again when its lease runs out");
    }
}

/// One attempt of one row, its outcome recorded before the lane goes on.
async fn attempt<Q: Queue>(ctx: &Ctx<'_, Q>, lane: &mut Q::Lane, row: Q::Claimed) {
    let outcome = ctx.queue.attempt(lane, &row).await;
    let id = Q::id(&row);
    match ctx.recorder.record(outcome).await {
        Ok(true) => {}
        Ok(false) => {
            tracing::warn!(kind = Q::KIND, %id, "a claim was taken over before its outcome was recorded")
        }
        Err(e) => tracing::error!(kind = Q::KIND, %id, error = %e, "recording an outcome"),
    }
    // A row that left flight may let a capped group be claimed again: a lane that found
    // nothing claimable waits for a wake or the poll, and without this ring a group at its
    // cap was claimed again only once a second (scripts/bench-webhooks: a slow endpoint left
    // alone at six lanes drained at 6 events/s, not 30).
    ctx.options.wake.notify_one();
}
