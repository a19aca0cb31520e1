//! One receiver does not hold every delivery lane (issue 43): once an endpoint's attempts fail,
//! at most two of its deliveries are in flight, across the worker's eight lanes; a healthy but
//! slow one holds at most six of them. The other endpoints' deliveries go on through the rest.

use crate::common;
use crate::webhooks_support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::Backend;
use moneydesk_model::events::EventType;
use moneydesk_model::paths;
use serde_json::json;
use tokio::io::AsyncReadExt;
use webhooks_support::*;

/// A receiver that reads each request and never answers: the server's client gives up at its
/// timeout and closes the connection. Counts the connections holding a request unanswered now,
/// and the most there ever were: one connection a request, as reqwest pools only a connection
/// whose answer came.
struct Stall {
    url: String,
    most: Arc<AtomicUsize>,
    requests: Arc<AtomicUsize>,
}

impl Stall {
    async fn start() -> Stall {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let (open, most, requests): (Arc<AtomicUsize>, Arc<AtomicUsize>, Arc<AtomicUsize>) = Default::default();
        let (o, m, r) = (Arc::clone(&open), Arc::clone(&most), Arc::clone(&requests));
        tokio::spawn(async move {
            loop {
                let (mut conn, _) = listener.accept().await.unwrap();
                let (o, m, r) = (o.clone(), m.clone(), r.clone());
                tokio::spawn(async move {
                    let mut buf = [0u8; 4096];
                    let mut counted = false;
                    // Counted from its first bytes until the client hangs up.
                    while let Ok(n) = conn.read(&mut buf).await {
                        if n == 0 {
                            break;
                        }
                        if !counted {
                            counted = true;
                            r.fetch_add(1, Ordering::SeqCst);
                            let now = o.fetch_add(1, Ordering::SeqCst) + 1;
                            m.fetch_max(now, Ordering::SeqCst);
                        }
                    }
                    if counted {
                        o.fetch_sub(1, Ordering::SeqCst);
                    }
                });
            }
        });
        Stall { url, most, requests }
    }
}

async fn a_stalling_receiver_holds_two_lanes_and_the_others_are_delivered(backend: Backend) {
    let stall = Stall::start().await;
    let fine = Receiver::start(0, false).await;
    let s = start(backend, |c| {
        c.webhooks.timeout = Duration::from_millis(1500);
        c.webhooks.retry_base = Duration::from_millis(100);
        c.webhooks.retry_max = Duration::from_millis(200);
    })
    .await;
    let t = token(&s).await;
    let (stalled, _) = endpoint(&s, &t, &stall.url, json!(["deposit.created"])).await;
    endpoint(&s, &t, &fine.url, json!(["deposit.sent"])).await;

    // Its first attempt times out: the endpoint is failing from then on.
    event(&s, EventType::DepositCreated, "0", json!({"id": 0})).await;
    let log = path(paths::WEBHOOK_ENDPOINT_DELIVERIES, &stalled);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let rows = get(&s, &t, &log).await;
        if rows["data"]["content"].as_array().unwrap().iter().any(|r| r["status"] == "retrying") {
            break;
        }
        assert!(Instant::now() < deadline, "the stalled attempt never timed out: {rows}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Forty deliveries to it queued first (forty objects: none waits on another), then twenty
    // to the other: without the cap all eight lanes took the first ones, each for a timeout.
    for i in 1..=40 {
        event(&s, EventType::DepositCreated, &i.to_string(), json!({"id": i})).await;
    }
    for i in 1..=20 {
        event(&s, EventType::DepositSent, &(100 + i).to_string(), json!({"id": 100 + i})).await;
    }
    fine.wait_accepted(20).await;
    assert!(stall.requests.load(Ordering::SeqCst) >= 2, "the stalled endpoint was still tried");
    assert!(
        stall.most.load(Ordering::SeqCst) <= 2,
        "a failing endpoint had {} requests in flight at once (at most 2)",
        stall.most.load(Ordering::SeqCst)
    );
    s.running.stop().await;
}

/// A receiver that holds every request until the gate opens, then answers 200: slow, never
/// failing. Counts the requests it holds now and the most it ever held.
struct Gated {
    url: String,
    open: Arc<tokio::sync::watch::Sender<bool>>,
    held: Arc<AtomicUsize>,
    most: Arc<AtomicUsize>,
    answered: Arc<AtomicUsize>,
}

impl Gated {
    async fn start() -> Gated {
        let (open, gate) = tokio::sync::watch::channel(false);
        let (held, most, answered): (Arc<AtomicUsize>, Arc<AtomicUsize>, Arc<AtomicUsize>) = Default::default();
        let (h, m, a) = (held.clone(), most.clone(), answered.clone());
        let app = axum::Router::new().route(
            "/hook",
            axum::routing::post(move || {
                let (mut gate, h, m, a) = (gate.clone(), h.clone(), m.clone(), a.clone());
                async move {
                    m.fetch_max(h.fetch_add(1, Ordering::SeqCst) + 1, Ordering::SeqCst);
                    let _ = gate.wait_for(|open| *open).await;
                    h.fetch_sub(1, Ordering::SeqCst);
                    a.fetch_add(1, Ordering::SeqCst);
                    "thanks"
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Gated { url, open: Arc::new(open), held, most, answered }
    }
}

async fn a_slow_receiver_holds_six_lanes_and_the_others_are_delivered(backend: Backend) {
    let slow = Gated::start().await;
    let fine = Receiver::start(0, false).await;
    let s = start(backend, |c| c.webhooks.timeout = Duration::from_secs(60)).await;
    let t = token(&s).await;
    endpoint(&s, &t, &slow.url, json!(["deposit.created"])).await;
    endpoint(&s, &t, &fine.url, json!(["deposit.sent"])).await;

    // Forty deliveries to the slow one queued first, then twenty to the other. Without the cap
    // the eight lanes all took the first ones and held them until the gate opened.
    for i in 1..=40 {
        event(&s, EventType::DepositCreated, &i.to_string(), json!({"id": i})).await;
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    while slow.held.load(Ordering::SeqCst) < 6 {
        assert!(Instant::now() < deadline, "the slow receiver never got six requests");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for i in 1..=20 {
        event(&s, EventType::DepositSent, &(100 + i).to_string(), json!({"id": 100 + i})).await;
    }
    fine.wait_accepted(20).await;
    assert_eq!(slow.answered.load(Ordering::SeqCst), 0, "every slow request still held");
    assert_eq!(slow.most.load(Ordering::SeqCst), 6, "six lanes for the slow endpoint, two for the others");

    // Answered at last: every one delivered, none failed (a slow receiver is not a failing one).
    slow.open.send_replace(true);
    let deadline = Instant::now() + Duration::from_secs(30);
    while slow.answered.load(Ordering::SeqCst) < 40 {
        assert!(Instant::now() < deadline, "{} of 40 answered", slow.answered.load(Ordering::SeqCst));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(slow.most.load(Ordering::SeqCst) <= 6, "never more than six at once");
    s.running.stop().await;
}

on_both_backends!(a_stalling_receiver_holds_two_lanes_and_the_others_are_delivered);
on_both_backends!(a_slow_receiver_holds_six_lanes_and_the_others_are_delivered);
