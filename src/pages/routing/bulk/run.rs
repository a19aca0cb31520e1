//! A bulk check's run: the rows, their outcomes and the lookups, a few at a time, that fill
//! them; cancelled by a new run, by Cancel, or by leaving the page.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use moneydesk_model::routing::RoutingNumber;

use super::super::csv;
use super::super::format::{count, problem, yes_no};
use super::super::records::text;
use crate::api::routing::{ach, wire, Answer};
use crate::api::{ApiError, Client};
use crate::i18n::fill;
use crate::i18n::routing::text as words;

/// Requests in flight at once.
const CONCURRENCY: usize = 4;
/// Rows one check takes (each valid number costs two requests).
pub(super) const MAX_ROWS: usize = 5000;

#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Invalid(String),
    Pending,
    Checked { ach: Option<String>, wire: Option<String> },
    Failed(String),
    NotChecked,
}

impl Outcome {
    pub(super) fn status(&self) -> &'static str {
        match self {
            Outcome::Invalid(_) => "invalid",
            Outcome::Pending => "pending",
            Outcome::Checked { ach: None, wire: None } => "not-listed",
            Outcome::Checked { .. } => "listed",
            Outcome::Failed(_) => "failed",
            Outcome::NotChecked => "not-checked",
        }
    }
}

#[derive(Clone)]
pub struct Row {
    pub(super) input: String,
    pub(super) outcome: ArcRwSignal<Outcome>,
}

/// Why an input is not a routing number, with a hint when a spreadsheet ate a leading zero.
pub fn why_invalid(input: &str) -> Option<String> {
    let e = RoutingNumber::parse(input).err()?;
    let mut why = problem(&e);
    let padded = format!("0{input}");
    if input.len() == 8 && RoutingNumber::parse(&padded).is_ok() {
        why.push_str(&fill(words().leading_zero, &[&padded]));
    }
    Some(why)
}

/// The page's bulk-check state (`Copy`; created by the page so a run survives tab switches).
#[derive(Clone, Copy)]
pub struct BulkState {
    pub(super) text: RwSignal<String>,
    pub(super) rows: RwSignal<Vec<Row>>,
    pub(super) done: RwSignal<usize>,
    pub(super) lookups: RwSignal<usize>,
    pub(super) running: RwSignal<bool>,
    pub(super) notice: RwSignal<Option<String>>,
    /// Bumped by every new run and by Cancel: workers of an older run stop.
    pub(super) generation: StoredValue<u32>,
    /// Owns the requests of the current run: cleaning it up aborts them. A child of the page's
    /// owner, so leaving the page aborts them too.
    pub(super) run_owner: StoredValue<Option<Owner>>,
    pub(super) page_owner: StoredValue<Option<Owner>>,
}

impl BulkState {
    pub fn new() -> Self {
        BulkState {
            text: RwSignal::new(String::new()),
            rows: RwSignal::new(Vec::new()),
            done: RwSignal::new(0),
            lookups: RwSignal::new(0),
            running: RwSignal::new(false),
            notice: RwSignal::new(None),
            generation: StoredValue::new(0),
            run_owner: StoredValue::new(None),
            page_owner: StoredValue::new(Owner::current()),
        }
    }

    pub(super) fn stop(&self) {
        self.generation.update_value(|g| *g = g.wrapping_add(1));
        if let Some(owner) = self.run_owner.try_update_value(Option::take).flatten() {
            owner.cleanup();
        }
        self.running.set(false);
    }

    pub(super) fn cancel(&self) {
        self.stop();
        self.rows.with_untracked(|rows| {
            for r in rows {
                if r.outcome.get_untracked() == Outcome::Pending {
                    r.outcome.set(Outcome::NotChecked);
                }
            }
        });
        self.notice.set(Some(words().cancelled.into()));
    }

    pub(super) fn start(&self, client: Client) {
        self.stop();
        let mut numbers = csv::routing_numbers(&self.text.get_untracked());
        self.notice.set(None);
        if numbers.is_empty() {
            self.rows.set(Vec::new());
            self.notice.set(Some(words().paste_one.into()));
            return;
        }
        if numbers.len() > MAX_ROWS {
            let (given, checked) = (count(numbers.len() as u64), count(MAX_ROWS as u64));
            self.notice.set(Some(fill(words().too_many, &[&given, &checked])));
            numbers.truncate(MAX_ROWS);
        }
        // One lookup per distinct valid number; its rows share the answer.
        let mut jobs: Vec<(String, Vec<ArcRwSignal<Outcome>>)> = Vec::new();
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let rows: Vec<Row> = numbers
            .into_iter()
            .map(|input| {
                let why = why_invalid(&input);
                let valid = why.is_none();
                let outcome = ArcRwSignal::new(why.map(Outcome::Invalid).unwrap_or(Outcome::Pending));
                if valid {
                    let i = *seen.entry(input.clone()).or_insert_with(|| {
                        jobs.push((input.clone(), Vec::new()));
                        jobs.len() - 1
                    });
                    jobs[i].1.push(outcome.clone());
                }
                Row { input, outcome }
            })
            .collect();
        self.rows.set(rows);
        self.done.set(0);
        self.lookups.set(jobs.len());
        if jobs.is_empty() {
            return;
        }
        let owner = self.page_owner.get_value().map(|o| o.child()).unwrap_or_else(Owner::new);
        self.run_owner.set_value(Some(owner.clone()));
        self.running.set(true);
        let generation = self.generation.get_value();
        let jobs = Rc::new(jobs);
        let next = Rc::new(Cell::new(0usize));
        let workers = CONCURRENCY.min(jobs.len());
        let finished = Rc::new(Cell::new(0usize));
        let this = *self;
        for _ in 0..workers {
            let (jobs, next, finished, client, owner) =
                (jobs.clone(), next.clone(), finished.clone(), client.clone(), owner.clone());
            spawn_local(async move {
                let current = || this.generation.try_get_value() == Some(generation);
                while current() {
                    let i = next.get();
                    let Some((number, slots)) = jobs.get(i) else { break };
                    next.set(i + 1);
                    let (a, w) = owner.with(|| (ach(&client, number), wire(&client, number)));
                    let outcome = match lookup_both(a, w).await {
                        Err(ApiError::Aborted) => return,
                        Err(e) => Outcome::Failed(e.to_string()),
                        Ok(o) => o,
                    };
                    for s in slots {
                        s.set(outcome.clone());
                    }
                    this.done.try_update(|d| *d += 1);
                }
                finished.set(finished.get() + 1);
                if finished.get() == workers && current() {
                    this.running.try_set(false);
                }
            });
        }
    }

    /// The results as CSV rows (header first).
    pub(super) fn export_rows(&self) -> Vec<Vec<String>> {
        let header = ["row", "routingNumber", "valid", "problem", "inAch", "inWire", "institution", "error"];
        let w = words();
        let [yes, no] = w.export_yes_no;
        let mut out = vec![header.iter().map(|h| h.to_string()).collect::<Vec<_>>()];
        self.rows.with_untracked(|rows| {
            for (i, r) in rows.iter().enumerate() {
                let (valid, problem, in_ach, in_wire, name, error) = match r.outcome.get_untracked() {
                    Outcome::Invalid(why) => (no, why, "", "", String::new(), String::new()),
                    Outcome::Checked { ach, wire } => {
                        let name = ach.clone().or(wire.clone()).unwrap_or_default();
                        (yes, String::new(), yes_no(ach.is_some()), yes_no(wire.is_some()), name, String::new())
                    }
                    Outcome::Failed(e) => (yes, String::new(), "", "", String::new(), e),
                    Outcome::Pending | Outcome::NotChecked => {
                        (yes, String::new(), "", "", String::new(), w.export_not_checked.into())
                    }
                };
                out.push(vec![
                    (i + 1).to_string(),
                    r.input.clone(),
                    valid.into(),
                    problem,
                    in_ach.into(),
                    in_wire.into(),
                    name,
                    error,
                ]);
            }
        });
        out
    }
}

/// The institution's name in one directory: `None` when it does not list the number.
async fn name_in(answer: Answer) -> Result<Option<String>, ApiError> {
    match answer.await {
        Ok(v) => Ok(Some(text(&v, "customerName").to_string())),
        Err(ApiError::NotFound { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

async fn lookup_both(a: Answer, w: Answer) -> Result<Outcome, ApiError> {
    let ach = name_in(a).await?;
    let wire = name_in(w).await?;
    Ok(Outcome::Checked { ach, wire })
}

/// The four result cells of a row: (CSS class, text) for check, in ACH, in wire, institution.
pub fn cells(o: &Outcome) -> [(&'static str, String); 4] {
    let w = words();
    let dash = || ("muted", "—".to_string());
    let valid = || ("routing-good", w.valid.to_string());
    match o {
        Outcome::Invalid(why) => [("routing-bad", fill(w.invalid, &[why])), dash(), dash(), dash()],
        Outcome::Checked { ach, wire } => [
            valid(),
            ("", yes_no(ach.is_some()).into()),
            ("", yes_no(wire.is_some()).into()),
            match ach.as_ref().or(wire.as_ref()) {
                Some(name) => ("", name.clone()),
                None => ("muted", w.in_neither.into()),
            },
        ],
        Outcome::Failed(e) => [valid(), dash(), dash(), ("routing-bad", e.clone())],
        Outcome::Pending => [valid(), dash(), dash(), ("muted", w.checking.into())],
        Outcome::NotChecked => [valid(), dash(), dash(), ("muted", w.not_checked.into())],
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn invalid_numbers_say_why() {
        assert_eq!(why_invalid("011000015"), None);
        assert!(why_invalid("011000016").unwrap().contains("should be 5"));
        let hint = why_invalid("11000015").unwrap();
        assert!(hint.contains("leading zero: 011000015 is valid"), "{hint}");
        assert!(!why_invalid("12345678").unwrap().contains("leading zero"));
    }
}
