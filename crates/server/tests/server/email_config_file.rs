//! Email settings written in the `MONEYDESK_CONFIG` file, as the server binary reads them: the
//! relay and the senders there take effect (a message from a file-listed sender reaches the
//! relay the file names; another sender is refused), and a variable still wins over the file.

use crate::common;

use common::json;
use common::smtp::SmtpSink;
use moneydesk_model::paths;
use serde_json::{json, Value};

fn message(from: &str) -> Value {
    json!({"from": {"email": from}, "subject": "Statement", "content": [{"type": "text/plain", "value": "Ready"}],
        "personalizations": [{"to": [{"email": "zoe@client.example"}]}]})
}

#[tokio::test]
async fn the_relay_and_senders_of_the_config_file_take_effect_and_variables_win() {
    let dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start();
    let file = dir.path().join("moneydesk.toml");
    std::fs::write(
        &file,
        format!(
            "smtp_url = \"{}\"\nemail_senders = [\"Statements <statements@bank.example>\", \"@notices.bank.example\"]\nemail_connections = 2\nemail_retry_base = \"1s\"\n",
            sink.url()
        ),
    )
    .unwrap();
    let out = common::cli(dir.path(), &["token", "create", "--name", "ops", "--scope", "email:send"]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let token = String::from_utf8(out.stdout).unwrap().trim().to_string();
    let config = ("MONEYDESK_CONFIG", file.to_str().unwrap().to_string());
    let client = reqwest::Client::new();

    let server = common::process::start(dir.path(), std::slice::from_ref(&config)).await;
    let senders =
        json(client.get(format!("{}{}", server.base, paths::EMAIL_SENDERS)).bearer_auth(&token).send().await.unwrap())
            .await;
    assert_eq!(
        senders["data"],
        json!([{"address": "statements@bank.example", "name": "Statements"}, {"address": "@notices.bank.example", "name": null}])
    );
    let send = |from: &str| {
        client.post(format!("{}{}", server.base, paths::EMAIL_SEND)).bearer_auth(&token).json(&message(from)).send()
    };
    let r = send("ops@moneydesk.test").await.unwrap();
    assert_eq!(r.status(), 400, "the default sender is not among the file's: {}", json(r).await);
    let r = send("statements@bank.example").await.unwrap();
    assert_eq!(r.status(), 202);
    let got = sink.wait_for(1, 20).await;
    assert_eq!(got.len(), 1, "the file's relay got the message");
    assert_eq!(
        (got[0].mail_from.as_str(), got[0].rcpt_tos.clone()),
        ("statements@bank.example", vec!["zoe@client.example".to_string()])
    );
    server.kill_9();

    let server =
        common::process::start(dir.path(), &[config, ("MONEYDESK_EMAIL_SENDERS", "@other.example".into())]).await;
    let senders =
        json(client.get(format!("{}{}", server.base, paths::EMAIL_SENDERS)).bearer_auth(&token).send().await.unwrap())
            .await;
    assert_eq!(
        senders["data"],
        json!([{"address": "@other.example", "name": null}]),
        "the variable wins over the file"
    );
    server.kill_9();
}
