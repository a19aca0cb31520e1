//! Each group's store on both backends, through the stores themselves (the HTTP behaviour is
//! in collections*.rs and auth.rs): tokens, settings, a broken constraint answering 409, the
//! name search with LIKE's own wildcards in the term, and the blob store.

use crate::common;

use axum::http::StatusCode;
use chrono::Duration;
use moneydesk_model::accounts::{AccountQuery, AccountStatus};
use moneydesk_model::Scope;
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::accounts::store::AccountSelection;
use moneydesk_server::permissions::seed::permissions;
use moneydesk_server::state::Stores;
use moneydesk_server::Error;
use object_store::path::Path as BlobPath;
use object_store::ObjectStore;

use common::{Backend, Server};

on_both_backends!(
    tokens_are_created_found_by_hash_touched_and_revoked,
    a_setting_is_set_once,
    a_permission_granted_twice_is_a_409_naming_the_constraint,
    the_name_filter_treats_like_wildcards_as_plain_characters,
    the_cli_uses_the_database_the_url_names,
);

async fn stores_on(backend: Backend) -> (Stores, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    (Stores::open(&url).await.expect("stores open"), dir)
}

async fn tokens_are_created_found_by_hash_touched_and_revoked(backend: Backend) {
    let (stores, _dir) = stores_on(backend).await;
    let tokens = &stores.tokens;
    let new = tokens
        .create(" ci ", &[Scope::FeesRead, Scope::Admin, Scope::FeesRead], Some(Duration::days(1)))
        .await
        .unwrap();
    assert_eq!(new.record.name, "ci", "the name is trimmed");
    assert_eq!(new.record.scopes, vec![Scope::FeesRead, Scope::Admin], "scopes sorted and deduplicated");
    let hash = moneydesk_server::tokens::hash(&new.token);
    let found = tokens.by_hash(&hash).await.unwrap().expect("found by its hash");
    assert_eq!(found, new.record);
    assert!(tokens.by_hash(&"0".repeat(64)).await.unwrap().is_none());

    tokens.touch(found.id).await.unwrap();
    let touched = tokens.by_hash(&hash).await.unwrap().unwrap();
    assert!(touched.last_used_at.is_some(), "a use is recorded");

    tokens.set_expiry(found.id, Some("2000-01-01T00:00:00Z")).await.unwrap();
    assert!(tokens.by_hash(&hash).await.unwrap().unwrap().is_expired_now());

    let second = tokens.create("ci", &[Scope::RoutingRead], None).await.unwrap();
    assert_eq!(tokens.revoke("ci").await.unwrap().len(), 2, "a name revokes every active token of that name");
    assert!(tokens.revoke(&second.record.id.to_string()).await.unwrap().is_empty(), "already revoked");
    let listed = tokens.list().await.unwrap();
    assert_eq!(listed.iter().map(|t| t.id).collect::<Vec<_>>(), vec![found.id, second.record.id]);
    assert!(listed.iter().all(|t| t.is_revoked()));
}

async fn a_setting_is_set_once(backend: Backend) {
    let (stores, _dir) = stores_on(backend).await;
    assert_eq!(stores.settings.get("seeded").await.unwrap(), None);
    assert!(stores.settings.set_once("seeded", "first").await.unwrap());
    assert!(!stores.settings.set_once("seeded", "second").await.unwrap());
    assert_eq!(stores.settings.get("seeded").await.unwrap().as_deref(), Some("first"));
}

async fn a_permission_granted_twice_is_a_409_naming_the_constraint(backend: Backend) {
    let (stores, _dir) = stores_on(backend).await;
    let rows = permissions(1, 1, 3);
    let mut w = stores.permissions.writer().await.unwrap();
    w.insert(&rows[..1]).await.unwrap();
    w.commit().await.unwrap();
    let mut w = stores.permissions.writer().await.unwrap();
    let broken = w.insert(&rows[..1]).await.expect_err("the same user, company and scope twice");
    let answer = Error::from(broken);
    assert_eq!(answer.status, StatusCode::CONFLICT, "{answer:?}");
    let said = format!("{answer:?}");
    assert!(said.contains("user_id") || said.contains("permissions_user_id_company_id_scope_key"), "{said}");
}

async fn the_name_filter_treats_like_wildcards_as_plain_characters(backend: Backend) {
    let (stores, _dir) = stores_on(backend).await;
    let mut accounts: Vec<_> = Accounts::new(4, 9).collect();
    for (a, name) in accounts.iter_mut().zip(["Ten%Off Ltd", "Tenfold Off Ltd", "Under_Score Co", "Underxscore Co"]) {
        a.account_name = name.into();
        a.account_status = AccountStatus::Active;
    }
    let mut w = stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let names = |term: &'static str| {
        let store = stores.accounts.clone();
        async move {
            let q = AccountQuery::from_query(url::form_urlencoded::parse(format!("name={term}").as_bytes())).unwrap();
            let page = store.list(&AccountSelection::new(&q).unwrap()).await.unwrap();
            page.content.into_iter().map(|a| a.account_name).collect::<Vec<_>>()
        }
    };
    assert_eq!(names("ten%25off").await, vec!["Ten%Off Ltd"], "% is a percent sign");
    assert_eq!(names("r_s").await, vec!["Under_Score Co"], "_ is an underscore");
    assert_eq!(names("OFF").await, vec!["Ten%Off Ltd", "Tenfold Off Ltd"], "case does not matter");
    assert_eq!(names("co").await, vec!["Under_Score Co", "Underxscore Co"], "two letters");
}

async fn the_cli_uses_the_database_the_url_names(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let out = crate::common::cli_with(
        dir.path(),
        Some(&url),
        &["token", "create", "--name", "from-cli", "--scope", "accounts:read"],
    )
    .await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let token = String::from_utf8(out.stdout).unwrap().trim().to_string();
    let stores = Stores::open(&url).await.unwrap();
    let record = stores.tokens.by_hash(&moneydesk_server::tokens::hash(&token)).await.unwrap().expect("stored there");
    assert_eq!(record.name, "from-cli");
}

#[tokio::test]
async fn a_blob_put_is_read_back_from_under_the_data_dir() {
    let s = Server::start().await;
    let blobs = &s.running.state.blobs;
    let at = BlobPath::from("vault/2026/statement.pdf");
    blobs.put(&at, b"%PDF-1.7 fake".to_vec().into()).await.unwrap();
    let got = blobs.get(&at).await.unwrap().bytes().await.unwrap();
    assert_eq!(&got[..], b"%PDF-1.7 fake");
    assert!(s.dir.path().join("blobs/vault/2026/statement.pdf").is_file(), "kept under the data dir");
    assert!(blobs.get(&BlobPath::from("vault/missing")).await.is_err());
    s.running.stop().await;
}
