//! Custom sending domains over real HTTP, on both backends, against the tests' DNS server:
//! registration and its records, verification with records missing, wrong and right,
//! activation (an administrator's, or automatic), sending from the domain, and its messages'
//! DKIM signatures checked by a DKIM verifier (mail-auth) with the keys published in DNS.

use crate::common;

use std::time::{Duration, Instant};

use common::dns::DnsServer;
use common::{call, Backend, Server};
use moneydesk_model::{paths, Scope};
use serde_json::{json, Value};

async fn start(backend: Backend, dns: &DnsServer, auto: bool) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let addr = dns.addr;
    Server::start_in_dir(dir, move |c| {
        c.database_url = url;
        c.email.worker = true;
        c.email.verify.dns_server = Some(addr);
        c.email.verify.dns_timeout = Duration::from_millis(500);
        c.email.auto_activate_domains = auto;
    })
    .await
}

fn at(template: &str, domain: &str) -> String {
    template.replace("{domain}", domain)
}

/// `purpose: status` of each record of the last check.
fn statuses(d: &Value) -> Vec<String> {
    d["lastCheck"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| format!("{}: {}", c["purpose"].as_str().unwrap(), c["status"].as_str().unwrap()))
        .collect()
}

/// Installs the customer's records and the service's key records in the DNS server.
fn install(dns: &DnsServer, d: &Value) {
    for r in d["records"].as_array().unwrap().iter().chain(d["serviceRecords"].as_array().unwrap()) {
        let (host, value) = (r["host"].as_str().unwrap(), r["value"].as_str().unwrap());
        match r["type"].as_str().unwrap() {
            "CNAME" => dns.cname(host, value),
            _ => dns.txt(host, value),
        };
    }
}

async fn registering_lists_the_records_and_verification_reports_each(backend: Backend) {
    let dns = DnsServer::start().await;
    let s = start(backend, &dns, false).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let (status, body) =
        call(&s, reqwest::Method::POST, paths::EMAIL_DOMAINS, &t, Some(json!({"domain": "Notices.Bank.Example"})))
            .await;
    assert_eq!(status, 201, "{body}");
    let d = body["data"].clone();
    assert_eq!(d["domain"], "notices.bank.example");
    assert_eq!(d["state"], "pending");
    let records = d["records"].as_array().unwrap();
    assert_eq!(records.len(), 4);
    assert_eq!(records[0]["host"], "mdbounce.notices.bank.example");
    assert_eq!(records[0]["type"], "CNAME");
    assert_eq!(records[1]["host"], "md1._domainkey.notices.bank.example");
    assert!(d["serviceRecords"][0]["value"].as_str().unwrap().starts_with("v=DKIM1; k=rsa; p="), "{d}");
    assert!(d["serviceRecords"][1]["value"].as_str().unwrap().starts_with("v=DKIM1; k=ed25519; p="), "{d}");
    let (status, _) =
        call(&s, reqwest::Method::POST, paths::EMAIL_DOMAINS, &t, Some(json!({"domain": "notices.bank.example"})))
            .await;
    assert_eq!(status, 409, "registered once");
    let (status, b) =
        call(&s, reqwest::Method::POST, paths::EMAIL_DOMAINS, &t, Some(json!({"domain": "not a domain"}))).await;
    assert_eq!((status, b["errors"][0]["field"].as_str()), (400, Some("domain")), "{b}");

    // Nothing installed: every record missing.
    let verify = at(paths::EMAIL_DOMAIN_VERIFY, "notices.bank.example");
    let (status, b) = call(&s, reqwest::Method::POST, &verify, &t, None).await;
    assert_eq!(status, 200, "{b}");
    assert_eq!(statuses(&b["data"]), ["return_path: missing", "dkim1: missing", "dkim2: missing", "spf: missing"]);
    assert_eq!(b["data"]["state"], "pending");

    // Installed, one DKIM CNAME pointing elsewhere and an SPF without the service: wrong, and
    // what was found is reported.
    install(&dns, &d);
    dns.remove("md2._domainkey.notices.bank.example")
        .cname("md2._domainkey.notices.bank.example", "md2.other-provider.example");
    dns.remove("notices.bank.example").txt("notices.bank.example", "v=spf1 include:_spf.other.example -all");
    let (_, b) = call(&s, reqwest::Method::POST, &verify, &t, None).await;
    assert_eq!(statuses(&b["data"]), ["return_path: found", "dkim1: found", "dkim2: wrong", "spf: wrong"]);
    assert_eq!(b["data"]["lastCheck"][2]["found"][0], "md2.other-provider.example");
    assert_eq!(b["data"]["state"], "pending");

    // Right (the SPF record is advice, not needed to verify; installing ours beside the other
    // makes two SPF records, which RFC 7208 calls an error: still wrong).
    install(&dns, &d);
    dns.remove("md2._domainkey.notices.bank.example")
        .cname("md2._domainkey.notices.bank.example", d["records"][2]["value"].as_str().unwrap());
    let (_, b) = call(&s, reqwest::Method::POST, &verify, &t, None).await;
    assert_eq!(statuses(&b["data"]), ["return_path: found", "dkim1: found", "dkim2: found", "spf: wrong"]);
    assert_eq!(b["data"]["state"], "verified");
    assert!(b["data"]["verifiedAt"].is_string());

    let (_, list) = call(&s, reqwest::Method::GET, paths::EMAIL_DOMAINS, &t, None).await;
    assert_eq!(list["data"][0]["domain"], "notices.bank.example");
    let (status, _) = call(&s, reqwest::Method::GET, &at(paths::EMAIL_DOMAIN, "nowhere.example"), &t, None).await;
    assert_eq!(status, 404);
}

async fn an_active_domain_sends_dkim_signed_mail_that_verifies(backend: Backend) {
    let dns = DnsServer::start().await;
    let s = start(backend, &dns, false).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let admin = s.token(&[Scope::Admin]).await;
    let message = json!({
        "from": {"email": "statements@notices.bank.example", "name": "Bank"},
        "subject": "Your statement",
        "content": [{"type": "text/plain", "value": "Hello"}],
        "personalizations": [{"to": [{"email": "ada@client.example"}]}]
    });
    // Not a sender yet.
    let (status, b) = call(&s, reqwest::Method::POST, paths::EMAIL_SEND, &t, Some(message.clone())).await;
    assert_eq!((status, b["errors"][0]["field"].as_str()), (400, Some("from.email")), "{b}");

    let (_, b) =
        call(&s, reqwest::Method::POST, paths::EMAIL_DOMAINS, &t, Some(json!({"domain": "notices.bank.example"})))
            .await;
    let d = b["data"].clone();
    let activate = at(paths::EMAIL_DOMAIN_ACTIVATE, "notices.bank.example");
    let (status, _) = call(&s, reqwest::Method::POST, &activate, &admin, None).await;
    assert_eq!(status, 409, "not verified yet");
    install(&dns, &d);
    let (_, b) =
        call(&s, reqwest::Method::POST, &at(paths::EMAIL_DOMAIN_VERIFY, "notices.bank.example"), &t, None).await;
    assert_eq!(b["data"]["state"], "verified", "{b}");
    let (status, _) = call(&s, reqwest::Method::POST, &activate, &t, None).await;
    assert_eq!(status, 403, "activation is an administrator's");
    let (status, b) = call(&s, reqwest::Method::POST, &activate, &admin, None).await;
    assert_eq!((status, b["data"]["state"].as_str()), (200, Some("active")), "{b}");

    let (status, b) = call(&s, reqwest::Method::POST, paths::EMAIL_SEND, &t, Some(message)).await;
    assert_eq!(status, 202, "any address of an active domain: {b}");
    let id = b["data"][0].as_str().unwrap().to_string();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, m) = call(&s, reqwest::Method::GET, &paths::EMAIL_MESSAGE.replace("{messageId}", &id), &t, None).await;
        if m["data"]["state"] == "sent" {
            break;
        }
        assert!(Instant::now() < deadline, "not sent: {m}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let raw = s.get_auth(&paths::EMAIL_MESSAGE_RAW.replace("{messageId}", &id), &t).await.bytes().await.unwrap();
    let text = String::from_utf8_lossy(&raw);
    assert_eq!(text.matches("DKIM-Signature:").count(), 2, "{text}");

    // A DKIM verifier asking the same DNS: both signatures pass with the published keys.
    let mut ns = hickory_resolver::config::NameServerConfig::udp_and_tcp(dns.addr.ip());
    for c in &mut ns.connections {
        c.port = dns.addr.port();
    }
    let config = hickory_resolver::config::ResolverConfig::from_name_servers(vec![ns]);
    let authenticator = mail_auth::MessageAuthenticator::new(config, Default::default()).unwrap();
    let parsed = mail_auth::AuthenticatedMessage::parse(&raw).unwrap();
    let results = authenticator.verify_dkim(&parsed).await;
    assert_eq!(results.len(), 2);
    for r in &results {
        assert_eq!(r.result(), &mail_auth::DkimResult::Pass, "{r:?}");
    }

    // Deleted (an administrator's): no longer a sender.
    let (status, _) =
        call(&s, reqwest::Method::DELETE, &at(paths::EMAIL_DOMAIN, "notices.bank.example"), &admin, None).await;
    assert_eq!(status, 204);
    let (status, _) = call(&s, reqwest::Method::GET, &at(paths::EMAIL_DOMAIN, "notices.bank.example"), &t, None).await;
    assert_eq!(status, 404);
}

async fn with_automatic_activation_a_verified_domain_is_active_at_once(backend: Backend) {
    let dns = DnsServer::start().await;
    let s = start(backend, &dns, true).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let (_, b) =
        call(&s, reqwest::Method::POST, paths::EMAIL_DOMAINS, &t, Some(json!({"domain": "bücher.example"}))).await;
    let d = b["data"].clone();
    assert_eq!(d["domain"], "xn--bcher-kva.example", "kept as A-labels");
    install(&dns, &d);
    let (_, b) = call(&s, reqwest::Method::POST, &at(paths::EMAIL_DOMAIN_VERIFY, "bücher.example"), &t, None).await;
    assert_eq!(b["data"]["state"], "active", "{b}");
    assert!(b["data"]["activatedAt"].is_string());
    // A record gone later: the check shows it; the domain stays active (an administrator decides).
    dns.remove("md1._domainkey.xn--bcher-kva.example");
    let (_, b) =
        call(&s, reqwest::Method::POST, &at(paths::EMAIL_DOMAIN_VERIFY, "xn--bcher-kva.example"), &t, None).await;
    assert_eq!(statuses(&b["data"])[1], "dkim1: missing");
    assert_eq!(b["data"]["state"], "active");
}

on_both_backends!(
    registering_lists_the_records_and_verification_reports_each,
    an_active_domain_sends_dkim_signed_mail_that_verifies,
    with_automatic_activation_a_verified_domain_is_active_at_once,
);

#[tokio::test]
async fn dns_that_does_not_answer_leaves_every_record_unknown() {
    let (addr, _udp, _tcp) = common::dns::silent().await;
    let s = Server::start_with(|c| {
        c.email.verify.dns_server = Some(addr);
        c.email.verify.dns_timeout = Duration::from_millis(300);
    })
    .await;
    let t = s.token(&[Scope::EmailSend]).await;
    call(&s, reqwest::Method::POST, paths::EMAIL_DOMAINS, &t, Some(json!({"domain": "bank.example"}))).await;
    let (_, b) = call(&s, reqwest::Method::POST, &at(paths::EMAIL_DOMAIN_VERIFY, "bank.example"), &t, None).await;
    assert_eq!(statuses(&b["data"]), ["return_path: unknown", "dkim1: unknown", "dkim2: unknown", "spf: unknown"]);
    assert_eq!(b["data"]["state"], "pending");
}
