//! The refusals of the read endpoints only the fuzzer reached before (issue 48, item 5), over
//! real HTTP on both backends: a template by id and a draft's preview, a deposit's detail and
//! image, a cash letter and its file, an outbox message and its MIME, an inbound message, a
//! vault's usage. Each answer is the status, in the envelope (`code` the status, `data` null),
//! whose error names what was wrong (the field, or the id that is not there); and nothing is
//! written: the audit trail (every write leaves a record in its own transaction) and the
//! group's own list are what they were before.

use crate::common;

use common::{check_png, json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use reqwest::Method;
use serde_json::{json, Value};

struct Desk {
    s: Server,
    admin: String,
}

async fn desk(backend: Backend) -> Desk {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    // No delivery worker: a queued message stays as it is, so the outbox changes only by a write.
    let s = Server::start_in_dir(dir, |c| {
        c.database_url = url;
        c.email.worker = false;
    })
    .await;
    let admin = s.token(&[Scope::Admin]).await;
    Desk { s, admin }
}

impl Desk {
    async fn call(&self, method: Method, path: &str, token: &str, body: Option<&Value>) -> (u16, Value) {
        let mut req = self.s.client.request(method, self.s.url(path)).bearer_auth(token);
        if let Some(b) = body {
            req = req.json(b);
        }
        let r = req.send().await.expect("request");
        (r.status().as_u16(), json(r).await)
    }

    async fn get(&self, path: &str, token: &str) -> (u16, Value) {
        self.call(Method::GET, path, token, None).await
    }

    /// What has been written so far: the audit trail's length, and `list`'s answer.
    async fn written(&self, list: &str) -> (u64, Value) {
        let (status, audit) = self.get(&format!("{}?size=1", paths::AUDIT_RECORDS), &self.admin).await;
        assert_eq!(status, 200, "{audit}");
        let (status, listed) = self.get(list, &self.admin).await;
        assert_eq!(status, 200, "{listed}");
        (audit["data"]["totalElements"].as_u64().expect("totalElements"), listed["data"].clone())
    }
}

/// `got` is a `status` in the envelope whose error says `names` (a field's problem names the
/// field in `errors` too).
fn refused(what: &str, got: &(u16, Value), status: u16, names: &str, field: Option<&str>) {
    let (code, body) = got;
    assert_eq!(*code, status, "{what}: {body}");
    assert_eq!(body["code"].as_u64(), Some(status as u64), "{what}: the envelope's code is the status: {body}");
    assert!(body["data"].is_null(), "{what}: {body}");
    let said = format!("{} {}", body["errorMessage"].as_str().unwrap_or(""), body["error"].as_str().unwrap_or(""));
    assert!(said.contains(names), "{what}: the error names {names:?}: {body}");
    if let Some(field) = field {
        let fields: Vec<&str> =
            body["errors"].as_array().into_iter().flatten().filter_map(|e| e["field"].as_str()).collect();
        assert!(fields.contains(&field), "{what}: errors name {field:?}: {body}");
    }
}

fn id_path(template: &str, name: &str, value: &str) -> String {
    paths::fill(template, name, value)
}

async fn a_template_or_a_draft_that_is_not_there_or_not_right_is_refused(backend: Backend) {
    let d = desk(backend).await;
    let sender = d.s.token(&[Scope::EmailSend]).await;
    let before = d.written(paths::EMAIL_TEMPLATES).await;

    let missing = id_path(paths::EMAIL_TEMPLATE, "templateId", "tmpl_nothere");
    refused("an unknown template", &d.get(&missing, &sender).await, 404, "tmpl_nothere", None);
    let draft = |v: Value| {
        let (d, sender) = (&d, &sender);
        async move { d.call(Method::POST, paths::EMAIL_TEMPLATE_DRAFT_PREVIEW, sender, Some(&v)).await }
    };
    let got = draft(json!({"subject": " ", "text": ""})).await;
    refused("a draft without a subject or a part", &got, 400, "subject", Some("subject"));
    refused("a draft without a subject or a part", &got, 400, "text", Some("text"));
    let got = draft(json!({"subject": "Hi\r\nBcc: evil@x.example", "text": "Hello"})).await;
    refused("a subject with CR LF", &got, 400, "subject", Some("subject"));
    let got = draft(json!({"subject": "Hi", "text": "{{#if ready}}never closed"})).await;
    refused("a part that does not compile", &got, 400, "does not compile", Some("text"));
    let got = draft(json!({"subject": "Hi {{name}}", "text": "Hello", "data": {}})).await;
    refused("a variable missing from the data", &got, 400, "name", None);
    let got = d.s.client.post(d.s.url(paths::EMAIL_TEMPLATE_DRAFT_PREVIEW)).bearer_auth(&sender);
    let got = got.header("Content-Type", "application/json").body("{\"subject\": ").send().await.unwrap();
    let got = (got.status().as_u16(), json(got).await);
    assert_eq!(got.0, 400, "a body that is not JSON: {}", got.1);

    // The same draft, right, is rendered: the refusals above were the draft's, not the path's.
    let (status, ok) = draft(json!({"subject": "Hi {{name}}", "text": "Hello", "data": {"name": "Ada"}})).await;
    assert_eq!((status, &ok["data"]["subject"]), (200, &json!("Hi Ada")), "{ok}");
    assert_eq!(d.written(paths::EMAIL_TEMPLATES).await, before, "a refused preview stores nothing");
    d.s.running.stop().await;
}

async fn a_deposit_or_its_image_that_is_not_there_or_a_bad_side_is_refused(backend: Backend) {
    let d = desk(backend).await;
    let payees: Vec<Account> = Accounts::new(1, 7).collect();
    let mut w = d.s.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&payees).await.unwrap();
    w.commit().await.unwrap();
    let writer = d.s.token(&[Scope::DepositsRead, Scope::DepositsWrite]).await;
    let check = json!({
        "amount": "12.34", "bankRoutingNumber": "021090028", "bankAccountNumber": "48200001", "checkNumber": "1001",
        "payeeAccountId": payees[0].id, "payeeUserId": "usr-1",
        "checkFrontImage": check_png(1), "checkBackImage": check_png(2),
    });
    let (status, record) = d.call(Method::POST, paths::DEPOSITS_CHECK, &writer, Some(&check)).await;
    assert_eq!(status, 201, "{record}");
    let checked = record["id"].as_i64().unwrap().to_string();
    let cash = json!({"amount": "5.00", "payeeAccountId": payees[0].id, "payeeUserId": "usr-1"});
    let (status, record) = d.call(Method::POST, paths::DEPOSITS_CASH, &writer, Some(&cash)).await;
    assert_eq!(status, 201, "{record}");
    let cashed = record["id"].as_i64().unwrap().to_string();
    let detail = |id: &str| paths::DEPOSIT.replace("{id}", id);
    let image = |id: &str, side: &str| paths::DEPOSIT_IMAGE.replace("{id}", id).replace("{side}", side);
    let history = d.get(&detail(&checked), &writer).await;
    let before = d.written(&format!("{}?size=50", paths::DEPOSIT_RECORDS)).await;

    refused("an unknown deposit", &d.get(&detail("999999"), &writer).await, 404, "999999", None);
    refused("an id that is not a number", &d.get(&detail("abc"), &writer).await, 400, "abc", None);
    refused("an unknown deposit's image", &d.get(&image("999999", "front"), &writer).await, 404, "999999", None);
    refused("a bad side", &d.get(&image(&checked, "left"), &writer).await, 400, "front or back", Some("side"));
    refused("a bad side's case", &d.get(&image(&checked, "FRONT"), &writer).await, 400, "side", Some("side"));
    let got = d.get(&image(&cashed, "front"), &writer).await;
    refused("a cash deposit's image", &got, 404, &format!("Deposit {cashed} has no front image"), None);
    // The good side of the same deposit is its picture.
    let front = d.s.get_auth(&image(&checked, "back"), &writer).await;
    assert_eq!(front.status(), 200);
    assert!(front.headers()["content-type"].to_str().unwrap().starts_with("image/"));

    assert_eq!(
        d.written(&format!("{}?size=50", paths::DEPOSIT_RECORDS)).await,
        before,
        "a refused read writes nothing"
    );
    assert_eq!(d.get(&detail(&checked), &writer).await, history, "the deposit and its history are unchanged");
    d.s.running.stop().await;
}

async fn a_cash_letter_or_its_file_that_is_not_there_is_refused(backend: Backend) {
    let d = desk(backend).await;
    let reader = d.s.token(&[Scope::DepositsRead]).await;
    let before = d.written(paths::CASH_LETTERS).await;
    let letter = |id: &str| paths::CASH_LETTER.replace("{id}", id);
    let file = |id: &str| paths::CASH_LETTER_FILE.replace("{id}", id);
    refused("an unknown cash letter", &d.get(&letter("424242"), &reader).await, 404, "No cash letter 424242", None);
    refused("an unknown letter's file", &d.get(&file("424242"), &reader).await, 404, "No cash letter 424242", None);
    // A preview's id (0) is no letter: a preview has no file.
    refused("a preview's file", &d.get(&file("0"), &reader).await, 404, "No cash letter 0", None);
    refused("an id that is not a number", &d.get(&letter("first"), &reader).await, 400, "first", None);
    refused("a file id that is not a number", &d.get(&file("1.5"), &reader).await, 400, "1.5", None);
    assert_eq!(d.written(paths::CASH_LETTERS).await, before, "a refused read writes nothing");
    d.s.running.stop().await;
}

async fn an_outbox_message_or_its_mime_that_is_not_there_is_refused(backend: Backend) {
    let d = desk(backend).await;
    let sender = d.s.token(&[Scope::EmailSend]).await;
    // One message in the outbox, so "not there" is about the id, not an empty table.
    let send = json!({
        "from": {"email": "ops@moneydesk.test"}, "subject": "Statement",
        "content": [{"type": "text/plain", "value": "Hello"}],
        "personalizations": [{"to": [{"email": "ada@client.example"}]}]
    });
    let (status, sent) = d.call(Method::POST, paths::EMAIL_SEND, &sender, Some(&send)).await;
    assert_eq!(status, 202, "{sent}");
    let real = sent["data"][0].as_str().expect("a message id").to_string();
    let before = d.written(paths::EMAIL_MESSAGES).await;

    let message = |id: &str| paths::fill(paths::EMAIL_MESSAGE, "messageId", id);
    let raw = |id: &str| paths::fill(paths::EMAIL_MESSAGE_RAW, "messageId", id);
    refused("an unknown message", &d.get(&message("msg_nothere"), &sender).await, 404, "msg_nothere", None);
    refused("an unknown message's MIME", &d.get(&raw("msg_nothere"), &sender).await, 404, "msg_nothere", None);
    let unlike = format!("{real}x");
    refused("an id one letter off", &d.get(&raw(&unlike), &sender).await, 404, &unlike, None);
    refused("an id of another shape", &d.get(&message("../../etc"), &sender).await, 404, "../../etc", None);
    assert_eq!(d.get(&message(&real), &sender).await.0, 200, "the real one is there");
    assert_eq!(d.written(paths::EMAIL_MESSAGES).await, before, "a refused read writes nothing");
    d.s.running.stop().await;
}

async fn an_inbound_message_that_is_not_there_is_refused(backend: Backend) {
    let d = desk(backend).await;
    let sender = d.s.token(&[Scope::EmailSend]).await;
    let before = d.written(paths::EMAIL_INBOUND_MESSAGES).await;
    let message = |id: &str| paths::fill(paths::EMAIL_INBOUND_MESSAGE, "messageId", id);
    let unknown = "6f1c1e2a-1d7e-4a53-9c1c-000000000000";
    refused("an unknown inbound message", &d.get(&message(unknown), &sender).await, 404, unknown, None);
    refused("an id that is not a UUID", &d.get(&message("not-a-uuid"), &sender).await, 404, "not-a-uuid", None);
    assert_eq!(d.written(paths::EMAIL_INBOUND_MESSAGES).await, before, "a refused read writes nothing");
    d.s.running.stop().await;
}

async fn a_vault_usage_of_a_bad_or_another_user_is_refused(backend: Backend) {
    let d = desk(backend).await;
    // The tests' tokens belong to the user "test".
    let reader = d.s.token(&[Scope::VaultRead]).await;
    let usage = |user: &str| paths::fill(paths::VAULT_USAGE, "userId", user);
    let before = d.written(&usage("test")).await;
    refused("a user id with a space", &d.get(&usage("bad user"), &reader).await, 400, "userId", Some("userId"));
    let long = "u".repeat(129);
    refused("a user id over 128 characters", &d.get(&usage(&long), &reader).await, 400, "at most 128", Some("userId"));
    refused("another user's vault", &d.get(&usage("alice"), &reader).await, 403, "\"alice\"", None);
    let (status, mine) = d.get(&usage("test"), &reader).await;
    assert_eq!((status, &mine["data"]["userId"]), (200, &json!("test")), "{mine}");
    assert_eq!(d.written(&usage("test")).await, before, "a refused read writes nothing");
    d.s.running.stop().await;
}

on_both_backends!(
    a_template_or_a_draft_that_is_not_there_or_not_right_is_refused,
    a_deposit_or_its_image_that_is_not_there_or_a_bad_side_is_refused,
    a_cash_letter_or_its_file_that_is_not_there_is_refused,
    an_outbox_message_or_its_mime_that_is_not_there_is_refused,
    an_inbound_message_that_is_not_there_is_refused,
    a_vault_usage_of_a_bad_or_another_user_is_refused,
);
