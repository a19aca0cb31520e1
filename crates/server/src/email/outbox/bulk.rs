//! Bulk actions on outbox messages (issue 45): `resend` (a failed message, as the single
//! resend does) and `cancel` (a message not yet sent), on the messages named or on every
//! message the list's filter matches. Each message in its own transaction, with its own audit
//! record; a refusal (`not_found`, `invalid_state`) leaves the others done.

use axum::extract::State;
use moneydesk_model::bulk::{BulkItem, BulkRequest, BulkResult, NoParams, BULK_LIMIT};
use moneydesk_model::{paths, Envelope};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::store::outbox::OutboxFilter;
use crate::auth::Caller;
use crate::email::EmailState;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::bulk::{self, Chosen};
use crate::http::extract::Json;

/// What a bulk action does to each message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutboxBulkAction {
    /// A failed message back in the queue (as `…/resend`).
    Resend,
    /// A queued, scheduled or deferred message made `failed` without an attempt.
    Cancel,
}

impl OutboxBulkAction {
    fn as_str(self) -> &'static str {
        match self {
            OutboxBulkAction::Resend => "resend",
            OutboxBulkAction::Cancel => "cancel",
        }
    }
}

/// The outbox list's filter parameters (`state` may hold several states, comma-separated).
const FILTERS: &[&str] = &["state", "q", "batchId", "createdFrom", "createdTo"];

/// The bulk action's body, as the document writes it.
pub struct OutboxBulkRequest;

impl utoipa::PartialSchema for OutboxBulkRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        let state = "(queued|scheduled|sending|sent|deferred|failed)";
        let filter = json!({
            // Empty: every state, as the list reads `state=`.
            "state": {"type": "string", "pattern": format!("^({state}(,{state})*)?$")},
            "q": {"type": "string", "maxLength": 200},
            "batchId": {"type": "string", "maxLength": 100},
            "createdFrom": {"type": "string", "format": "date"},
            "createdTo": {"type": "string", "format": "date"}
        });
        let select = bulk::select_schema("Message ids (`msg_…`)", json!({"type": "string"}), filter);
        bulk::schema(bulk::action_schema(&["resend", "cancel"], json!({}), select))
    }
}

impl utoipa::ToSchema for OutboxBulkRequest {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("OutboxBulkRequest")
    }
}

#[utoipa::path(operation_id = "bulk_email_messages", post, path = paths::EMAIL_MESSAGES_BULK, tag = "email",
    request_body = OutboxBulkRequest,
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Resends or cancels the selected messages: `select.ids` (`msg_…`), or `select.filter` with the outbox list's filter parameters (`state`, `q`, `batchId`, `createdFrom`, `createdTo`; several states comma-separated; `page`, `size` and `sort` ignored; `createdFrom` after `createdTo` matches nothing), applied when the request runs. Each message is taken alone, in its own transaction with its own audit record, as the single action does: `resend` takes a `failed` message back to the queue; `cancel` takes a message not yet sent (`queued`, `scheduled` or `deferred`; never one `sending`, which the relay may have delivered already) to `failed` without an attempt, its last reply saying who cancelled it (there is no `cancelled` state: `failed` is the outbox's final state for what is not sent, and a cancelled message can be resent). The answer is 200 even when some or all are refused: each item says `done`, or `refused` with `reason` `not_found` or `invalid_state`. More than 10,000 messages selected: 422 `too_many`, nothing done.",
    responses((status = 200, description = "Each message's outcome", body = Envelope<BulkResult>),
        (status = 400, description = "The request is malformed: both or neither of ids and filter, an unknown filter parameter or action; the message names it", body = ErrorEnvelopeDoc),
        (status = 422, description = "More messages selected than one bulk action takes (`too_many`)", body = ErrorEnvelopeDoc)))]
pub(super) async fn bulk(
    State(state): State<EmailState>,
    caller: Caller,
    body: axum::body::Bytes,
) -> Result<Json<Envelope<BulkResult>>, Error> {
    let req: BulkRequest<OutboxBulkAction, NoParams> = bulk::read(&body, &["action", "select"])?;
    let ids = match bulk::choose(&req.select, FILTERS)? {
        Chosen::Ids(ids) => ids,
        Chosen::Filter(pairs) => match filter(&pairs)? {
            Some(filter) => {
                let ids = state.email().ids(&filter, BULK_LIMIT + 1).await?;
                bulk::limit(ids.len())?;
                ids
            }
            None => Vec::new(),
        },
    };
    let action = req.action;
    let store = state.email().clone();
    let (token, user) = (caller.token_name().to_string(), caller.user_id().to_string());
    let items = bulk::each(ids, |id| {
        let (store, token, user) = (store.clone(), token.clone(), user.clone());
        async move {
            let now = chrono::Utc::now();
            let answer = match action {
                OutboxBulkAction::Resend => store.resend(&id, &token, &user, now).await,
                OutboxBulkAction::Cancel => store.cancel(&id, &token, &user, now).await,
            };
            match answer {
                Ok(None) => BulkItem::refused(&id, "not_found", format!("No message {id}")),
                Ok(Some(Err(current))) => BulkItem::refused(&id, "invalid_state", refusal(action, &id, current)),
                Ok(Some(Ok(_))) => BulkItem::done(&id),
                Err(e) => bulk::refused(&id, e.into()),
            }
        }
    })
    .await;
    Ok(Json(Envelope::ok(BulkResult::new(action.as_str(), items))))
}

/// The list's filter from a bulk filter: as the list reads its query (a comma-separated
/// `state` is its repeated parameter); `None` when its days are an empty range (matching
/// nothing, where the list says 400: a selection of nothing is no mistake).
fn filter(pairs: &[(String, String)]) -> Result<Option<OutboxFilter>, Error> {
    let mut q = Vec::new();
    for (k, v) in pairs {
        match k.as_str() {
            "state" => q.extend(v.split(',').map(|s| (k.clone(), s.trim().to_string())).filter(|(_, s)| !s.is_empty())),
            _ => q.push((k.clone(), v.clone())),
        }
    }
    match super::outbox_filter(&q) {
        Ok(f) => Ok(Some(f)),
        Err(e) if e.fields.first().is_some_and(|f| f.problem == "is after createdTo") => Ok(None),
        Err(mut e) => {
            for f in &mut e.fields {
                f.field = format!("select.filter.{}", f.field);
            }
            Err(e)
        }
    }
}

fn refusal(action: OutboxBulkAction, id: &str, current: moneydesk_model::email::MessageState) -> String {
    match action {
        OutboxBulkAction::Resend => format!("Message {id} is {current}: only a failed message can be resent"),
        OutboxBulkAction::Cancel => {
            format!("Message {id} is {current}: only a queued, scheduled or deferred message can be cancelled")
        }
    }
}
