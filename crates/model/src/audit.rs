//! The audit trail (extension, `audit:read`): one record for every write of every group, made
//! in the same database transaction as the change, chained by SHA-256 one day at a time so an
//! edit of a record is found ([`AuditVerification`]). `admin` reads everyone's records; any
//! other `audit:read` token only its own user's.

use serde::{Deserialize, Serialize};

use crate::vocabulary::vocabulary;

vocabulary!(
    /// How the attempt ended. A write is recorded with its change (`succeeded`); a write the
    /// guard refused for want of a scope is recorded on its own (`denied`), with no change.
    pub enum AuditOutcome {
        Succeeded = "succeeded" / "Succeeded",
        Denied = "denied" / "Denied",
    }
    receiver: ref;
);

/// Who made the change: the token (its id and name, never the token itself) and its user;
/// every field empty for the server's own jobs (`operation` then names the job).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditActor {
    pub token_id: Option<i64>,
    pub user_id: Option<String>,
    pub token_name: Option<String>,
}

/// One field that changed: its value before and after, as short text (never a secret, a
/// message body or an image).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditChange {
    pub field: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// One record of the audit trail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditRecord {
    pub id: i64,
    /// Server time, RFC 3339 UTC with milliseconds.
    pub at: String,
    pub actor: AuditActor,
    /// The client's address as the server saw it, and its `User-Agent`.
    pub client_address: Option<String>,
    pub user_agent: Option<String>,
    /// The OpenAPI operation id (`job:<name>` for the server's own jobs).
    pub operation: String,
    pub method: Option<String>,
    /// The route as the API document writes it (`/api/v2/…/deposits/{id}/actions`).
    pub path: Option<String>,
    pub target_type: Option<String>,
    pub target_id: Option<String>,
    #[cfg_attr(feature = "openapi", schema(value_type = AuditOutcome))]
    pub outcome: AuditOutcome,
    pub request_id: Option<String>,
    pub changes: Vec<AuditChange>,
    /// The record's place in its day's chain and the chain's hashes (hex); empty for the
    /// second or so until the sealer chains it.
    pub seq: Option<i64>,
    pub prev_hash: Option<String>,
    pub hash: Option<String>,
}

/// What walking the chains found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditVerification {
    /// Every link checked holds.
    pub ok: bool,
    /// The days walked (`YYYY-MM-DD`), first to last.
    pub from: Option<String>,
    pub to: Option<String>,
    pub days: i64,
    /// Records whose links were checked.
    pub records: i64,
    /// Records not chained yet (made in the last second or so).
    pub unsealed: i64,
    /// Days removed under the retention setting (their last hash is kept).
    pub purged_days: i64,
    pub broken: Option<BrokenLink>,
}

/// The first link that does not hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BrokenLink {
    pub day: String,
    pub record_id: i64,
    pub seq: i64,
    /// What does not hold, in words.
    pub reason: String,
}
