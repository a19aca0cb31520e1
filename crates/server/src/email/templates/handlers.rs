//! The template extensions: list and read with `email:send`, create and version with `admin`
//! (templates are managed by administrators), preview a stored version or a draft.

use axum::extract::State;
use axum::http::StatusCode;
use moneydesk_model::email::{
    DraftPreview, NewTemplate, NewTemplateVersion, RenderedTemplate, TemplateDetail, TemplatePreview, TemplateSummary,
};
use moneydesk_model::{paths, Envelope, FieldError};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{Compiled, RenderError};
use crate::auth::Caller;
use crate::email::EmailState;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{Json, Path};
use crate::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_templates, create_template))
        .routes(routes!(draft_preview))
        .routes(routes!(template))
        .routes(routes!(add_version))
        .routes(routes!(preview))
}

/// `tmpl_` and 26 lowercase letters and digits.
fn new_id() -> String {
    format!("tmpl_{}", &uuid::Uuid::new_v4().simple().to_string()[..26])
}

/// The parts of a version, checked and compiled (`id` and `version` only label the result).
fn checked(parts: &NewTemplateVersion) -> Result<Compiled, Error> {
    let mut problems = Vec::new();
    if parts.subject.trim().is_empty() {
        problems.push(FieldError::new("subject", "is required"));
    } else if let Some(why) = moneydesk_model::email::send::header_text_problem(&parts.subject) {
        problems.push(FieldError::new("subject", why));
    }
    if parts.text.as_deref().is_none_or(|t| t.trim().is_empty())
        && parts.html.as_deref().is_none_or(|t| t.trim().is_empty())
    {
        problems.push(FieldError::new("text", "give a text or an html part (or both)"));
    }
    if !problems.is_empty() {
        return Err(Error::fields(problems));
    }
    Compiled::new("draft", 0, parts).map_err(|e| Error::field(e.part, format!("does not compile: {}", e.message)))
}

fn rendered(result: Result<RenderedTemplate, RenderError>) -> Result<Json<Envelope<RenderedTemplate>>, Error> {
    match result {
        Ok(r) => Ok(Json(Envelope::ok(r))),
        Err(e) => {
            Err(Error::field(e.variable.map(|v| format!("data.{v}")).unwrap_or_else(|| e.part.to_string()), e.message))
        }
    }
}

#[utoipa::path(get, path = paths::EMAIL_TEMPLATES, tag = "email",
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Every stored template with its latest version's number and subject, by name.",
    responses((status = 200, description = "The templates", body = Envelope<Vec<TemplateSummary>>)))]
async fn list_templates(
    State(state): State<EmailState>,
    _caller: Caller,
) -> Result<Json<Envelope<Vec<TemplateSummary>>>, Error> {
    Ok(Json(Envelope::ok(state.templates().list().await?)))
}

#[utoipa::path(post, path = paths::EMAIL_TEMPLATES, tag = "email",
    request_body = NewTemplate,
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    description = "Creates a template and its version 1: a subject and a text and/or an HTML part in handlebars (`{{name}}`, `{{#if}}`, `{{#each}}`). Names are unique whatever their case.",
    responses((status = 201, description = "The template", body = Envelope<TemplateDetail>),
        (status = 400, description = "A part is missing or does not compile; `errors` names it", body = ErrorEnvelopeDoc),
        (status = 409, description = "A template of that name exists", body = ErrorEnvelopeDoc)))]
async fn create_template(
    State(state): State<EmailState>,
    caller: Caller,
    Json(t): Json<NewTemplate>,
) -> Result<(StatusCode, Json<Envelope<TemplateDetail>>), Error> {
    let name = t.name.trim();
    if name.is_empty() || name.chars().count() > 128 || name.chars().any(char::is_control) {
        return Err(Error::field("name", "must be 1 to 128 characters without control characters"));
    }
    checked(&t.version)?;
    let detail =
        state.templates().create(&new_id(), name, &t.version, caller.user_id()).await.map_err(
            |e| match Error::from(e) {
                e if e.status == StatusCode::CONFLICT => {
                    Error::conflict(format!("A template named {name:?} exists (names are unique whatever their case)"))
                }
                e => e,
            },
        )?;
    Ok((StatusCode::CREATED, Json(Envelope::with_code(201, detail))))
}

#[utoipa::path(get, path = paths::EMAIL_TEMPLATE, tag = "email",
    params(("templateId" = String, Path, description = "The template", pattern = "^tmpl_[a-z0-9]{1,59}$")),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "A template with its latest version and every version (newest first), each with the variables it uses.",
    responses((status = 200, description = "The template", body = Envelope<TemplateDetail>),
        (status = 404, description = "No such template", body = ErrorEnvelopeDoc)))]
async fn template(
    State(state): State<EmailState>,
    _caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Envelope<TemplateDetail>>, Error> {
    let detail = state.templates().detail(&id).await?.ok_or_else(|| Error::not_found(format!("No template {id}")))?;
    Ok(Json(Envelope::ok(detail)))
}

#[utoipa::path(post, path = paths::EMAIL_TEMPLATE_VERSIONS, tag = "email",
    params(("templateId" = String, Path, description = "The template", pattern = "^tmpl_[a-z0-9]{1,59}$")),
    request_body = NewTemplateVersion,
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    description = "Saves a new version of a template; sends use the latest from then on (messages already queued keep what they were rendered with).",
    responses((status = 201, description = "The template with its new version", body = Envelope<TemplateDetail>),
        (status = 400, description = "A part is missing or does not compile", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such template", body = ErrorEnvelopeDoc)))]
async fn add_version(
    State(state): State<EmailState>,
    caller: Caller,
    Path(id): Path<String>,
    Json(parts): Json<NewTemplateVersion>,
) -> Result<(StatusCode, Json<Envelope<TemplateDetail>>), Error> {
    checked(&parts)?;
    let detail = state
        .templates()
        .add_version(&id, &parts, caller.user_id())
        .await?
        .ok_or_else(|| Error::not_found(format!("No template {id}")))?;
    Ok((StatusCode::CREATED, Json(Envelope::with_code(201, detail))))
}

#[utoipa::path(post, path = paths::EMAIL_TEMPLATE_PREVIEW, tag = "email",
    params(("templateId" = String, Path, description = "The template", pattern = "^tmpl_[a-z0-9]{1,59}$")),
    request_body = TemplatePreview,
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Renders a stored version (the latest by default) with sample data, as a send would: a variable the data lacks is a 400 naming it (`data.first_name`).",
    responses((status = 200, description = "The rendered subject, text and HTML", body = Envelope<RenderedTemplate>),
        (status = 400, description = "A variable is missing from the data", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such template or version", body = ErrorEnvelopeDoc)))]
async fn preview(
    State(state): State<EmailState>,
    _caller: Caller,
    Path(id): Path<String>,
    Json(p): Json<TemplatePreview>,
) -> Result<Json<Envelope<RenderedTemplate>>, Error> {
    let compiled = state.templates().compiled(&id, p.version).await?.ok_or_else(|| match p.version {
        Some(v) => Error::not_found(format!("No version {v} of template {id}")),
        None => Error::not_found(format!("No template {id}")),
    })?;
    rendered(compiled.render(&p.data))
}

#[utoipa::path(post, path = paths::EMAIL_TEMPLATE_DRAFT_PREVIEW, tag = "email",
    request_body = DraftPreview,
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Renders parts that are not stored (the editor's live preview) with sample data; nothing is saved.",
    responses((status = 200, description = "The rendered subject, text and HTML", body = Envelope<RenderedTemplate>),
        (status = 400, description = "A part does not compile, or a variable is missing from the data", body = ErrorEnvelopeDoc)))]
async fn draft_preview(
    _caller: Caller,
    Json(p): Json<DraftPreview>,
) -> Result<Json<Envelope<RenderedTemplate>>, Error> {
    rendered(checked(&p.version)?.render(&p.data))
}
