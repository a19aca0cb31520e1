//! The audit matrix's desk: one server with everything a write may need around it (accounts
//! for deposits, an SMTP sink for mail, a DNS server for sending domains, a receiver for
//! inbound mail and webhooks), an admin token, and [`Desk::write`], which sends the one request
//! a recipe is about with a request id of its own, so its audit records are found by that id.
#![allow(dead_code)] // each test uses part of it

/// `recipe!(f)`: the [`Recipe`] of `async fn f(d: &Desk) -> Answer`.
macro_rules! recipe {
    ($f:path) => {{
        fn run(d: &crate::audit_matrix_support::Desk) -> crate::audit_matrix_support::Run<'_> {
            Box::pin($f(d))
        }
        run as crate::audit_matrix_support::Recipe
    }};
}

pub mod bulk_email_vault;
pub mod money;
pub mod others;
pub mod tokens;
pub mod vault_trash;
pub mod views;

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use moneydesk_model::accounts::Account;
use moneydesk_model::Scope;
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::config::webhooks::Allowed;
use reqwest::Method;
use serde_json::Value;

use crate::common::dns::DnsServer;
use crate::common::smtp::SmtpSink;
use crate::common::{Backend, Server};
use crate::email_inbound_support::Receiver;

/// The key of the desk's unsubscribe links (the unsubscribe recipe signs its own).
pub const UNSUBSCRIBE_SECRET: &str = "the audit matrix's unsubscribe secret, 32+ characters";

pub struct Desk {
    pub server: Server,
    /// `admin`, user `test` (whose vault it reaches).
    pub admin: String,
    /// The richest first: a write that takes money never finds too little.
    pub accounts: Vec<Account>,
    pub dns: DnsServer,
    pub smtp: SmtpSink,
    /// Takes inbound mail and webhook posts alike, answering 200.
    pub receiver: Receiver,
    n: AtomicUsize,
}

/// What the one request of a recipe answered, and the request id it went with.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub request_id: String,
}

/// A request's body.
pub enum Body {
    None,
    Json(Value),
    Raw(&'static str, Vec<u8>),
    /// A multipart form of one file part `file`.
    File(String, Vec<u8>),
}

pub type Run<'a> = Pin<Box<dyn Future<Output = Answer> + 'a>>;

/// A recipe: what to set up, then the one request of the operation (through [`Desk::write`]).
pub type Recipe = for<'a> fn(&'a Desk) -> Run<'a>;

pub async fn desk(backend: Backend) -> Desk {
    let (dns, smtp, receiver) = (DnsServer::start().await, SmtpSink::start(), Receiver::start(&[]).await);
    smtp.control(serde_json::json!({"reject": {"gone@client.example": 550}}));
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let (dns_addr, relay) = (dns.addr, smtp.url());
    let server = Server::start_in_dir(dir, move |c| {
        c.database_url = url;
        c.email.worker = true;
        c.email.smtp_url = Some(relay);
        c.email.max_attempts = 1;
        c.email.unsubscribe_secret = Some(UNSUBSCRIBE_SECRET.into());
        c.email.verify.dns_server = Some(dns_addr);
        c.email.verify.dns_timeout = Duration::from_millis(500);
        c.webhooks.worker = true;
        c.webhooks.allow = vec![Allowed::Host("127.0.0.1".into())];
    })
    .await;
    let mut accounts: Vec<Account> = Accounts::new(6, 11).collect();
    accounts.sort_by_key(|a| std::cmp::Reverse(a.market_value));
    let mut w = server.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let admin = server.token(&[Scope::Admin]).await;
    Desk { server, admin, accounts, dns, smtp, receiver, n: AtomicUsize::new(0) }
}

impl Desk {
    /// Sends a request as the admin with a fresh request id.
    pub async fn write(&self, method: Method, path: &str, body: Body) -> Answer {
        let request_id = format!("audit-matrix-{}", self.n.fetch_add(1, Ordering::SeqCst));
        let mut r = self
            .server
            .client
            .request(method, self.server.url(path))
            .bearer_auth(&self.admin)
            .header("x-request-id", &request_id);
        r = match body {
            Body::None => r,
            Body::Json(v) => r.json(&v),
            Body::Raw(content_type, bytes) => r.header("content-type", content_type).body(bytes),
            Body::File(name, bytes) => {
                let part = reqwest::multipart::Part::bytes(bytes).file_name(name);
                r.multipart(reqwest::multipart::Form::new().part("file", part))
            }
        };
        let resp = r.send().await.unwrap();
        let status = resp.status().as_u16();
        let text = resp.text().await.unwrap();
        Answer { status, body: serde_json::from_str(&text).unwrap_or(Value::String(text)), request_id }
    }

    /// A setup step: a write that must answer `status`; its body.
    pub async fn setup(&self, method: Method, path: &str, body: Body, status: u16) -> Value {
        let what = format!("{method} {path}");
        let a = self.write(method, path, body).await;
        assert_eq!(a.status, status, "setup {what}: {}", a.body);
        a.body
    }

    pub async fn get(&self, path: &str) -> Value {
        let r = self.server.get_auth(path, &self.admin).await;
        assert_eq!(r.status().as_u16(), 200, "GET {path}");
        crate::common::json(r).await
    }

    /// A number unique on this desk (names, check numbers).
    pub fn unique(&self) -> usize {
        self.n.fetch_add(1, Ordering::SeqCst)
    }

    /// The audit records written with `request_id`: `(operation, method, path, outcome, target
    /// type, target id)`, read straight from the table.
    pub async fn records(&self, request_id: &str) -> Vec<Record> {
        let db = &self.server.running.state.stores.database;
        let q = db
            .sql(
                "SELECT operation, method, path, outcome, target_type, target_id FROM audit_records \
                 WHERE request_id = ? ORDER BY id",
            )
            .arg(request_id);
        db.acquire().await.unwrap().exec().rows(&q).await.unwrap()
    }

    /// How many audit records there are.
    pub async fn count(&self) -> i64 {
        let db = &self.server.running.state.stores.database;
        db.acquire().await.unwrap().exec().int(&db.sql("SELECT COUNT(*) FROM audit_records")).await.unwrap()
    }
}

#[derive(Debug, sqlx::FromRow)]
pub struct Record {
    pub operation: String,
    pub method: Option<String>,
    pub path: Option<String>,
    pub outcome: String,
    pub target_type: Option<String>,
    pub target_id: Option<String>,
}
