//! Email over real HTTP: the send rules (each refusal naming its field), the outbox, stored
//! templates, and delivery into the development mailbox (no relay configured). Delivery to a
//! real SMTP relay is `email_delivery.rs`.

use crate::common;

use std::time::{Duration, Instant};

use common::{json, Backend, Server};
use mail_parser::MimeHeaders;
use moneydesk_model::email::send::encode_base64;
use moneydesk_model::{paths, Scope};
use serde_json::{json, Value};

async fn start(backend: Backend, worker: bool) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    Server::start_in_dir(dir, |c| {
        c.database_url = url;
        c.email.worker = worker;
    })
    .await
}

async fn post(s: &Server, path: &str, token: &str, body: &Value) -> (u16, Value) {
    let r = s.client.post(s.url(path)).bearer_auth(token).json(body).send().await.unwrap();
    (r.status().as_u16(), json(r).await)
}

async fn get(s: &Server, path: &str, token: &str) -> (u16, Value) {
    let r = s.get_auth(path, token).await;
    (r.status().as_u16(), json(r).await)
}

fn message() -> Value {
    json!({
        "from": {"email": "ops@moneydesk.test", "name": "Operations"},
        "subject": "Your statement",
        "content": [{"type": "text/plain", "value": "Hello"}, {"type": "text/html", "value": "<p>Hello</p>"}],
        "personalizations": [{"to": [{"email": "ada@client.example", "name": "Ada"}]}]
    })
}

/// The fields a 400 names.
fn fields(body: &Value) -> Vec<String> {
    body["errors"]
        .as_array()
        .map(|a| a.iter().map(|f| f["field"].as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

async fn a_send_is_accepted_with_its_ids_and_queued_in_the_outbox(backend: Backend) {
    let s = start(backend, false).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let mut m = message();
    m["personalizations"] = json!([
        {"to": [{"email": "a@client.example"}], "cc": [{"email": "c@client.example"}], "bcc": [{"email": "b@client.example"}]},
        {"to": [{"email": "d@client.example"}], "subject": "Only for D"}
    ]);
    let (status, body) = post(&s, paths::EMAIL_SEND, &t, &m).await;
    assert_eq!(status, 202, "{body}");
    assert_eq!(body["code"], 202);
    let ids: Vec<String> = body["data"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
    assert_eq!(ids.len(), 2);

    let (_, page) = get(&s, &format!("{}?state=queued", paths::EMAIL_MESSAGES), &t).await;
    assert_eq!(page["data"]["totalElements"], 2);
    let first = &page["data"]["content"][0];
    assert_eq!(first["id"], ids[0].as_str());
    assert_eq!(first["to"], json!(["a@client.example"]));
    assert_eq!(first["bccCount"], 1);
    assert_eq!(first["from"], "Operations <ops@moneydesk.test>");
    assert_eq!(page["data"]["content"][1]["subject"], "Only for D");

    let (status, detail) = get(&s, &paths::EMAIL_MESSAGE.replace("{messageId}", &ids[0]), &t).await;
    assert_eq!(status, 200, "{detail}");
    assert_eq!(detail["data"]["bcc"], json!(["b@client.example"]));
    assert_eq!(detail["data"]["text"], "Hello");
    assert!(detail["data"]["messageId"].as_str().unwrap().ends_with("@moneydesk.test>"));
    // The headers as sent, in order: objects `{name, value}` (issue 44: a `[name, value]` pair
    // is a tuple schema client generators cannot read); Bcc is never a header.
    let headers = detail["data"]["headers"].as_array().expect("headers");
    let names: Vec<&str> = headers.iter().map(|h| h["name"].as_str().expect("name")).collect();
    assert_eq!(names, ["From", "To", "Cc", "Subject", "Date", "Message-ID"], "{detail}");
    assert_eq!(headers[0], json!({"name": "From", "value": "Operations <ops@moneydesk.test>"}));
    assert_eq!(headers[1], json!({"name": "To", "value": "a@client.example"}));
    assert_eq!(headers[3], json!({"name": "Subject", "value": "Your statement"}));
    assert_eq!(headers[5]["value"], detail["data"]["messageId"]);
    let (_, none) = get(&s, &format!("{}?state=sent", paths::EMAIL_MESSAGES), &t).await;
    assert_eq!(none["data"]["totalElements"], 0);
    let (_, found) = get(&s, &format!("{}?q=D%40CLIENT", paths::EMAIL_MESSAGES), &t).await;
    assert_eq!(found["data"]["totalElements"], 1);
}

/// A send the server refuses: what is wrong, the change to a good message, the field named.
type Refusal = (&'static str, Box<dyn Fn(&mut Value)>, &'static str);

async fn every_broken_rule_is_a_400_naming_its_field_and_stores_nothing(backend: Backend) {
    let s = start(backend, false).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let cases: Vec<Refusal> = vec![
        (
            "no to",
            Box::new(|m| m["personalizations"][0] = json!({"to": [], "cc": [{"email": "c@client.example"}]})),
            "personalizations[0].to",
        ),
        (
            "bad address",
            Box::new(|m| m["personalizations"][0]["to"][0]["email"] = json!("ada@")),
            "personalizations[0].to[0].email",
        ),
        (
            "an address twice",
            Box::new(|m| m["personalizations"][0]["cc"] = json!([{"email": "ADA@client.example"}])),
            "personalizations[0].cc[0].email",
        ),
        ("CR LF in the subject", Box::new(|m| m["subject"] = json!("Hi\r\nBcc: evil@x.example")), "subject"),
        (
            "LF in a name",
            Box::new(|m| m["personalizations"][0]["to"][0]["name"] = json!("Ada\nBcc: evil@x.example")),
            "personalizations[0].to[0].name",
        ),
        (
            "LF in a filename",
            Box::new(|m| m["attachments"] = json!([{"content": "aGk=", "filename": "a\nb.txt"}])),
            "attachments[0].filename",
        ),
        (
            "html before plain",
            Box::new(|m| {
                m["content"] = json!([{"type": "text/html", "value": "<p>x</p>"}, {"type": "text/plain", "value": "x"}])
            }),
            "content[1].type",
        ),
        ("an empty content value", Box::new(|m| m["content"][0]["value"] = json!("")), "content[0].value"),
        (
            "bad base64",
            Box::new(|m| m["attachments"] = json!([{"content": "not base64!", "filename": "a.txt"}])),
            "attachments[0].content",
        ),
        ("send_at too far", Box::new(|m| m["send_at"] = json!(chrono::Utc::now().timestamp() + 73 * 3600)), "send_at"),
        (
            "1001 personalizations",
            Box::new(|m| {
                m["personalizations"] = json!((0..1001)
                    .map(|i| json!({"to": [{"email": format!("r{i}@client.example")}]}))
                    .collect::<Vec<_>>())
            }),
            "personalizations",
        ),
        ("a sender not allowed", Box::new(|m| m["from"]["email"] = json!("ceo@elsewhere.example")), "from.email"),
        (
            "an unknown template",
            Box::new(|m| {
                m.as_object_mut().unwrap().remove("content");
                m["template_id"] = json!("tmpl_nothere");
            }),
            "template_id",
        ),
    ];
    for (what, change, field) in cases {
        let mut m = message();
        change(&mut m);
        let (status, body) = post(&s, paths::EMAIL_SEND, &t, &m).await;
        assert_eq!(status, 400, "{what}: {body}");
        assert!(fields(&body).iter().any(|f| f == field), "{what}: expected {field} in {body}");
    }
    // A body without a required key is refused by its shape, naming where.
    let mut m = message();
    m["personalizations"][0].as_object_mut().unwrap().remove("to");
    let (status, body) = post(&s, paths::EMAIL_SEND, &t, &m).await;
    assert_eq!(status, 400);
    assert!(
        body["errorMessage"].as_str().unwrap().contains("personalizations[0]")
            && body["errorMessage"].as_str().unwrap().contains("`to`"),
        "{body}"
    );
    let (_, page) = get(&s, paths::EMAIL_MESSAGES, &t).await;
    assert_eq!(page["data"]["totalElements"], 0, "nothing of a refused request is stored");
}

async fn templates_render_each_personalization_and_a_missing_variable_is_named(backend: Backend) {
    let s = start(backend, false).await;
    let admin = s.token(&[Scope::Admin]).await;
    let sender = s.token(&[Scope::EmailSend]).await;
    let new = json!({"name": "Statement", "subject": "Statement for {{first_name}}", "text": "Dear {{first_name}}, {{note}}", "html": "<p>Dear {{first_name}}, {{note}}</p>{{#each lines}}<li>{{amount}}</li>{{/each}}"});
    let (status, body) = post(&s, paths::EMAIL_TEMPLATES, &sender, &new).await;
    assert_eq!(status, 403, "only admin manages templates: {body}");
    let (status, created) = post(&s, paths::EMAIL_TEMPLATES, &admin, &new).await;
    assert_eq!(status, 201, "{created}");
    let id = created["data"]["id"].as_str().unwrap().to_string();
    assert_eq!(created["data"]["latest"]["variables"], json!(["first_name", "note", "lines"]));
    let (status, _) =
        post(&s, paths::EMAIL_TEMPLATES, &admin, &json!({"name": "STATEMENT", "subject": "x", "text": "y"})).await;
    assert_eq!(status, 409, "names are unique whatever their case");
    let (status, bad) =
        post(&s, paths::EMAIL_TEMPLATES, &admin, &json!({"name": "Broken", "subject": "x", "html": "{{#if}}"})).await;
    assert_eq!((status, fields(&bad)), (400, vec!["html".to_string()]), "{bad}");

    let preview = paths::EMAIL_TEMPLATE_PREVIEW.replace("{templateId}", &id);
    let data =
        json!({"data": {"first_name": "Ada", "note": "<script>alert(1)</script>", "lines": [{"amount": "10.00"}]}});
    let (status, r) = post(&s, &preview, &sender, &data).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["data"]["subject"], "Statement for Ada");
    assert_eq!(r["data"]["text"], "Dear Ada, <script>alert(1)</script>", "the text part is not escaped");
    assert_eq!(
        r["data"]["html"], "<p>Dear Ada, &lt;script&gt;alert(1)&lt;/script&gt;</p><li>10.00</li>",
        "the HTML part is"
    );
    let (status, missing) = post(&s, &preview, &sender, &json!({"data": {"note": "x", "lines": []}})).await;
    assert_eq!(status, 400);
    assert_eq!(fields(&missing), ["data.first_name"], "{missing}");

    let versions = paths::EMAIL_TEMPLATE_VERSIONS.replace("{templateId}", &id);
    let (status, v2) =
        post(&s, &versions, &admin, &json!({"subject": "Your statement, {{first_name}}", "text": "Hi {{first_name}}"}))
            .await;
    assert_eq!(status, 201, "{v2}");
    assert_eq!(v2["data"]["latest"]["version"], 2);
    assert_eq!(v2["data"]["versions"].as_array().unwrap().len(), 2);

    // A send renders the latest version for each personalization; a personalization without
    // the variable is refused, naming it, and nothing is queued.
    let mut m = json!({"from": {"email": "ops@moneydesk.test"}, "template_id": id, "personalizations": [
        {"to": [{"email": "a@client.example"}], "dynamic_template_data": {"first_name": "Ada"}},
        {"to": [{"email": "b@client.example"}], "dynamic_template_data": {"name": "Bob"}}
    ]});
    let (status, body) = post(&s, paths::EMAIL_SEND, &sender, &m).await;
    assert_eq!(status, 400);
    assert_eq!(fields(&body), ["personalizations[1].dynamic_template_data.first_name"], "{body}");
    m["personalizations"][1]["dynamic_template_data"] = json!({"first_name": "Bob"});
    let (status, body) = post(&s, paths::EMAIL_SEND, &sender, &m).await;
    assert_eq!(status, 202, "{body}");
    let (_, page) = get(&s, paths::EMAIL_MESSAGES, &sender).await;
    let subjects: Vec<&str> =
        page["data"]["content"].as_array().unwrap().iter().map(|m| m["subject"].as_str().unwrap()).collect();
    assert_eq!(subjects, ["Your statement, Ada", "Your statement, Bob"]);
    assert_eq!(page["data"]["content"][0]["templateVersion"], 2);
    let (_, list) = get(&s, paths::EMAIL_TEMPLATES, &sender).await;
    assert_eq!(list["data"][0]["version"], 2);
}

async fn a_bulk_send_of_a_thousand_personalizations_is_one_request(backend: Backend) {
    let s = start(backend, false).await;
    let admin = s.token(&[Scope::Admin]).await;
    let (_, created) = post(
        &s,
        paths::EMAIL_TEMPLATES,
        &admin,
        &json!({"name": "Notice", "subject": "Notice for {{name}}", "html": "<p>{{name}}</p>"}),
    )
    .await;
    let id = created["data"]["id"].as_str().unwrap();
    let personalizations: Vec<Value> = (0..1000).map(|i| json!({"to": [{"email": format!("r{i}@client.example")}], "dynamic_template_data": {"name": format!("R{i}")}})).collect();
    let m = json!({"from": {"email": "ops@moneydesk.test"}, "template_id": id, "personalizations": personalizations});
    let (status, body) = post(&s, paths::EMAIL_SEND, &admin, &m).await;
    assert_eq!(status, 202, "{body}");
    assert_eq!(body["data"].as_array().unwrap().len(), 1000);
    let (_, page) = get(&s, &format!("{}?size=500&page=2", paths::EMAIL_MESSAGES), &admin).await;
    assert_eq!(page["data"]["totalElements"], 1000);
    assert_eq!(page["data"]["content"][0]["subject"], "Notice for R500");
}

async fn without_a_relay_messages_reach_the_development_mailbox_with_their_attachments(backend: Backend) {
    let s = start(backend, true).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let mut m = message();
    m["attachments"] = json!([{"content": encode_base64(b"%PDF-1.7 statement"), "filename": "statement.pdf", "type": "application/pdf"}]);
    let (status, body) = post(&s, paths::EMAIL_SEND, &t, &m).await;
    assert_eq!(status, 202, "{body}");
    let id = body["data"][0].as_str().unwrap().to_string();
    let detail_path = paths::EMAIL_MESSAGE.replace("{messageId}", &id);
    let deadline = Instant::now() + Duration::from_secs(20);
    let detail = loop {
        let (_, d) = get(&s, &detail_path, &t).await;
        if d["data"]["state"] == "sent" || Instant::now() > deadline {
            break d;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(detail["data"]["state"], "sent", "{detail}");
    assert_eq!(detail["data"]["delivery"], "mailbox");
    assert_eq!(detail["data"]["attemptLog"][0]["outcome"], "sent");
    assert_eq!(detail["data"]["attachments"][0]["filename"], "statement.pdf");

    let raw = s.get_auth(&paths::EMAIL_MESSAGE_RAW.replace("{messageId}", &id), &t).await;
    assert_eq!(raw.headers()["content-type"], "message/rfc822");
    let raw = raw.bytes().await.unwrap();
    let parsed = mail_parser::MessageParser::default().parse(&raw[..]).unwrap();
    assert_eq!(parsed.subject(), Some("Your statement"));
    assert_eq!(parsed.body_text(0).as_deref().map(str::trim_end), Some("Hello"));
    assert_eq!(parsed.attachments().next().and_then(|a| a.attachment_name()), Some("statement.pdf"));

    let a = s.get_auth(&paths::EMAIL_MESSAGE_ATTACHMENT.replace("{messageId}", &id).replace("{index}", "0"), &t).await;
    assert_eq!(a.status(), 200);
    assert_eq!(a.headers()["content-type"], "application/pdf");
    assert_eq!(&a.bytes().await.unwrap()[..], b"%PDF-1.7 statement");
    let none =
        s.get_auth(&paths::EMAIL_MESSAGE_ATTACHMENT.replace("{messageId}", &id).replace("{index}", "1"), &t).await;
    assert_eq!(none.status(), 404);
}

async fn the_outbox_is_filtered_by_the_utc_day_of_creation_both_ends_inclusive(backend: Backend) {
    let s = start(backend, false).await;
    let t = s.token(&[Scope::EmailSend]).await;
    assert_eq!(post(&s, paths::EMAIL_SEND, &t, &message()).await.0, 202);
    // The days around the message's own creation day: no assumption about the clock.
    let (_, page) = get(&s, paths::EMAIL_MESSAGES, &t).await;
    let created = page["data"]["content"][0]["createdAt"].as_str().unwrap().to_string();
    let day = chrono::NaiveDate::parse_from_str(&created[..10], "%Y-%m-%d").unwrap();
    let (before, after) = (day - chrono::Duration::days(1), day + chrono::Duration::days(1));
    let count = |query: String| {
        let s = &s;
        let t = &t;
        async move {
            let (status, body) = get(s, &format!("{}?{query}", paths::EMAIL_MESSAGES), t).await;
            assert_eq!(status, 200, "{query}: {body}");
            body["data"]["totalElements"].as_u64().unwrap()
        }
    };
    assert_eq!(count(format!("createdFrom={day}&createdTo={day}")).await, 1, "a one-day window holds that whole day");
    assert_eq!(count(format!("createdTo={day}")).await, 1);
    assert_eq!(count(format!("createdFrom={day}")).await, 1);
    assert_eq!(count(format!("createdFrom={before}&createdTo={before}")).await, 0);
    assert_eq!(count(format!("createdTo={before}")).await, 0);
    assert_eq!(count(format!("createdFrom={after}")).await, 0);
    assert_eq!(count(format!("createdFrom={before}&createdTo={after}&q=ada")).await, 1, "and with the other filters");

    for (query, param) in [
        ("createdFrom=yesterday", "createdFrom"),
        ("createdTo=2026-02-30", "createdTo"),
        ("createdTo=2026-2-3", "createdTo"),
        ("createdFrom=", "createdFrom"),
        ("createdFrom=2026-11-27&createdTo=2026-11-26", "createdFrom"),
    ] {
        let (status, body) = get(&s, &format!("{}?{query}", paths::EMAIL_MESSAGES), &t).await;
        assert_eq!(status, 400, "{query}: {body}");
        assert_eq!(fields(&body), [param], "{query}: {body}");
    }
}

on_both_backends!(
    a_send_is_accepted_with_its_ids_and_queued_in_the_outbox,
    the_outbox_is_filtered_by_the_utc_day_of_creation_both_ends_inclusive,
    every_broken_rule_is_a_400_naming_its_field_and_stores_nothing,
    templates_render_each_personalization_and_a_missing_variable_is_named,
    a_bulk_send_of_a_thousand_personalizations_is_one_request,
    without_a_relay_messages_reach_the_development_mailbox_with_their_attachments,
);

#[tokio::test]
async fn the_senders_are_the_configured_identities_and_the_outbox_needs_email_send() {
    let s = Server::start_with(|c| {
        c.email.senders =
            moneydesk_server::config::email::parse_senders("Ops <ops@bank.example>, @moneydesk.test").unwrap()
    })
    .await;
    let t = s.token(&[Scope::EmailSend]).await;
    let (status, body) = get(&s, paths::EMAIL_SENDERS, &t).await;
    assert_eq!(status, 200);
    assert_eq!(
        body["data"],
        json!([{"address": "ops@bank.example", "name": "Ops"}, {"address": "@moneydesk.test", "name": null}])
    );
    let other = s.token(&[Scope::RoutingRead]).await;
    for path in [paths::EMAIL_MESSAGES, paths::EMAIL_SENDERS, paths::EMAIL_TEMPLATES] {
        assert_eq!(s.get(path).await.status(), 401, "{path}");
        assert_eq!(s.get_auth(path, &other).await.status(), 403, "{path}");
    }
}
