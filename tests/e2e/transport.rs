//! The portal over each protocol the server speaks (issue 50): with a certificate the server
//! terminates TLS and Chromium loads every file and API answer of a page over HTTP/2 (ALPN);
//! without one, over HTTP/1.1 as before (Chromium speaks HTTP/2 only over TLS). The protocol
//! is what the browser's own resource timing says it used.

use moneydesk_e2e::certificates::{certificates, tls_files};
use moneydesk_e2e::{Harness, Scope};
use serde_json::Value;

/// Signs in, opens the accounts page until its rows are shown, and returns each request the
/// page made over the network (the document, its files, its API calls) with the protocol it
/// went over. (A file a preload had already fetched is listed again with no protocol: it took
/// no network hop of its own, and is left out.)
async fn accounts_page_requests(h: &Harness) -> Vec<(String, String)> {
    let token = h.token(&[Scope::AccountsRead]).await;
    h.sign_in(&token).await;
    h.goto("/accounts").await;
    h.wait_for("tbody tr[data-id]").await;
    let entries = h
        .js(
            "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
                .map(e => [e.name, e.nextHopProtocol])",
            vec![],
        )
        .await;
    let Value::Array(entries) = entries else { panic!("entries: {entries}") };
    let requests: Vec<(String, String)> = entries
        .iter()
        .map(|e| (e[0].as_str().unwrap().to_string(), e[1].as_str().unwrap().to_string()))
        .filter(|(_, protocol)| !protocol.is_empty())
        .collect();
    let api = requests.iter().filter(|(url, _)| url.contains("/api/v1/cores/unifi/accounts")).count();
    let code = requests.iter().filter(|(url, _)| url.contains("/build-")).count();
    assert!(api >= 1 && code >= 3, "the page's code and rows are among the requests: {requests:#?}");
    requests
}

#[tokio::test]
async fn with_a_certificate_the_portal_is_loaded_over_http2() {
    let certs = tempfile::tempdir().unwrap();
    certificates(certs.path());
    let tls = tls_files(certs.path());
    // Chromium does not know the test CA (a deployment's certificate chains to one it knows).
    let flags = ["--ignore-certificate-errors".to_string()];
    let h = Harness::start_with_flags(&flags, |c| {
        c.seed_demo = true;
        c.transport.tls = Some(tls);
    })
    .await;
    assert!(h.page_url("/").starts_with("https://"), "{}", h.page_url("/"));
    let requests = accounts_page_requests(&h).await;
    let not_h2: Vec<_> = requests.iter().filter(|(_, protocol)| protocol != "h2").collect();
    assert!(not_h2.is_empty(), "requests not over HTTP/2: {not_h2:#?}");
    h.finish().await;
}

#[tokio::test]
async fn without_one_the_portal_is_loaded_over_http1() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let requests = accounts_page_requests(&h).await;
    let not_h1: Vec<_> = requests.iter().filter(|(_, protocol)| protocol != "http/1.1").collect();
    assert!(not_h1.is_empty(), "requests not over HTTP/1.1: {not_h1:#?}");
    h.finish().await;
}
