//! The bulk redelivery of inbound messages (issue 45): the messages named, or every message
//! the list's filter matches, each posted again as the single `…/redeliver` does, each in its
//! own transaction with its own audit record; one still pending or under way is refused.

use axum::extract::State;
use moneydesk_model::bulk::{BulkItem, BulkRequest, BulkResult, NoParams, BULK_LIMIT};
use moneydesk_model::email::inbound::InboundState;
use moneydesk_model::email::EmailAddress;
use moneydesk_model::{paths, Envelope};
use serde::{Deserialize, Serialize};

use crate::auth::Caller;
use crate::email::EmailState;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::bulk::{self, Chosen};
use crate::http::extract::Json;

/// What a bulk action does to each inbound message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InboundBulkAction {
    /// Posted again, now, to its route's current URL (as `…/redeliver`).
    Redeliver,
}

/// The bulk action's body, as the document writes it.
pub struct InboundBulkRequest;

impl utoipa::PartialSchema for InboundBulkRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        let filter = serde_json::json!({
            "domain": {"type": "string", "description": "A domain that is no domain name matches nothing"},
            "state": {"type": "string", "enum": ["pending", "delivering", "delivered", "failed"]}
        });
        let select = bulk::select_schema("Inbound message ids (UUIDs)", serde_json::json!({"type": "string"}), filter);
        bulk::schema(bulk::action_schema(&["redeliver"], serde_json::json!({}), select))
    }
}

impl utoipa::ToSchema for InboundBulkRequest {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("InboundBulkRequest")
    }
}

#[utoipa::path(operation_id = "bulk_inbound_messages", post, path = paths::EMAIL_INBOUND_MESSAGES_BULK, tag = "email",
    request_body = InboundBulkRequest,
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Redelivers the selected inbound messages: `select.ids` (UUIDs), or `select.filter` with the inbound list's filter parameters (`domain`, `state`; `before` and `limit` ignored; a domain that is no domain name matches nothing), applied when the request runs. Each message is taken alone, in its own transaction with its own audit record, as `…/redeliver` does: a `delivered` or `failed` one is due again now with a new retry window; one `pending` or `delivering` is refused (`invalid_state`), an unknown id too (`not_found`). The answer is 200 even when some or all are refused. More than 10,000 messages selected: 422 `too_many`, nothing done.",
    responses((status = 200, description = "Each message's outcome", body = Envelope<BulkResult>),
        (status = 400, description = "The request is malformed: both or neither of ids and filter, an unknown filter parameter or action; the message names it", body = ErrorEnvelopeDoc),
        (status = 422, description = "More messages selected than one bulk action takes (`too_many`)", body = ErrorEnvelopeDoc)))]
pub(super) async fn bulk(
    State(state): State<EmailState>,
    _caller: Caller,
    body: axum::body::Bytes,
) -> Result<Json<Envelope<BulkResult>>, Error> {
    let req: BulkRequest<InboundBulkAction, NoParams> = bulk::read(&body, &["action", "select"])?;
    let ids = match bulk::choose(&req.select, &["domain", "state"])? {
        Chosen::Ids(ids) => ids,
        Chosen::Filter(pairs) => {
            let (mut domain, mut st) = (None, None);
            for (k, v) in &pairs {
                if k == "domain" {
                    // What is no domain name is no route's: it matches nothing.
                    domain = Some(EmailAddress::domain_name(v).unwrap_or_else(|| v.trim().to_string()));
                } else {
                    st = Some(v.parse::<InboundState>().map_err(|e| Error::field("select.filter.state", e))?);
                }
            }
            let rows = state.inbound().store.messages(domain.as_deref(), st, None, BULK_LIMIT as u32 + 1).await?;
            bulk::limit(rows.len())?;
            rows.into_iter().map(|r| r.id).collect()
        }
    };
    let store = state.inbound().store.clone();
    let retry_for = state.config().email.inbound.retry_for;
    let items = bulk::each(ids, |id| {
        let store = store.clone();
        async move {
            // Ids are UUIDs: anything else is no message, without a lookup.
            let Ok(uuid) = uuid::Uuid::parse_str(&id) else {
                return BulkItem::refused(&id, "not_found", format!("No inbound message {id}"));
            };
            match store.redeliver(&uuid.to_string(), retry_for).await {
                Ok(None) => BulkItem::refused(&id, "not_found", format!("No inbound message {id}")),
                Ok(Some(false)) => BulkItem::refused(
                    &id,
                    "invalid_state",
                    "The message is still being delivered: it is pending or under way",
                ),
                Ok(Some(true)) => BulkItem::done(&id),
                Err(e) => bulk::refused(&id, e.into()),
            }
        }
    })
    .await;
    if items.iter().any(|i| i.reason.is_none()) {
        state.inbound().store.wake();
    }
    Ok(Json(Envelope::ok(BulkResult::new("redeliver", items))))
}
