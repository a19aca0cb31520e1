//! Recipes of the bulk actions on email and the vault (issue 45): each bulk request on one
//! record leaves exactly that record's one audit record; the vault's zip of a selection is a
//! download on record, as the folders' zip is.

use moneydesk_model::paths;
use reqwest::Method;
use serde_json::json;

use super::{Answer, Body, Desk, Recipe};
use crate::email_inbound_support::wait_state;

pub fn recipes() -> Vec<(Method, &'static str, Recipe)> {
    vec![
        (Method::POST, paths::EMAIL_MESSAGES_BULK, recipe!(resend_in_bulk)),
        (Method::POST, paths::EMAIL_INBOUND_MESSAGES_BULK, recipe!(redeliver_in_bulk)),
        (Method::POST, paths::VAULT_BULK, recipe!(delete_in_bulk)),
        (Method::POST, paths::VAULT_BULK_DOWNLOAD, recipe!(download_selection)),
    ]
}

fn vault(template: &str) -> String {
    template.replace("{userId}", "test")
}

/// A new top-level folder of user `test`'s vault holding `a.txt`; the folder's name.
async fn folder_with_a_file(d: &Desk) -> String {
    let name = format!("B{}", d.unique());
    d.setup(Method::POST, &format!("{}?path=&name={name}", vault(paths::VAULT_FOLDER)), Body::None, 200).await;
    let url = format!("{}?path={name}", vault(paths::VAULT_FILE));
    d.setup(Method::POST, &url, Body::File("a.txt".into(), b"hello".to_vec()), 200).await;
    name
}

async fn resend_in_bulk(d: &Desk) -> Answer {
    // The relay refuses this address for good: the message fails, and may be resent.
    let message = json!({"from": {"email": "ops@moneydesk.test"}, "subject": "Statement",
        "content": [{"type": "text/plain", "value": "Hello"}], "personalizations": [{"to": [{"email": "gone@client.example"}]}]});
    let sent = d.setup(Method::POST, paths::EMAIL_SEND, Body::Json(message), 202).await;
    let id = sent["data"][0].as_str().unwrap().to_string();
    crate::common::wait_message_state(&d.server, &d.admin, &id, "failed").await;
    let body = json!({"action": "resend", "select": {"ids": [id]}});
    d.write(Method::POST, paths::EMAIL_MESSAGES_BULK, Body::Json(body)).await
}

async fn redeliver_in_bulk(d: &Desk) -> Answer {
    let domain = format!("in{}.bank.example", d.unique());
    let route = json!({"domain": domain, "url": d.receiver.url});
    d.setup(Method::POST, paths::EMAIL_INBOUND_ROUTES, Body::Json(route), 201).await;
    let raw = format!("From: Ada <ada@corp.example>\r\nTo: ops@{domain}\r\nSubject: Notice\r\n\r\nHello\r\n");
    let got = d.setup(Method::POST, paths::EMAIL_INBOUND_MESSAGES, Body::Raw("message/rfc822", raw.into_bytes()), 202);
    let id = got.await["data"]["ids"][0].as_str().unwrap().to_string();
    wait_state(&d.server, &d.admin, &id, "delivered").await;
    let body = json!({"action": "redeliver", "select": {"ids": [id]}});
    d.write(Method::POST, paths::EMAIL_INBOUND_MESSAGES_BULK, Body::Json(body)).await
}

async fn delete_in_bulk(d: &Desk) -> Answer {
    let folder = folder_with_a_file(d).await;
    let body = json!({"action": "delete", "select": {"ids": [format!("{folder}/a.txt")]}});
    d.write(Method::POST, &vault(paths::VAULT_BULK), Body::Json(body)).await
}

async fn download_selection(d: &Desk) -> Answer {
    let folder = folder_with_a_file(d).await;
    let body = json!({"name": "x", "select": {"ids": [folder]}});
    d.write(Method::POST, &vault(paths::VAULT_BULK_DOWNLOAD), Body::Json(body)).await
}
