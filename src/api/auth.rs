//! The caller's own credential (extension `AUTH_ME`).

use std::future::Future;

use gloo_net::http::Method;
use moneydesk_model::auth::Session;
use moneydesk_model::paths::AUTH_ME;
use moneydesk_model::Scope;

use super::client::read_text;
use super::error::{js_get, js_string, parse_object};
use super::{ApiError, Client};

/// Who the token is and what it may do: `Envelope<Session>`. The request starts (and is tied
/// to the current owner for aborting) when this is called, not when it is awaited.
pub fn me(client: &Client) -> impl Future<Output = Result<Session, ApiError>> + 'static {
    let request = client.send_raw(Method::GET, AUTH_ME, &[], None);
    async move {
        let resp = request.await?;
        let status = resp.status();
        parse_session(status, &read_text(resp).await?)
    }
}

/// Reads the envelope's `data` with the browser's JSON parser (the portal's one read of a
/// Session: not worth serde's generated code). Unknown scopes are ignored, not fatal: a newer
/// server may grant scopes this portal does not know yet.
pub fn parse_session(status: u16, text: &str) -> Result<Session, ApiError> {
    let body = parse_object(text).ok_or(ApiError::NotJson { status })?;
    let shape = |what: &str| ApiError::Decode { status, message: format!("the token check's answer has no {what}") };
    let data = js_get(&body, "data").filter(|d| d.is_object()).ok_or_else(|| shape("data"))?;
    let name = js_string(&data, "name").ok_or_else(|| shape("data.name"))?;
    let scopes = js_get(&data, "scopes").filter(js_sys::Array::is_array).ok_or_else(|| shape("data.scopes"))?;
    let scopes = js_sys::Array::from(&scopes).iter().filter_map(|s| s.as_string()?.parse::<Scope>().ok()).collect();
    Ok(Session { name, scopes, expires_at: js_string(&data, "expiresAt"), user_id: js_string(&data, "userId") })
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn reads_the_session_envelope() {
        let s = parse_session(
            200,
            r#"{"code":200,"errorMessage":null,"error":null,"data":{"name":"ops","scopes":["fees:read","teleport:now","admin"],"expiresAt":"2027-01-01T00:00:00Z"}}"#,
        )
        .unwrap();
        assert_eq!(s.name, "ops");
        assert_eq!(s.scopes, vec![Scope::FeesRead, Scope::Admin], "unknown scopes are skipped");
        assert_eq!(s.expires_at.as_deref(), Some("2027-01-01T00:00:00Z"));
        let e = parse_session(200, r#"{"code":200,"data":null}"#).unwrap_err();
        assert_eq!(e, ApiError::Decode { status: 200, message: "the token check's answer has no data".into() });
        assert_eq!(parse_session(200, "<html>").unwrap_err(), ApiError::NotJson { status: 200 });
    }
}
