//! The operator's day (extension, `GET` [`crate::paths::OVERVIEW`], any token): one answer with
//! each group's figures for today, each member present only when the caller's scopes open its
//! group (absent, not null, otherwise), each figure with the list behind it ([`ListQuery`]: the
//! list endpoint and the query of its filters, which the portal's page of that list takes as
//! its URL query).

use serde::{Deserialize, Serialize};

use crate::deposits::{DepositStatus, ServiceType};
use crate::email::MessageState;
use crate::Money;

/// The list a figure counts: the list endpoint (a path of [`crate::paths`], placeholders
/// filled) and its query string (the list's own filter parameters, without `?`; empty: the
/// whole list).
///
/// ```
/// use moneydesk_model::overview::ListQuery;
/// let q = ListQuery::new(moneydesk_model::paths::DEPOSITS, &[("status", "In_Progress_1")]);
/// assert_eq!(q.query, "status=In_Progress_1");
/// assert_eq!(ListQuery::new("/x", &[]).query, "");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ListQuery {
    pub path: String,
    pub query: String,
}

impl ListQuery {
    pub fn new(path: &str, pairs: &[(&str, &str)]) -> ListQuery {
        let pairs: Vec<(&str, String)> = pairs.iter().map(|(k, v)| (*k, v.to_string())).collect();
        ListQuery { path: path.to_string(), query: crate::collections::encode_query(&pairs) }
    }
}

/// How many records a list holds, their sum when they carry an amount, and the list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Figure {
    pub count: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<Money>,
    pub list: ListQuery,
}

/// The caller's day: members by the group whose scope opens them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Overview {
    /// Today in the business time zone (`YYYY-MM-DD`): what "today" means below.
    pub day: String,
    /// RFC 3339: when these figures were read (an answer is reused for a few seconds).
    pub generated_at: String,
    /// `deposits:read`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deposits_today: Option<DepositsToday>,
    /// `deposits:read`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<Waiting>,
    /// `deposits:read`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cash_letter: Option<NextCashLetter>,
    /// `email:send`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outbox: Option<Outbox>,
    /// `routing:read`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routing_directory: Option<DirectoryAge>,
    /// `vault:read`: the caller's own user's vault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vault: Option<VaultUse>,
    /// `webhooks:write`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhooks: Option<Webhooks>,
    /// `ledger:read`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ledger: Option<LedgerToday>,
}

/// Deposits created today, in all, by state, and by rail (service type) split by state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DepositsToday {
    pub total: Figure,
    /// Every state with deposits today, in the state machine's order.
    pub by_status: Vec<StatusFigure>,
    /// Every rail with deposits today, in the vocabulary's order.
    pub by_rail: Vec<RailFigure>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StatusFigure {
    pub status: DepositStatus,
    pub figure: Figure,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RailFigure {
    pub service_type: ServiceType,
    pub figure: Figure,
    pub by_status: Vec<StatusFigure>,
}

/// What waits for an operator, whatever its day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Waiting {
    /// Deposits `In_Progress_1`.
    pub to_confirm: Figure,
    /// Deposits `Returned_5`.
    pub returned: Figure,
    /// Returned items no deposit matched (`unmatched`).
    pub unmatched: Figure,
}

/// The next cash letter: when its day closes and the checks it would hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NextCashLetter {
    /// The business day it is made for (`YYYY-MM-DD`): today, or the next business day.
    pub business_date: String,
    /// RFC 3339: that day's cut-off (the business day's end, 17:00 in the business time zone).
    pub cut_off: String,
    /// Confirmed check deposits scheduled on or before that day.
    pub holds: Figure,
}

/// The outbox: messages not yet finished by state, and messages that failed for good today.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Outbox {
    /// Queued, scheduled, sending and deferred messages (the list: the whole outbox).
    pub depth: Figure,
    pub by_state: Vec<MessageStateFigure>,
    /// Messages whose last attempt today failed for good (the list: every failed message).
    pub bounces_today: Figure,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MessageStateFigure {
    pub state: MessageState,
    pub figure: Figure,
}

/// How old the routing directory in service is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DirectoryAge {
    /// The newest change date in the directory (`YYYY-MM-DD`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_of: Option<String>,
    /// RFC 3339: the last successful refresh.
    pub loaded_at: String,
    /// Whole hours since `loadedAt`.
    pub age_hours: u64,
    pub stale: bool,
    pub stale_after_hours: u32,
    /// The directory's status endpoint.
    pub list: ListQuery,
}

/// The caller's user's vault.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VaultUse {
    pub user_id: String,
    pub files: u64,
    /// Bytes of every version kept.
    pub bytes: u64,
    /// The user's quota in bytes; absent: no quota is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quota_bytes: Option<u64>,
    /// The vault's top folder.
    pub list: ListQuery,
}

/// Webhook endpoints: how many, and those failing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Webhooks {
    pub endpoints: u64,
    /// Enabled endpoints whose deliveries fail since their last success, and endpoints the
    /// server disabled for failing.
    pub failing: Figure,
}

/// Ledger accounts whose balance moved today, largest move first (at most [`LEDGER_MOVES`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LedgerToday {
    /// How many accounts moved (beyond those listed, when more).
    pub accounts_moved: u64,
    pub moves: Vec<BalanceMove>,
}

/// The most accounts [`LedgerToday::moves`] lists.
pub const LEDGER_MOVES: usize = 10;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BalanceMove {
    /// The ledger account's code (`bank:clearing_x9`, `sma:{accountId}:posted`).
    pub code: String,
    /// The net of today's entries (credits positive).
    pub moved: Money,
    pub balance: Money,
    /// Today's entries (the list: the account's entries of today).
    pub entries: Figure,
}

impl Overview {
    /// The day's answer before any group's figures: each member stays absent unless the
    /// caller's scopes open it.
    pub fn of_day(day: String, generated_at: String) -> Overview {
        Overview {
            day,
            generated_at,
            deposits_today: None,
            waiting: None,
            next_cash_letter: None,
            outbox: None,
            routing_directory: None,
            vault: None,
            webhooks: None,
            ledger: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_the_scopes_do_not_open_is_absent_from_the_wire_not_null() {
        let o = Overview::of_day("2026-11-29".into(), "2026-11-29T14:00:00Z".into());
        let json = serde_json::to_value(&o).unwrap();
        assert_eq!(json, serde_json::json!({"day": "2026-11-29", "generatedAt": "2026-11-29T14:00:00Z"}));
        assert_eq!(serde_json::from_value::<Overview>(json).unwrap(), o);
    }

    #[test]
    fn a_figure_without_an_amount_has_no_amount_key() {
        let f = Figure { count: 3, amount: None, list: ListQuery::new("/l", &[("state", "failed")]) };
        let json = serde_json::to_value(&f).unwrap();
        assert_eq!(json, serde_json::json!({"count": 3, "list": {"path": "/l", "query": "state=failed"}}));
    }
}
