//! The events API over real HTTP: a token reads the types whose group it may read, filters by
//! type, object and time, and one event by its id; events are never changed.

use crate::common;

use common::{json, Backend, Server};
use moneydesk_model::events::EventType;
use moneydesk_model::{paths, Scope};
use moneydesk_server::storage::events;

/// Appends an event the way a store does, in a transaction of its own.
async fn append(s: &Server, kind: EventType, object_type: &'static str, id: &str) -> String {
    let db = &s.running.state.stores.database;
    let mut tx = db.begin().await.unwrap();
    let data = serde_json::json!({"id": id, "kind": kind.as_str()});
    let event = events::append(&mut tx, kind, object_type, id, &data).await.unwrap();
    tx.commit().await.unwrap();
    event
}

async fn page(s: &Server, token: &str, query: &str) -> (u16, serde_json::Value) {
    let resp = s.get_auth(&format!("{}?{query}", paths::EVENTS), token).await;
    (resp.status().as_u16(), json(resp).await)
}

async fn a_token_reads_the_events_of_the_groups_it_may_read(backend: Backend) {
    let s = Server::start_on(backend).await;
    let sent = append(&s, EventType::DepositSent, "deposit", "7").await;
    let settled = append(&s, EventType::DepositSettled, "deposit", "7").await;
    append(&s, EventType::DepositCreated, "deposit", "8").await;
    append(&s, EventType::VaultFileUploaded, "vault_file", "test/a.pdf").await;
    append(&s, EventType::TokenCreated, "token", "999").await;

    let deposits = s.token(&[Scope::DepositsRead]).await;
    let (status, body) = page(&s, &deposits, "").await;
    assert_eq!(status, 200, "{body}");
    let types: Vec<&str> =
        body["data"]["content"].as_array().unwrap().iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["deposit.created", "deposit.settled", "deposit.sent"], "its groups' types, newest first");

    let (_, body) = page(&s, &deposits, "objectType=deposit&objectId=7&type=deposit.sent,deposit.settled").await;
    let ids: Vec<&str> =
        body["data"]["content"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap()).collect();
    assert_eq!(ids, [settled.as_str(), sent.as_str()]);
    let first = &body["data"]["content"][1];
    assert_eq!(first["objectType"], "deposit");
    assert_eq!(first["objectId"], "7");
    assert_eq!(first["data"]["id"], "7", "the object as the API answers it");
    assert_eq!(first["apiVersion"], moneydesk_model::events::API_VERSION);

    let (status, body) = page(&s, &deposits, "type=token.created").await;
    assert_eq!(status, 403, "a type of another group is refused, not hidden: {body}");
    let (status, body) = page(&s, &deposits, "type=deposit.exploded").await;
    assert_eq!(status, 400);
    assert!(
        body["errorMessage"].as_str().unwrap_or_default().contains("deposit.exploded")
            || body.to_string().contains("deposit.exploded"),
        "{body}"
    );

    let one = s.get_auth(&paths::EVENT.replace("{id}", &sent), &deposits).await;
    assert_eq!(one.status(), 200);
    assert_eq!(json(one).await["data"]["type"], "deposit.sent");
    let vault = s.token(&[Scope::VaultRead]).await;
    assert_eq!(s.get_auth(&paths::EVENT.replace("{id}", &sent), &vault).await.status(), 403);
    assert_eq!(s.get_auth(&paths::EVENT.replace("{id}", "evt_missing"), &vault).await.status(), 404);

    let admin = s.token(&[Scope::Admin]).await;
    assert_eq!(page(&s, &admin, "objectType=vault_file").await.1["data"]["totalElements"], 1, "admin reads every type");
    let (status, body) = page(&s, &admin, "type=token.created&objectId=999").await;
    assert_eq!((status, body["data"]["totalElements"].as_i64()), (200, Some(1)), "{body}");

    let db = &s.running.state.stores.database;
    assert!(db.execute("UPDATE events SET type = 'deposit.created'").await.is_err(), "an event is never changed");
}

on_both_backends!(a_token_reads_the_events_of_the_groups_it_may_read);
