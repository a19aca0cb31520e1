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
            decode_success(status, &read_text(resp).await?)
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
            let text = read_text(resp).await.unwrap_or_default();
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

/// An answer's body as text: the text index.html read already when the answer is one it asked
/// for (api/early.rs), else read now.
pub async fn read_text(resp: Response) -> Result<String, ApiError> {
    let raw = web_sys::Response::from(resp);
    if let Some(text) = super::early::text(&raw) {
        return Ok(text);
    }
    let resp = Response::from(raw);
    resp.text().await.map_err(|e| network_error(&resp.url(), e))
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
mod tests;
