//! POST send: the request checked (the model's `SendRequest::check`, every rule of CONTRACT.md
//! point 13, each problem naming its field), the sender allowed, the template rendered for
//! each personalization, attachments stored once by SHA-256, and every message written to the
//! outbox in one transaction before the 202: an accepted message is never lost, and a
//! refused request leaves nothing behind.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use moneydesk_model::email::suppressions::{BatchState, SendAccepted, SendSuppression};
use moneydesk_model::email::{CheckedMailbox, Delivery, MessageState, SendRequest};
use moneydesk_model::{paths, FieldError};
use sha2::{Digest, Sha256};

use super::store::outbox::NewMessage;
use super::store::PAUSED;
use super::store::{attachment_path, time_text, StoredAttachment, StoredMailbox, StoredMessage, StoredRecipients};
use crate::auth::Caller;
use crate::email::EmailState;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Json;

#[utoipa::path(post, path = paths::EMAIL_SEND, tag = "email",
    request_body(content = SendRequest, description = "The v3 mail-send shape (CONTRACT.md point 13). Each personalization becomes one message with its own recipients, subject and template data. `send_at` is Unix seconds, at most 72 hours ahead. Attachments are base64; `disposition` `inline` needs a `content_id` the HTML refers to as `cid:`. With `template_id` the template's latest version makes subject (unless one is given), text and HTML, and `content` must be absent."),
    security(("bearer" = ["email:send"])),
    description = "Queues the messages in the outbox (written before the answer: nothing accepted is lost) and answers 202 with their ids, in personalization order. A worker delivers them to the configured SMTP relay, with retries for temporary failures, or, with no relay configured, to the development mailbox. Limits: 1 to 1000 personalizations, 1000 recipients in all, an address at most once in the request, 30 MiB of subjects, contents and decoded attachments, at most 100 attachments and 10 categories. A CR or LF in any header value (subject, names, filenames, categories) is refused. The sender must be one of the identities of GET …/email/senders. Recipients on the sender domain's suppression list are dropped, each named in the answer's `suppressed` and on its message; a message left with nobody is `failed` at once, never sent. The lists are read again at delivery: a recipient suppressed after acceptance (a bounce, a complaint) is dropped from a scheduled or retried message then, and recorded in its `suppressed`. `mail_settings.bypass_list_management.enable` (transactional mail) sends to them anyway, each marked `bypassed`. A send with a category is bulk: it carries one-click unsubscribe headers (RFC 8058) when the server is configured for them. `batch_id` joins a batch made with POST …/email/batches, which may be paused or cancelled before `send_at`.",
    responses((status = 202, description = "Accepted; `data` holds the message ids (`code` 202), `suppressed` the recipients the suppression lists dropped", body = SendAccepted),
        (status = 400, description = "A rule is broken; `errors` names each field (`personalizations[3].to[0].email`)", body = ErrorEnvelopeDoc),
        (status = 413, description = "The body is over the limit", body = ErrorEnvelopeDoc)))]
pub async fn send_email(
    State(state): State<EmailState>,
    caller: Caller,
    Json(request): Json<SendRequest>,
) -> Result<(StatusCode, Json<SendAccepted>), Error> {
    let now = Utc::now();
    let plan = request.check(now.timestamp()).map_err(Error::fields)?;
    // A configured identity, or any address of an active sending domain.
    if state.config().email.sender_for(&plan.from.email).is_none()
        && state.domains().signers_for(plan.from.email.domain()).await?.is_none()
    {
        let allowed: Vec<&str> = state.config().email.senders.iter().map(|s| s.address.as_str()).collect();
        return Err(Error::field(
            "from.email",
            format!(
                "{} is not a sender identity of this server; it may send as {} or from an active sending domain",
                plan.from.email,
                allowed.join(", ")
            ),
        ));
    }
    let template = match &plan.template_id {
        None => None,
        Some(id) => Some(
            state
                .templates()
                .compiled_latest(id)
                .await?
                .ok_or_else(|| Error::field("template_id", format!("no template {id}")))?,
        ),
    };

    // Render first: a request with one bad personalization is refused whole, before anything
    // is stored.
    let mut parts = Vec::with_capacity(plan.personalizations.len());
    let mut problems = Vec::new();
    for (i, p) in plan.personalizations.iter().enumerate() {
        match &template {
            None => parts.push((p.subject.clone().unwrap_or_default(), plan.text.clone(), plan.html.clone())),
            Some(t) => match t.render(&p.data) {
                Ok(r) => parts.push((p.subject.clone().unwrap_or(r.subject), r.text, r.html)),
                Err(e) => {
                    let field = match &e.variable {
                        Some(v) => format!("personalizations[{i}].dynamic_template_data.{v}"),
                        None => format!("personalizations[{i}].dynamic_template_data"),
                    };
                    if problems.len() < 100 {
                        problems.push(FieldError::new(field, e.message));
                    }
                }
            },
        }
    }
    if !problems.is_empty() {
        return Err(Error::fields(problems));
    }

    let mut attachments = Vec::with_capacity(plan.attachments.len());
    for a in &plan.attachments {
        let sha256 = hex::encode(Sha256::digest(&a.bytes));
        // Stored before the messages that name it: a crash in between leaves an unreferenced
        // blob (harmless), never a message without its attachment.
        state.blobs().put(&attachment_path(&sha256), a.bytes.clone().into()).await.map_err(Error::internal)?;
        attachments.push(StoredAttachment {
            filename: a.filename.clone(),
            content_type: a.content_type.clone(),
            disposition: a.disposition.as_str().to_string(),
            content_id: a.content_id.clone(),
            sha256,
            size: a.bytes.len() as u64,
        });
    }

    let paused = match &plan.batch_id {
        None => false,
        Some(b) => match state.email().batch_state(b).await? {
            None => return Err(Error::field("batch_id", format!("no batch {b}: make one with POST …/email/batches"))),
            Some(BatchState::Cancelled) => return Err(Error::field("batch_id", format!("batch {b} is cancelled"))),
            Some(s) => s == BatchState::Paused,
        },
    };
    let screened = crate::email::suppressions::screen::screen(&state.email(), &plan).await?;
    let batch_id = plan.batch_id.clone().unwrap_or_else(|| format!("req_{}", uuid::Uuid::new_v4().simple()));
    let delivery = if state.config().email.smtp_url.is_some() { Delivery::Relay } else { Delivery::Mailbox };
    let domain = plan.from.email.domain().to_string();
    let created_at = time_text(now);
    let messages: Vec<NewMessage> = plan
        .personalizations
        .iter()
        .zip(parts)
        .zip(&screened)
        .enumerate()
        .map(|(i, ((p, (subject, text, html)), kept))| {
            let send_at = p.send_at.and_then(|t| DateTime::<Utc>::from_timestamp(t, 0)).map(time_text);
            NewMessage {
                message: StoredMessage {
                    id: format!("msg_{}", uuid::Uuid::new_v4().simple()),
                    batch_id: batch_id.clone(),
                    index: i as u32,
                    message_id: format!("{}@{domain}", uuid::Uuid::new_v4().simple()),
                    date_header: now.to_rfc2822(),
                    from: stored(&plan.from),
                    reply_to: plan.reply_to.as_ref().map(stored),
                    recipients: StoredRecipients {
                        to: kept.to.iter().map(stored).collect(),
                        cc: kept.cc.iter().map(stored).collect(),
                        bcc: kept.bcc.iter().map(stored).collect(),
                        suppressed: kept.suppressed.clone(),
                        bypass_list_management: plan.bypass_list_management,
                    },
                    subject,
                    text,
                    html,
                    attachments: attachments.clone(),
                    categories: plan.categories.clone(),
                    template_id: template.as_ref().map(|t| t.id.clone()),
                    template_version: template.as_ref().map(|t| t.version),
                },
                state: if send_at.is_some() { MessageState::Scheduled } else { MessageState::Queued },
                delivery,
                created_by: caller.user_id().to_string(),
                created_at: created_at.clone(),
                next_attempt_at: match paused {
                    true => PAUSED.to_string(),
                    false => send_at.clone().unwrap_or_else(|| created_at.clone()),
                },
                send_at,
            }
        })
        .collect();
    let unsendable: Vec<String> =
        messages.iter().zip(&screened).filter(|(_, s)| s.nobody()).map(|(m, _)| m.message.id.clone()).collect();
    let why = format!("not sent: every recipient is on the suppression list of {domain}");
    state.email().accept(&messages, &unsendable, &why).await?;
    state.email().wake();
    let suppressed = messages
        .iter()
        .flat_map(|m| {
            m.message.recipients.suppressed.iter().map(|r| SendSuppression {
                message_id: m.message.id.clone(),
                index: m.message.index,
                recipient: r.clone(),
            })
        })
        .collect();
    let data = messages.into_iter().map(|m| m.message.id).collect();
    let answer = SendAccepted { code: 202, error_message: None, error: None, data, suppressed };
    Ok((StatusCode::ACCEPTED, Json(answer)))
}

fn stored(m: &CheckedMailbox) -> StoredMailbox {
    StoredMailbox { email: m.email.to_string(), name: m.name.clone() }
}
