//! The typed API client over gloo-net: base URL of the chosen environment, `Authorization:
//! Bearer`, one error type for both error bodies, and requests aborted when the reactive owner
//! that started them (the page) is cleaned up.

use std::future::Future;
use std::sync::Arc;

use gloo_net::http::{Method, Request, RequestBuilder, Response};
use leptos::prelude::{RwSignal, Update};
use moneydesk_model::{Envelope, FeeSuccess};
use send_wrapper::SendWrapper;
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::JsCast;
use web_sys::{AbortController, AbortSignal, RequestCredentials};

use super::error::{decode_error, network_error, ApiError};

pub type AuthErrorHook = Arc<dyn Fn(&ApiError) + Send + Sync>;

#[derive(Clone)]
pub struct Client {
    base_url: String,
    token: Option<String>,
    on_auth_error: Option<AuthErrorHook>,
    in_flight: Option<RwSignal<u32>>,
    /// Sent with every request of this client (e.g. an `Idempotency-Key`).
    headers: Vec<(&'static str, String)>,
}

/// A request body: JSON, or anything `fetch` takes (FormData, Blob, a string).
pub enum Body {
    Json(String),
    Raw(wasm_bindgen::JsValue),
}

impl Body {
    pub fn json<B: Serialize + ?Sized>(body: &B) -> Result<Body, ApiError> {
        serde_json::to_string(body)
            .map(Body::Json)
            .map_err(|e| ApiError::Decode { status: 0, message: format!("could not encode the request: {e}") })
    }
}

impl Client {
    /// `base_url` is `""` for the portal's own origin, else `https://host[:port]` (no `/` at the end).
    pub fn new(base_url: impl Into<String>, token: Option<String>) -> Self {
        Client {
            base_url: base_url.into().trim_end_matches('/').to_string(),
            token,
            on_auth_error: None,
            in_flight: None,
            headers: Vec::new(),
        }
    }

    /// The same client sending `name: value` with its requests: a create's `Idempotency-Key`,
    /// so that a retry of the same submission makes one record.
    pub fn with_header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    /// Called with every 401 / code 600 answer (the app signs the user out).
    pub fn on_auth_error(mut self, hook: AuthErrorHook) -> Self {
        self.on_auth_error = Some(hook);
        self
    }

    /// Counts this client's requests under way in `counter` (for a loading indicator).
    pub fn count_in(mut self, counter: RwSignal<u32>) -> Self {
        self.in_flight = Some(counter);
        self
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base_url, path)
    }

    /// The `Authorization` header's value, for a request this client cannot make itself (an
    /// upload through XMLHttpRequest, for its progress events).
    pub fn authorization(&self) -> Option<String> {
        self.token.as_ref().map(|t| format!("Bearer {t}"))
    }

    /// Tells the app about a refused token seen outside this client (it signs the user out).
    pub fn report(&self, error: &ApiError) {
        if let (true, Some(hook)) = (error.is_auth(), &self.on_auth_error) {
            hook(error);
        }
    }

    /// GET a bare JSON body (the routing records, say).
    pub fn get<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, &str)],
    ) -> impl Future<Output = Result<T, ApiError>> + 'static {
        self.send(Method::GET, path, query, None)
    }

    /// GET an envelope and return its `data`.
    pub fn get_data<T: DeserializeOwned + 'static>(
        &self,
        path: &str,
        query: &[(&str, &str)],
    ) -> impl Future<Output = Result<T, ApiError>> + 'static {
        let fut = self.send::<Envelope<T>>(Method::GET, path, query, None);
        async move { envelope_data(fut.await?) }
    }

    /// GET a fee schedule body `{"status":"success","data":[...]}` and return `data`.
    pub fn get_fees<T: DeserializeOwned + 'static>(
        &self,
        path: &str,
        query: &[(&str, &str)],
    ) -> impl Future<Output = Result<Vec<T>, ApiError>> + 'static {
        let fut = self.send::<FeeSuccess<T>>(Method::GET, path, query, None);
        async move { Ok(fut.await?.data) }
    }

    /// Any method; decodes a 2xx JSON body into `T` (`serde::de::IgnoredAny` for a body you
    /// do not need).
    pub fn send<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        query: &[(&str, &str)],
        body: Option<Body>,
    ) -> impl Future<Output = Result<T, ApiError>> + 'static {
        let fut = self.send_raw(method, path, query, body);
        async move {
            let resp = fut.await?;
            let status = resp.status();
            let text = resp.text().await.map_err(|e| network_error(&resp.url(), e))?;
            decode_success(status, &text)
        }
    }

    /// Any method; returns a 2xx answer as it is (for downloads), every other answer as an error.
    pub fn send_raw(
        &self,
        method: Method,
        path: &str,
        query: &[(&str, &str)],
        body: Option<Body>,
    ) -> impl Future<Output = Result<Response, ApiError>> + 'static {
        let url = self.url(path);
        let is_get = method == Method::GET && body.is_none();
        let mut req = RequestBuilder::new(&url)
            .method(method)
            .credentials(RequestCredentials::Omit)
            .header("Accept", "application/json");
        if !query.is_empty() {
            req = req.query(query.iter().copied());
        }
        let authorization = self.token.as_ref().map(|token| format!("Bearer {token}"));
        if let Some(authorization) = &authorization {
            req = req.header("Authorization", authorization);
        }
        for (name, value) in &self.headers {
            req = req.header(name, value);
        }
        let signal = abort_on_cleanup();
        let req = req.abort_signal(signal.as_ref());
        let request = build(req, body);
        // index.html may have sent this GET already (api/early.rs); a failed early one is sent again.
        let early = match (&request, &authorization) {
            (Ok(r), Some(authorization)) if is_get => super::early::take(&r.url(), authorization),
            _ => None,
        };
        let hook = self.on_auth_error.clone();
        let counted = InFlight::start(self.in_flight);
        async move {
            let answer = match early {
                Some(answer) => wasm_bindgen_futures::JsFuture::from(answer).await.ok(),
                None => None,
            };
            let sent = match answer {
                Some(answer) => Ok(Response::from(answer.unchecked_into::<web_sys::Response>())),
                None => request?.send().await,
            };
            drop(counted);
            let resp = sent.map_err(|e| network_error(&url, e))?;
            let status = resp.status();
            if (200..300).contains(&status) {
                return Ok(resp);
            }
            let retry = resp.headers().get("retry-after").and_then(|v| v.trim().parse::<u32>().ok());
            let text = resp.text().await.unwrap_or_default();
            let mut err = decode_error(status, &text);
            if let ApiError::TooManyRequests { retry_after, .. } = &mut err {
                *retry_after = retry;
            }
            if err.is_auth() {
                if let Some(hook) = hook {
                    hook(&err);
                }
            }
            Err(err)
        }
    }
}

fn build(req: RequestBuilder, body: Option<Body>) -> Result<Request, ApiError> {
    let built = match body {
        None => req.build(),
        Some(Body::Json(json)) => req.header("Content-Type", "application/json").body(json),
        Some(Body::Raw(raw)) => req.body(raw),
    };
    built.map_err(|e| ApiError::Decode { status: 0, message: format!("could not build the request: {e}") })
}

/// A 2xx answer's bytes as a Blob of the answer's type: what a download or a preview shows
/// (a link cannot send the token's header, so the page fetches and keeps the bytes).
pub async fn blob(resp: Response) -> Result<web_sys::Blob, ApiError> {
    let url = resp.url();
    let bytes = resp.binary().await.map_err(|e| network_error(&url, e))?;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes.as_slice()));
    let options = web_sys::BlobPropertyBag::new();
    if let Some(kind) = resp.headers().get("content-type") {
        options.set_type(&kind);
    }
    web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options)
        .map_err(|e| ApiError::Decode { status: 200, message: format!("the download could not be kept: {e:?}") })
}

/// Decodes a 2xx body; `null` stands in for an empty one (204).
pub fn decode_success<T: DeserializeOwned>(status: u16, text: &str) -> Result<T, ApiError> {
    let text = if text.trim().is_empty() { "null" } else { text };
    serde_json::from_str(text).map_err(|e| {
        if js_sys::JSON::parse(text).is_err() {
            ApiError::NotJson { status }
        } else {
            ApiError::Decode { status, message: e.to_string() }
        }
    })
}

pub fn envelope_data<T>(envelope: Envelope<T>) -> Result<T, ApiError> {
    let code = envelope.code;
    envelope.data.ok_or_else(|| ApiError::Decode { status: code, message: "the envelope has no data".into() })
}

/// Counts one request while alive: dropped when the answer's head arrives, or when the
/// request is abandoned (aborted, its future dropped).
struct InFlight(Option<RwSignal<u32>>);

impl InFlight {
    fn start(counter: Option<RwSignal<u32>>) -> InFlight {
        if let Some(c) = counter {
            c.try_update(|n| *n += 1);
        }
        InFlight(counter)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Some(c) = self.0 {
            c.try_update(|n| *n = n.saturating_sub(1));
        }
    }
}

/// An abort signal for a request, aborted when the current reactive owner is cleaned up
/// (the page that asked went away). Outside any owner the request simply runs to the end.
fn abort_on_cleanup() -> Option<AbortSignal> {
    let controller = AbortController::new().ok()?;
    let signal = controller.signal();
    if leptos::prelude::Owner::current().is_some() {
        let controller = SendWrapper::new(controller);
        leptos::prelude::on_cleanup(move || controller.abort());
    }
    Some(signal)
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;
    use std::sync::atomic::{AtomicU32, Ordering};

    use leptos::prelude::Owner;
    use moneydesk_model::auth::Session;
    use moneydesk_model::paths::{AUTH_ME, FEES_ACH};
    use moneydesk_model::Scope;
    use serde::de::IgnoredAny;
    use wasm_bindgen_test::wasm_bindgen_test;

    use wasm_bindgen::JsValue;

    use super::*;
    use crate::test_util::{json, wait_until, Answer, FakeFetch};

    const SESSION: &str = r#"{"code":200,"errorMessage":null,"error":null,"data":{"name":"ops","scopes":["fees:read","admin"],"expiresAt":null}}"#;

    fn counting_client(token: &str) -> (Client, Arc<AtomicU32>) {
        let calls = Arc::new(AtomicU32::new(0));
        let seen = calls.clone();
        let client = Client::new("", Some(token.into())).on_auth_error(Arc::new(move |e: &ApiError| {
            assert!(e.is_auth());
            seen.fetch_add(1, Ordering::SeqCst);
        }));
        (client, calls)
    }

    #[wasm_bindgen_test]
    async fn success_sends_the_bearer_token_and_reads_the_envelope() {
        let fake = FakeFetch::install(vec![(AUTH_ME, json(200, SESSION))]);
        let (client, calls) = counting_client("mdk_abc");
        let s: Session = client.get_data(AUTH_ME, &[]).await.unwrap();
        assert_eq!(s.name, "ops");
        assert!(s.can(Scope::VaultWrite));
        let reqs = fake.requests();
        assert_eq!(reqs.len(), 1);
        assert!(reqs[0].0.ends_with(AUTH_ME));
        assert_eq!(reqs[0].2.as_deref(), Some("Bearer mdk_abc"));
        assert_eq!(calls.load(Ordering::SeqCst), 0);
    }

    /// index.html's offer (xtask/src/preload.rs): this URL's session answer, once, for this token.
    fn offer_early_session(url: &str, authorization: &str) {
        let offer = js_sys::Function::new_with_args(
            "url, authorization, body",
            "const left = new Map([[url, Promise.resolve(new Response(body, { headers: { \"Content-Type\": \"application/json\" } }))]]);
             globalThis.moneydeskEarly = (u, a) => { const r = a === authorization ? left.get(u) : undefined; left.delete(u); return r; };",
        );
        offer.call3(&JsValue::NULL, &url.into(), &authorization.into(), &SESSION.into()).unwrap();
    }

    #[wasm_bindgen_test]
    async fn an_answer_index_html_already_has_is_taken_once_and_only_with_its_token() {
        let fake = FakeFetch::install(vec![(AUTH_ME, json(200, SESSION))]);
        let origin = web_sys::window().unwrap().location().origin().unwrap();
        offer_early_session(&format!("{origin}{AUTH_ME}"), "Bearer mdk_abc");

        let (client, _) = counting_client("mdk_abc");
        let s: Session = client.get_data(AUTH_ME, &[]).await.unwrap();
        assert_eq!((s.name.as_str(), fake.requests().len()), ("ops", 0), "taken, not asked for");
        let _: Session = client.get_data(AUTH_ME, &[]).await.unwrap();
        assert_eq!(fake.requests().len(), 1, "taken once");

        offer_early_session(&format!("{origin}{AUTH_ME}"), "Bearer mdk_abc");
        let other: Session = Client::new("", Some("mdk_other".into())).get_data(AUTH_ME, &[]).await.unwrap();
        assert_eq!((other.name.as_str(), fake.requests().len()), ("ops", 2), "another token asks the server");
        assert_eq!(fake.requests()[1].2.as_deref(), Some("Bearer mdk_other"));
        js_sys::Reflect::delete_property(
            &js_sys::global().unchecked_into::<js_sys::Object>(),
            &"moneydeskEarly".into(),
        )
        .unwrap();
    }

    #[wasm_bindgen_test]
    async fn query_parameters_are_encoded_and_repeatable() {
        let fake = FakeFetch::install(vec![("/q", json(200, "{}"))]);
        let client = Client::new("", None);
        let _: IgnoredAny = client.get("/q", &[("paths", "a b"), ("paths", "c&d")]).await.unwrap();
        let url = &fake.requests()[0].0;
        assert!(url.ends_with("/q?paths=a+b&paths=c%26d"), "{url}");
        assert_eq!(fake.requests()[0].2, None, "no token, no Authorization header");
    }

    #[wasm_bindgen_test]
    async fn a_401_and_code_600_call_the_sign_out_hook() {
        let _fake = FakeFetch::install(vec![
            (
                "/a",
                json(
                    401,
                    r#"{"code":401,"errorMessage":"Unknown token","error":{"reason":"unauthorized"},"data":null}"#,
                ),
            ),
            (
                "/b",
                json(
                    401,
                    r#"{"code":600,"errorMessage":"Invalid token","error":{"reason":"invalid_token"},"data":null}"#,
                ),
            ),
            (
                "/c",
                json(
                    403,
                    r#"{"code":403,"errorMessage":"needs vault:read","error":{"reason":"forbidden"},"data":null}"#,
                ),
            ),
        ]);
        let (client, calls) = counting_client("mdk_x");
        let a = client.get_data::<Session>("/a", &[]).await.unwrap_err();
        assert!(matches!(a, ApiError::Unauthorized { .. }), "{a:?}");
        let b = client.get_data::<Session>("/b", &[]).await.unwrap_err();
        assert_eq!(b, ApiError::InvalidToken { message: "Invalid token".into() });
        assert_eq!(calls.load(Ordering::SeqCst), 2);
        let c = client.get_data::<Session>("/c", &[]).await.unwrap_err();
        assert_eq!(c, ApiError::Forbidden { message: "needs vault:read".into() });
        assert_eq!(calls.load(Ordering::SeqCst), 2, "403 does not sign out");
    }

    #[wasm_bindgen_test]
    async fn a_400_envelope_names_the_fields() {
        let _fake = FakeFetch::install(vec![(
            "/v",
            json(
                400,
                r#"{"code":400,"errorMessage":"invalid","error":{"reason":"validation","fields":[{"field":"routingNumber","message":"checksum digit should be 5, got 7"}]},"data":null}"#,
            ),
        )]);
        let e = Client::new("", None).get::<IgnoredAny>("/v", &[]).await.unwrap_err();
        match e {
            ApiError::Validation { fields, .. } => {
                assert_eq!(fields[0].field, "routingNumber");
                assert_eq!(fields[0].message, "checksum digit should be 5, got 7");
            }
            other => panic!("{other:?}"),
        }
    }

    #[wasm_bindgen_test]
    async fn fee_bodies_both_ways() {
        let _fake = FakeFetch::install(vec![
            (
                FEES_ACH,
                json(
                    200,
                    r#"{"status":"success","data":[{"fee_type":"ACH","fee_amount":2.00,"description":"Standard"}]}"#,
                ),
            ),
            ("/fee-error", json(400, r#"{"status":"error","error_code":"400","message":"amount is empty"}"#)),
        ]);
        let client = Client::new("", Some("mdk_f".into()));
        let fees: Vec<moneydesk_model::fees::FeeEntry> =
            client.get_fees(FEES_ACH, &[("amount", "10.00")]).await.unwrap();
        assert_eq!(fees[0].fee_amount.to_string(), "2.00");
        let e = client.get_fees::<moneydesk_model::fees::FeeEntry>("/fee-error", &[]).await.unwrap_err();
        assert_eq!(e, ApiError::Validation { message: "amount is empty".into(), fields: vec![] });
    }

    #[wasm_bindgen_test]
    async fn non_json_and_wrong_shapes_are_named() {
        let _fake = FakeFetch::install(vec![
            (
                "/html",
                Answer::Body { status: 200, content_type: "text/html", body: "<!doctype html><title>x</title>".into() },
            ),
            ("/proxy", Answer::Body { status: 502, content_type: "text/plain", body: "Bad Gateway".into() }),
            ("/shape", json(200, r#"{"code":200,"errorMessage":null,"error":null,"data":{"unexpected":true}}"#)),
        ]);
        let client = Client::new("", None);
        assert_eq!(client.get_data::<Session>("/html", &[]).await.unwrap_err(), ApiError::NotJson { status: 200 });
        assert_eq!(client.get_data::<Session>("/proxy", &[]).await.unwrap_err(), ApiError::NotJson { status: 502 });
        let e = client.get_data::<Session>("/shape", &[]).await.unwrap_err();
        assert!(matches!(e, ApiError::Decode { status: 200, .. }), "{e:?}");
    }

    #[wasm_bindgen_test]
    async fn a_server_that_is_down_is_a_network_error() {
        // Nothing listens on the discard port: the browser's fetch fails for real.
        let client = Client::new("http://127.0.0.1:9", Some("mdk_x".into()));
        let e = client.get_data::<Session>(AUTH_ME, &[]).await.unwrap_err();
        match &e {
            ApiError::Network { url, .. } => assert_eq!(url, &format!("http://127.0.0.1:9{AUTH_ME}")),
            other => panic!("{other:?}"),
        }
        assert!(e.to_string().contains("Could not reach the server at http://127.0.0.1:9"));
    }

    #[wasm_bindgen_test]
    async fn requests_abort_when_their_owner_is_cleaned_up() {
        let _fake = FakeFetch::install(vec![("/slow", Answer::Hang)]);
        let owner = Owner::new();
        let fut = owner.with(|| Client::new("", None).get::<IgnoredAny>("/slow", &[]));
        let slot = Rc::new(RefCell::new(None));
        let out = slot.clone();
        wasm_bindgen_futures::spawn_local(async move {
            *out.borrow_mut() = Some(fut.await);
        });
        // The request has reached fetch (which never answers) before the owner goes.
        wait_until("the request is sent", || !_fake.requests().is_empty()).await;
        assert!(slot.borrow().is_none(), "still waiting for the answer");
        owner.cleanup();
        wait_until("the request ends", || slot.borrow().is_some()).await;
        assert_eq!(slot.borrow_mut().take().map(|r| r.unwrap_err()), Some(ApiError::Aborted));
    }
}
