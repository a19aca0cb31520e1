//! Shared by the inbound mail tests: a webhook receiver on a loopback port that records every
//! POST and answers scripted statuses, its form read as a receiver would, the signature check,
//! a server with the inbound SMTP listener and a client for it, and a real-world statement notice
//! in raw MIME.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::{Backend, Server};
use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, State};
use axum::http::{HeaderMap, StatusCode};
use hmac::{Hmac, Mac};
use moneydesk_model::paths;
use serde_json::{json, Value};
use sha2::Sha256;

/// The receiving app's state: the deliveries it got, and the statuses it answers with next.
pub type ReceiverState = (Arc<Mutex<Vec<Hit>>>, Arc<Mutex<VecDeque<u16>>>);

/// A multipart form part: its name, file name, content type and bytes.
pub type Part = (String, Option<String>, Option<String>, Vec<u8>);

/// A POST the receiver got.
#[derive(Clone, Debug)]
pub struct Hit {
    pub at: Instant,
    pub headers: HeaderMap,
    pub body: Bytes,
}

/// A webhook receiver on a loopback port: answers the statuses scripted, then 200.
#[derive(Clone)]
pub struct Receiver {
    pub url: String,
    hits: Arc<Mutex<Vec<Hit>>>,
    pub script: Arc<Mutex<VecDeque<u16>>>,
}

impl Receiver {
    pub async fn start(script: &[u16]) -> Receiver {
        let hits = Arc::new(Mutex::new(Vec::new()));
        let script = Arc::new(Mutex::new(script.iter().copied().collect::<VecDeque<_>>()));
        let app = axum::Router::new()
            .route(
                "/inbound",
                axum::routing::post(
                    |State((hits, script)): State<ReceiverState>, headers: HeaderMap, body: Bytes| async move {
                        hits.lock().unwrap().push(Hit { at: Instant::now(), headers, body });
                        let status = script.lock().unwrap().pop_front().unwrap_or(200);
                        (StatusCode::from_u16(status).unwrap(), format!("receiver says {status}"))
                    },
                ),
            )
            .with_state((hits.clone(), script.clone()))
            .layer(axum::extract::DefaultBodyLimit::max(64 << 20));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr: SocketAddr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Receiver { url: format!("http://{addr}/inbound"), hits, script }
    }

    pub fn hits(&self) -> Vec<Hit> {
        self.hits.lock().unwrap().clone()
    }

    /// Waits until `n` POSTs arrived (at most 20 s).
    pub async fn wait_for(&self, n: usize) -> Vec<Hit> {
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            let hits = self.hits();
            if hits.len() >= n || Instant::now() > until {
                return hits;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
}

/// The parts of a hit's form: (name, file name, content type, bytes), read by axum's
/// multipart parser (multer), as a receiver would.
pub async fn parts(hit: &Hit) -> Vec<Part> {
    let mut req = axum::http::Request::builder().method("POST").uri("/");
    req = req.header("content-type", hit.headers["content-type"].clone());
    let req = req.body(axum::body::Body::from(hit.body.clone())).unwrap();
    let mut form = Multipart::from_request(req, &()).await.expect("a multipart/form-data body");
    let mut out = Vec::new();
    while let Some(field) = form.next_field().await.expect("a well-formed part") {
        let (name, file, kind) = (
            field.name().unwrap_or("").to_string(),
            field.file_name().map(str::to_string),
            field.content_type().map(str::to_string),
        );
        out.push((name, file, kind, field.bytes().await.unwrap().to_vec()));
    }
    out
}

pub fn part<'a>(parts: &'a [Part], name: &str) -> Option<&'a Part> {
    parts.iter().find(|p| p.0 == name)
}

pub fn text(parts: &[Part], name: &str) -> String {
    String::from_utf8(part(parts, name).unwrap_or_else(|| panic!("no part {name}")).3.clone()).unwrap()
}

/// The receiver's check, written from the documentation: HMAC-SHA256 with the secret over
/// `<Moneydesk-Timestamp>.<body>`, hex, after `v1=`.
pub fn signature_holds(hit: &Hit, secret: &str) -> bool {
    let timestamp = hit.headers["moneydesk-timestamp"].to_str().unwrap();
    let given = hit.headers["moneydesk-signature"].to_str().unwrap().strip_prefix("v1=").expect("v1=");
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(&hit.body);
    mac.verify_slice(&hex::decode(given).unwrap()).is_ok()
}

pub async fn start(backend: Backend, tweak: impl FnOnce(&mut moneydesk_server::Config) + Send + 'static) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    Server::start_in_dir(dir, move |c| {
        c.database_url = url;
        c.email.worker = true;
        c.email.inbound.smtp = Some("127.0.0.1:0".parse().unwrap());
        tweak(c);
    })
    .await
}

pub async fn call(s: &Server, method: reqwest::Method, path: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    let mut r = s.client.request(method, s.url(path)).bearer_auth(token);
    if let Some(b) = body {
        r = r.json(&b);
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

pub async fn post_raw(s: &Server, token: &str, query: &str, raw: &[u8]) -> (u16, Value) {
    let r = s
        .client
        .post(format!("{}?{query}", s.url(paths::EMAIL_INBOUND_MESSAGES)))
        .bearer_auth(token)
        .header("content-type", "message/rfc822")
        .body(raw.to_vec())
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

pub async fn route(s: &Server, token: &str, domain: &str, url: &str) -> String {
    let (status, b) =
        call(s, reqwest::Method::POST, paths::EMAIL_INBOUND_ROUTES, token, Some(json!({"domain": domain, "url": url})))
            .await;
    assert_eq!(status, 201, "{b}");
    let (status, b) =
        call(s, reqwest::Method::GET, &paths::EMAIL_INBOUND_ROUTE_SECRET.replace("{domain}", domain), token, None)
            .await;
    assert_eq!(status, 200, "{b}");
    b["data"]["secret"].as_str().unwrap().to_string()
}

pub async fn detail(s: &Server, token: &str, id: &str) -> Value {
    let (status, b) =
        call(s, reqwest::Method::GET, &paths::EMAIL_INBOUND_MESSAGE.replace("{messageId}", id), token, None).await;
    assert_eq!(status, 200, "{b}");
    b["data"].clone()
}

/// Waits until the message is in `state` (at most 20 s).
pub async fn wait_state(s: &Server, token: &str, id: &str, state: &str) -> Value {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let d = detail(s, token, id).await;
        if d["state"] == state || Instant::now() > until {
            assert_eq!(d["state"], state, "{d}");
            return d;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Sends `raw` to the listener with lettre's SMTP client; the server's reply code on failure.
pub async fn smtp_send(addr: SocketAddr, from: &str, to: &str, raw: &[u8]) -> Result<(), Option<u16>> {
    use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
    let transport =
        AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(addr.ip().to_string()).port(addr.port()).build();
    let envelope = lettre::address::Envelope::new(Some(from.parse().unwrap()), vec![to.parse().unwrap()]).unwrap();
    match transport.send_raw(&envelope, raw).await {
        Ok(_) => Ok(()),
        Err(e) => Err(e.status().map(u16::from)),
    }
}

pub const PDF: &[u8] = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n\x00\x01\x02\xff trailer\n%%EOF\n";

/// A statement notice: multipart/mixed over multipart/alternative (ISO-8859-1 text in
/// quoted-printable, UTF-8 HTML), a PDF and an inline PNG with an RFC 2231 file name; an
/// encoded-word subject and sender name; a spam score from an earlier filter.
pub fn statement_notice(to: &str) -> Vec<u8> {
    use base64::Engine;
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    format!(
        "From: =?UTF-8?B?{}?= <notices@corp.example>\r\n\
         To: Operations <{to}>\r\n\
         Cc: archive@elsewhere.example\r\n\
         Subject: =?ISO-8859-1?Q?Relev=E9_de_compte?=\r\n\
         Message-ID: <n1@corp.example>\r\n\
         X-Spam-Score: 1.5\r\n\
         MIME-Version: 1.0\r\n\
         Content-Type: multipart/mixed; boundary=\"outer\"\r\n\
         \r\n\
         --outer\r\n\
         Content-Type: multipart/alternative; boundary=\"alt\"\r\n\
         \r\n\
         --alt\r\n\
         Content-Type: text/plain; charset=ISO-8859-1\r\n\
         Content-Transfer-Encoding: quoted-printable\r\n\
         \r\n\
         Caf=E9 cr=E8me: votre relev=E9 est joint.\r\n\
         --alt\r\n\
         Content-Type: text/html; charset=utf-8\r\n\
         \r\n\
         <p>Caf\u{e9} cr\u{e8}me: votre relev\u{e9} est joint.</p>\r\n\
         --alt--\r\n\
         --outer\r\n\
         Content-Type: application/pdf; name=\"statement.pdf\"\r\n\
         Content-Disposition: attachment; filename=\"statement.pdf\"\r\n\
         Content-Transfer-Encoding: base64\r\n\
         \r\n\
         {}\r\n\
         --outer\r\n\
         Content-Type: image/png\r\n\
         Content-Disposition: inline; filename*=UTF-8''r%C3%A9sum%C3%A9.png\r\n\
         Content-ID: <logo@corp.example>\r\n\
         Content-Transfer-Encoding: base64\r\n\
         \r\n\
         {}\r\n\
         --outer--\r\n",
        b64("Société Générale".as_bytes()),
        b64(PDF),
        b64(b"\x89PNG\r\n\x1a\nfake png bytes"),
    )
    .into_bytes()
}
