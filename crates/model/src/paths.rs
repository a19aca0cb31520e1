//! The API's paths, relative to `base_url` (CONTRACT.md "Endpoints"). Portal and server
//! both build their URLs and routes from these, so a path is written once.

/// Everything under this answers errors with the fee body (CONTRACT.md point 8).
pub const FEE_SCHEDULES: &str = "/api/v1/cores/money-movements/fee-schedules/";
pub const FEES_ACH: &str = "/api/v1/cores/money-movements/fee-schedules/fees/ach";
pub const FEES_WIRE: &str = "/api/v1/cores/money-movements/fee-schedules/fees/wire";
/// Extension: the schedule versions in force and to come (GET, `fees:read`), and loading a new
/// version (POST, `admin`).
pub const FEE_SCHEDULE_VERSIONS: &str = "/api/v1/cores/money-movements/fee-schedules/versions";

pub const VAULT_FOLDER: &str = "/api/v1/cores/document-vault/records/{userId}/folder";
pub const VAULT_FOLDER_MOVE: &str = "/api/v1/cores/document-vault/records/{userId}/folder/move";
pub const VAULT_FOLDER_DOWNLOAD: &str = "/api/v1/cores/document-vault/records/{userId}/folder/download";
pub const VAULT_FOLDERS_DELETE: &str = "/api/v1/cores/document-vault/records/folders/delete";
/// Extensions (the Vault page): a folder's contents (GET, paged), a file (POST multipart to
/// upload a version into the folder `path`; GET to download, `version` optional, `Range`;
/// DELETE), moving or renaming a file, a file's versions, and a user's usage.
/// `GET VAULT_FOLDER?path=` answers the folder's record with its counts.
pub const VAULT_FOLDER_CONTENTS: &str = "/api/v1/cores/document-vault/records/{userId}/folder/contents";
pub const VAULT_FILE: &str = "/api/v1/cores/document-vault/records/{userId}/file";
pub const VAULT_FILE_MOVE: &str = "/api/v1/cores/document-vault/records/{userId}/file/move";
pub const VAULT_FILE_VERSIONS: &str = "/api/v1/cores/document-vault/records/{userId}/file/versions";
pub const VAULT_USAGE: &str = "/api/v1/cores/document-vault/records/{userId}/usage";
/// Extensions (issue 46, "nothing lost by a slip"): the owner's trash (GET a page, DELETE
/// empties it), one trashed item (DELETE: gone for good), its restore (POST); a file's older
/// version restored as the newest (POST), and two versions compared (GET).
pub const VAULT_TRASH: &str = "/api/v1/cores/document-vault/records/{userId}/trash";
pub const VAULT_TRASH_ITEM: &str = "/api/v1/cores/document-vault/records/{userId}/trash/{trashId}";
pub const VAULT_TRASH_RESTORE: &str = "/api/v1/cores/document-vault/records/{userId}/trash/{trashId}/restore";
pub const VAULT_FILE_VERSION_RESTORE: &str = "/api/v1/cores/document-vault/records/{userId}/file/versions/restore";
pub const VAULT_FILE_VERSIONS_COMPARE: &str = "/api/v1/cores/document-vault/records/{userId}/file/versions/compare";

pub const EMAIL_SEND: &str = "/api/v1/cores/utility/message/email";
pub const EMAIL_VALIDATION: &str = "/api/v1/cores/utility/message/email/validation";
/// Extension: up to 1000 addresses verified in one request, each domain looked up once.
pub const EMAIL_VALIDATION_BULK: &str = "/api/v1/cores/utility/message/email/validation/bulk";
/// Extensions (the Email page): the outbox (GET, paged, `state` and `q` filters; `email:send`),
/// one message with its attempts and parts, its exact MIME (`raw`, `message/rfc822`) and its
/// attachments; a failed message resent (POST `resend`, `email:send`); the sender identities this server may send as; stored templates (GET list and
/// detail with `email:send`; POST create and new versions with `admin`), a stored template's
/// preview with sample data, and a draft's preview (the editor's, nothing stored).
pub const EMAIL_MESSAGES: &str = "/api/v1/cores/utility/message/email/messages";
pub const EMAIL_MESSAGE: &str = "/api/v1/cores/utility/message/email/messages/{messageId}";
pub const EMAIL_MESSAGE_RAW: &str = "/api/v1/cores/utility/message/email/messages/{messageId}/raw";
pub const EMAIL_MESSAGE_RESEND: &str = "/api/v1/cores/utility/message/email/messages/{messageId}/resend";
pub const EMAIL_MESSAGE_ATTACHMENT: &str =
    "/api/v1/cores/utility/message/email/messages/{messageId}/attachments/{index}";
pub const EMAIL_SENDERS: &str = "/api/v1/cores/utility/message/email/senders";
pub const EMAIL_TEMPLATES: &str = "/api/v1/cores/utility/message/email/templates";
pub const EMAIL_TEMPLATE: &str = "/api/v1/cores/utility/message/email/templates/{templateId}";
pub const EMAIL_TEMPLATE_VERSIONS: &str = "/api/v1/cores/utility/message/email/templates/{templateId}/versions";
pub const EMAIL_TEMPLATE_PREVIEW: &str = "/api/v1/cores/utility/message/email/templates/{templateId}/preview";
pub const EMAIL_TEMPLATE_DRAFT_PREVIEW: &str = "/api/v1/cores/utility/message/email/templates/preview";
/// Extensions: custom sending domains (register and list with `email:send`; verify with
/// `email:send`; activate and delete with `admin`).
pub const EMAIL_DOMAINS: &str = "/api/v1/cores/utility/message/email/domains";
pub const EMAIL_DOMAIN: &str = "/api/v1/cores/utility/message/email/domains/{domain}";
pub const EMAIL_DOMAIN_VERIFY: &str = "/api/v1/cores/utility/message/email/domains/{domain}/verify";
pub const EMAIL_DOMAIN_ACTIVATE: &str = "/api/v1/cores/utility/message/email/domains/{domain}/activate";
/// Extensions (issue 46): a sender domain's suppression list (list and add with `email:send`,
/// remove with `admin`), the unsubscribe link (no token: the link's own token is the
/// authority), scheduled batches (`email:send`).
pub const EMAIL_SUPPRESSIONS: &str = "/api/v1/cores/utility/message/email/suppressions/{domain}";
pub const EMAIL_SUPPRESSION: &str = "/api/v1/cores/utility/message/email/suppressions/{domain}/{suppressionId}";
pub const EMAIL_UNSUBSCRIBE: &str = "/api/v1/cores/utility/message/email/unsubscribe/{token}";
pub const EMAIL_BATCHES: &str = "/api/v1/cores/utility/message/email/batches";
pub const EMAIL_BATCH: &str = "/api/v1/cores/utility/message/email/batches/{batchId}";
pub const EMAIL_BATCH_PAUSE: &str = "/api/v1/cores/utility/message/email/batches/{batchId}/pause";
pub const EMAIL_BATCH_RESUME: &str = "/api/v1/cores/utility/message/email/batches/{batchId}/resume";
pub const EMAIL_BATCH_CANCEL: &str = "/api/v1/cores/utility/message/email/batches/{batchId}/cancel";
/// Extensions (issue 46): bounce and complaint reports (POST a raw DSN or ARF report with
/// `admin`; GET the bounces with `email:send`), and the deliverability figures (`email:send`).
pub const EMAIL_BOUNCES: &str = "/api/v1/cores/utility/message/email/bounces";
pub const EMAIL_BOUNCE_REPORTS: &str = "/api/v1/cores/utility/message/email/bounces/reports";
pub const EMAIL_DELIVERABILITY: &str = "/api/v1/cores/utility/message/email/deliverability";
/// Extensions: inbound mail (description section 6). Routes per domain (list, create, change
/// the URL, reveal and rotate the secret with `email:send`; delete with `admin`); the messages
/// received (GET list and detail; POST raw MIME, `message/rfc822`; redeliver), `email:send`.
pub const EMAIL_INBOUND_ROUTES: &str = "/api/v1/cores/utility/message/email/inbound/routes";
pub const EMAIL_INBOUND_ROUTE: &str = "/api/v1/cores/utility/message/email/inbound/routes/{domain}";
pub const EMAIL_INBOUND_ROUTE_SECRET: &str = "/api/v1/cores/utility/message/email/inbound/routes/{domain}/secret";
pub const EMAIL_INBOUND_MESSAGES: &str = "/api/v1/cores/utility/message/email/inbound/messages";
pub const EMAIL_INBOUND_MESSAGE: &str = "/api/v1/cores/utility/message/email/inbound/messages/{messageId}";
pub const EMAIL_INBOUND_REDELIVER: &str = "/api/v1/cores/utility/message/email/inbound/messages/{messageId}/redeliver";

pub const ROUTING_WIRE_VALIDATE: &str = "/api/v1/cores/utility/payment/routing/wire/validate";
pub const ROUTING_ACH_VALIDATE: &str = "/api/v1/cores/utility/payment/routing/ach/validate";
/// Extension: the directory's status (as-of date, load time, counts, staleness).
pub const ROUTING_DIRECTORY: &str = "/api/v1/cores/utility/payment/routing/directory";
/// Extension (scope `admin`): reload the directory files now.
pub const ROUTING_DIRECTORY_REFRESH: &str = "/api/v1/cores/utility/payment/routing/directory/refresh";
/// Extension: search by name, routing-number prefix, state, city and zip.
pub const ROUTING_SEARCH: &str = "/api/v1/cores/utility/payment/routing/search";

pub const DEPOSITS: &str = "/api/v2/services/money-movements/deposits";
pub const DEPOSITS_CHECK: &str = "/api/v2/services/money-movements/deposits/check";
/// Extensions: an electronic deposit (an ACH pull), and the NACHA file of a day's pulls.
pub const DEPOSITS_ELECTRONIC: &str = "/api/v2/services/money-movements/deposits/electronic";
pub const DEPOSITS_ACH_FILE: &str = "/api/v2/services/money-movements/deposits/ach-file";
/// Extension: sends the day's ACH file (POST, `admin`): its confirmed pulls move to Sent_3.
pub const DEPOSITS_ACH_FILE_SEND: &str = "/api/v2/services/money-movements/deposits/ach-file/send";
/// Extension: a cash deposit.
pub const DEPOSITS_CASH: &str = "/api/v2/services/money-movements/deposits/cash";
pub const DEPOSITS_CHECK_SCAN: &str = "/api/v2/services/money-movements/deposits/check/smas/{smaSfid}/scan";
/// Extensions: one deposit with its history, its images, and a move of its state machine.
/// Extension: the deposit list with each deposit as its whole record (2.5: id, amount, status).
pub const DEPOSIT_RECORDS: &str = "/api/v2/services/money-movements/deposits/records";
/// Extension: the filtered deposits summed per day and status (the Deposits page's chart).
pub const DEPOSIT_DAILY_TOTALS: &str = "/api/v2/services/money-movements/deposits/daily-totals";
pub const DEPOSIT: &str = "/api/v2/services/money-movements/deposits/{id}";
pub const DEPOSIT_IMAGE: &str = "/api/v2/services/money-movements/deposits/{id}/images/{side}";
pub const DEPOSIT_ACTIONS: &str = "/api/v2/services/money-movements/deposits/{id}/actions";
/// Extension (ledger group): a deposit's ledger transactions with their entries, and its holds.
pub const DEPOSIT_POSTINGS: &str = "/api/v2/services/money-movements/deposits/{id}/postings";
/// Extensions (deposits group): returned items — upload a return file (X9.100-187 or ACH,
/// POST, `deposits:write`), list the items (GET, paged, `state`), act on one (match or
/// dismiss).
pub const DEPOSIT_RETURNS: &str = "/api/v2/services/money-movements/deposits/returns";
pub const DEPOSIT_RETURN_ITEM: &str = "/api/v2/services/money-movements/deposits/returns/{id}";

/// Extensions (the ledger; `ledger:read`, adjustments `admin`): the bank's ledger accounts with
/// their balances; a sleeve account's balances (`?asOf=`), entries (paged, CSV) and holds
/// (`{accountId}` is a sleeve account's id, or one ledger account's code such as
/// `bank:clearing_x9`); a transaction; manual adjustments; the daily reconciliation.
pub const LEDGER_ACCOUNTS: &str = "/api/v2/services/money-movements/ledger/accounts";
/// Extension: the balances of up to 100 sleeve accounts at once (`?accountIds=a,b,c`; the
/// Accounts page's rows), each as [`crate::ledger::Balances`].
pub const LEDGER_BALANCES_BATCH: &str = "/api/v2/services/money-movements/ledger/balances";
pub const LEDGER_BALANCES: &str = "/api/v2/services/money-movements/ledger/accounts/{accountId}/balances";
pub const LEDGER_ENTRIES: &str = "/api/v2/services/money-movements/ledger/accounts/{accountId}/entries";
pub const LEDGER_HOLDS: &str = "/api/v2/services/money-movements/ledger/accounts/{accountId}/holds";
pub const LEDGER_TRANSACTION: &str = "/api/v2/services/money-movements/ledger/transactions/{id}";
pub const LEDGER_ADJUSTMENTS: &str = "/api/v2/services/money-movements/ledger/adjustments";
pub const LEDGER_RECONCILIATION: &str = "/api/v2/services/money-movements/ledger/reconciliation";

/// Extensions: image cash letters (X9.100-187) made of confirmed check deposits — list and
/// create, one with its items, its file.
pub const CASH_LETTERS: &str = "/api/v2/services/money-movements/cash-letters";
pub const CASH_LETTER: &str = "/api/v2/services/money-movements/cash-letters/{id}";
pub const CASH_LETTER_FILE: &str = "/api/v2/services/money-movements/cash-letters/{id}/file";

/// Extensions: the audit trail (`audit:read`): records (filters, paged, CSV), one record, the
/// chains' verification, a day exported as signed JSON lines.
pub const AUDIT_RECORDS: &str = "/api/v2/services/audit/records";
pub const AUDIT_RECORD: &str = "/api/v2/services/audit/records/{id}";
pub const AUDIT_VERIFY: &str = "/api/v2/services/audit/verify";
pub const AUDIT_EXPORT: &str = "/api/v2/services/audit/days/{day}/export";

/// Extensions: events (each type read with its group's read scope), and the webhook endpoints
/// they are pushed to (`webhooks:write`).
pub const EVENTS: &str = "/api/v2/services/events";
pub const EVENT: &str = "/api/v2/services/events/{id}";

pub const ACCOUNTS: &str = "/api/v1/cores/unifi/accounts";
pub const PERMISSIONS: &str = "/api/v2/services/company/users/permissions";

/// Extension: who the presented credential is and what it may do.
pub const AUTH_ME: &str = "/api/v1/cores/auth/me";

/// Extensions: tokens (an admin's all; any token's own user's) and sign-in links (an admin
/// makes one; its secret is exchanged, without a token, for a session token).
pub const TOKENS: &str = "/api/v2/services/tokens";
pub const TOKEN: &str = "/api/v2/services/tokens/{id}";
pub const SIGN_IN_LINKS: &str = "/api/v2/services/sign-in-links";
pub const SIGN_IN_LINK: &str = "/api/v2/services/sign-in-links/{id}";
pub const SIGN_IN_LINK_EXCHANGE: &str = "/api/v2/services/sign-in-links/exchange";

// Saved views (issue #45, helper "views").
/// Extensions: the caller's saved views of the data tables (GET, `?table=`), and one view by
/// its table and name (GET; PUT saves it, creating or replacing; DELETE). Any token: a user's
/// own views only.
pub const SAVED_VIEWS: &str = "/api/v2/services/views";
pub const SAVED_VIEW: &str = "/api/v2/services/views/{table}/{name}";

pub const OPENAPI: &str = "/api/openapi.json";

/// Replaces a `{name}` placeholder with a percent-encoded path segment.
pub fn fill(path: &str, name: &str, value: &str) -> String {
    let mut enc = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            enc.push(b as char);
        } else {
            enc.push_str(&format!("%{b:02X}"));
        }
    }
    path.replace(&format!("{{{name}}}"), &enc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fee_paths_are_under_the_fee_schedules() {
        assert!(FEES_ACH.starts_with(FEE_SCHEDULES) && FEES_WIRE.starts_with(FEE_SCHEDULES));
    }
}

/// Extensions: webhook endpoints (`webhooks:write`) — list and create, one (get, change,
/// delete), its secret's rotation, a test event, its delivery log, replays, its last 7 days.
pub const WEBHOOK_ENDPOINTS: &str = "/api/v2/services/webhooks/endpoints";
pub const WEBHOOK_ENDPOINT: &str = "/api/v2/services/webhooks/endpoints/{id}";
pub const WEBHOOK_ENDPOINT_SECRET: &str = "/api/v2/services/webhooks/endpoints/{id}/secret";
pub const WEBHOOK_ENDPOINT_TEST: &str = "/api/v2/services/webhooks/endpoints/{id}/test";
pub const WEBHOOK_ENDPOINT_DELIVERIES: &str = "/api/v2/services/webhooks/endpoints/{id}/deliveries";
pub const WEBHOOK_ENDPOINT_REPLAY: &str = "/api/v2/services/webhooks/endpoints/{id}/replay";
pub const WEBHOOK_ENDPOINT_STATS: &str = "/api/v2/services/webhooks/endpoints/{id}/stats";

/// Extension (issue 45, part "search"): one search across every group the token's scopes open.
pub const SEARCH: &str = "/api/v2/services/search";

/// Extensions (issue 45, part "bulk-deposits"): a bulk action (confirm, reject, cancel) on the
/// deposits selected by ids or by the list's filter, and the CSV export of such a selection.
pub const DEPOSITS_BULK: &str = "/api/v2/services/money-movements/deposits/bulk";
pub const DEPOSITS_EXPORT: &str = "/api/v2/services/money-movements/deposits/export";

/// Extensions (issue 45, part "bulk-email-vault"): bulk actions on outbox messages (resend,
/// cancel), on inbound messages (redeliver), and on a vault's files and folders (move,
/// delete, and a zip of the selection), each selected by ids (vault: paths) or by the list's
/// filter.
pub const EMAIL_MESSAGES_BULK: &str = "/api/v1/cores/utility/message/email/messages/bulk";
pub const EMAIL_INBOUND_MESSAGES_BULK: &str = "/api/v1/cores/utility/message/email/inbound/messages/bulk";
pub const VAULT_BULK: &str = "/api/v1/cores/document-vault/records/{userId}/bulk";
pub const VAULT_BULK_DOWNLOAD: &str = "/api/v1/cores/document-vault/records/{userId}/bulk/download";

// Issue 45, part "home": the operator's day.
/// Extension (any token): today's figures of every group the caller's scopes open, each with
/// the list behind it (`crate::overview::Overview`).
pub const OVERVIEW: &str = "/api/v2/services/overview";
