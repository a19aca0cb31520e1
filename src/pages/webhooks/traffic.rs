//! What an endpoint's parts (actions, log, chart) share: the endpoint they show, and the
//! re-reading of its log and chart for a while after something was sent.

use std::future::Future;
use std::time::Duration;

use leptos::prelude::*;

use crate::api::request::Answer;
use crate::api::ApiError;

/// How often, and how many times, the log is read again after something was sent.
pub const WATCH_EVERY: Duration = Duration::from_millis(1500);
const WATCH_TIMES: u32 = 12;

/// What the endpoint's parts share; `Copy`.
#[derive(Clone, Copy)]
pub struct Traffic {
    pub id: StoredValue<String>,
    /// Bumped to read the log and the chart again.
    pub tick: RwSignal<u32>,
    /// How many more times the log is read again on its own.
    pub watch: RwSignal<u32>,
}

impl Traffic {
    /// Something was sent: read the log now and for a while.
    pub fn sent(self) {
        self.watch.set(WATCH_TIMES);
        self.tick.update(|t| *t += 1);
    }
}

/// Reads an answer again without clearing it first (the log and the chart stay on screen while
/// they are refreshed); an aborted request writes nothing.
pub fn keep<T: Send + Sync + 'static>(answer: Answer<T>, request: impl Future<Output = Result<T, ApiError>> + 'static) {
    leptos::task::spawn_local(async move {
        let result = request.await;
        if !matches!(result, Err(ApiError::Aborted)) {
            answer.set(result);
        }
    });
}
