//! Bulk actions on a list's records (issue 45): one request names an action and a selection
//! (ids, or the list's filter applied by the server), and the answer says per record what
//! happened. Partial success is never hidden: the answer is `200` with every item's outcome.
//!
//! ```
//! use moneydesk_model::bulk::{BulkItem, BulkRequest, BulkResult, BulkSelect};
//!
//! let request: BulkRequest<String> =
//!     serde_json::from_str(r#"{"action":"cancel","select":{"ids":["7","8"]}}"#).unwrap();
//! assert_eq!(request.select.ids.as_deref(), Some(&["7".to_string(), "8".to_string()][..]));
//!
//! let result = BulkResult::new(
//!     "cancel",
//!     vec![BulkItem::done("7"), BulkItem::refused("8", "invalid_state", "The deposit was sent.")],
//! );
//! assert_eq!((result.matched, result.done, result.refused), (2, 1, 1));
//! let json = serde_json::to_value(&result).unwrap();
//! assert_eq!(json["items"][1]["outcome"], "refused");
//! assert_eq!(json["items"][0].get("reason"), None, "absent, not null, when done");
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::vocabulary::vocabulary;

/// The most records one bulk action applies to. More matching records: `422` with the reason
/// `too_many`, and nothing is done.
pub const BULK_LIMIT: usize = 10_000;

/// Which records a bulk action applies to: exactly one of the two.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BulkSelect {
    /// These records (ids as the group writes them; vault: paths).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ids: Option<Vec<String>>,
    /// Every record the list endpoint would answer for these query parameters (its filter
    /// params only; page/size/sort ignored), as strings, applied by the server at the time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<BTreeMap<String, String>>,
}

/// A [`BulkSelect`] checked to name exactly one of its two ways.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selected<'a> {
    Ids(&'a [String]),
    Filter(&'a BTreeMap<String, String>),
}

/// Why a [`BulkSelect`] is malformed (a `400`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BulkSelectError {
    #[error("select names both ids and filter: give exactly one")]
    Both,
    #[error("select names neither ids nor filter: give exactly one")]
    Neither,
    #[error("select.ids is empty: name at least one record")]
    NoIds,
}

impl BulkSelect {
    /// These records.
    pub fn ids<I: IntoIterator<Item = S>, S: Into<String>>(ids: I) -> Self {
        BulkSelect { ids: Some(ids.into_iter().map(Into::into).collect()), filter: None }
    }

    /// Every record matching these list query parameters.
    pub fn filter<I: IntoIterator<Item = (K, V)>, K: Into<String>, V: Into<String>>(params: I) -> Self {
        BulkSelect { ids: None, filter: Some(params.into_iter().map(|(k, v)| (k.into(), v.into())).collect()) }
    }

    /// Exactly one of the two, or why not.
    ///
    /// ```
    /// use moneydesk_model::bulk::{BulkSelect, BulkSelectError, Selected};
    ///
    /// assert_eq!(BulkSelect::ids(["1"]).selected(), Ok(Selected::Ids(&["1".to_string()])));
    /// assert!(matches!(BulkSelect::filter([("status", "Sent_3")]).selected(), Ok(Selected::Filter(_))));
    /// assert_eq!(BulkSelect::default().selected(), Err(BulkSelectError::Neither));
    /// let both = BulkSelect { ids: Some(vec!["1".into()]), ..BulkSelect::filter([("a", "b")]) };
    /// assert_eq!(both.selected(), Err(BulkSelectError::Both));
    /// assert_eq!(BulkSelect::ids(Vec::<String>::new()).selected(), Err(BulkSelectError::NoIds));
    /// ```
    pub fn selected(&self) -> Result<Selected<'_>, BulkSelectError> {
        match (&self.ids, &self.filter) {
            (Some(_), Some(_)) => Err(BulkSelectError::Both),
            (None, None) => Err(BulkSelectError::Neither),
            (Some(ids), None) if ids.is_empty() => Err(BulkSelectError::NoIds),
            (Some(ids), None) => Ok(Selected::Ids(ids)),
            (None, Some(filter)) => Ok(Selected::Filter(filter)),
        }
    }
}

/// No parameters beyond the action (the default of [`BulkRequest`]'s `P`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NoParams {}

/// One bulk action: `action` is the group's action word (`A`, its vocabulary or a string),
/// `P` the group's parameters written beside it (e.g. a reject's `reason`), `select` the records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BulkRequest<A, P = NoParams> {
    /// The action, applied to each selected record as the single action does.
    pub action: A,
    /// The action's parameters, beside `action` on the wire.
    #[serde(flatten)]
    pub params: P,
    pub select: BulkSelect,
}

vocabulary!(
    /// What happened to one record of a bulk action.
    pub enum BulkOutcome {
        /// The action was done (and recorded in the audit log).
        Done = "done" / "Done",
        /// The action was refused for this record (`reason` says why); the others go on.
        Refused = "refused" / "Refused",
    }
);

/// One record's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BulkItem {
    /// The record's id as the group writes it (vault: its path).
    pub id: String,
    pub outcome: BulkOutcome,
    /// The stable word when refused (`not_found`, `invalid_state`, ...); absent when done.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Words for people when refused; absent when done.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

impl BulkItem {
    /// Done for this record.
    pub fn done(id: impl Into<String>) -> Self {
        BulkItem { id: id.into(), outcome: BulkOutcome::Done, reason: None, problem: None }
    }

    /// Refused for this record, with the stable word and the words for people.
    pub fn refused(id: impl Into<String>, reason: impl Into<String>, problem: impl Into<String>) -> Self {
        BulkItem {
            id: id.into(),
            outcome: BulkOutcome::Refused,
            reason: Some(reason.into()),
            problem: Some(problem.into()),
        }
    }
}

/// The answer to a bulk action (the envelope's `data`), also when some or all were refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BulkResult {
    /// The action word of the request.
    pub action: String,
    /// How many records the selection named (ids given, or records matching the filter).
    pub matched: u64,
    /// How many were done.
    pub done: u64,
    /// How many were refused.
    pub refused: u64,
    /// Every record's outcome, in the order they were taken.
    pub items: Vec<BulkItem>,
}

impl BulkResult {
    /// The answer for these items, counted.
    pub fn new(action: impl Into<String>, items: Vec<BulkItem>) -> Self {
        let done = items.iter().filter(|i| i.outcome == BulkOutcome::Done).count() as u64;
        BulkResult {
            action: action.into(),
            matched: items.len() as u64,
            done,
            refused: items.len() as u64 - done,
            items,
        }
    }

    /// The item of this record, if the answer names it.
    pub fn item(&self, id: &str) -> Option<&BulkItem> {
        self.items.iter().find(|i| i.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
    struct Reason {
        reason: Option<String>,
    }

    #[test]
    fn a_request_carries_its_group_params_beside_the_action() {
        let text = r#"{"action":"reject","reason":"Duplicate","select":{"filter":{"status":"In_Progress_1"}}}"#;
        let request: BulkRequest<String, Reason> = serde_json::from_str(text).unwrap();
        assert_eq!(request.action, "reject");
        assert_eq!(request.params.reason.as_deref(), Some("Duplicate"));
        assert_eq!(request.select, BulkSelect::filter([("status", "In_Progress_1")]));
        assert_eq!(serde_json::from_str::<serde_json::Value>(text).unwrap(), serde_json::to_value(&request).unwrap());
    }

    #[test]
    fn a_request_without_params_reads_and_writes_only_action_and_select() {
        let request =
            BulkRequest { action: "redeliver".to_string(), params: NoParams {}, select: BulkSelect::ids(["a"]) };
        let json = serde_json::to_string(&request).unwrap();
        assert_eq!(json, r#"{"action":"redeliver","select":{"ids":["a"]}}"#);
        assert_eq!(serde_json::from_str::<BulkRequest<String>>(&json).unwrap(), request);
    }

    #[test]
    fn outcomes_are_lower_case_words_on_the_wire() {
        assert_eq!(BulkOutcome::ALL.map(BulkOutcome::as_str), ["done", "refused"]);
        assert_eq!(serde_json::to_string(&BulkOutcome::Refused).unwrap(), "\"refused\"");
        assert_eq!(BulkOutcome::parse("done"), Some(BulkOutcome::Done));
    }

    #[test]
    fn a_result_counts_done_and_refused_and_reads_back() {
        let result = BulkResult::new("confirm", vec![BulkItem::refused("1", "not_found", "No deposit 1.")]);
        assert_eq!((result.matched, result.done, result.refused), (1, 0, 1));
        assert_eq!(result.item("1").and_then(|i| i.reason.as_deref()), Some("not_found"));
        assert_eq!(result.item("2"), None);
        let json = serde_json::to_string(&result).unwrap();
        assert!(json.contains(r#""matched":1"#), "{json}");
        assert_eq!(serde_json::from_str::<BulkResult>(&json).unwrap(), result);
    }
}
