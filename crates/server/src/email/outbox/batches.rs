//! Scheduled batches (issue 46; `batch_id` as the v3 API has it): make one (`POST …/batches`)
//! and name it in sends' `batch_id`, or use a send's own (`req_…`); read its schedule; pause,
//! resume or cancel it before its `send_at`. All `email:send`: who may send may hold back or
//! call off what was sent, as the outbox's own cancel allows. The store: `store::batches`.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::Utc;
use moneydesk_model::email::suppressions::{batch_id_ok, ScheduledBatch};
use moneydesk_model::{paths, Envelope};

use super::store::batches::BatchChange;
use crate::auth::Caller;
use crate::email::EmailState;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{Json, Path};

fn checked(id: &str) -> Result<&str, Error> {
    if batch_id_ok(id) {
        Ok(id)
    } else {
        Err(Error::field("batchId", format!("{id:?} is not a batch id (`batch_…` or a send's `req_…`)")))
    }
}

#[utoipa::path(operation_id = "create_email_batch", post, path = paths::EMAIL_BATCHES, tag = "email",
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Makes a batch id (`batch_…`, active) for sends to name in `batch_id`: their messages can then be paused, resumed or cancelled together before their `send_at`.",
    responses((status = 201, description = "The batch", body = Envelope<ScheduledBatch>)))]
pub(super) async fn create(
    State(state): State<EmailState>,
    caller: Caller,
) -> Result<(StatusCode, Json<Envelope<ScheduledBatch>>), Error> {
    let batch = state.email().create_batch(caller.user_id(), Utc::now()).await?;
    Ok((StatusCode::CREATED, Json(Envelope::with_code(201, batch))))
}

#[utoipa::path(operation_id = "get_email_batch", get, path = paths::EMAIL_BATCH, tag = "email",
    params(("batchId" = String, Path, description = "The batch (`batch_…`, or a send's `req_…`)", pattern = "^(batch|req)_[a-z0-9]{1,60}$")),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "A batch's state (`active`, `paused`, `cancelled`), its messages and those still waiting for their send time, and the earliest `send_at` among them.",
    responses((status = 200, description = "The batch", body = Envelope<ScheduledBatch>),
        (status = 400, description = "Not a batch id", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such batch", body = ErrorEnvelopeDoc)))]
pub(super) async fn detail(
    State(state): State<EmailState>,
    _caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Envelope<ScheduledBatch>>, Error> {
    let id = checked(&id)?;
    let batch = state.email().batch(id).await?.ok_or_else(|| Error::not_found(format!("No batch {id}")))?;
    Ok(Json(Envelope::ok(batch)))
}

async fn change(
    state: &EmailState,
    caller: &Caller,
    id: &str,
    change: BatchChange,
) -> Result<Json<Envelope<ScheduledBatch>>, Error> {
    let id = checked(id)?;
    match state.email().change_batch(id, change, caller.user_id(), Utc::now()).await? {
        None => Err(Error::not_found(format!("No batch {id}"))),
        Some(Err(why)) => Err(Error::conflict(why)),
        Some(Ok(batch)) => {
            state.email().wake();
            Ok(Json(Envelope::ok(batch)))
        }
    }
}

#[utoipa::path(operation_id = "pause_email_batch", post, path = paths::EMAIL_BATCH_PAUSE, tag = "email",
    params(("batchId" = String, Path, description = "The batch", pattern = "^(batch|req)_[a-z0-9]{1,60}$")),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Holds the batch's messages not yet sent (`queued`, `scheduled`) past their `send_at` until it is resumed; messages sent into a paused batch wait too (`paused` on each). A batch whose every message is sent or under way, or one cancelled, is a 409.",
    responses((status = 200, description = "Paused", body = Envelope<ScheduledBatch>),
        (status = 400, description = "Not a batch id", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such batch", body = ErrorEnvelopeDoc),
        (status = 409, description = "Paused already, cancelled, or nothing left to pause", body = ErrorEnvelopeDoc)))]
pub(super) async fn pause(
    State(state): State<EmailState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Envelope<ScheduledBatch>>, Error> {
    change(&state, &caller, &id, BatchChange::Pause).await
}

#[utoipa::path(operation_id = "resume_email_batch", post, path = paths::EMAIL_BATCH_RESUME, tag = "email",
    params(("batchId" = String, Path, description = "The batch", pattern = "^(batch|req)_[a-z0-9]{1,60}$")),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Lets a paused batch's messages go at their `send_at` again (at once for a time that passed while paused). A batch not paused is a 409.",
    responses((status = 200, description = "Active again", body = Envelope<ScheduledBatch>),
        (status = 400, description = "Not a batch id", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such batch", body = ErrorEnvelopeDoc),
        (status = 409, description = "Not paused", body = ErrorEnvelopeDoc)))]
pub(super) async fn resume(
    State(state): State<EmailState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Envelope<ScheduledBatch>>, Error> {
    change(&state, &caller, &id, BatchChange::Resume).await
}

#[utoipa::path(operation_id = "cancel_email_batch", post, path = paths::EMAIL_BATCH_CANCEL, tag = "email",
    params(("batchId" = String, Path, description = "The batch", pattern = "^(batch|req)_[a-z0-9]{1,60}$")),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Calls off the batch's messages not yet sent (`queued`, `scheduled`, paused or not): each becomes `failed` with the cancel as its last reply (an `email.failed` event each), and is never sent; later sends naming the batch are refused. Messages already sent or under way are not touched. A batch cancelled already, or whose every message is sent or under way, is a 409.",
    responses((status = 200, description = "Cancelled", body = Envelope<ScheduledBatch>),
        (status = 400, description = "Not a batch id", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such batch", body = ErrorEnvelopeDoc),
        (status = 409, description = "Cancelled already, or nothing left to cancel", body = ErrorEnvelopeDoc)))]
pub(super) async fn cancel(
    State(state): State<EmailState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Envelope<ScheduledBatch>>, Error> {
    change(&state, &caller, &id, BatchChange::Cancel).await
}
