//! Inbound routes: one per domain, its URL and its signing secret.

use axum::extract::State;
use axum::http::StatusCode;
use moneydesk_model::email::inbound::{check_url, InboundRoute, InboundRouteUpdate, InboundSecret, NewInboundRoute};
use moneydesk_model::{paths, Envelope, Scope};

use super::store::StoredRoute;
use super::webhook::new_secret;
use crate::auth::Caller;
use crate::email::EmailState;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{Json, Path};

fn answer(state: &EmailState, r: StoredRoute) -> InboundRoute {
    let hint: String = r.secret.chars().rev().take(4).collect::<Vec<_>>().into_iter().rev().collect();
    InboundRoute {
        domain: r.domain,
        url: r.url,
        mx_host: state.inbound().mx_host.clone(),
        secret_hint: hint,
        created_at: r.created_at,
        secret_rotated_at: r.secret_rotated_at,
        received: r.received.max(0) as u64,
        failed: r.failed.max(0) as u64,
    }
}

fn domain_name(given: &str) -> Result<String, Error> {
    crate::email::domains::domain_name("domain", given)
}

fn url(given: &str) -> Result<String, Error> {
    check_url(given).map_err(|why| Error::field("url", why))?;
    Ok(given.trim().to_string())
}

async fn found(state: &EmailState, domain: &str) -> Result<StoredRoute, Error> {
    state.inbound().store.route(domain).await?.ok_or_else(|| Error::not_found(format!("No inbound route for {domain}")))
}

#[utoipa::path(operation_id = "list_inbound_routes", get, path = paths::EMAIL_INBOUND_ROUTES, tag = "email",
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "The inbound routes, by domain: where each domain's mail is posted, the MX record the domain publishes (`<domain> MX 10 <mxHost>`), the secret's last four characters, and how many messages were received and how many failed.",
    responses((status = 200, description = "The routes", body = Envelope<Vec<InboundRoute>>)))]
pub(super) async fn list(
    State(state): State<EmailState>,
    _caller: Caller,
) -> Result<Json<Envelope<Vec<InboundRoute>>>, Error> {
    let routes = state.inbound().store.routes().await?;
    Ok(Json(Envelope::ok(routes.into_iter().map(|r| answer(&state, r)).collect())))
}

#[utoipa::path(operation_id = "create_inbound_route", post, path = paths::EMAIL_INBOUND_ROUTES, tag = "email",
    request_body = NewInboundRoute,
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Routes a domain's mail to a URL (http or https, no credentials in it): every message received for the domain is posted there as multipart/form-data with the parts `headers`, `text`, `html`, `from`, `to`, `cc`, `subject`, `envelope` (JSON `{from, to}`), `charsets` (JSON: the charset each field was written in; every part is sent as UTF-8), `spam_score` (when an earlier filter set `X-Spam-Score`), `attachments` (the count), `attachment-info` (JSON keyed `attachment1..N`: `filename`, `type`, `size`, `content-id`) and `attachment1..N` (the files). Each POST carries `Moneydesk-Timestamp` (Unix seconds), `Moneydesk-Signature` (`v1=` + hex HMAC-SHA256 with the route's secret over `<timestamp>.<body>`), `Moneydesk-Delivery` (the message id, the same on every attempt) and `Moneydesk-Attempt`. A non-2xx answer (redirects included) is retried with exponential backoff (1 min doubling to 2 h by default) for 3 days after receipt; every attempt is recorded. The secret is generated now; read it with GET `…/secret`.",
    responses((status = 201, description = "Created", body = Envelope<InboundRoute>),
        (status = 400, description = "Not a domain name (`domain`), or not an http(s) URL (`url`)", body = ErrorEnvelopeDoc),
        (status = 409, description = "The domain has a route already", body = ErrorEnvelopeDoc)))]
pub(super) async fn create(
    State(state): State<EmailState>,
    caller: Caller,
    Json(new): Json<NewInboundRoute>,
) -> Result<(StatusCode, Json<Envelope<InboundRoute>>), Error> {
    let domain = domain_name(&new.domain)?;
    let url = url(&new.url)?;
    if state.inbound().store.route(&domain).await?.is_some() {
        return Err(Error::conflict(format!("{domain} has an inbound route already: change its URL instead")));
    }
    let stored = state.inbound().store.insert_route(&domain, &url, &new_secret(), caller.user_id()).await?;
    Ok((StatusCode::CREATED, Json(Envelope::with_code(201, answer(&state, stored)))))
}

#[utoipa::path(operation_id = "get_inbound_route", get, path = paths::EMAIL_INBOUND_ROUTE, tag = "email",
    params(("domain" = String, Path, description = "The domain")),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The route", body = Envelope<InboundRoute>),
        (status = 400, description = "Not a domain name", body = ErrorEnvelopeDoc),
        (status = 404, description = "No route for the domain", body = ErrorEnvelopeDoc)))]
pub(super) async fn detail(
    State(state): State<EmailState>,
    _caller: Caller,
    Path(domain): Path<String>,
) -> Result<Json<Envelope<InboundRoute>>, Error> {
    let domain = domain_name(&domain)?;
    Ok(Json(Envelope::ok(answer(&state, found(&state, &domain).await?))))
}

#[utoipa::path(operation_id = "update_inbound_route", put, path = paths::EMAIL_INBOUND_ROUTE, tag = "email",
    params(("domain" = String, Path, description = "The domain")),
    request_body = InboundRouteUpdate,
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Changes where the domain's mail is posted; messages not yet delivered go to the new URL at their next attempt.",
    responses((status = 200, description = "Changed", body = Envelope<InboundRoute>),
        (status = 400, description = "Not a domain name, or not an http(s) URL (`url`)", body = ErrorEnvelopeDoc),
        (status = 404, description = "No route for the domain", body = ErrorEnvelopeDoc)))]
pub(super) async fn update(
    State(state): State<EmailState>,
    _caller: Caller,
    Path(domain): Path<String>,
    Json(change): Json<InboundRouteUpdate>,
) -> Result<Json<Envelope<InboundRoute>>, Error> {
    let domain = domain_name(&domain)?;
    let url = url(&change.url)?;
    let stored = state
        .inbound()
        .store
        .set_url(&domain, &url)
        .await?
        .ok_or_else(|| Error::not_found(format!("No inbound route for {domain}")))?;
    Ok(Json(Envelope::ok(answer(&state, stored))))
}

#[utoipa::path(operation_id = "delete_inbound_route", delete, path = paths::EMAIL_INBOUND_ROUTE, tag = "email",
    params(("domain" = String, Path, description = "The domain")),
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    description = "Removes the route: the domain's mail is refused from then on (550 at SMTP time); its messages not yet delivered fail at their next attempt. The messages received stay listed.",
    responses((status = 204, description = "Removed"),
        (status = 400, description = "Not a domain name", body = ErrorEnvelopeDoc),
        (status = 404, description = "No route for the domain", body = ErrorEnvelopeDoc)))]
pub(super) async fn delete(
    State(state): State<EmailState>,
    caller: Caller,
    Path(domain): Path<String>,
) -> Result<StatusCode, Error> {
    caller.require(Scope::Admin)?;
    let domain = domain_name(&domain)?;
    if !state.inbound().store.delete_route(&domain).await? {
        return Err(Error::not_found(format!("No inbound route for {domain}")));
    }
    Ok(StatusCode::NO_CONTENT)
}

fn secret(r: StoredRoute) -> InboundSecret {
    InboundSecret { domain: r.domain, secret: r.secret, rotated_at: r.secret_rotated_at }
}

#[utoipa::path(get, path = paths::EMAIL_INBOUND_ROUTE_SECRET, tag = "email",
    params(("domain" = String, Path, description = "The domain")),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "The route's signing secret (`whsec_…`; the HMAC key is the whole text). Asked for on purpose: lists show only its last four characters. The server keeps it as given out, since it must sign with it; it grants no access to this API.",
    responses((status = 200, description = "The secret", body = Envelope<InboundSecret>),
        (status = 400, description = "Not a domain name", body = ErrorEnvelopeDoc),
        (status = 404, description = "No route for the domain", body = ErrorEnvelopeDoc)))]
pub(super) async fn reveal_secret(
    State(state): State<EmailState>,
    _caller: Caller,
    Path(domain): Path<String>,
) -> Result<Json<Envelope<InboundSecret>>, Error> {
    let domain = domain_name(&domain)?;
    Ok(Json(Envelope::ok(secret(found(&state, &domain).await?))))
}

#[utoipa::path(operation_id = "rotate_inbound_route_secret", post, path = paths::EMAIL_INBOUND_ROUTE_SECRET, tag = "email",
    params(("domain" = String, Path, description = "The domain")),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Replaces the route's secret with a new one (answered): every POST from now on, retries of earlier messages included, is signed with it. The old one stops at once; update the receiver right after.",
    responses((status = 200, description = "The new secret", body = Envelope<InboundSecret>),
        (status = 400, description = "Not a domain name", body = ErrorEnvelopeDoc),
        (status = 404, description = "No route for the domain", body = ErrorEnvelopeDoc)))]
pub(super) async fn rotate_secret(
    State(state): State<EmailState>,
    _caller: Caller,
    Path(domain): Path<String>,
) -> Result<Json<Envelope<InboundSecret>>, Error> {
    let domain = domain_name(&domain)?;
    let stored = state
        .inbound()
        .store
        .set_secret(&domain, &new_secret())
        .await?
        .ok_or_else(|| Error::not_found(format!("No inbound route for {domain}")))?;
    Ok(Json(Envelope::ok(secret(stored))))
}
