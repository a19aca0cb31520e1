//! Who is signed in: the token, where it is kept, and what the server said it may do.
//!
//! The token lives in sessionStorage; "remember on this device" opts into localStorage; a
//! token handed over by a host page lives in memory only. Sign out clears every place.

use std::sync::Arc;

use leptos::prelude::*;
use moneydesk_model::auth::Session;
use moneydesk_model::portal_shell;
use moneydesk_model::Scope;
use wasm_bindgen::JsValue;

use crate::api::client::Client;
use crate::api::error::{js_string, parse_object, ApiError};

/// Shared with index.html's first script (moneydesk_model::portal_shell).
const STORAGE_KEY: &str = portal_shell::CREDENTIALS_KEY;
/// The scopes the server last said the stored token has (space-separated), beside it: a
/// reload builds the page those scopes allow while the token is checked again, and never
/// starts a request the token would be refused (the server still decides every request).
const SCOPES_KEY: &str = portal_shell::SCOPES_KEY;
/// Tokens the server issues start with this (say so before sending anything else).
pub const TOKEN_PREFIX: &str = portal_shell::TOKEN_PREFIX;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Keep {
    /// sessionStorage: gone when the tab closes.
    #[default]
    Tab,
    /// localStorage: "remember on this device".
    Device,
    /// Handed over by the host page: never written anywhere.
    Memory,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Credentials {
    /// The environment's id from environments.json (`host` when the host page chose).
    pub environment: String,
    pub base_url: String,
    pub token: String,
    pub keep: Keep,
}

impl Credentials {
    /// `{"environment":..,"baseUrl":..,"token":..}` as stored.
    fn to_json(&self) -> Option<String> {
        let o = js_sys::Object::new();
        for (k, v) in [("environment", &self.environment), ("baseUrl", &self.base_url), ("token", &self.token)] {
            js_sys::Reflect::set(&o, &JsValue::from_str(k), &JsValue::from_str(v)).ok()?;
        }
        js_sys::JSON::stringify(&o).ok().map(String::from)
    }

    fn from_json(text: &str, keep: Keep) -> Option<Credentials> {
        let o = parse_object(text)?;
        Some(Credentials {
            environment: js_string(&o, "environment")?,
            base_url: js_string(&o, "baseUrl")?,
            token: js_string(&o, "token")?,
            keep,
        })
    }
}

/// Shared sign-in state; `Copy`, provided as context by the app.
#[derive(Clone, Copy)]
pub struct Auth {
    pub credentials: RwSignal<Option<Credentials>>,
    /// What `AUTH_ME` said about the token; `None` until checked.
    pub session: RwSignal<Option<Session>>,
    /// The scopes an earlier check found for the stored token (see `SCOPES_KEY`).
    remembered: RwSignal<Option<Vec<Scope>>>,
    /// Why the user was last sent to the sign-in page, shown there.
    pub notice: RwSignal<Option<String>>,
    /// API requests under way (the loading bar shows while any is).
    pub in_flight: RwSignal<u32>,
}

impl Auth {
    pub fn new(initial: Option<Credentials>) -> Self {
        let remembered = initial.as_ref().and_then(|c| load_scopes(c.keep));
        Auth {
            credentials: RwSignal::new(initial),
            session: RwSignal::new(None),
            remembered: RwSignal::new(remembered),
            notice: RwSignal::new(None),
            in_flight: RwSignal::new(0),
        }
    }

    /// A client for the signed-in environment (tracks the credentials). A 401 or code 600
    /// answer signs the user out, and the layout then sends them to sign in again.
    pub fn client(&self) -> Client {
        let (base_url, token) = self
            .credentials
            .with(|c| c.as_ref().map(|c| (c.base_url.clone(), Some(c.token.clone()))))
            .unwrap_or_default();
        let auth = *self;
        Client::new(base_url, token)
            .on_auth_error(Arc::new(move |e: &ApiError| auth.expire(e)))
            .count_in(self.in_flight)
    }

    pub fn sign_in(&self, credentials: Credentials, session: Session) {
        clear_stored();
        if let Some(storage) = storage(credentials.keep) {
            if let Some(json) = credentials.to_json() {
                let _ = storage.set_item(STORAGE_KEY, &json);
            }
        }
        self.notice.set(None);
        self.credentials.set(Some(credentials));
        self.checked(session);
    }

    /// The server answered who the token is: the session, remembered for the next reload.
    pub fn checked(&self, session: Session) {
        let keep = self.credentials.try_with_untracked(|c| c.as_ref().map(|c| c.keep)).flatten();
        if let Some(storage) = keep.and_then(storage) {
            let names: Vec<&str> = session.scopes.iter().map(Scope::as_str).collect();
            let _ = storage.set_item(SCOPES_KEY, &names.join(" "));
        }
        self.session.try_set(Some(session));
    }

    pub fn sign_out(&self) {
        clear_stored();
        self.session.try_set(None);
        self.remembered.try_set(None);
        self.credentials.try_set(None);
    }

    /// The server refused the token: forget it and say why on the sign-in page.
    pub fn expire(&self, error: &ApiError) {
        let why = match error {
            ApiError::InvalidToken { .. } => {
                "The server says your token is malformed, expired or revoked (code 600). Sign in again."
            }
            _ => "The server no longer accepts your token. Sign in again.",
        };
        if self.credentials.try_with_untracked(|c| c.is_some()).unwrap_or(false) {
            self.notice.try_set(Some(why.to_string()));
        }
        self.sign_out();
    }

    /// Whether the checked session grants `scope` (tracks the session).
    pub fn can(&self, scope: Scope) -> bool {
        self.session.with(|s| s.as_ref().is_some_and(|s| s.can(scope)))
    }

    /// Whether `scope` is granted as far as is known now: the checked session's answer, else
    /// what the last check of the stored token said, else `None` (nothing known yet).
    pub fn may(&self, scope: Scope) -> Option<bool> {
        match self.session.with(|s| s.as_ref().map(|s| s.can(scope))) {
            Some(known) => Some(known),
            None => self.remembered.with(|r| r.as_ref().map(|held| scope.granted_by(held))),
        }
    }
}

pub fn use_auth() -> Auth {
    expect_context::<Auth>()
}

fn storage(keep: Keep) -> Option<web_sys::Storage> {
    let window = web_sys::window()?;
    match keep {
        Keep::Tab => window.session_storage().ok().flatten(),
        Keep::Device => window.local_storage().ok().flatten(),
        Keep::Memory => None,
    }
}

fn clear_stored() {
    for keep in [Keep::Tab, Keep::Device] {
        if let Some(s) = storage(keep) {
            let _ = s.remove_item(STORAGE_KEY);
            let _ = s.remove_item(SCOPES_KEY);
        }
    }
}

/// The scopes remembered beside the credentials kept in `keep`; an unknown name (a scope
/// this build does not know) makes the whole list unknown rather than smaller.
fn load_scopes(keep: Keep) -> Option<Vec<Scope>> {
    let text = storage(keep)?.get_item(SCOPES_KEY).ok().flatten()?;
    text.split_whitespace().map(|name| name.parse().ok()).collect()
}

/// The credentials kept by an earlier sign-in: this tab's first, then this device's.
pub fn load_stored() -> Option<Credentials> {
    [Keep::Tab, Keep::Device].into_iter().find_map(|keep| {
        let json = storage(keep)?.get_item(STORAGE_KEY).ok().flatten()?;
        let mut c = Credentials::from_json(&json, keep)?;
        // A stored token that no longer passes the format check is dropped, not sent.
        c.token = check_token(&c.token).ok()?;
        Some(c)
    })
}

/// Checks a pasted token's format before it is sent anywhere. Whitespace around it (a
/// trailing newline from copying) is dropped; anything else wrong is explained.
pub fn check_token(raw: &str) -> Result<String, String> {
    let t = raw.trim();
    if t.is_empty() {
        return Err("Paste your API token.".into());
    }
    if let Some((i, c)) = t.char_indices().find(|(_, c)| c.is_whitespace()) {
        let what = if c == '\n' || c == '\r' { "a line break" } else { "a space" };
        return Err(format!(
            "The token has {what} inside it (at character {}). Paste it as one line, exactly as it was printed.",
            t[..i].chars().count() + 1
        ));
    }
    if !t.starts_with(TOKEN_PREFIX) {
        let shown: String = t.chars().take(6).collect();
        return Err(format!(
            "Moneydesk tokens start with “{TOKEN_PREFIX}”; this one starts with “{shown}”. Check that you pasted the whole token."
        ));
    }
    if t.len() == TOKEN_PREFIX.len() {
        return Err(format!("The token is only its “{TOKEN_PREFIX}” prefix; paste the whole token."));
    }
    // RFC 6750 b64token characters: anything else cannot be a bearer token.
    if let Some((i, c)) = t.char_indices().find(|(_, c)| !(c.is_ascii_alphanumeric() || "-._~+/=".contains(*c))) {
        let shown = if c.is_control() { format!("U+{:04X}", c as u32) } else { c.to_string() };
        return Err(format!(
            "The token has a character that tokens never contain: “{shown}” (at character {}).",
            t[..i].chars().count() + 1
        ));
    }
    Ok(t.to_string())
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::test_util::clear_storage;

    #[wasm_bindgen_test]
    fn tokens_are_checked_before_sending() {
        assert_eq!(check_token("  mdk_AbC-12_x \n").unwrap(), "mdk_AbC-12_x", "whitespace around is dropped");
        assert_eq!(check_token(" \n "), Err("Paste your API token.".into()));
        let e = check_token("mdk_abc\ndef").unwrap_err();
        assert!(e.contains("line break") && e.contains("character 8"), "{e}");
        let e = check_token("mdk_abc def").unwrap_err();
        assert!(e.contains("a space"), "{e}");
        let e = check_token("Bearer mdk_abc").unwrap_err();
        assert!(e.contains("a space"), "{e}");
        let e = check_token("sk_live_123").unwrap_err();
        assert!(e.contains("start with “mdk_”") && e.contains("“sk_liv”"), "{e}");
        assert!(check_token("mdk_").unwrap_err().contains("only its"));
        let e = check_token("mdk_ab\"c").unwrap_err();
        assert!(e.contains("“\"”") && e.contains("character 7"), "{e}");
        assert!(check_token("mdk_a\u{7}b").unwrap_err().contains("“U+0007”"));
        assert!(check_token("mdk_é").is_err());
    }

    #[wasm_bindgen_test]
    fn credentials_round_trip_through_the_chosen_storage() {
        clear_storage();
        let auth = Auth::new(None);
        let session = Session { name: "ops".into(), scopes: vec![Scope::FeesRead], expires_at: None, user_id: None };
        let creds =
            |keep| Credentials { environment: "local".into(), base_url: "".into(), token: "mdk_t".into(), keep };

        auth.sign_in(creds(Keep::Tab), session.clone());
        assert_eq!(load_stored(), Some(creds(Keep::Tab)));
        assert!(auth.can(Scope::FeesRead) && !auth.can(Scope::VaultRead));

        auth.sign_in(creds(Keep::Device), session.clone());
        assert_eq!(load_stored(), Some(creds(Keep::Device)), "remembered on the device, not the tab");
        let local = web_sys::window().unwrap().local_storage().unwrap().unwrap();
        assert!(local.get_item(STORAGE_KEY).unwrap().is_some());

        auth.sign_in(creds(Keep::Memory), session);
        assert_eq!(load_stored(), None, "a handed-over token is never stored");

        auth.sign_out();
        assert_eq!(load_stored(), None);
        assert!(auth.credentials.get_untracked().is_none() && auth.session.get_untracked().is_none());
    }

    #[wasm_bindgen_test]
    fn a_reload_knows_the_scopes_the_last_check_found_until_the_token_is_checked_again() {
        clear_storage();
        let session = Session { name: "ops".into(), scopes: vec![Scope::FeesRead], expires_at: None, user_id: None };
        let creds =
            Credentials { environment: "local".into(), base_url: "".into(), token: "mdk_t".into(), keep: Keep::Tab };
        Auth::new(None).sign_in(creds, session);

        let reloaded = Auth::new(load_stored());
        assert_eq!(reloaded.may(Scope::FeesRead), Some(true), "remembered: the fees page may start loading");
        assert_eq!(reloaded.may(Scope::AccountsRead), Some(false), "remembered: no request the token would be refused");
        reloaded.checked(Session { name: "ops".into(), scopes: vec![Scope::Admin], expires_at: None, user_id: None });
        assert_eq!(reloaded.may(Scope::AccountsRead), Some(true), "the new answer wins");
        assert_eq!(Auth::new(load_stored()).may(Scope::VaultRead), Some(true), "and is remembered");

        reloaded.sign_out();
        web_sys::window()
            .unwrap()
            .session_storage()
            .unwrap()
            .unwrap()
            .set_item(STORAGE_KEY, r#"{"environment":"local","baseUrl":"","token":"mdk_t"}"#)
            .unwrap();
        assert_eq!(Auth::new(load_stored()).may(Scope::FeesRead), None, "signing out forgets the scopes");
        let storage = web_sys::window().unwrap().session_storage().unwrap().unwrap();
        storage.set_item(SCOPES_KEY, "fees:read telepathy:write").unwrap();
        assert_eq!(Auth::new(load_stored()).may(Scope::FeesRead), None, "an unknown scope name: nothing is assumed");
        clear_storage();
    }

    #[wasm_bindgen_test]
    fn a_refused_token_signs_out_and_says_why() {
        clear_storage();
        let auth = Auth::new(None);
        let session = Session { name: "ops".into(), scopes: vec![], expires_at: None, user_id: None };
        let creds =
            Credentials { environment: "local".into(), base_url: "".into(), token: "mdk_t".into(), keep: Keep::Tab };
        auth.sign_in(creds, session);
        auth.expire(&ApiError::InvalidToken { message: "Invalid token".into() });
        assert_eq!(load_stored(), None);
        assert!(auth.notice.get_untracked().unwrap().contains("code 600"));
    }
}
