//! Idle connections (issue 11), over real sockets: a half-sent request head is dropped after
//! the header read timeout, an idle keep-alive connection after the keep-alive timeout, and
//! beyond the connection cap new clients wait (with one log line) until a connection closes.
//! The timeouts are set short here; the bounds on the waits below only keep a broken server
//! from hanging the test, they measure nothing.

use crate::common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::Server;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const HEALTHY_REQUEST: &[u8] = b"GET /api/openapi.json HTTP/1.1\r\nHost: test\r\n\r\n";
/// Longer than any timeout the tests set, shorter than the defaults (10 s, 60 s).
const PATIENCE: Duration = Duration::from_secs(8);

async fn server(header: Duration, keep_alive: Duration, max_connections: usize) -> Server {
    Server::start_with(|c| {
        c.limits.header_read_timeout = header;
        c.limits.keep_alive_timeout = keep_alive;
        c.limits.max_connections = max_connections;
    })
    .await
}

/// Reads until the server closes the connection; the bytes read, or `None` if it stays open
/// for `PATIENCE`.
async fn read_until_closed(conn: &mut TcpStream, patience: Duration) -> Option<Vec<u8>> {
    let mut all = Vec::new();
    let mut buf = [0u8; 4096];
    tokio::time::timeout(patience, async {
        loop {
            match conn.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => all.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await
    .ok()?;
    Some(all)
}

/// Reads one complete answer to `HEALTHY_REQUEST` (headers and a Content-Length body).
async fn read_answer(conn: &mut TcpStream) -> String {
    let mut all = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = tokio::time::timeout(PATIENCE, conn.read(&mut buf)).await.expect("an answer").expect("read");
        assert!(n > 0, "closed before answering: {}", String::from_utf8_lossy(&all));
        all.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&all).to_string();
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse::<usize>().unwrap())
                })
                .expect("content-length");
            if all.len() >= end + 4 + length {
                return text;
            }
        }
    }
}

#[tokio::test]
async fn a_half_sent_request_head_is_dropped_after_the_header_read_timeout() {
    let s = server(Duration::from_millis(200), Duration::from_secs(60), 64).await;
    for half in [&b"GET /api/openapi.json HTTP/1.1\r\nHost: te"[..], b""] {
        let mut conn = TcpStream::connect(s.running.addr).await.unwrap();
        conn.write_all(half).await.unwrap();
        let rest = read_until_closed(&mut conn, PATIENCE).await;
        assert!(rest.is_some(), "a connection that sent {:?} is still open", String::from_utf8_lossy(half));
    }
    // A head sent whole on a fresh connection is answered.
    let mut conn = TcpStream::connect(s.running.addr).await.unwrap();
    conn.write_all(HEALTHY_REQUEST).await.unwrap();
    assert!(read_answer(&mut conn).await.starts_with("HTTP/1.1 200"));
    // A later head that stalls half way is dropped too, although the keep-alive timeout is long.
    conn.write_all(b"GET /api/openapi.json HTTP/1.1\r\n").await.unwrap();
    assert!(read_until_closed(&mut conn, PATIENCE).await.is_some(), "a stalled second head is still open");
    s.running.stop().await;
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_after_the_keep_alive_timeout() {
    // Two seconds: a loaded machine (the suite beside the release build) must read the first
    // answer and send the second request within it; 200 ms was not always enough (the server
    // closed the connection between the two, and the second request met a reset).
    let s = server(Duration::from_secs(60), Duration::from_secs(2), 64).await;
    let mut conn = TcpStream::connect(s.running.addr).await.unwrap();
    for _ in 0..2 {
        conn.write_all(HEALTHY_REQUEST).await.unwrap();
        assert!(read_answer(&mut conn).await.starts_with("HTTP/1.1 200"), "kept alive between requests");
    }
    let rest = read_until_closed(&mut conn, PATIENCE).await;
    assert_eq!(rest, Some(Vec::new()), "the idle connection is closed without another answer");
    s.running.stop().await;
}

/// Captures the server's log lines (the test runtime runs the server on this thread).
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Logs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn beyond_the_connection_cap_new_clients_wait_until_one_closes() {
    let logs = Logs::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt().with_ansi(false).with_writer(move || writer.clone()).finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let s = server(Duration::from_secs(60), Duration::from_secs(60), 2).await;

    let mut first = TcpStream::connect(s.running.addr).await.unwrap();
    let mut second = TcpStream::connect(s.running.addr).await.unwrap();
    for conn in [&mut first, &mut second] {
        conn.write_all(HEALTHY_REQUEST).await.unwrap();
        assert!(read_answer(conn).await.starts_with("HTTP/1.1 200"));
    }
    // The third connects (the kernel queues it) but is not served while two are open.
    let mut third = TcpStream::connect(s.running.addr).await.unwrap();
    third.write_all(HEALTHY_REQUEST).await.unwrap();
    let mut byte = [0u8; 1];
    let early = tokio::time::timeout(Duration::from_millis(300), third.read(&mut byte)).await;
    assert!(early.is_err(), "the third connection was answered while two were open: {early:?}");
    let log = String::from_utf8_lossy(&logs.0.lock().unwrap()).to_string();
    assert_eq!(log.matches("connection limit reached").count(), 1, "one log line: {log}");
    assert!(log.contains("2 connections are open"), "{log}");

    drop(first);
    assert!(read_answer(&mut third).await.starts_with("HTTP/1.1 200"), "served once a connection closed");
    s.running.stop().await;
}
