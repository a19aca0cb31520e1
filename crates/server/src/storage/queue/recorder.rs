//! A worker's group commit: its lanes hand each attempt's outcome to one committer, which
//! writes every outcome waiting in one transaction, and each lane waits for the commit of its
//! outcome before it takes its next row.
//!
//! One commit per outcome, taken in turn, held the outbox back: with 4 lanes against a local
//! aiosmtpd it delivered 1,753 msg/s beside the bare client's 3,502 (50 %,
//! `scripts/bench-email`), and a SQLite commit of one outcome cost about 240 µs against 60 µs
//! an outcome in a commit of 4 (Python's sqlite3 on this schema, WAL, `synchronous=NORMAL`).
//! Measured in the worker (4 lanes, 10,000 messages): 1.2–1.3 outcomes a commit, a lane's
//! cycle about 1.8 ms of SMTP round trips plus 0.6–1 ms waiting for its commit, which is now
//! what bounds the rate.
//!
//! The restart rule's window (an effect made but not yet recorded is made again after a
//! crash) stays at most two commits long: the one under way when the outcome arrives, then the
//! one that carries it. Taking turns, an outcome could wait for the commits of all the other
//! lanes first.
//!
//! An error fails the whole transaction; then each outcome of the group is written alone, so
//! one the database refuses costs no other its record, and a failure of the moment is tried
//! again a few times. One that still cannot be written is logged and stays claimed until its
//! lease runs out; then it is attempted again.

use std::future::Future;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::storage::sql::Conn;

/// How often an outcome alone is tried before it is given up, and the first wait between
/// tries (doubled each time: 50, 100, 200 ms).
const TRIES: u32 = 4;
const FIRST_WAIT: Duration = Duration::from_millis(50);

/// Where a queue's outcomes are written.
pub trait Outcomes: Clone + Send + Sync + 'static {
    type Outcome: Send + Sync + 'static;

    /// The queue row an outcome is of (for the logs).
    fn id(outcome: &Self::Outcome) -> &str;

    /// Writes `outcomes` in one transaction, each only while its claim is still `worker`'s
    /// (`QueueTable::still_mine`): for each, whether it was written. An error writes none.
    /// `held` is a connection the committer keeps from one group to the next (SQLite empties
    /// a connection's page cache when another wrote since its last transaction; a pool lends
    /// its connections in turn), to use or leave alone.
    fn record(
        &self,
        held: &mut Option<Conn>,
        worker: &str,
        outcomes: &[Self::Outcome],
    ) -> impl Future<Output = anyhow::Result<Vec<bool>>> + Send;
}

/// What a lane learns of its outcome: written (`true`), or not because the claim was taken
/// over (`false`), or why it could not be written.
pub type Recorded = Result<bool, String>;

type Waiting<O> = (O, oneshot::Sender<Recorded>);

/// The lanes' handle on the committer; the committer ends once every handle is dropped and
/// the outcomes handed to it are written.
pub struct Recorder<S: Outcomes> {
    outcomes: mpsc::UnboundedSender<Waiting<S::Outcome>>,
}

impl<S: Outcomes> Clone for Recorder<S> {
    fn clone(&self) -> Self {
        Recorder { outcomes: self.outcomes.clone() }
    }
}

impl<S: Outcomes> Recorder<S> {
    /// Starts the committer for `worker`'s outcomes.
    pub fn start(store: S, worker: String) -> (Recorder<S>, JoinHandle<()>) {
        let (outcomes, waiting) = mpsc::unbounded_channel();
        (Recorder { outcomes }, tokio::spawn(commit_groups(store, worker, waiting)))
    }

    /// Hands over an outcome and waits until it is committed (or could not be).
    pub async fn record(&self, outcome: S::Outcome) -> Recorded {
        let (done, answer) = oneshot::channel();
        const STOPPED: &str = "the outcomes' committer stopped";
        self.outcomes.send((outcome, done)).map_err(|_| STOPPED.to_string())?;
        answer.await.map_err(|_| STOPPED.to_string())?
    }
}

/// Commits whatever outcomes are waiting, again and again: each group is everything handed
/// over while the previous commit ran (at most one outcome a lane, since a lane waits).
async fn commit_groups<S: Outcomes>(
    store: S,
    worker: String,
    mut waiting: mpsc::UnboundedReceiver<Waiting<S::Outcome>>,
) {
    let mut held = None;
    while let Some(first) = waiting.recv().await {
        let mut group = vec![first];
        while let Ok(more) = waiting.try_recv() {
            group.push(more);
        }
        let (outcomes, answers): (Vec<S::Outcome>, Vec<oneshot::Sender<Recorded>>) = group.into_iter().unzip();
        match store.record(&mut held, &worker, &outcomes).await {
            Ok(done) => {
                for (answer, done) in answers.into_iter().zip(done) {
                    let _ = answer.send(Ok(done));
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, outcomes = outcomes.len(), "recording a group of outcomes; recording each alone");
                for (outcome, answer) in outcomes.iter().zip(answers) {
                    let _ = answer.send(record_alone(&store, &mut held, &worker, outcome).await);
                }
            }
        }
    }
}

/// One outcome in its own transaction, tried up to [`TRIES`] times.
async fn record_alone<S: Outcomes>(store: &S, held: &mut Option<Conn>, worker: &str, outcome: &S::Outcome) -> Recorded {
    let mut wait = FIRST_WAIT;
    let mut tries = 1;
    loop {
        match store.record(held, worker, std::slice::from_ref(outcome)).await {
            Ok(done) => return Ok(done[0]),
            Err(e) if tries >= TRIES => return Err(e.to_string()),
            Err(e) => tracing::warn!(id = %S::id(outcome), error = %e, "recording an outcome; trying again"),
        }
        tokio::time::sleep(wait).await;
        wait *= 2;
        tries += 1;
    }
}
