//! Inbound messages: received by SMTP, delivered to a webhook receiver (a 503 first, then a
//! 200), their deliveries shown, redelivered one by one and in bulk.

use moneydesk_e2e::{Harness, Scope};

/// A webhook receiver on a loopback port: 503 to the first POST, 200 after; counts the POSTs.
async fn receiver() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let hits = std::sync::Arc::new(AtomicUsize::new(0));
    let counted = hits.clone();
    let app = axum::Router::new().route(
        "/inbound",
        axum::routing::post(move || {
            let n = counted.fetch_add(1, Ordering::SeqCst);
            async move {
                if n == 0 {
                    (axum::http::StatusCode::SERVICE_UNAVAILABLE, "busy")
                } else {
                    (axum::http::StatusCode::OK, "thanks")
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/inbound", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, hits)
}

/// One message into the server's SMTP listener, spoken line by line as a sending MTA would.
async fn smtp_deliver(addr: std::net::SocketAddr, from: &str, to: &str, message: &str) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let (r, mut w) = tokio::net::TcpStream::connect(addr).await.unwrap().into_split();
    let mut lines = BufReader::new(r).lines();
    let mut expect = async |code: &str| loop {
        let l = lines.next_line().await.unwrap().expect("a reply");
        assert!(l.starts_with(code), "expected {code}, got {l}");
        if l.as_bytes().get(3) == Some(&b' ') {
            break;
        }
    };
    expect("220").await;
    for (command, code) in [
        ("EHLO sender.example".to_string(), "250"),
        (format!("MAIL FROM:<{from}>"), "250"),
        (format!("RCPT TO:<{to}>"), "250"),
        ("DATA".into(), "354"),
    ] {
        w.write_all(format!("{command}\r\n").as_bytes()).await.unwrap();
        expect(code).await;
    }
    w.write_all(format!("{message}\r\n.\r\n").as_bytes()).await.unwrap();
    expect("250").await;
    w.write_all(b"QUIT\r\n").await.unwrap();
    expect("221").await;
}

/// Inbound: a route added (its secret revealed), a message sent into the SMTP listener, seen
/// in the list with its deliveries — a 503 then, on the retry, a 200 — and redelivered.
#[tokio::test]
async fn an_inbound_message_is_received_by_smtp_and_its_deliveries_are_shown() {
    let (h, hits) = with_a_route().await;
    h.wait_for_text("#inbound-routes tr[data-domain='in.bank.example']", "in.bank.example MX 10 mx.moneydesk.test")
        .await;
    h.click("#inbound-routes .inbound-reveal").await;
    h.wait_for_text("#inbound-routes .inbound-secret", "whsec_").await;

    let smtp = h.server().inbound_smtp_addr().expect("the listener runs");
    smtp_deliver(smtp, "notices@corp.example", "ops@in.bank.example", "From: Corp <notices@corp.example>\r\nTo: ops@in.bank.example\r\nSubject: Statement ready\r\n\r\nYour statement is ready.").await;
    h.click("#inbound-refresh").await;
    h.wait_for_text("#inbound-messages", "Statement ready").await;
    h.click("#inbound-messages .inbound-open").await;
    h.wait_js("new URLSearchParams(location.search).get('inbound') !== null", "the message in the URL").await;
    h.wait_for_text("#inbound-message-title .badge", "Delivered").await;
    h.wait_for_text("#inbound-attempts tbody tr:nth-child(1)", "503").await;
    h.wait_for_text("#inbound-attempts tbody tr:nth-child(2)", "200 OK: thanks").await;
    h.wait_for_text("#inbound-message", "MAIL FROM <notices@corp.example> → ops@in.bank.example").await;

    h.click("#inbound-redeliver").await;
    h.wait_for_text("#inbound-said", "Posting it again").await;
    h.wait_for_text("#inbound-attempts tbody tr:nth-child(3)", "200").await;
    assert_eq!(hits.load(std::sync::atomic::Ordering::SeqCst), 3);
    h.finish().await;
}

/// Inbound: two messages received and delivered (each after a 503), then both redelivered in
/// one bulk request.
#[tokio::test]
async fn inbound_messages_are_redelivered_in_bulk() {
    let (h, hits) = with_a_route().await;
    let smtp = h.server().inbound_smtp_addr().expect("the listener runs");
    for subject in ["First", "Second"] {
        let message =
            format!("From: notices@corp.example\r\nTo: ops@in.bank.example\r\nSubject: {subject}\r\n\r\nHello.");
        smtp_deliver(smtp, "notices@corp.example", "ops@in.bank.example", &message).await;
    }
    h.click("#inbound-refresh").await;
    h.wait_js("document.querySelectorAll('#inbound-messages .badge').length === 2 && [...document.querySelectorAll('#inbound-messages .badge')].every(b => b.textContent === 'Delivered')", "both delivered").await;
    let delivered = hits.load(std::sync::atomic::Ordering::SeqCst);

    h.click("#inbound-messages thead .bulk-check").await;
    h.wait_for_text("#inbound-bulk-bar .bulk-count", "2 messages selected.").await;
    h.click("#inbound-bulk-bar [data-bulk-action=redeliver]").await;
    h.click("#inbound-bulk-bar [data-bulk=yes]").await;
    h.wait_for_text("#inbound-bulk-summary", "2 redelivered, 0 refused.").await;
    h.wait_js("document.querySelectorAll('#inbound-messages [data-outcome=done]').length === 2", "each row's outcome")
        .await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while hits.load(std::sync::atomic::Ordering::SeqCst) < delivered + 2 && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(hits.load(std::sync::atomic::Ordering::SeqCst), delivered + 2, "each posted once more");
    h.finish().await;
}

/// A signed-in Inbound tab (a server with its SMTP listener and quick retries) after adding a
/// route for in.bank.example to the test receiver ([`receiver`]); its count of deliveries.
async fn with_a_route() -> (Harness, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    let (url, hits) = receiver().await;
    let h = Harness::start_with(|c| {
        c.email.worker = true;
        c.email.inbound.smtp = Some("127.0.0.1:0".parse().unwrap());
        c.email.inbound.retry_base = std::time::Duration::from_millis(300);
    })
    .await;
    let token = h.token(&[Scope::EmailSend]).await;
    h.sign_in(&token).await;
    h.goto("/email?tab=inbound").await;
    h.wait_for("#inbound-routes-empty").await;
    h.type_into("#inbound-domain", "in.bank.example").await;
    h.type_into("#inbound-url", &url).await;
    h.click(".email-inbound-new button[type=submit]").await;
    h.wait_for("#inbound-routes tr[data-domain='in.bank.example']").await;
    (h, hits)
}
