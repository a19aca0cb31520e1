//! Who may call each operation, written by hand from the contract (point 7), the description
//! and each operation's documented purpose — never read from the served document, which the
//! auth matrix compares against this table both ways. A new operation fails the matrix until
//! it has its row here: decide its scope, then add the row.

use moneydesk_model::paths::*;
use moneydesk_model::Scope::{self, *};

/// What an operation requires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// No token: the document itself, and links that carry their own credential (an HMAC
    /// token in the unsubscribe link, the sign-in link's secret).
    Public,
    /// Any valid token; the handler narrows what it answers to the caller's own user or scopes.
    AnyToken,
    /// A token holding every one of these scopes (`admin` grants all).
    Scopes(&'static [Scope]),
}

use Access::{AnyToken, Public, Scopes};

/// (method, path as `moneydesk_model::paths` writes it, access). One operation a line.
#[rustfmt::skip]
pub const OPERATIONS: &[(&str, &str, Access)] = &[
    // Fees (contract: an API key is a token with fees:read); loading a schedule changes every price.
    ("GET", FEES_ACH, Scopes(&[FeesRead])),
    ("GET", FEES_WIRE, Scopes(&[FeesRead])),
    ("GET", FEE_SCHEDULE_VERSIONS, Scopes(&[FeesRead])),
    ("POST", FEE_SCHEDULE_VERSIONS, Scopes(&[Admin])),
    // Vault: reads with vault:read (a download, a zip and a bulk zip are reads, POST or not), every change vault:write.
    ("POST", VAULT_FOLDER, Scopes(&[VaultWrite])),
    ("GET", VAULT_FOLDER, Scopes(&[VaultRead])),
    ("POST", VAULT_FOLDER_MOVE, Scopes(&[VaultWrite])),
    ("POST", VAULT_FOLDER_DOWNLOAD, Scopes(&[VaultRead])),
    ("DELETE", VAULT_FOLDERS_DELETE, Scopes(&[VaultWrite])),
    ("GET", VAULT_FOLDER_CONTENTS, Scopes(&[VaultRead])),
    ("POST", VAULT_FILE, Scopes(&[VaultWrite])),
    ("GET", VAULT_FILE, Scopes(&[VaultRead])),
    ("DELETE", VAULT_FILE, Scopes(&[VaultWrite])),
    ("POST", VAULT_FILE_MOVE, Scopes(&[VaultWrite])),
    ("GET", VAULT_FILE_VERSIONS, Scopes(&[VaultRead])),
    ("POST", VAULT_FILE_VERSION_RESTORE, Scopes(&[VaultWrite])),
    ("GET", VAULT_FILE_VERSIONS_COMPARE, Scopes(&[VaultRead])),
    ("GET", VAULT_USAGE, Scopes(&[VaultRead])),
    ("GET", VAULT_TRASH, Scopes(&[VaultRead])),
    ("DELETE", VAULT_TRASH, Scopes(&[VaultWrite])),
    ("DELETE", VAULT_TRASH_ITEM, Scopes(&[VaultWrite])),
    ("POST", VAULT_TRASH_RESTORE, Scopes(&[VaultWrite])),
    ("POST", VAULT_BULK, Scopes(&[VaultWrite])),
    ("POST", VAULT_BULK_DOWNLOAD, Scopes(&[VaultRead])),
    // Email: sending and everything about what is sent or received is email:send; verifying an address email:verify.
    ("POST", EMAIL_SEND, Scopes(&[EmailSend])),
    ("POST", EMAIL_VALIDATION, Scopes(&[EmailVerify])),
    ("POST", EMAIL_VALIDATION_BULK, Scopes(&[EmailVerify])),
    ("GET", EMAIL_MESSAGES, Scopes(&[EmailSend])),
    ("POST", EMAIL_MESSAGES_BULK, Scopes(&[EmailSend])),
    ("GET", EMAIL_MESSAGE, Scopes(&[EmailSend])),
    ("GET", EMAIL_MESSAGE_RAW, Scopes(&[EmailSend])),
    ("POST", EMAIL_MESSAGE_RESEND, Scopes(&[EmailSend])),
    ("GET", EMAIL_MESSAGE_ATTACHMENT, Scopes(&[EmailSend])),
    ("GET", EMAIL_SENDERS, Scopes(&[EmailSend])),
    // Templates: read and previewed by senders; what every later send renders is the admin's.
    ("GET", EMAIL_TEMPLATES, Scopes(&[EmailSend])),
    ("POST", EMAIL_TEMPLATES, Scopes(&[Admin])),
    ("GET", EMAIL_TEMPLATE, Scopes(&[EmailSend])),
    ("POST", EMAIL_TEMPLATE_VERSIONS, Scopes(&[Admin])),
    ("POST", EMAIL_TEMPLATE_PREVIEW, Scopes(&[EmailSend])),
    ("POST", EMAIL_TEMPLATE_DRAFT_PREVIEW, Scopes(&[EmailSend])),
    // Sending domains: registered and verified by senders; made live or removed by an admin.
    ("GET", EMAIL_DOMAINS, Scopes(&[EmailSend])),
    ("POST", EMAIL_DOMAINS, Scopes(&[EmailSend])),
    ("GET", EMAIL_DOMAIN, Scopes(&[EmailSend])),
    ("DELETE", EMAIL_DOMAIN, Scopes(&[Admin])),
    ("POST", EMAIL_DOMAIN_VERIFY, Scopes(&[EmailSend])),
    ("POST", EMAIL_DOMAIN_ACTIVATE, Scopes(&[Admin])),
    // Suppressions: a sender adds; only an admin lets a suppressed address receive mail again.
    ("GET", EMAIL_SUPPRESSIONS, Scopes(&[EmailSend])),
    ("POST", EMAIL_SUPPRESSIONS, Scopes(&[EmailSend])),
    ("DELETE", EMAIL_SUPPRESSION, Scopes(&[Admin])),
    ("GET", EMAIL_UNSUBSCRIBE, Public),
    ("POST", EMAIL_UNSUBSCRIBE, Public),
    ("POST", EMAIL_BATCHES, Scopes(&[EmailSend])),
    ("GET", EMAIL_BATCH, Scopes(&[EmailSend])),
    ("POST", EMAIL_BATCH_PAUSE, Scopes(&[EmailSend])),
    ("POST", EMAIL_BATCH_RESUME, Scopes(&[EmailSend])),
    ("POST", EMAIL_BATCH_CANCEL, Scopes(&[EmailSend])),
    // Bounces (issue 46): posting a report suppresses addresses as the receiving side's word: admin.
    ("GET", EMAIL_BOUNCES, Scopes(&[EmailSend])),
    ("GET", EMAIL_BOUNCE_REPORTS, Scopes(&[EmailSend])),
    ("POST", EMAIL_BOUNCE_REPORTS, Scopes(&[Admin])),
    ("GET", EMAIL_DELIVERABILITY, Scopes(&[EmailSend])),
    // Inbound: routes kept by senders, removed by an admin.
    ("GET", EMAIL_INBOUND_ROUTES, Scopes(&[EmailSend])),
    ("POST", EMAIL_INBOUND_ROUTES, Scopes(&[EmailSend])),
    ("GET", EMAIL_INBOUND_ROUTE, Scopes(&[EmailSend])),
    ("PUT", EMAIL_INBOUND_ROUTE, Scopes(&[EmailSend])),
    ("DELETE", EMAIL_INBOUND_ROUTE, Scopes(&[Admin])),
    ("GET", EMAIL_INBOUND_ROUTE_SECRET, Scopes(&[EmailSend])),
    ("POST", EMAIL_INBOUND_ROUTE_SECRET, Scopes(&[EmailSend])),
    ("GET", EMAIL_INBOUND_MESSAGES, Scopes(&[EmailSend])),
    ("POST", EMAIL_INBOUND_MESSAGES, Scopes(&[EmailSend])),
    ("POST", EMAIL_INBOUND_MESSAGES_BULK, Scopes(&[EmailSend])),
    ("GET", EMAIL_INBOUND_MESSAGE, Scopes(&[EmailSend])),
    ("POST", EMAIL_INBOUND_REDELIVER, Scopes(&[EmailSend])),
    // Routing: all reads; reloading the directory is an admin's.
    ("GET", ROUTING_WIRE_VALIDATE, Scopes(&[RoutingRead])),
    ("GET", ROUTING_ACH_VALIDATE, Scopes(&[RoutingRead])),
    ("GET", ROUTING_DIRECTORY, Scopes(&[RoutingRead])),
    ("POST", ROUTING_DIRECTORY_REFRESH, Scopes(&[Admin])),
    ("GET", ROUTING_SEARCH, Scopes(&[RoutingRead])),
    // Deposits: reads (an export included) deposits:read, deposits and their moves deposits:write;
    // what goes to the bank (a cash letter, the day's ACH file sent) an admin's.
    ("GET", DEPOSITS, Scopes(&[DepositsRead])),
    ("GET", DEPOSIT_RECORDS, Scopes(&[DepositsRead])),
    ("GET", DEPOSIT_DAILY_TOTALS, Scopes(&[DepositsRead])),
    ("POST", DEPOSITS_CHECK, Scopes(&[DepositsWrite])),
    ("POST", DEPOSITS_CHECK_SCAN, Scopes(&[DepositsWrite])),
    ("POST", DEPOSITS_ELECTRONIC, Scopes(&[DepositsWrite])),
    ("POST", DEPOSITS_CASH, Scopes(&[DepositsWrite])),
    ("GET", DEPOSIT, Scopes(&[DepositsRead])),
    ("GET", DEPOSIT_IMAGE, Scopes(&[DepositsRead])),
    ("POST", DEPOSIT_ACTIONS, Scopes(&[DepositsWrite])),
    ("GET", DEPOSIT_POSTINGS, Scopes(&[DepositsRead])),
    ("POST", DEPOSITS_BULK, Scopes(&[DepositsWrite])),
    ("POST", DEPOSITS_EXPORT, Scopes(&[DepositsRead])),
    ("GET", DEPOSITS_ACH_FILE, Scopes(&[DepositsRead])),
    ("POST", DEPOSITS_ACH_FILE_SEND, Scopes(&[Admin])),
    ("GET", DEPOSIT_RETURNS, Scopes(&[DepositsRead])),
    ("POST", DEPOSIT_RETURNS, Scopes(&[DepositsWrite])),
    ("POST", DEPOSIT_RETURN_ITEM, Scopes(&[DepositsWrite])),
    ("GET", CASH_LETTERS, Scopes(&[DepositsRead])),
    ("POST", CASH_LETTERS, Scopes(&[Admin])),
    ("GET", CASH_LETTER, Scopes(&[DepositsRead])),
    ("GET", CASH_LETTER_FILE, Scopes(&[DepositsRead])),
    // Ledger: reads ledger:read; a manual adjustment an admin's.
    ("GET", LEDGER_ACCOUNTS, Scopes(&[LedgerRead])),
    ("GET", LEDGER_BALANCES_BATCH, Scopes(&[LedgerRead])),
    ("GET", LEDGER_BALANCES, Scopes(&[LedgerRead])),
    ("GET", LEDGER_ENTRIES, Scopes(&[LedgerRead])),
    ("GET", LEDGER_HOLDS, Scopes(&[LedgerRead])),
    ("GET", LEDGER_TRANSACTION, Scopes(&[LedgerRead])),
    ("POST", LEDGER_ADJUSTMENTS, Scopes(&[Admin])),
    ("GET", LEDGER_RECONCILIATION, Scopes(&[LedgerRead])),
    // Audit: audit:read; a whole day signed for keeping outside is an admin's (README, "Audit trail").
    ("GET", AUDIT_RECORDS, Scopes(&[AuditRead])),
    ("GET", AUDIT_RECORD, Scopes(&[AuditRead])),
    ("GET", AUDIT_VERIFY, Scopes(&[AuditRead])),
    ("GET", AUDIT_EXPORT, Scopes(&[Admin])),
    // Events: any token; each event type is answered only to its group's read scope.
    ("GET", EVENTS, AnyToken),
    ("GET", EVENT, AnyToken),
    // Webhooks: one scope (the endpoints, their secrets and their logs).
    ("GET", WEBHOOK_ENDPOINTS, Scopes(&[WebhooksWrite])),
    ("POST", WEBHOOK_ENDPOINTS, Scopes(&[WebhooksWrite])),
    ("GET", WEBHOOK_ENDPOINT, Scopes(&[WebhooksWrite])),
    ("PATCH", WEBHOOK_ENDPOINT, Scopes(&[WebhooksWrite])),
    ("DELETE", WEBHOOK_ENDPOINT, Scopes(&[WebhooksWrite])),
    ("POST", WEBHOOK_ENDPOINT_SECRET, Scopes(&[WebhooksWrite])),
    ("POST", WEBHOOK_ENDPOINT_TEST, Scopes(&[WebhooksWrite])),
    ("GET", WEBHOOK_ENDPOINT_DELIVERIES, Scopes(&[WebhooksWrite])),
    ("POST", WEBHOOK_ENDPOINT_REPLAY, Scopes(&[WebhooksWrite])),
    ("GET", WEBHOOK_ENDPOINT_STATS, Scopes(&[WebhooksWrite])),
    // The pages' collections (contract point 7).
    ("GET", ACCOUNTS, Scopes(&[AccountsRead])),
    ("GET", PERMISSIONS, Scopes(&[PermissionsRead])),
    // The caller itself: any token sees and revokes its own user's tokens; an admin all of them.
    ("GET", AUTH_ME, AnyToken),
    ("GET", TOKENS, AnyToken),
    ("POST", TOKENS, Scopes(&[Admin])),
    ("DELETE", TOKEN, AnyToken),
    ("GET", SIGN_IN_LINKS, Scopes(&[Admin])),
    ("POST", SIGN_IN_LINKS, Scopes(&[Admin])),
    ("DELETE", SIGN_IN_LINK, Scopes(&[Admin])),
    ("POST", SIGN_IN_LINK_EXCHANGE, Public),
    // The caller's own saved views; search and the home narrowed to the groups the scopes open.
    ("GET", SAVED_VIEWS, AnyToken),
    ("GET", SAVED_VIEW, AnyToken),
    ("PUT", SAVED_VIEW, AnyToken),
    ("DELETE", SAVED_VIEW, AnyToken),
    ("GET", SEARCH, AnyToken),
    ("GET", OVERVIEW, AnyToken),
];

/// The row for `method path`, if there is one.
pub fn access(method: &str, path: &str) -> Option<Access> {
    OPERATIONS.iter().find(|(m, p, _)| m.eq_ignore_ascii_case(method) && *p == path).map(|(_, _, a)| *a)
}
