//! The email group: send, the outbox (list, one message, its raw MIME and attachments), the
//! sender identities, stored templates with their previews, address verification, sending
//! domains, and inbound mail (routes, their secrets, the messages received and redelivery);
//! bulk actions on outbox and inbound messages; suppression lists and scheduled batches.

use std::future::Future;

use gloo_net::http::Method;
use moneydesk_model::email::domains::{NewSendingDomain, SendingDomain};
use moneydesk_model::email::inbound::{
    InboundDetail, InboundMessage, InboundRoute, InboundRouteUpdate, InboundSecret, NewInboundRoute,
};
use moneydesk_model::email::suppressions::{NewSuppressions, ScheduledBatch, Suppression};
use moneydesk_model::email::validation::{
    BulkValidationRequest, BulkValidationResult, ValidationRequest, ValidationResult,
};
use moneydesk_model::email::{
    DraftPreview, MessageDetail, NewTemplate, NewTemplateVersion, OutboxMessage, RenderedTemplate, SendRequest,
    SenderIdentity, TemplateDetail, TemplatePreview, TemplateSummary,
};
use moneydesk_model::{paths, Envelope, Page};
use serde::de::DeserializeOwned;
use serde::Serialize;

use moneydesk_model::bulk::{BulkRequest, BulkResult, NoParams};

use super::client::{envelope_data, Body};
use super::{ApiError, Client};
use crate::components::data_table::BulkCall;

/// POST `path` with a JSON body, answering an envelope's `data`.
fn post<B: Serialize, T: DeserializeOwned + 'static>(
    client: &Client,
    path: String,
    body: &B,
) -> impl Future<Output = Result<T, ApiError>> + 'static {
    let body = Body::json(body);
    let client = client.clone();
    async move { envelope_data(client.send::<Envelope<T>>(Method::POST, &path, &[], Some(body?)).await?) }
}

/// POST send: the ids of the queued messages, in personalization order.
pub fn send(client: &Client, request: &SendRequest) -> impl Future<Output = Result<Vec<String>, ApiError>> + 'static {
    post(client, paths::EMAIL_SEND.to_string(), request)
}

/// One page of the outbox; `filters` are `state` (repeated), `q`, `page`, `size`.
pub fn messages(
    client: &Client,
    filters: &[(String, String)],
) -> impl Future<Output = Result<Page<OutboxMessage>, ApiError>> + 'static {
    let refs: Vec<(&str, &str)> = filters.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    client.get_data(paths::EMAIL_MESSAGES, &refs)
}

fn message_path(template: &str, id: &str) -> String {
    paths::fill(template, "messageId", &String::from(js_sys::encode_uri_component(id)))
}

pub fn message(client: &Client, id: &str) -> impl Future<Output = Result<MessageDetail, ApiError>> + 'static {
    client.get_data(&message_path(paths::EMAIL_MESSAGE, id), &[])
}

/// The message's MIME, as a Blob to save.
pub fn raw(client: &Client, id: &str) -> impl Future<Output = Result<web_sys::Blob, ApiError>> + 'static {
    let sent = client.send_raw(Method::GET, &message_path(paths::EMAIL_MESSAGE_RAW, id), &[], None);
    async move { super::client::blob(sent.await?).await }
}

/// Queues a failed message again.
pub fn resend(client: &Client, id: &str) -> impl Future<Output = Result<OutboxMessage, ApiError>> + 'static {
    post(client, message_path(paths::EMAIL_MESSAGE_RESEND, id), &serde_json::json!({}))
}

pub fn attachment(
    client: &Client,
    id: &str,
    index: u32,
) -> impl Future<Output = Result<web_sys::Blob, ApiError>> + 'static {
    let path = paths::fill(&message_path(paths::EMAIL_MESSAGE_ATTACHMENT, id), "index", &index.to_string());
    let sent = client.send_raw(Method::GET, &path, &[], None);
    async move { super::client::blob(sent.await?).await }
}

pub fn senders(client: &Client) -> impl Future<Output = Result<Vec<SenderIdentity>, ApiError>> + 'static {
    client.get_data(paths::EMAIL_SENDERS, &[])
}

pub fn templates(client: &Client) -> impl Future<Output = Result<Vec<TemplateSummary>, ApiError>> + 'static {
    client.get_data(paths::EMAIL_TEMPLATES, &[])
}

fn template_path(template: &str, id: &str) -> String {
    paths::fill(template, "templateId", &String::from(js_sys::encode_uri_component(id)))
}

pub fn template(client: &Client, id: &str) -> impl Future<Output = Result<TemplateDetail, ApiError>> + 'static {
    client.get_data(&template_path(paths::EMAIL_TEMPLATE, id), &[])
}

pub fn create_template(
    client: &Client,
    t: &NewTemplate,
) -> impl Future<Output = Result<TemplateDetail, ApiError>> + 'static {
    post(client, paths::EMAIL_TEMPLATES.to_string(), t)
}

pub fn add_version(
    client: &Client,
    id: &str,
    v: &NewTemplateVersion,
) -> impl Future<Output = Result<TemplateDetail, ApiError>> + 'static {
    post(client, template_path(paths::EMAIL_TEMPLATE_VERSIONS, id), v)
}

pub fn preview(
    client: &Client,
    id: &str,
    p: &TemplatePreview,
) -> impl Future<Output = Result<RenderedTemplate, ApiError>> + 'static {
    post(client, template_path(paths::EMAIL_TEMPLATE_PREVIEW, id), p)
}

pub fn draft_preview(
    client: &Client,
    p: &DraftPreview,
) -> impl Future<Output = Result<RenderedTemplate, ApiError>> + 'static {
    post(client, paths::EMAIL_TEMPLATE_DRAFT_PREVIEW.to_string(), p)
}

/// Verifies one address (syntax, DNS, lists, typo).
pub fn verify(client: &Client, email: &str) -> impl Future<Output = Result<ValidationResult, ApiError>> + 'static {
    post(client, paths::EMAIL_VALIDATION.to_string(), &ValidationRequest { email: email.to_string() })
}

/// Verifies up to 1000 addresses in one request.
pub fn verify_all(
    client: &Client,
    emails: Vec<String>,
) -> impl Future<Output = Result<BulkValidationResult, ApiError>> + 'static {
    post(client, paths::EMAIL_VALIDATION_BULK.to_string(), &BulkValidationRequest { emails })
}

/// The registered sending domains.
pub fn domains(client: &Client) -> impl Future<Output = Result<Vec<SendingDomain>, ApiError>> + 'static {
    client.get_data(paths::EMAIL_DOMAINS, &[])
}

fn domain_path(template: &str, domain: &str) -> String {
    paths::fill(template, "domain", &String::from(js_sys::encode_uri_component(domain)))
}

pub fn domain(client: &Client, domain: &str) -> impl Future<Output = Result<SendingDomain, ApiError>> + 'static {
    client.get_data(&domain_path(paths::EMAIL_DOMAIN, domain), &[])
}

/// Registers a domain: the records to install.
pub fn register_domain(
    client: &Client,
    domain: &str,
) -> impl Future<Output = Result<SendingDomain, ApiError>> + 'static {
    post(client, paths::EMAIL_DOMAINS.to_string(), &NewSendingDomain { domain: domain.to_string() })
}

/// Looks the domain's records up now.
pub fn verify_domain(client: &Client, domain: &str) -> impl Future<Output = Result<SendingDomain, ApiError>> + 'static {
    post(client, domain_path(paths::EMAIL_DOMAIN_VERIFY, domain), &serde_json::json!({}))
}

/// An administrator's approval.
pub fn activate_domain(
    client: &Client,
    domain: &str,
) -> impl Future<Output = Result<SendingDomain, ApiError>> + 'static {
    post(client, domain_path(paths::EMAIL_DOMAIN_ACTIVATE, domain), &serde_json::json!({}))
}

/// The inbound routes, by domain.
pub fn inbound_routes(client: &Client) -> impl Future<Output = Result<Vec<InboundRoute>, ApiError>> + 'static {
    client.get_data(paths::EMAIL_INBOUND_ROUTES, &[])
}

/// Routes a domain's mail to `url`.
pub fn create_inbound_route(
    client: &Client,
    domain: &str,
    url: &str,
) -> impl Future<Output = Result<InboundRoute, ApiError>> + 'static {
    post(
        client,
        paths::EMAIL_INBOUND_ROUTES.to_string(),
        &NewInboundRoute { domain: domain.to_string(), url: url.to_string() },
    )
}

/// Changes where a domain's mail is posted.
pub fn update_inbound_route(
    client: &Client,
    domain: &str,
    url: &str,
) -> impl Future<Output = Result<InboundRoute, ApiError>> + 'static {
    let body = Body::json(&InboundRouteUpdate { url: url.to_string() });
    let (client, path) = (client.clone(), domain_path(paths::EMAIL_INBOUND_ROUTE, domain));
    async move { envelope_data(client.send::<Envelope<InboundRoute>>(Method::PUT, &path, &[], Some(body?)).await?) }
}

/// A route's signing secret (asked for on purpose).
pub fn inbound_secret(
    client: &Client,
    domain: &str,
) -> impl Future<Output = Result<InboundSecret, ApiError>> + 'static {
    client.get_data(&domain_path(paths::EMAIL_INBOUND_ROUTE_SECRET, domain), &[])
}

/// Replaces a route's secret; the answer holds the new one.
pub fn rotate_inbound_secret(
    client: &Client,
    domain: &str,
) -> impl Future<Output = Result<InboundSecret, ApiError>> + 'static {
    post(client, domain_path(paths::EMAIL_INBOUND_ROUTE_SECRET, domain), &serde_json::json!({}))
}

/// The messages received, newest first; `domain` empty for every domain.
pub fn inbound_messages(
    client: &Client,
    domain: &str,
) -> impl Future<Output = Result<Vec<InboundMessage>, ApiError>> + 'static {
    let query: Vec<(&str, &str)> = if domain.is_empty() { vec![] } else { vec![("domain", domain)] };
    client.get_data(paths::EMAIL_INBOUND_MESSAGES, &query)
}

/// One inbound message with its attempts.
pub fn inbound_message(client: &Client, id: &str) -> impl Future<Output = Result<InboundDetail, ApiError>> + 'static {
    client.get_data(&message_path(paths::EMAIL_INBOUND_MESSAGE, id), &[])
}

/// Posts a delivered or failed message again.
pub fn redeliver_inbound(
    client: &Client,
    id: &str,
) -> impl Future<Output = Result<InboundMessage, ApiError>> + 'static {
    post(client, message_path(paths::EMAIL_INBOUND_REDELIVER, id), &serde_json::json!({}))
}

/// The body of a bulk action without parameters beside `action`.
fn bulk_body(call: &BulkCall) -> BulkRequest<&'static str> {
    BulkRequest { action: call.action, params: NoParams {}, select: call.select.clone() }
}

/// POST `…/messages/bulk` (`resend`, `cancel`) with the call's `Idempotency-Key`: each
/// message's outcome.
pub fn bulk_outbox(client: &Client, call: BulkCall) -> impl Future<Output = Result<BulkResult, ApiError>> + 'static {
    let client = client.clone().with_header("Idempotency-Key", call.key.clone());
    post(&client, paths::EMAIL_MESSAGES_BULK.to_string(), &bulk_body(&call))
}

/// POST `…/inbound/messages/bulk` (`redeliver`) with the call's `Idempotency-Key`.
pub fn bulk_inbound(client: &Client, call: BulkCall) -> impl Future<Output = Result<BulkResult, ApiError>> + 'static {
    let client = client.clone().with_header("Idempotency-Key", call.key.clone());
    post(&client, paths::EMAIL_INBOUND_MESSAGES_BULK.to_string(), &bulk_body(&call))
}

fn suppressions_path(domain: &str) -> String {
    paths::fill(paths::EMAIL_SUPPRESSIONS, "domain", domain)
}

/// One page of a sender domain's suppression list; `filters` are `reason` (repeated),
/// `prefix`, `page`, `size`.
pub fn suppressions(
    client: &Client,
    domain: &str,
    filters: &[(String, String)],
) -> impl Future<Output = Result<Page<Suppression>, ApiError>> + 'static {
    let refs: Vec<(&str, &str)> = filters.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    client.get_data(&suppressions_path(domain), &refs)
}

/// Adds manual entries to a domain's list: each entry as the list holds it.
pub fn add_suppressions(
    client: &Client,
    domain: &str,
    new: &NewSuppressions,
) -> impl Future<Output = Result<Vec<Suppression>, ApiError>> + 'static {
    post(client, suppressions_path(domain), new)
}

/// DELETE one entry (204; `admin`).
pub fn remove_suppression(
    client: &Client,
    domain: &str,
    id: &str,
) -> impl Future<Output = Result<(), ApiError>> + 'static {
    let path = paths::fill(&paths::fill(paths::EMAIL_SUPPRESSION, "domain", domain), "suppressionId", id);
    let sent = client.send::<serde::de::IgnoredAny>(Method::DELETE, &path, &[], None);
    async move { sent.await.map(|_| ()) }
}

/// POST `…/batches/{batchId}/pause|resume|cancel`: the batch as it now is.
pub fn change_batch(
    client: &Client,
    batch: &str,
    change: BatchChange,
) -> impl Future<Output = Result<ScheduledBatch, ApiError>> + 'static {
    let template = match change {
        BatchChange::Pause => paths::EMAIL_BATCH_PAUSE,
        BatchChange::Resume => paths::EMAIL_BATCH_RESUME,
        BatchChange::Cancel => paths::EMAIL_BATCH_CANCEL,
    };
    let path = paths::fill(template, "batchId", batch);
    post(client, path, &serde_json::json!({}))
}

/// What a scheduled batch's buttons ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchChange {
    Pause,
    Resume,
    Cancel,
}

/// The deliverability figures over a window (`from`, `to`: `YYYY-MM-DD`; empty: the server's
/// default, the last 30 days).
pub fn deliverability(
    client: &Client,
    from: &str,
    to: &str,
) -> impl Future<Output = Result<moneydesk_model::email::bounces::Deliverability, ApiError>> + 'static {
    let mut q: Vec<(&str, &str)> = Vec::new();
    if !from.is_empty() {
        q.push(("from", from));
    }
    if !to.is_empty() {
        q.push(("to", to));
    }
    client.get_data(paths::EMAIL_DELIVERABILITY, &q)
}

/// Bounces and complaints, newest first; `filters` are `domain`, `kind` (repeated),
/// `messageId`, `limit`.
pub fn bounces(
    client: &Client,
    filters: &[(String, String)],
) -> impl Future<Output = Result<Vec<moneydesk_model::email::bounces::Bounce>, ApiError>> + 'static {
    let refs: Vec<(&str, &str)> = filters.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    client.get_data(paths::EMAIL_BOUNCES, &refs)
}

/// The bounce reports received, newest first (`state`: `unparseable` for those to read).
pub fn bounce_reports(
    client: &Client,
    state: Option<moneydesk_model::email::bounces::BounceReportState>,
) -> impl Future<Output = Result<Vec<moneydesk_model::email::bounces::BounceReport>, ApiError>> + 'static {
    let q: Vec<(&str, &str)> = state.iter().map(|s| ("state", s.as_str())).collect();
    client.get_data(paths::EMAIL_BOUNCE_REPORTS, &q)
}
