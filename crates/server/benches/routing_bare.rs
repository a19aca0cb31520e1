//! The HTTP ceiling for `scripts/bench-routing`: a bare axum endpoint returning a constant,
//! on the same runtime settings as the server. Serves only when BENCH_BARE_ADDR is set
//! (so a plain `cargo bench` does not hang here).

use axum::routing::get;
use axum::Router;

fn main() {
    let Ok(addr) = std::env::var("BENCH_BARE_ADDR") else {
        eprintln!("routing_bare: set BENCH_BARE_ADDR=127.0.0.1:8091 to serve GET /bare (used by scripts/bench-routing)");
        return;
    };
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async move {
        let app = Router::new().route("/bare", get(|| async { ([("content-type", "application/json")], "{\"ok\":true}") }));
        let listener = tokio::net::TcpListener::bind(&addr).await.expect("bind");
        eprintln!("routing_bare: listening on {addr}");
        axum::serve(listener, app).await.expect("serve");
    });
}
