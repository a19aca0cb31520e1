//! One-click unsubscribe (RFC 2369, RFC 8058). A bulk message (one sent with a category) is
//! addressed to its personalization's first To recipient; it carries
//! `List-Unsubscribe: <https://…/email/unsubscribe/<token>>` (and the configured mailto, if any)
//! and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`. The token is the message id and an
//! HMAC-SHA256 of it under `MONEYDESK_EMAIL_UNSUBSCRIBE_SECRET`: it names no address, and no
//! one can make one for a message they did not receive. `POST` to the link (no bearer token: the
//! token is the authority) puts that recipient on the sender domain's list, reason
//! `unsubscribe`, for the message's first category; `GET` answers a small page whose button
//! POSTs.

use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use hmac::{Hmac, Mac};
use moneydesk_model::email::suppressions::SuppressionReason;
use moneydesk_model::paths;
use sha2::Sha256;

use super::store::Entry;
use crate::config::email::EmailConfig;
use crate::email::outbox::store::StoredMessage;
use crate::email::EmailState;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Path;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

fn mac(secret: &str, message_id: &str) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(b"moneydesk unsubscribe\n");
    mac.update(message_id.as_bytes());
    mac
}

/// The link's token for a message: `<message id>.<HMAC, 16 bytes, base64url>`.
pub fn token(secret: &str, message_id: &str) -> String {
    let tag = mac(secret, message_id).finalize().into_bytes();
    format!("{message_id}.{}", B64.encode(&tag[..16]))
}

/// The message a token names, if its HMAC is right (compared in constant time).
pub fn message_of(secret: &str, token: &str) -> Option<String> {
    let (id, tag) = token.split_once('.')?;
    let tag = B64.decode(tag).ok().filter(|t| t.len() == 16)?;
    mac(secret, id).verify_truncated_left(&tag).ok()?;
    Some(id.to_string())
}

/// The `List-Unsubscribe` value of `m`: the one-click link for a bulk message when links are
/// configured (with the configured mailto after it), else the configured value, if any.
pub fn header_value(c: &EmailConfig, m: &StoredMessage) -> Option<String> {
    let link = match (&c.unsubscribe_url, &c.unsubscribe_secret) {
        (Some(url), Some(secret)) if !m.categories.is_empty() && !m.recipients.to.is_empty() => {
            Some(format!("<{url}{}>", paths::EMAIL_UNSUBSCRIBE.replace("{token}", &token(secret, &m.id))))
        }
        _ => None,
    };
    match (link, &c.list_unsubscribe) {
        (Some(l), Some(mailto)) => Some(format!("{l}, {mailto}")),
        (Some(l), None) => Some(l),
        (None, configured) => configured.clone(),
    }
}

/// Whether a `List-Unsubscribe` value offers the one-click link (RFC 8058 asks for an https URI).
pub fn one_click(value: &str) -> bool {
    value.starts_with("<https://")
}

/// What a link unsubscribes: from the sender domain's list, the entry; the message it came in.
struct Target {
    domain: String,
    message: String,
    entry: Entry,
}

async fn target(state: &EmailState, token: &str) -> Result<Option<Target>, Error> {
    let Some(secret) = state.config().email.unsubscribe_secret.clone() else { return Ok(None) };
    let Some(id) = message_of(&secret, token) else { return Ok(None) };
    let Some(row) = state.email().row(&id).await? else { return Ok(None) };
    let m = row.stored();
    let Some(to) = m.recipients.to.first() else { return Ok(None) };
    let domain = m.from.email.rsplit_once('@').map(|(_, d)| d.to_ascii_lowercase()).unwrap_or_default();
    let entry = Entry {
        address: to.email.to_ascii_lowercase(),
        reason: SuppressionReason::Unsubscribe,
        category: m.categories.first().cloned().unwrap_or_default(),
        detail: None,
    };
    Ok(Some(Target { domain, message: id, entry }))
}

#[utoipa::path(operation_id = "email_unsubscribe_page", get, path = paths::EMAIL_UNSUBSCRIBE, tag = "email",
    params(("token" = String, Path, description = "The link's token (from the message's `List-Unsubscribe`)", max_length = 200)),
    security(()),
    extensions(("x-extension" = json!(true)), ("x-public" = json!(true))),
    description = "The unsubscribe link's page (HTML): what the link unsubscribes from, and a button that POSTs to the same address. No token: the link's own token is the authority. An unknown or altered token is a 404 (the error envelope).",
    responses((status = 200, description = "The page", content_type = "text/html", body = String),
        (status = 404, description = "Not a valid link", body = ErrorEnvelopeDoc)))]
pub(super) async fn page(State(state): State<EmailState>, Path(token): Path<String>) -> Result<Response, Error> {
    Ok(match target(&state, &token).await? {
        None => return Err(not_valid()),
        Some(Target { domain, entry, .. }) => {
            let domain = domain.as_str();
            let what = match entry.category.as_str() {
                "" => format!("mail from {}", escape(domain)),
                c => format!("“{}” mail from {}", escape(c), escape(domain)),
            };
            let body = format!(
                "<p>Stop sending {what} to {}?</p><form method=\"post\"><input type=\"hidden\" name=\"List-Unsubscribe\" value=\"One-Click\"><button type=\"submit\">Unsubscribe</button></form>",
                escape(&masked(&entry.address))
            );
            html(StatusCode::OK, "Unsubscribe", &body)
        }
    })
}

#[utoipa::path(operation_id = "email_unsubscribe", post, path = paths::EMAIL_UNSUBSCRIBE, tag = "email",
    params(("token" = String, Path, description = "The link's token (from the message's `List-Unsubscribe`)", max_length = 200)),
    security(()),
    extensions(("x-extension" = json!(true)), ("x-public" = json!(true))),
    description = "One-click unsubscribe (RFC 8058: a mail client POSTs `List-Unsubscribe=One-Click`; any body is accepted). Puts the message's recipient on its sender domain's suppression list, reason `unsubscribe`, for the message's first category; again is harmless. Answers a short HTML page. No token: the link's own token is the authority.",
    responses((status = 200, description = "Unsubscribed", content_type = "text/html", body = String),
        (status = 404, description = "Not a valid link", body = ErrorEnvelopeDoc)))]
pub(super) async fn unsubscribe(State(state): State<EmailState>, Path(token): Path<String>) -> Result<Response, Error> {
    let Some(Target { domain, message, entry }) = target(&state, &token).await? else { return Err(not_valid()) };
    let source = format!("unsubscribe:{message}");
    state.email().suppress(&domain, std::slice::from_ref(&entry), &source, None, chrono::Utc::now()).await?;
    let body = format!("<p>{} is unsubscribed.</p>", escape(&masked(&entry.address)));
    Ok(html(StatusCode::OK, "Unsubscribed", &body))
}

/// An unknown or altered token (an `/api` error: the envelope, as every other).
fn not_valid() -> Error {
    Error::not_found("This unsubscribe link is not valid")
}

/// `zoe@client.example` → `z***@client.example`: the page may be seen by whoever has the link.
fn masked(address: &str) -> String {
    match address.split_once('@') {
        Some((local, domain)) => format!("{}***@{domain}", local.chars().next().unwrap_or('*')),
        None => "***".into(),
    }
}

pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

fn html(status: StatusCode, title: &str, body: &str) -> Response {
    let page = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{title}</title></head><body><main><h1>{title}</h1>{body}</main></body></html>"
    );
    let mut r = (status, page).into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; form-action 'self'; frame-ancestors 'none'"),
    );
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "a secret of at least thirty-two characters";

    #[test]
    fn a_token_names_its_message_only_under_its_secret_and_unaltered() {
        let t = token(SECRET, "msg_0a1b");
        assert_eq!(message_of(SECRET, &t).as_deref(), Some("msg_0a1b"));
        assert!(!t.contains('@'), "no address in the token");
        assert_eq!(message_of("another secret of thirty-two characters", &t), None);
        assert_eq!(message_of(SECRET, &t.replace("msg_0a1b", "msg_0a1c")), None, "another message, same tag");
        assert_eq!(message_of(SECRET, "msg_0a1b"), None);
        assert_eq!(masked("zoe@client.example"), "z***@client.example");
        assert_eq!(escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
    }
}
