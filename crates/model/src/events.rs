//! Events (extension): what happened, typed, written in the same database transaction as the
//! change, read through `GET …/events` and pushed to webhook endpoints. Each carries the object
//! as the API answers it, so a receiver needs no second call.

use serde::{Deserialize, Serialize};

use crate::vocabulary::vocabulary;
use crate::Scope;

vocabulary!(
    /// An event's type: `<object>.<what happened>`.
    pub enum EventType {
        DepositCreated = "deposit.created",
        DepositConfirmed = "deposit.confirmed",
        DepositSent = "deposit.sent",
        DepositSettled = "deposit.settled",
        DepositReturned = "deposit.returned",
        DepositRejected = "deposit.rejected",
        DepositCancelled = "deposit.cancelled",
        LedgerBalanceAvailable = "ledger.balance.available",
        LedgerTransactionPosted = "ledger.transaction.posted",
        CashLetterCreated = "cash_letter.created",
        CashLetterSent = "cash_letter.sent",
        AchFileCreated = "ach_file.created",
        ReturnFileProcessed = "return_file.processed",
        EmailAccepted = "email.accepted",
        EmailDelivered = "email.delivered",
        EmailDeferred = "email.deferred",
        EmailBounced = "email.bounced",
        EmailComplained = "email.complained",
        EmailFailed = "email.failed",
        EmailInboundReceived = "email.inbound.received",
        EmailSuppressionAdded = "email.suppression.added",
        EmailSuppressionRemoved = "email.suppression.removed",
        EmailBatchChanged = "email.batch.changed",
        VaultFileUploaded = "vault.file.uploaded",
        VaultFileDeleted = "vault.file.deleted",
        VaultFolderMoved = "vault.folder.moved",
        VaultFolderDeleted = "vault.folder.deleted",
        VaultItemTrashed = "vault.item.trashed",
        VaultItemRestored = "vault.item.restored",
        VaultItemPurged = "vault.item.purged",
        VaultFileVersionRestored = "vault.file.version_restored",
        RoutingDirectoryRefreshed = "routing.directory.refreshed",
        TokenCreated = "token.created",
        TokenRevoked = "token.revoked",
        WebhookTest = "webhook.test",
    }
    receiver: ref;
    lists: slices;
    parse: ignore_case;
);

impl EventType {
    /// The scope that reads events of this type: the read scope of the object's group.
    ///
    /// ```
    /// use moneydesk_model::events::EventType;
    /// use moneydesk_model::Scope;
    /// assert_eq!(EventType::DepositSettled.scope(), Scope::DepositsRead);
    /// assert_eq!(EventType::TokenRevoked.scope(), Scope::Admin);
    /// ```
    pub fn scope(&self) -> Scope {
        let text = self.as_str();
        match text.split('.').next().unwrap_or_default() {
            "deposit" | "cash_letter" | "ach_file" | "return_file" => Scope::DepositsRead,
            "ledger" => Scope::LedgerRead,
            "email" => Scope::EmailSend,
            "vault" => Scope::VaultRead,
            "routing" => Scope::RoutingRead,
            _ => Scope::Admin,
        }
    }
}

/// The version of the API an event's `data` is written in.
pub const API_VERSION: &str = "2026-11-29";

/// One event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Event {
    /// `evt_` and 24 hex digits: stable across deliveries, for a receiver to drop repeats.
    pub id: String,
    #[serde(rename = "type")]
    #[cfg_attr(feature = "openapi", schema(value_type = EventType))]
    pub kind: EventType,
    /// RFC 3339 UTC, milliseconds: when the change was made.
    pub created: String,
    pub api_version: String,
    /// The object's type and id (`deposit`, `42`): what delivery keeps in order.
    pub object_type: String,
    pub object_id: String,
    /// The object as the API answers it.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub data: serde_json::Value,
}
