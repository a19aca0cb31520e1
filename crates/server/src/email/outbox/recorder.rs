//! The delivery worker's group commit: the queues' recorder (`storage::queue::recorder`, where
//! its measurements are) over the outbox's store ([`EmailStore::record`]).

use super::store::EmailStore;

pub use crate::storage::queue::Recorded;

/// The outbox's committer: `Recorder::start(store, worker)`, then `record(outcome)` a lane.
pub type Recorder = crate::storage::queue::Recorder<EmailStore>;
