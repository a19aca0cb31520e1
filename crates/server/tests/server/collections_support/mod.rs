//! Shared by the collections tests: a server holding a known set of accounts, a reference
//! ordering computed here independently of the server, and a page walker.
#![allow(dead_code)]

use std::cmp::Ordering;

use moneydesk_model::accounts::Account;
use moneydesk_model::Scope;
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::permissions::seed::permissions;
use serde_json::Value;

use crate::common::{json, Backend, Server};

pub const N: usize = 1_234;

pub struct Fixture {
    pub server: Server,
    pub token: String,
    /// In insertion order (the server's default order).
    pub accounts: Vec<Account>,
}

/// `n` accounts and a few permissions on SQLite.
pub async fn fixture(n: usize) -> Fixture {
    fixture_on(Backend::Sqlite, n).await
}

/// `n` accounts and a few permissions on `backend`.
pub async fn fixture_on(backend: Backend, n: usize) -> Fixture {
    let server = Server::start_on(backend).await;
    let accounts: Vec<Account> = Accounts::new(n, 42).collect();
    let mut w = server.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let mut w = server.running.state.stores.permissions.writer().await.unwrap();
    w.insert(&permissions(10, 5, 7)).await.unwrap();
    w.commit().await.unwrap();
    let token = server.token(&[Scope::AccountsRead, Scope::PermissionsRead]).await;
    Fixture { server, token, accounts }
}

impl Fixture {
    /// GET the path and query; the status and the JSON body.
    pub async fn get(&self, path: &str, query: &str) -> (u16, Value) {
        let resp = self.server.get_auth(&format!("{path}?{query}"), &self.token).await;
        let status = resp.status().as_u16();
        (status, json(resp).await)
    }

    /// Every record's `key` over all pages of `query` (without page/size), `size` at a time.
    pub async fn walk(&self, path: &str, query: &str, size: u32, key: &str) -> Vec<String> {
        let mut out = Vec::new();
        for page in 1.. {
            let (status, body) = self.get(path, &format!("{query}&page={page}&size={size}")).await;
            assert_eq!(status, 200, "{query} page {page}: {body}");
            let data = &body["data"];
            for r in data["content"].as_array().unwrap() {
                out.push(match &r[key] {
                    Value::String(s) => s.clone(),
                    v => v.to_string(),
                });
            }
            if data["last"].as_bool().unwrap() {
                assert_eq!(out.len() as u64, data["totalElements"].as_u64().unwrap(), "{query}");
                break;
            }
        }
        out
    }
}

/// The reference order for an accounts sort field (ascending, ties by insertion order).
pub fn reference(
    accounts: &[Account],
    field: Option<&str>,
    desc: bool,
    keep: impl Fn(&Account) -> bool,
) -> Vec<String> {
    let mut rows: Vec<(usize, &Account)> = accounts.iter().enumerate().filter(|(_, a)| keep(a)).collect();
    let by = |a: &Account, b: &Account| -> Ordering {
        match field {
            None => Ordering::Equal,
            Some("createTime") => a.create_time.cmp(&b.create_time),
            Some("accountName") => a.account_name.to_lowercase().cmp(&b.account_name.to_lowercase()),
            Some("accountStatus") => a.account_status.as_str().cmp(b.account_status.as_str()),
            Some("accountType") => a.account_type.as_str().cmp(b.account_type.as_str()),
            // No value sorts lowest.
            Some("marketValue") => a.market_value.cmp(&b.market_value),
            Some("id") => a.id.cmp(&b.id),
            Some(f) => panic!("no reference order for {f}"),
        }
    };
    rows.sort_by(|(i, a), (j, b)| by(a, b).then(i.cmp(j)));
    if desc {
        rows.reverse();
    }
    rows.into_iter().map(|(_, a)| a.id.clone()).collect()
}

/// Asserts a 400 envelope naming `param`.
pub fn assert_names(status: u16, body: &Value, param: &str) {
    assert_eq!(status, 400, "{param}: {body}");
    assert_eq!(body["code"], 400, "{body}");
    assert!(body["data"].is_null(), "{body}");
    assert_eq!(body["errors"][0]["field"], param, "{body}");
    assert!(body["errorMessage"].as_str().unwrap().contains(param), "{body}");
}
