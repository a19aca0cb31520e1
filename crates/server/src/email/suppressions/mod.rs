//! Suppression lists per sender domain (issue 46; extensions, `x-extension`): the addresses a
//! domain's mail must not go to, and why (`bounce`, `unsubscribe` with its category,
//! `spam_complaint`, `manual`). List (paged; by reason, by address prefix) and add manual
//! entries with `email:send`, as a sending domain is registered; remove one with `admin`, as a
//! sending domain is deleted: taking an address off a list risks the sender's reputation (and
//! an unsubscribe's consent). The send drops listed recipients (`outbox::send`).
//!
//! - `store.rs`: the table, both backends; `unsubscribe.rs`: the one-click links.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use chrono::Utc;
use moneydesk_model::email::send::header_text_problem;
use moneydesk_model::email::suppressions::{
    NewSuppressions, Suppression, SuppressionReason, UnknownReason, MAX_NEW_SUPPRESSIONS,
};
use moneydesk_model::email::EmailAddress;
use moneydesk_model::{paths, Envelope, FieldError, Page, PageRequest, Scope};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::auth::Caller;
use crate::email::domains::domain_name;
use crate::email::EmailState;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{Json, Path};
use crate::AppState;

pub mod screen;
pub mod store;
pub mod unsubscribe;

use store::{Entry, SuppressionFilter};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, add))
        .routes(routes!(remove))
        .routes(routes!(unsubscribe::page, unsubscribe::unsubscribe))
}

#[utoipa::path(operation_id = "list_email_suppressions", get, path = paths::EMAIL_SUPPRESSIONS, tag = "email",
    params(("domain" = String, Path, description = "The sender domain (the From address's)"),
        crate::http::openapi::PageParams,
        ("reason" = Option<Vec<SuppressionReason>>, Query, description = "Only entries with these reasons (repeat the parameter)", explode = true),
        ("prefix" = Option<String>, Query, description = "Only addresses starting with this (case-insensitive)", max_length = 254)),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "The domain's suppression list, by address: each entry with its reason, its category (an unsubscribe from one category; none: every send), where it came from and when.",
    responses((status = 200, description = "A page of entries", body = Envelope<Page<Suppression>>),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc)))]
async fn list(
    State(state): State<EmailState>,
    _caller: Caller,
    Path(domain): Path<String>,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Page<Suppression>>>, Error> {
    let domain = domain_name("domain", &domain)?;
    let q = crate::http::extract::query_pairs(q.as_deref());
    let page = PageRequest::from_query(q.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| Error::field(e.param(), e.to_string()))?;
    let mut filter = SuppressionFilter::default();
    for (k, v) in &q {
        match k.as_str() {
            "reason" => {
                filter.reasons.push(v.parse().map_err(|e: UnknownReason| Error::field("reason", e.to_string()))?)
            }
            "prefix" if v.chars().count() > 254 => return Err(Error::field("prefix", "is longer than 254 characters")),
            "prefix" => filter.prefix = Some(v.clone()),
            _ => {}
        }
    }
    Ok(Json(Envelope::ok(state.email().suppressions(&domain, &filter, page).await?)))
}

#[utoipa::path(operation_id = "add_email_suppressions", post, path = paths::EMAIL_SUPPRESSIONS, tag = "email",
    params(("domain" = String, Path, description = "The sender domain (the From address's)")),
    request_body = NewSuppressions,
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Adds manual entries (1 to 1000) to the domain's list: sends from the domain to these addresses (or, with a `category`, sends with that category) drop them from then on. An address already listed for that category keeps its entry, which the answer shows. Each new entry is on record and an `email.suppression.added` event.",
    responses((status = 201, description = "The entries as the list holds them, in the order given", body = Envelope<Vec<Suppression>>),
        (status = 400, description = "An entry is wrong; `errors` names it (`entries[2].email`)", body = ErrorEnvelopeDoc)))]
async fn add(
    State(state): State<EmailState>,
    caller: Caller,
    Path(domain): Path<String>,
    Json(new): Json<NewSuppressions>,
) -> Result<(StatusCode, Json<Envelope<Vec<Suppression>>>), Error> {
    let domain = domain_name("domain", &domain)?;
    if new.entries.is_empty() || new.entries.len() > MAX_NEW_SUPPRESSIONS {
        return Err(Error::field("entries", format!("must hold 1 to {MAX_NEW_SUPPRESSIONS} entries")));
    }
    let mut problems = Vec::new();
    let mut entries: Vec<Entry> = Vec::with_capacity(new.entries.len());
    for (i, e) in new.entries.iter().enumerate() {
        let address = match EmailAddress::parse(e.email.trim()) {
            Ok(a) => a.canonical(),
            Err(why) => {
                problems.push(FieldError::new(format!("entries[{i}].email"), why.to_string()));
                continue;
            }
        };
        let category = e.category.clone().unwrap_or_default();
        if e.category.is_some() && (category.trim().is_empty() || category.len() > 255) {
            problems.push(FieldError::new(format!("entries[{i}].category"), "must be 1 to 255 characters"));
        } else if let Some(why) = header_text_problem(&category) {
            problems.push(FieldError::new(format!("entries[{i}].category"), why));
        } else if entries.iter().any(|x| x.address == address && x.category == category) {
            problems.push(FieldError::new(format!("entries[{i}].email"), format!("{address} is given more than once")));
        } else {
            entries.push(Entry { address, reason: SuppressionReason::Manual, category, detail: None });
        }
    }
    if !problems.is_empty() {
        problems.truncate(100);
        return Err(Error::fields(problems));
    }
    let source = format!("manual:{}", caller.user_id());
    let added = state.email().suppress(&domain, &entries, &source, Some(caller.user_id()), Utc::now()).await?;
    Ok((StatusCode::CREATED, Json(Envelope::with_code(201, added))))
}

#[utoipa::path(operation_id = "remove_email_suppression", delete, path = paths::EMAIL_SUPPRESSION, tag = "email",
    params(("domain" = String, Path, description = "The sender domain"),
        ("suppressionId" = String, Path, description = "The entry (`sup_…`)", pattern = "^sup_[a-z0-9]{1,60}$")),
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    description = "Takes an entry off the domain's list: sends reach the address again. `admin` only (a bounce or an unsubscribe is the recipient's word). On record, and an `email.suppression.removed` event.",
    responses((status = 204, description = "Removed"),
        (status = 400, description = "Not a domain name", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such entry on the domain's list", body = ErrorEnvelopeDoc)))]
async fn remove(
    State(state): State<EmailState>,
    caller: Caller,
    Path((domain, id)): Path<(String, String)>,
) -> Result<StatusCode, Error> {
    caller.require(Scope::Admin)?;
    let domain = domain_name("domain", &domain)?;
    match state.email().unsuppress(&domain, &id).await? {
        Some(_) => Ok(StatusCode::NO_CONTENT),
        None => Err(Error::not_found(format!("No suppression {id} on {domain}'s list"))),
    }
}
