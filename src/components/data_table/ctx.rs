//! What the table's parts share: the state (`Ctx`) and a received page (`Loaded`). Its own
//! module so that the parts depend on it and on each other one way (mod.rs builds the table
//! from the parts; the parts never import mod.rs).

use std::sync::Arc;

use leptos::prelude::*;
use moneydesk_model::Page;
use serde_json::Value;

use super::bulk::{BulkAction, BulkRunner, Ran};
use super::column::{Column, FilterDef};
use super::export::{Job, Progress};
use super::state::{Fetcher, TableState};
use crate::api::ApiError;
use crate::components::selection::Selection;
use crate::components::toasts::Toasts;

/// A page as received, with the view it was asked for.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Loaded {
    pub view: TableState,
    pub page: Arc<Page<Value>>,
}

/// Everything the table's parts share; `Copy` (signals and arena values).
#[derive(Clone, Copy)]
pub(crate) struct Ctx {
    pub id: &'static str,
    /// The records' noun, (one, many): [`Ctx::noun`] for a list, [`Ctx::noun_of`] for a count.
    pub nouns: (&'static str, &'static str),
    pub columns: &'static [Column],
    pub filters: &'static [FilterDef],
    pub view: Memo<TableState>,
    pub shown: RwSignal<Option<Loaded>>,
    pub loading: RwSignal<bool>,
    pub error: RwSignal<Option<ApiError>>,
    /// The columns a link names (`cols=`), if any: they win over the device's choice.
    pub chosen: Memo<Option<Vec<&'static str>>>,
    /// The columns chosen on this device (local storage), else the ones not hidden.
    pub stored: RwSignal<Vec<&'static str>>,
    /// The columns shown: the link's, else the device's.
    pub visible: Memo<Vec<&'static str>>,
    pub open: RwSignal<Option<usize>>,
    pub progress: RwSignal<Option<Progress>>,
    pub job: StoredValue<Option<Job>>,
    pub fetcher: StoredValue<Fetcher>,
    /// The table's owner: an export's requests are aborted when the table goes away.
    pub owner: StoredValue<Option<Owner>>,
    pub toasts: Option<Toasts>,
    /// A text filter's pending apply, and whether this bout of typing already pushed.
    pub pending: StoredValue<Option<TimeoutHandle>>,
    pub typing: StoredValue<bool>,
    /// The field that identifies a record (`data-id` of its row).
    pub row_key: &'static str,
    /// Which rows of a long page are rendered (windowing.rs).
    pub win: StoredValue<Win>,
    /// Navigates to a view with a column choice (`None`: the URL names none).
    pub(super) go: StoredValue<Arc<dyn Fn(TableState, Option<Vec<&'static str>>, bool) + Send + Sync>>,
    /// The bulk actions offered (none: no selection column, no bulk bar) and their runner.
    pub bulk: &'static [BulkAction],
    pub bulk_run: StoredValue<Option<BulkRunner>>,
    pub selection: RwSignal<Selection>,
    /// The last bulk run's answer: its summary and the rows' badges.
    pub ran: RwSignal<Option<Arc<Ran>>>,
    /// Bumped to fetch the current view again (Retry, a bulk run's changes).
    pub refetch: RwSignal<u32>,
}

impl Ctx {
    /// The records' noun for many of them ("Filter deposits", "No deposits match").
    pub fn noun(self) -> &'static str {
        self.nouns.1
    }

    /// The noun for a count of `n`: "1 deposit", "2 deposits" (one and many are the two forms
    /// English and Spanish have).
    pub fn noun_of(self, n: u64) -> &'static str {
        if n == 1 {
            self.nouns.0
        } else {
            self.nouns.1
        }
    }

    /// Shows `next` (through the URL): `replace` for in-between states (typing), else a new
    /// history entry so Back returns to the previous view.
    pub fn go(&self, next: TableState, replace: bool) {
        if next != self.view.get_untracked() {
            let go = self.go.get_value();
            go(next, self.chosen.get_untracked(), replace);
        }
    }

    /// Shows `keys` (a ticked or cleared box of the chooser): remembered on this device, and
    /// written in the URL (replacing its entry: Back returns to the previous view, not to the
    /// previous column), so that the link and a saved view carry them.
    pub fn show_columns(&self, keys: Vec<&'static str>) {
        if keys.is_empty() || self.visible.with_untracked(|v| *v == keys) {
            return;
        }
        if let Some(s) = window().local_storage().ok().flatten() {
            let _ = s.set_item(&columns_key(self.id), &keys.join(","));
        }
        self.stored.set(keys.clone());
        let go = self.go.get_value();
        go(self.view.get_untracked(), Some(keys), true);
    }

    pub fn visible_columns(&self) -> Vec<&'static Column> {
        self.visible.with(|v| self.columns.iter().filter(|c| v.contains(&c.key)).collect())
    }

    /// Whether rows can be selected (a checkbox column and the bulk bar).
    pub fn selectable(&self) -> bool {
        !self.bulk.is_empty()
    }

    /// The ids of the rows of the page shown, in order.
    pub fn page_ids(&self) -> Vec<String> {
        self.shown.with_untracked(|s| {
            s.as_ref()
                .map(|l| l.page.content.iter().map(|r| super::column::raw_text(&r[self.row_key])).collect())
                .unwrap_or_default()
        })
    }

    /// The total of the last page received, and its number of pages.
    pub fn totals(&self) -> Option<(u64, u64)> {
        self.shown.with(|s| s.as_ref().map(|l| (l.page.total_elements, l.page.total_pages)))
    }
}

/// Where the column choice is kept on this device.
pub(crate) fn columns_key(id: &str) -> String {
    format!("moneydesk.table.{id}.columns")
}

/// A row's height until one is measured (px).
pub const ROW_HEIGHT: f64 = 37.0;

/// The rendered window: rows `start..end` of `rows`.
#[derive(Clone, Copy)]
pub struct Win {
    pub rows: usize,
    pub start: usize,
    pub end: usize,
    pub row_h: f64,
    /// The row Tab lands on (roving tab stop), kept across moves of the window.
    pub tab_stop: usize,
    /// A window update is already waiting for the next frame.
    pub frame: bool,
    /// The viewport as last seen from the body's top: (top, height) in px.
    pub view: Option<(f64, f64)>,
}

impl Default for Win {
    fn default() -> Self {
        Win { rows: 0, start: 0, end: 0, row_h: ROW_HEIGHT, tab_stop: 0, frame: false, view: None }
    }
}
