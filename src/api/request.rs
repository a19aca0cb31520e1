//! The one way a page holds a request's answer: `Answer<T>` is `None` while the request is on
//! its way, then its result. [`load`] runs a request into it; an aborted request (the page or
//! component went away, and the client cancelled it) and a request overtaken by a newer load of
//! the same answer write nothing.

use std::future::Future;

use leptos::prelude::*;

use super::ApiError;

/// A request's answer for the view; `None` while it is on its way. `Copy`, like a signal.
pub struct Answer<T: Send + Sync + 'static> {
    pub state: RwSignal<Option<Result<T, ApiError>>>,
    /// Bumped by each load: only the latest load's answer is shown.
    seq: StoredValue<u64>,
}

impl<T: Send + Sync + 'static> Answer<T> {
    pub fn new() -> Self {
        Answer { state: RwSignal::new(None), seq: StoredValue::new(0) }
    }

    /// Runs `request` (create it inside the component's owner: the client aborts it when that
    /// owner is cleaned up) and shows its result, unless it was aborted or another load began.
    pub fn load(&self, request: impl Future<Output = Result<T, ApiError>> + 'static) {
        let n = self.seq.with_value(|s| s + 1);
        self.seq.set_value(n);
        self.state.set(None);
        let (state, seq) = (self.state, self.seq);
        leptos::task::spawn_local(async move {
            let result = request.await;
            if matches!(result, Err(ApiError::Aborted)) || seq.try_get_value() != Some(n) {
                return;
            }
            state.try_set(Some(result));
        });
    }

    /// Shows `result` without a request (e.g. an answer another call already brought); nothing
    /// when the page is gone.
    pub fn set(&self, result: Result<T, ApiError>) {
        if self.seq.try_update_value(|s| *s += 1).is_some() {
            self.state.try_set(Some(result));
        }
    }

    /// Reads the answer (tracked: a view that reads it updates with it).
    pub fn with<R>(&self, f: impl FnOnce(&Option<Result<T, ApiError>>) -> R) -> R {
        self.state.with(f)
    }
}

impl<T: Send + Sync + 'static> Clone for Answer<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync + 'static> Copy for Answer<T> {}

impl<T: Send + Sync + 'static> Default for Answer<T> {
    fn default() -> Self {
        Answer::new()
    }
}

/// One submission (a create, a move): `busy` is true while it is on its way; `done` gets the
/// answer, unless the request was aborted or the page went away meanwhile. The request starts
/// under `owner` (the component's), so leaving the page aborts it.
pub fn submit<T, Fut>(
    busy: RwSignal<bool>,
    owner: &Option<Owner>,
    start: impl FnOnce() -> Fut,
    done: impl FnOnce(Result<T, ApiError>) + 'static,
) where
    T: 'static,
    Fut: Future<Output = Result<T, ApiError>> + 'static,
{
    busy.set(true);
    let request = match owner {
        Some(o) => o.with(start),
        None => start(),
    };
    leptos::task::spawn_local(async move {
        let result = request.await;
        // `try_set` gives the value back when the page is gone.
        if matches!(result, Err(ApiError::Aborted)) || busy.try_set(false).is_some() {
            return;
        }
        done(result);
    });
}
