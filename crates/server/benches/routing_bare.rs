//! The HTTP ceiling for `scripts/bench-routing`: a bare axum endpoint returning a constant,
//! on the same runtime settings as the server — served by `axum::serve` on BENCH_BARE_ADDR
//! (the reference) and, when BENCH_BARE_SERVED_ADDR is set, also by the server's own
//! connection loop (`moneydesk_server::serve`, hyper's HTTP/1.1 builder with one write per
//! answer), to tell what the app costs apart from how connections are served.
//! Serves only when BENCH_BARE_ADDR is set (so a plain `cargo bench` does not hang here).

use axum::routing::get;
use axum::Router;

fn main() {
    let Ok(addr) = std::env::var("BENCH_BARE_ADDR") else {
        eprintln!(
            "routing_bare: set BENCH_BARE_ADDR=127.0.0.1:8091 to serve GET /bare (used by scripts/bench-routing)"
        );
        return;
    };
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async move {
        let app =
            Router::new().route("/bare", get(|| async { ([("content-type", "application/json")], "{\"ok\":true}") }));
        if let Ok(served) = std::env::var("BENCH_BARE_SERVED_ADDR") {
            let listener = tokio::net::TcpListener::bind(&served).await.expect("bind");
            eprintln!("routing_bare: listening on {served} (the server's connection loop)");
            tokio::spawn(moneydesk_server::serve::serve(
                listener,
                app.clone(),
                Default::default(),
                std::future::pending(),
            ));
        }
        let listener = tokio::net::TcpListener::bind(&addr).await.expect("bind");
        eprintln!("routing_bare: listening on {addr}");
        axum::serve(listener, app).await.expect("serve");
    });
}
