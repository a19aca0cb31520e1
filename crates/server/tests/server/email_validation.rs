//! Address verification over real HTTP against a real DNS server on a loopback port
//! (`common::dns`): MX present, only an address record, neither, a null MX, no such domain,
//! an internationalised domain, DNS unreachable (unknown, never invalid), the risk flags,
//! the per-domain cache, the lists replaced without a restart, and the bulk form.

use crate::common;

use std::time::Duration;

use common::dns::{silent, DnsServer};
use common::{json, Server};
use moneydesk_model::{paths, Scope};
use serde_json::{json, Value};

async fn start(dns: std::net::SocketAddr, tweak: impl FnOnce(&mut moneydesk_server::Config)) -> Server {
    Server::start_with(|c| {
        c.email.verify.dns_server = Some(dns);
        c.email.verify.dns_timeout = Duration::from_millis(400);
        tweak(c);
    })
    .await
}

async fn verify(s: &Server, email: &str) -> Value {
    let t = s.token(&[Scope::EmailVerify]).await;
    let r = s
        .client
        .post(s.url(paths::EMAIL_VALIDATION))
        .bearer_auth(&t)
        .json(&json!({ "email": email }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "verifying {email}");
    json(r).await["data"].clone()
}

/// `name: result` of each check, in order.
fn checks(v: &Value) -> Vec<String> {
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| format!("{}: {}", c["name"].as_str().unwrap(), c["result"].as_str().unwrap()))
        .collect()
}

fn detail<'a>(v: &'a Value, check: &str) -> &'a str {
    v["checks"].as_array().unwrap().iter().find(|c| c["name"] == check).unwrap()["detail"].as_str().unwrap()
}

#[tokio::test]
async fn an_address_at_a_domain_with_mx_records_is_valid_and_names_them() {
    let dns = DnsServer::start().await;
    dns.mx("bank.example", 20, "mx2.bank.example").mx("bank.example", 10, "mx1.bank.example");
    let s = start(dns.addr, |_| {}).await;
    let v = verify(&s, "jane.doe@Bank.Example").await;
    assert_eq!(v["verdict"], "valid", "{v}");
    assert_eq!(v["score"], 100);
    assert_eq!(v["local"], "jane.doe");
    assert_eq!(v["host"], "bank.example");
    assert_eq!(v["suggestion"], Value::Null);
    assert_eq!(checks(&v), ["syntax: pass", "mail_server: pass", "disposable: pass", "role: pass", "typo: pass"]);
    assert_eq!(detail(&v, "mail_server"), "MX: mx1.bank.example (10), mx2.bank.example (20)", "by preference");
}

#[tokio::test]
async fn a_domain_with_only_an_address_record_takes_mail_itself() {
    let dns = DnsServer::start().await;
    dns.a("small.example", "192.0.2.7");
    let s = start(dns.addr, |_| {}).await;
    let v = verify(&s, "owner@small.example").await;
    assert_eq!(v["verdict"], "valid", "{v}");
    assert_eq!(v["score"], 90, "an implicit MX is a little less sure");
    assert!(detail(&v, "mail_server").contains("192.0.2.7"), "{v}");
    assert!(detail(&v, "mail_server").contains("RFC 5321"), "{v}");
}

#[tokio::test]
async fn a_domain_with_neither_mx_nor_address_records_is_invalid() {
    let dns = DnsServer::start().await;
    dns.txt("nomail.example", "v=spf1 -all");
    let s = start(dns.addr, |_| {}).await;
    let v = verify(&s, "a@nomail.example").await;
    assert_eq!(v["verdict"], "invalid", "{v}");
    assert_eq!(v["score"], 0);
    assert_eq!(checks(&v)[1], "mail_server: fail");
    assert!(detail(&v, "mail_server").contains("neither MX nor address"), "{v}");
}

#[tokio::test]
async fn a_null_mx_means_the_domain_takes_no_mail() {
    let dns = DnsServer::start().await;
    // A null MX beside an address record: the domain has a web site and refuses mail.
    dns.null_mx("www-only.example").a("www-only.example", "192.0.2.80");
    let s = start(dns.addr, |_| {}).await;
    let v = verify(&s, "sales@www-only.example").await;
    assert_eq!(v["verdict"], "invalid", "{v}");
    assert!(detail(&v, "mail_server").contains("RFC 7505"), "{v}");
}

#[tokio::test]
async fn a_domain_that_does_not_exist_is_invalid() {
    let dns = DnsServer::start().await;
    let s = start(dns.addr, |_| {}).await;
    let v = verify(&s, "a@nowhere.example").await;
    assert_eq!(v["verdict"], "invalid", "{v}");
    assert!(detail(&v, "mail_server").contains("does not exist"), "{v}");
}

#[tokio::test]
async fn an_internationalised_domain_is_looked_up_by_its_a_label() {
    let dns = DnsServer::start().await;
    dns.mx("xn--bcher-kva.example", 10, "mx.xn--bcher-kva.example");
    let s = start(dns.addr, |_| {}).await;
    let v = verify(&s, "orders@Bücher.example").await;
    assert_eq!(v["host"], "xn--bcher-kva.example");
    assert_eq!(checks(&v)[1], "mail_server: pass", "{v}");
    assert_eq!(v["verdict"], "risky", "orders@ is a role: {v}");
    assert!(detail(&v, "syntax").contains("bücher.example"), "the Unicode form for people: {v}");
    assert_eq!(dns.mx_queries_for("xn--bcher-kva.example"), 1);
}

#[tokio::test]
async fn dns_that_does_not_answer_makes_the_verdict_unknown_not_invalid() {
    let (addr, _udp, _tcp) = silent().await;
    let s = start(addr, |_| {}).await;
    let started = std::time::Instant::now();
    let v = verify(&s, "jane@bank.example").await;
    assert_eq!(v["verdict"], "unknown", "{v}");
    assert_eq!(checks(&v)[1], "mail_server: unknown");
    assert_eq!(v["score"], 50);
    assert!(detail(&v, "mail_server").starts_with("could not be checked"), "{v}");
    assert!(started.elapsed() < Duration::from_secs(5), "the timeout bounds the wait");
    // A failure to ask is not cached: once DNS answers, the address is judged.
    drop((_udp, _tcp));
}

#[tokio::test]
async fn a_resolver_port_with_nothing_listening_is_unknown_too() {
    let free = std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let s = start(free, |_| {}).await;
    let v = verify(&s, "jane@bank.example").await;
    assert_eq!(v["verdict"], "unknown", "{v}");
    // A malformed address stays invalid whatever DNS does.
    let v = verify(&s, "jane@@bank.example").await;
    assert_eq!(v["verdict"], "invalid", "{v}");
}

#[tokio::test]
async fn roles_disposable_domains_and_typos_are_risky_with_a_suggestion() {
    let dns = DnsServer::start().await;
    for d in ["bank.example", "eu.mailinator.com", "gmial.com"] {
        dns.mx(d, 10, &format!("mx.{d}"));
    }
    let s = start(dns.addr, |_| {}).await;

    let v = verify(&s, "Support+EU@bank.example").await;
    assert_eq!((v["verdict"].as_str(), &checks(&v)[3][..]), (Some("risky"), "role: warn"), "{v}");
    assert_eq!(v["score"], 80);

    let v = verify(&s, "x@eu.mailinator.com").await;
    assert_eq!(v["verdict"], "risky", "{v}");
    assert!(detail(&v, "disposable").contains("mailinator.com"), "{v}");

    let v = verify(&s, "jane@gmial.com").await;
    assert_eq!(v["verdict"], "risky", "{v}");
    assert_eq!(v["suggestion"], "jane@gmail.com");
    assert_eq!(detail(&v, "typo"), "did you mean gmail.com?");
    assert_eq!(v["score"], 60);
}

#[tokio::test]
async fn a_malformed_address_is_an_invalid_answer_and_a_missing_one_a_400() {
    let dns = DnsServer::start().await;
    let s = start(dns.addr, |_| {}).await;
    let v = verify(&s, "jane.doe.gmail.com").await;
    assert_eq!(v["verdict"], "invalid");
    assert_eq!(
        checks(&v),
        ["syntax: fail", "mail_server: skipped", "disposable: skipped", "role: skipped", "typo: skipped"]
    );
    assert!(detail(&v, "syntax").contains("exactly one @"), "{v}");
    let v = verify(&s, "jane@hotmail.con").await;
    assert_eq!(
        v["verdict"], "invalid",
        "`.con` is no top-level domain... but it parses; the domain does not exist: {v}"
    );
    assert_eq!(v["suggestion"], "jane@hotmail.com");
    assert_eq!(dns.queries_for("hotmail.con"), 1);

    let t = s.token(&[Scope::EmailVerify]).await;
    for body in [json!({}), json!({"email": 5}), json!({"emails": "a@b.example"})] {
        let r = s.client.post(s.url(paths::EMAIL_VALIDATION)).bearer_auth(&t).json(&body).send().await.unwrap();
        assert_eq!(r.status(), 400, "{body}");
        let b = json(r).await;
        assert!(b["errorMessage"].as_str().unwrap().contains("email"), "names the field: {b}");
    }
}

#[tokio::test]
async fn verifying_needs_the_email_verify_scope() {
    let dns = DnsServer::start().await;
    let s = start(dns.addr, |_| {}).await;
    let body = json!({"email": "a@bank.example"});
    let r = s.client.post(s.url(paths::EMAIL_VALIDATION)).json(&body).send().await.unwrap();
    assert_eq!(r.status(), 401);
    let t = s.token(&[Scope::EmailSend]).await;
    let r = s.client.post(s.url(paths::EMAIL_VALIDATION)).bearer_auth(&t).json(&body).send().await.unwrap();
    assert_eq!(r.status(), 403);
    let r = s
        .client
        .post(s.url(paths::EMAIL_VALIDATION_BULK))
        .bearer_auth(&t)
        .json(&json!({"emails": ["a@bank.example"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    assert_eq!(dns.queries_for("bank.example"), 0, "nothing looked up for a refused caller");
}

#[tokio::test]
async fn a_domains_answer_is_cached_for_the_configured_time() {
    let dns = DnsServer::start().await;
    dns.mx("bank.example", 10, "mx.bank.example");
    let s = start(dns.addr, |_| {}).await;
    verify(&s, "a@bank.example").await;
    verify(&s, "b@bank.example").await;
    assert_eq!(dns.mx_queries_for("bank.example"), 1, "the second answer came from the cache");

    let dns = DnsServer::start().await;
    dns.mx("bank.example", 10, "mx.bank.example");
    let s = start(dns.addr, |c| c.email.verify.domain_cache = Duration::ZERO).await;
    verify(&s, "a@bank.example").await;
    dns.remove("bank.example");
    let v = verify(&s, "b@bank.example").await;
    assert_eq!(v["verdict"], "invalid", "no cache: the change is seen at once: {v}");
    assert_eq!(dns.mx_queries_for("bank.example"), 2);
}

#[tokio::test]
async fn the_disposable_list_is_replaced_without_a_restart() {
    let dns = DnsServer::start().await;
    dns.mx("throwaway.example", 10, "mx.throwaway.example").mx("yopmail.com", 10, "mx.yopmail.com");
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("disposable.txt");
    std::fs::write(&list, "throwaway.example\n").unwrap();
    let path = list.clone();
    let s = start(dns.addr, move |c| c.email.verify.disposable_file = Some(path)).await;
    assert_eq!(verify(&s, "a@throwaway.example").await["verdict"], "risky");
    assert_eq!(verify(&s, "a@yopmail.com").await["verdict"], "risky", "the built-in list stays");
    std::fs::write(&list, "!yopmail.com\n").unwrap();
    let later = std::time::SystemTime::now() + Duration::from_secs(5);
    std::fs::File::options().write(true).open(&list).unwrap().set_modified(later).unwrap();
    assert_eq!(verify(&s, "a@throwaway.example").await["verdict"], "valid");
    assert_eq!(verify(&s, "a@yopmail.com").await["verdict"], "valid");
}

#[tokio::test]
async fn a_thousand_addresses_are_verified_in_one_request_each_domain_looked_up_once() {
    let dns = DnsServer::start().await;
    dns.mx("bank.example", 10, "mx.bank.example").a("small.example", "192.0.2.7");
    let s = start(dns.addr, |_| {}).await;
    let t = s.token(&[Scope::EmailVerify]).await;
    let emails: Vec<String> = (0..1000)
        .map(|i| match i % 4 {
            0 => format!("user{i}@bank.example"),
            1 => format!("user{i}@small.example"),
            2 => format!("user{i}@gone.example"),
            _ => format!("user{i} at bank.example"),
        })
        .collect();
    let r = s
        .client
        .post(s.url(paths::EMAIL_VALIDATION_BULK))
        .bearer_auth(&t)
        .json(&json!({ "emails": emails }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let b = json(r).await["data"].clone();
    let results = b["results"].as_array().unwrap();
    assert_eq!(results.len(), 1000);
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r["email"], emails[i], "in the order given");
    }
    assert_eq!(
        (b["valid"].as_u64(), b["invalid"].as_u64(), b["risky"].as_u64(), b["unknown"].as_u64()),
        (Some(500), Some(500), Some(0), Some(0))
    );
    assert_eq!(b["domains"], 3);
    for d in ["bank.example", "small.example", "gone.example"] {
        assert_eq!(dns.mx_queries_for(d), 1, "{d} looked up once");
    }

    let too_many: Vec<String> = (0..1001).map(|i| format!("u{i}@bank.example")).collect();
    for body in [json!({ "emails": too_many }), json!({ "emails": [] })] {
        let r = s.client.post(s.url(paths::EMAIL_VALIDATION_BULK)).bearer_auth(&t).json(&body).send().await.unwrap();
        assert_eq!(r.status(), 400);
        let b = json(r).await;
        assert_eq!(b["errors"][0]["field"], "emails", "{b}");
    }
}
