//! Saved views over HTTP (extension), on SQLite and PostgreSQL: a user saves a table's view by
//! name, lists its views per table, saves a name again to replace it and deletes it; another
//! user never sees it (404, as an unknown one); wrong names, tables and queries answer 400 naming
//! the field; a user keeps at most 100 views per table; every write is on the audit trail.

use crate::common;

use common::{json, Backend, Server};
use moneydesk_model::{paths, Scope};
use reqwest::Method;
use serde_json::{json, Value};

async fn call(s: &Server, method: Method, path: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    let mut req = s.client.request(method, s.url(path)).bearer_auth(token);
    if let Some(b) = body {
        req = req.json(&b);
    }
    let resp = req.send().await.expect("request");
    let status = resp.status().as_u16();
    (status, json(resp).await)
}

fn view_path(table: &str, name: &str) -> String {
    paths::fill(&paths::fill(paths::SAVED_VIEW, "table", table), "name", name)
}

async fn save(s: &Server, token: &str, table: &str, name: &str, query: &str) -> (u16, Value) {
    call(s, Method::PUT, &view_path(table, name), token, Some(json!({ "query": query }))).await
}

async fn list(s: &Server, token: &str, table: Option<&str>) -> Vec<Value> {
    let path = match table {
        Some(t) => format!("{}?table={t}", paths::SAVED_VIEWS),
        None => paths::SAVED_VIEWS.to_string(),
    };
    let (status, body) = call(s, Method::GET, &path, token, None).await;
    assert_eq!(status, 200, "{body}");
    body["data"].as_array().cloned().expect("a list")
}

fn names(views: &[Value]) -> Vec<&str> {
    views.iter().map(|v| v["name"].as_str().unwrap()).collect()
}

async fn a_user_saves_lists_replaces_and_deletes_views(backend: Backend) {
    let s = Server::start_on(backend).await;
    let alice = s.running.create_token_for("alice's", "alice", &[Scope::AccountsRead]).await.unwrap();

    // Created: 201 with the view as saved (a leading `?` dropped).
    let (status, made) = save(&s, &alice, "accounts", "Active", "?accountStatus=Active&sort=accountName,asc").await;
    assert_eq!(status, 201, "{made}");
    let view = &made["data"];
    assert_eq!((view["table"].as_str(), view["name"].as_str()), (Some("accounts"), Some("Active")));
    assert_eq!(view["query"], "accountStatus=Active&sort=accountName,asc");
    assert!(view["id"].as_i64().is_some() && view["createdAt"].is_string(), "{view}");
    let id = view["id"].clone();
    let (status, _) = save(&s, &alice, "accounts", "  Closed, oldest first ", "accountStatus=Closed").await;
    assert_eq!(status, 201);
    let (status, _) = save(&s, &alice, "deposits", "Pending", "status=Pending").await;
    assert_eq!(status, 201);
    // A view's columns are part of its query (`cols=`), kept as sent.
    let (status, with_cols) = save(&s, &alice, "permissions", "Narrow", "sort=userId&cols=userId,email").await;
    assert_eq!((status, with_cols["data"]["query"].clone()), (201, json!("sort=userId&cols=userId,email")));

    // Listed per table, by name; every table's without `table`.
    assert_eq!(names(&list(&s, &alice, Some("accounts")).await), ["Active", "Closed, oldest first"]);
    assert_eq!(names(&list(&s, &alice, Some("deposits")).await), ["Pending"]);
    assert_eq!(list(&s, &alice, None).await.len(), 4);
    assert_eq!(names(&list(&s, &alice, Some("permissions")).await), ["Narrow"]);
    assert!(list(&s, &alice, Some("routing")).await.is_empty());

    // Saving a name again replaces its query: 200, the same id and creation time.
    let (status, replaced) = save(&s, &alice, "accounts", "Active", "accountStatus=Active&size=50").await;
    assert_eq!(status, 200, "{replaced}");
    assert_eq!(replaced["data"]["id"], id);
    assert_eq!(replaced["data"]["createdAt"], view["createdAt"]);
    assert_eq!(replaced["data"]["query"], "accountStatus=Active&size=50");
    let (status, one) = call(&s, Method::GET, &view_path("accounts", "Active"), &alice, None).await;
    assert_eq!((status, one["data"]["query"].clone()), (200, json!("accountStatus=Active&size=50")));
    assert_eq!(list(&s, &alice, Some("accounts")).await.len(), 2, "replaced, not added");

    // Deleted: answered as it was, then gone.
    let (status, gone) = call(&s, Method::DELETE, &view_path("accounts", "Active"), &alice, None).await;
    assert_eq!((status, gone["data"]["id"].clone()), (200, id), "{gone}");
    assert_eq!(names(&list(&s, &alice, Some("accounts")).await), ["Closed, oldest first"]);
    let (status, again) = call(&s, Method::DELETE, &view_path("accounts", "Active"), &alice, None).await;
    assert_eq!(status, 404, "{again}");
    s.running.stop().await;
}

async fn another_users_view_is_not_found(backend: Backend) {
    let s = Server::start_on(backend).await;
    let alice = s.running.create_token_for("alice's", "alice", &[Scope::AccountsRead]).await.unwrap();
    let bob = s.running.create_token_for("bob's", "bob", &[Scope::Admin]).await.unwrap();
    let alice_again = s.running.create_token_for("alice's laptop", "alice", &[Scope::FeesRead]).await.unwrap();
    let (status, _) = save(&s, &alice, "accounts", "Mine", "accountStatus=Active").await;
    assert_eq!(status, 201);

    // Bob (an admin even) neither lists, reads nor deletes it; his own of that name is his.
    assert!(list(&s, &bob, None).await.is_empty());
    for method in [Method::GET, Method::DELETE] {
        let (status, e) = call(&s, method.clone(), &view_path("accounts", "Mine"), &bob, None).await;
        assert_eq!((status, e["reason"].clone()), (404, json!("not_found")), "{method} {e}");
    }
    let (status, _) = save(&s, &bob, "accounts", "Mine", "accountStatus=Closed").await;
    assert_eq!(status, 201, "bob's own view of the same name is a new one");

    // Alice's other token is the same user: it sees her view, unchanged by Bob's.
    let mine = list(&s, &alice_again, Some("accounts")).await;
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0]["query"], "accountStatus=Active");
    s.running.stop().await;
}

async fn wrong_names_tables_and_queries_answer_400(backend: Backend) {
    let s = Server::start_on(backend).await;
    let token = s.token(&[Scope::FeesRead]).await;
    let long = "x".repeat(81);
    for (table, name, query, field) in [
        ("accounts", "%20%20", "a=1", "name"),
        ("accounts", long.as_str(), "a=1", "name"),
        ("accounts", "tab%09here", "a=1", "name"),
        ("Accounts", "ok", "a=1", "table"),
        ("accounts", "ok", "name=a b", "query"),
        ("accounts", "ok", "a=1#top", "query"),
    ] {
        let path = paths::SAVED_VIEW.replace("{table}", table).replace("{name}", name);
        let (status, e) = call(&s, Method::PUT, &path, &token, Some(json!({ "query": query }))).await;
        assert_eq!(status, 400, "{table} {name} {query}: {e}");
        assert_eq!(e["errors"][0]["field"], field, "{e}");
    }
    let (status, e) = call(&s, Method::GET, &format!("{}?table=a/b", paths::SAVED_VIEWS), &token, None).await;
    assert_eq!((status, e["errors"][0]["field"].clone()), (400, json!("table")), "{e}");
    assert!(list(&s, &token, None).await.is_empty(), "nothing saved");
    s.running.stop().await;
}

async fn every_write_is_on_the_audit_trail(backend: Backend) {
    let s = Server::start_on(backend).await;
    let admin = s.running.create_token_for("auditor", "auditor", &[Scope::Admin]).await.unwrap();
    let alice = s.running.create_token_for("alice's", "alice", &[Scope::AccountsRead]).await.unwrap();
    let (_, made) = save(&s, &alice, "accounts", "Active", "accountStatus=Active").await;
    let id = made["data"]["id"].as_i64().unwrap().to_string();
    save(&s, &alice, "accounts", "Active", "accountStatus=Active&size=50").await;
    call(&s, Method::DELETE, &view_path("accounts", "Active"), &alice, None).await;

    let audit = |operation: &'static str| {
        let (s, admin) = (&s, &admin);
        async move {
            let path = format!("{}?operation={operation}", paths::AUDIT_RECORDS);
            let (status, page) = call(s, Method::GET, &path, admin, None).await;
            assert_eq!(status, 200, "{page}");
            page["data"]["content"].as_array().cloned().unwrap_or_default()
        }
    };
    let saves = audit("save_saved_view").await;
    assert_eq!(saves.len(), 2, "{saves:?}");
    for r in &saves {
        assert_eq!((r["targetType"].as_str(), r["targetId"].as_str()), (Some("saved_view"), Some(id.as_str())), "{r}");
        assert_eq!(r["actor"]["userId"], "alice", "{r}");
    }
    let changes = format!("{saves:?}");
    assert!(changes.contains("accountStatus=Active&size=50"), "the replaced query is on record: {changes}");
    let deletes = audit("delete_saved_view").await;
    assert_eq!(deletes.len(), 1, "{deletes:?}");
    assert_eq!(deletes[0]["targetId"].as_str(), Some(id.as_str()));
    s.running.stop().await;
}

async fn a_user_keeps_at_most_100_views_per_table(backend: Backend) {
    let s = Server::start_on(backend).await;
    let token = s.token(&[Scope::FeesRead]).await;
    for n in 0..100 {
        let (status, e) = save(&s, &token, "deposits", &format!("view {n:03}"), "status=Pending").await;
        assert_eq!(status, 201, "{n}: {e}");
    }
    // The 101st name is refused, nothing saved; saving over a name it has, or on another
    // table, still works.
    let (status, e) = save(&s, &token, "deposits", "one too many", "status=Pending").await;
    assert_eq!((status, e["reason"].clone()), (422, json!("too_many_views")), "{e}");
    assert_eq!(list(&s, &token, Some("deposits")).await.len(), 100);
    let (status, _) = save(&s, &token, "deposits", "view 000", "status=Sent_3").await;
    assert_eq!(status, 200);
    let (status, _) = save(&s, &token, "accounts", "one too many", "accountStatus=Active").await;
    assert_eq!(status, 201);
    s.running.stop().await;
}

on_both_backends!(
    a_user_keeps_at_most_100_views_per_table,
    a_user_saves_lists_replaces_and_deletes_views,
    another_users_view_is_not_found,
    wrong_names_tables_and_queries_answer_400,
    every_write_is_on_the_audit_trail
);
