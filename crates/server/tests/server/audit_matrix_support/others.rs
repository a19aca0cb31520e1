//! Recipes of the groups that move no money: the vault, email (sending, templates, sending
//! domains, inbound routes and mail), webhook endpoints; and the reads asked with a POST.

use moneydesk_model::paths;
use reqwest::Method;
use serde_json::{json, Value};

use super::{Answer, Body, Desk, Recipe};
use crate::email_inbound_support::wait_state;

pub fn recipes() -> Vec<(Method, &'static str, Recipe)> {
    vec![
        (Method::POST, paths::VAULT_FOLDER, recipe!(create_folder)),
        (Method::POST, paths::VAULT_FOLDER_MOVE, recipe!(move_folder)),
        (Method::POST, paths::VAULT_FOLDER_DOWNLOAD, recipe!(download_folders)),
        (Method::DELETE, paths::VAULT_FOLDERS_DELETE, recipe!(delete_folders)),
        (Method::POST, paths::VAULT_FILE, recipe!(upload)),
        (Method::DELETE, paths::VAULT_FILE, recipe!(delete_file)),
        (Method::POST, paths::VAULT_FILE_MOVE, recipe!(move_file)),
        (Method::POST, paths::EMAIL_SEND, recipe!(send_email)),
        (Method::POST, paths::EMAIL_MESSAGE_RESEND, recipe!(resend)),
        (Method::POST, paths::EMAIL_TEMPLATES, recipe!(create_template)),
        (Method::POST, paths::EMAIL_TEMPLATE_VERSIONS, recipe!(add_version)),
        (Method::POST, paths::EMAIL_DOMAINS, recipe!(register_domain)),
        (Method::POST, paths::EMAIL_DOMAIN_VERIFY, recipe!(verify_domain)),
        (Method::POST, paths::EMAIL_DOMAIN_ACTIVATE, recipe!(activate_domain)),
        (Method::DELETE, paths::EMAIL_DOMAIN, recipe!(delete_domain)),
        (Method::POST, paths::EMAIL_SUPPRESSIONS, recipe!(add_suppressions)),
        (Method::DELETE, paths::EMAIL_SUPPRESSION, recipe!(remove_suppression)),
        (Method::POST, paths::EMAIL_UNSUBSCRIBE, recipe!(unsubscribe)),
        (Method::POST, paths::EMAIL_BATCHES, recipe!(create_batch)),
        (Method::POST, paths::EMAIL_BATCH_PAUSE, recipe!(pause_batch)),
        (Method::POST, paths::EMAIL_BATCH_RESUME, recipe!(resume_batch)),
        (Method::POST, paths::EMAIL_BATCH_CANCEL, recipe!(cancel_batch)),
        (Method::POST, paths::EMAIL_BOUNCE_REPORTS, recipe!(post_bounce_report)),
        (Method::POST, paths::EMAIL_INBOUND_ROUTES, recipe!(create_route)),
        (Method::PUT, paths::EMAIL_INBOUND_ROUTE, recipe!(update_route)),
        (Method::DELETE, paths::EMAIL_INBOUND_ROUTE, recipe!(delete_route)),
        (Method::POST, paths::EMAIL_INBOUND_ROUTE_SECRET, recipe!(rotate_route_secret)),
        (Method::POST, paths::EMAIL_INBOUND_MESSAGES, recipe!(post_raw)),
        (Method::POST, paths::EMAIL_INBOUND_REDELIVER, recipe!(redeliver)),
        (Method::POST, paths::WEBHOOK_ENDPOINTS, recipe!(create_endpoint)),
        (Method::PATCH, paths::WEBHOOK_ENDPOINT, recipe!(update_endpoint)),
        (Method::DELETE, paths::WEBHOOK_ENDPOINT, recipe!(delete_endpoint)),
        (Method::POST, paths::WEBHOOK_ENDPOINT_SECRET, recipe!(rotate_endpoint_secret)),
        (Method::POST, paths::WEBHOOK_ENDPOINT_TEST, recipe!(send_test_event)),
        (Method::POST, paths::WEBHOOK_ENDPOINT_REPLAY, recipe!(replay)),
    ]
}

/// Reads asked with a POST (their input is too large or too private for a query string):
/// they change nothing, so they leave no record. Each with why it is a read.
pub fn reads() -> Vec<(Method, &'static str, &'static str, Recipe)> {
    vec![
        (Method::POST, paths::EMAIL_VALIDATION, "checks an address (DNS), stores nothing", recipe!(validate_email)),
        (
            Method::POST,
            paths::EMAIL_VALIDATION_BULK,
            "checks addresses (DNS), stores nothing",
            recipe!(validate_emails),
        ),
        (Method::POST, paths::EMAIL_TEMPLATE_PREVIEW, "renders a stored template with data", recipe!(preview)),
        (Method::POST, paths::EMAIL_TEMPLATE_DRAFT_PREVIEW, "renders a draft, nothing kept", recipe!(draft_preview)),
        (Method::POST, paths::DEPOSITS_EXPORT, "answers a CSV of deposits", recipe!(super::money::export_deposits)),
    ]
}

fn q(v: &str) -> String {
    url::form_urlencoded::byte_serialize(v.as_bytes()).collect()
}

fn vault(template: &str) -> String {
    template.replace("{userId}", "test")
}

/// A new top-level folder of user `test`'s vault; its name.
async fn folder(d: &Desk) -> String {
    let name = format!("F{}", d.unique());
    d.setup(Method::POST, &format!("{}?path=&name={name}", vault(paths::VAULT_FOLDER)), Body::None, 200).await;
    name
}

/// A file `a.txt` in a new folder; its path.
async fn file(d: &Desk) -> String {
    let folder = folder(d).await;
    let url = format!("{}?path={}", vault(paths::VAULT_FILE), q(&folder));
    d.setup(Method::POST, &url, Body::File("a.txt".into(), b"hello".to_vec()), 200).await;
    format!("{folder}/a.txt")
}

async fn create_folder(d: &Desk) -> Answer {
    let url = format!("{}?path=&name=N{}", vault(paths::VAULT_FOLDER), d.unique());
    d.write(Method::POST, &url, Body::None).await
}

async fn move_folder(d: &Desk) -> Answer {
    let from = folder(d).await;
    let url = format!("{}?path={from}&newPath={from}-moved", vault(paths::VAULT_FOLDER_MOVE));
    d.write(Method::POST, &url, Body::None).await
}

async fn download_folders(d: &Desk) -> Answer {
    let path = file(d).await;
    let folder = path.split('/').next().unwrap();
    let url = format!("{}?paths={folder}&name=x", vault(paths::VAULT_FOLDER_DOWNLOAD));
    d.write(Method::POST, &url, Body::None).await
}

async fn delete_folders(d: &Desk) -> Answer {
    let folder = folder(d).await;
    d.write(Method::DELETE, &format!("{}?userId=test&paths={folder}", paths::VAULT_FOLDERS_DELETE), Body::None).await
}

async fn upload(d: &Desk) -> Answer {
    let folder = folder(d).await;
    let url = format!("{}?path={}", vault(paths::VAULT_FILE), q(&folder));
    d.write(Method::POST, &url, Body::File("b.txt".into(), b"hello".to_vec())).await
}

async fn delete_file(d: &Desk) -> Answer {
    let path = file(d).await;
    d.write(Method::DELETE, &format!("{}?path={}", vault(paths::VAULT_FILE), q(&path)), Body::None).await
}

async fn move_file(d: &Desk) -> Answer {
    let path = file(d).await;
    let url = format!("{}?path={}&newPath={}", vault(paths::VAULT_FILE_MOVE), q(&path), q(&format!("{path}.moved")));
    d.write(Method::POST, &url, Body::None).await
}

fn message(to: &str) -> Value {
    json!({"from": {"email": "ops@moneydesk.test"}, "subject": "Statement",
        "content": [{"type": "text/plain", "value": "Hello"}], "personalizations": [{"to": [{"email": to}]}]})
}

async fn send_email(d: &Desk) -> Answer {
    d.write(Method::POST, paths::EMAIL_SEND, Body::Json(message("a@client.example"))).await
}

async fn resend(d: &Desk) -> Answer {
    // The relay refuses this address for good: the message fails, and may be sent again.
    let sent = d.setup(Method::POST, paths::EMAIL_SEND, Body::Json(message("gone@client.example")), 202).await;
    let id = sent["data"][0].as_str().unwrap().to_string();
    crate::common::wait_message_state(&d.server, &d.admin, &id, "failed").await;
    d.write(Method::POST, &paths::EMAIL_MESSAGE_RESEND.replace("{messageId}", &id), Body::None).await
}

fn template(d: &Desk) -> Value {
    json!({"name": format!("Notice {}", d.unique()), "subject": "Hi {{name}}", "text": "Hello {{name}}"})
}

/// A new template's id.
async fn a_template(d: &Desk) -> String {
    let made = d.setup(Method::POST, paths::EMAIL_TEMPLATES, Body::Json(template(d)), 201).await;
    made["data"]["id"].as_str().unwrap().to_string()
}

async fn create_template(d: &Desk) -> Answer {
    d.write(Method::POST, paths::EMAIL_TEMPLATES, Body::Json(template(d))).await
}

async fn add_version(d: &Desk) -> Answer {
    let versions = paths::EMAIL_TEMPLATE_VERSIONS.replace("{templateId}", &a_template(d).await);
    d.write(Method::POST, &versions, Body::Json(json!({"subject": "Hello {{name}}", "text": "Hi"}))).await
}

fn domain(d: &Desk) -> String {
    format!("notices{}.bank.example", d.unique())
}

/// A registered sending domain (pending); its name and the records it asks for.
async fn registered(d: &Desk) -> (String, Value) {
    let name = domain(d);
    let made = d.setup(Method::POST, paths::EMAIL_DOMAINS, Body::Json(json!({"domain": name})), 201).await;
    (name, made["data"].clone())
}

/// A registered domain whose records are in the DNS: it verifies.
async fn installed(d: &Desk) -> String {
    let (name, records) = registered(d).await;
    for r in records["records"].as_array().unwrap().iter().chain(records["serviceRecords"].as_array().unwrap()) {
        let (host, value) = (r["host"].as_str().unwrap(), r["value"].as_str().unwrap());
        match r["type"].as_str().unwrap() {
            "CNAME" => d.dns.cname(host, value),
            _ => d.dns.txt(host, value),
        };
    }
    name
}

async fn register_domain(d: &Desk) -> Answer {
    d.write(Method::POST, paths::EMAIL_DOMAINS, Body::Json(json!({"domain": domain(d)}))).await
}

async fn verify_domain(d: &Desk) -> Answer {
    let name = installed(d).await;
    d.write(Method::POST, &paths::EMAIL_DOMAIN_VERIFY.replace("{domain}", &name), Body::None).await
}

async fn activate_domain(d: &Desk) -> Answer {
    let name = installed(d).await;
    let verified = d.setup(Method::POST, &paths::EMAIL_DOMAIN_VERIFY.replace("{domain}", &name), Body::None, 200).await;
    assert_eq!(verified["data"]["state"], "verified", "{verified}");
    d.write(Method::POST, &paths::EMAIL_DOMAIN_ACTIVATE.replace("{domain}", &name), Body::None).await
}

async fn delete_domain(d: &Desk) -> Answer {
    let (name, _) = registered(d).await;
    d.write(Method::DELETE, &paths::EMAIL_DOMAIN.replace("{domain}", &name), Body::None).await
}

/// A new inbound route to the desk's receiver; its domain.
async fn route(d: &Desk) -> String {
    let name = format!("in{}.bank.example", d.unique());
    let body = json!({"domain": name, "url": d.receiver.url});
    d.setup(Method::POST, paths::EMAIL_INBOUND_ROUTES, Body::Json(body), 201).await;
    name
}

async fn create_route(d: &Desk) -> Answer {
    let body = json!({"domain": format!("in{}.bank.example", d.unique()), "url": d.receiver.url});
    d.write(Method::POST, paths::EMAIL_INBOUND_ROUTES, Body::Json(body)).await
}

async fn update_route(d: &Desk) -> Answer {
    let path = paths::EMAIL_INBOUND_ROUTE.replace("{domain}", &route(d).await);
    d.write(Method::PUT, &path, Body::Json(json!({"url": format!("{}?moved", d.receiver.url)}))).await
}

async fn delete_route(d: &Desk) -> Answer {
    d.write(Method::DELETE, &paths::EMAIL_INBOUND_ROUTE.replace("{domain}", &route(d).await), Body::None).await
}

async fn rotate_route_secret(d: &Desk) -> Answer {
    d.write(Method::POST, &paths::EMAIL_INBOUND_ROUTE_SECRET.replace("{domain}", &route(d).await), Body::None).await
}

fn raw_mail(domain: &str) -> Vec<u8> {
    format!("From: Ada <ada@corp.example>\r\nTo: ops@{domain}\r\nSubject: Notice\r\n\r\nHello\r\n").into_bytes()
}

async fn post_raw(d: &Desk) -> Answer {
    let domain = route(d).await;
    d.write(Method::POST, paths::EMAIL_INBOUND_MESSAGES, Body::Raw("message/rfc822", raw_mail(&domain))).await
}

async fn redeliver(d: &Desk) -> Answer {
    let domain = route(d).await;
    let got = d.setup(Method::POST, paths::EMAIL_INBOUND_MESSAGES, Body::Raw("message/rfc822", raw_mail(&domain)), 202);
    let id = got.await["data"]["ids"][0].as_str().unwrap().to_string();
    wait_state(&d.server, &d.admin, &id, "delivered").await;
    d.write(Method::POST, &paths::EMAIL_INBOUND_REDELIVER.replace("{messageId}", &id), Body::None).await
}

/// A new webhook endpoint to the desk's receiver; its id.
async fn endpoint(d: &Desk) -> String {
    let body = json!({"url": d.receiver.url, "eventTypes": ["*"]});
    let made = d.setup(Method::POST, paths::WEBHOOK_ENDPOINTS, Body::Json(body), 201).await;
    made["data"]["endpoint"]["id"].as_str().unwrap().to_string()
}

async fn create_endpoint(d: &Desk) -> Answer {
    let body = json!({"url": d.receiver.url, "eventTypes": ["deposit.created"]});
    d.write(Method::POST, paths::WEBHOOK_ENDPOINTS, Body::Json(body)).await
}

async fn update_endpoint(d: &Desk) -> Answer {
    let path = paths::WEBHOOK_ENDPOINT.replace("{id}", &endpoint(d).await);
    d.write(Method::PATCH, &path, Body::Json(json!({"description": "ours", "enabled": false}))).await
}

async fn delete_endpoint(d: &Desk) -> Answer {
    d.write(Method::DELETE, &paths::WEBHOOK_ENDPOINT.replace("{id}", &endpoint(d).await), Body::None).await
}

async fn rotate_endpoint_secret(d: &Desk) -> Answer {
    let path = paths::WEBHOOK_ENDPOINT_SECRET.replace("{id}", &endpoint(d).await);
    d.write(Method::POST, &path, Body::Json(json!({"overlapHours": 1}))).await
}

async fn send_test_event(d: &Desk) -> Answer {
    d.write(Method::POST, &paths::WEBHOOK_ENDPOINT_TEST.replace("{id}", &endpoint(d).await), Body::None).await
}

async fn replay(d: &Desk) -> Answer {
    let id = endpoint(d).await;
    // An event to replay: a deposit made now is told.
    d.setup(Method::POST, paths::DEPOSITS_CHECK, Body::Json(super::money::check_body(d)), 201).await;
    let db = &d.server.running.state.stores.database;
    let q = db.sql("SELECT id FROM events ORDER BY seq DESC LIMIT 1");
    let event = db.acquire().await.unwrap().exec().texts(&q).await.unwrap().remove(0);
    let path = paths::WEBHOOK_ENDPOINT_REPLAY.replace("{id}", &id);
    d.write(Method::POST, &path, Body::Json(json!({"eventId": event}))).await
}

async fn validate_email(d: &Desk) -> Answer {
    d.write(Method::POST, paths::EMAIL_VALIDATION, Body::Json(json!({"email": "ada@client.example"}))).await
}

async fn validate_emails(d: &Desk) -> Answer {
    let body = json!({"emails": ["ada@client.example", "bob@client.example"]});
    d.write(Method::POST, paths::EMAIL_VALIDATION_BULK, Body::Json(body)).await
}

async fn preview(d: &Desk) -> Answer {
    let path = paths::EMAIL_TEMPLATE_PREVIEW.replace("{templateId}", &a_template(d).await);
    d.write(Method::POST, &path, Body::Json(json!({"data": {"name": "Ada"}}))).await
}

async fn draft_preview(d: &Desk) -> Answer {
    let body = json!({"subject": "Hi {{name}}", "text": "Hello {{name}}", "data": {"name": "Ada"}});
    d.write(Method::POST, paths::EMAIL_TEMPLATE_DRAFT_PREVIEW, Body::Json(body)).await
}

// Suppression lists, unsubscribe and batches (issue 46).

async fn add_suppressions(d: &Desk) -> Answer {
    let body = json!({"entries": [{"email": format!("s{}@client.example", d.unique())}]});
    d.write(Method::POST, &paths::EMAIL_SUPPRESSIONS.replace("{domain}", "moneydesk.test"), Body::Json(body)).await
}

async fn remove_suppression(d: &Desk) -> Answer {
    let path = paths::EMAIL_SUPPRESSIONS.replace("{domain}", "moneydesk.test");
    let body = json!({"entries": [{"email": format!("r{}@client.example", d.unique())}]});
    let added = d.setup(Method::POST, &path, Body::Json(body), 201).await;
    let id = added["data"][0]["id"].as_str().unwrap();
    d.write(
        Method::DELETE,
        &paths::EMAIL_SUPPRESSION.replace("{domain}", "moneydesk.test").replace("{suppressionId}", id),
        Body::None,
    )
    .await
}

/// A report that is none (an out-of-office reply): kept, `unparseable`, on record all the same.
async fn post_bounce_report(d: &Desk) -> Answer {
    let raw = b"From: reader@client.example\r\nSubject: Out of office\r\n\r\nAway.\r\n".to_vec();
    d.write(Method::POST, paths::EMAIL_BOUNCE_REPORTS, Body::Raw("message/rfc822", raw)).await
}

async fn unsubscribe(d: &Desk) -> Answer {
    let mut m = message(&format!("u{}@client.example", d.unique()));
    m["categories"] = json!(["news"]);
    let sent = d.setup(Method::POST, paths::EMAIL_SEND, Body::Json(m), 202).await;
    let token = moneydesk_server::email::suppressions::unsubscribe::token(
        super::UNSUBSCRIBE_SECRET,
        sent["data"][0].as_str().unwrap(),
    );
    d.write(Method::POST, &paths::EMAIL_UNSUBSCRIBE.replace("{token}", &token), Body::None).await
}

async fn batch(d: &Desk) -> String {
    let made = d.setup(Method::POST, paths::EMAIL_BATCHES, Body::None, 201).await;
    made["data"]["batchId"].as_str().unwrap().to_string()
}

async fn create_batch(d: &Desk) -> Answer {
    d.write(Method::POST, paths::EMAIL_BATCHES, Body::None).await
}

async fn pause_batch(d: &Desk) -> Answer {
    let id = batch(d).await;
    d.write(Method::POST, &paths::EMAIL_BATCH_PAUSE.replace("{batchId}", &id), Body::None).await
}

async fn resume_batch(d: &Desk) -> Answer {
    let id = batch(d).await;
    d.setup(Method::POST, &paths::EMAIL_BATCH_PAUSE.replace("{batchId}", &id), Body::None, 200).await;
    d.write(Method::POST, &paths::EMAIL_BATCH_RESUME.replace("{batchId}", &id), Body::None).await
}

async fn cancel_batch(d: &Desk) -> Answer {
    let id = batch(d).await;
    d.write(Method::POST, &paths::EMAIL_BATCH_CANCEL.replace("{batchId}", &id), Body::None).await
}
