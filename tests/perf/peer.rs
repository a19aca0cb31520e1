//! The peer of issue 10's figures, served by the benchmark itself: the production build of a
//! minimal react-admin 5 accounts list (bench/peer/, built by bench/peer/build) and the REST
//! API that `ra-data-simple-rest` speaks, on one origin of its own (no CORS).
//!
//! Its API is its best case: the records live in memory, no authentication, no database; a
//! request sorts 2,400 references and serializes one page (well under a millisecond). It
//! answers `GET /api/accounts?sort=["field","ASC"]&range=[0,9]&filter={}` with a JSON array and
//! `Content-Range: accounts 0-9/2400`, as simple-rest expects. The records are Moneydesk's own
//! demo accounts, read through Moneydesk's API at the start of the run ([`accounts`]): the
//! same count (the demo seed's 2,400), the same 24 fields and values.
//!
//! Served alike: the same gzip layer as Moneydesk's server (moneydesk_server's `GzipLayer`)
//! around the API's JSON, the build's brotli/gzip variants chosen by Accept-Encoding as
//! Moneydesk's static files are, hashed assets `immutable` and index.html `no-cache`, as
//! crates/server/src/static_files/ does.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use moneydesk_e2e::{workspace_root, Browser};
use moneydesk_server::http::compress::GzipLayer;
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

/// The peer's ready selector: a data row of react-admin's `<Datagrid>` (its loading skeleton
/// has none).
pub const ROW: &str = ".RaDatagrid-tbody tr.RaDatagrid-row";

/// The peer's accounts list (react-admin's default hash router).
pub const PATH: &str = "/#/accounts";

/// The peer's build, unless `MONEYDESK_BENCH_PEER=0`. `scripts/bench-first-screen` and
/// `scripts/bench-table` build it first (bench/peer/build); run through cargo alone, a missing
/// build skips the peer with a note.
pub fn dist() -> Option<PathBuf> {
    if std::env::var("MONEYDESK_BENCH_PEER").is_ok_and(|v| v == "0") {
        return None;
    }
    let dist = workspace_root().join("bench/peer/dist");
    if dist.join("index.html").is_file() {
        Some(dist)
    } else {
        println!("peer: no build in {} (run bench/peer/build); measuring Moneydesk alone", dist.display());
        None
    }
}

/// Every demo account, read page by page through Moneydesk's API by `b` (any page of the
/// Moneydesk origin open, so the request is same-origin), as the portal reads them.
pub async fn accounts(b: &Browser, origin: &str, token: &str) -> Vec<Value> {
    // Chromium asks for /favicon.ico beside a JSON document; Moneydesk has only favicon.svg.
    b.allow_console_error("/favicon.ico");
    b.open(&format!("{origin}/environments.json")).await;
    let script = "const [token, done] = arguments;
        (async () => {
            const all = [];
            for (let page = 1; page < 1000; page++) {
                const r = await fetch('/api/v1/cores/unifi/accounts?size=500&page=' + page,
                    { headers: { Authorization: 'Bearer ' + token } });
                const body = await r.json();
                all.push(...body.data.content);
                if (body.data.last) break;
            }
            done(all);
        })().catch(e => done(String(e)));";
    match b.js_async(script, vec![json!(token)]).await {
        Value::Array(all) if !all.is_empty() => all,
        other => b.fail(format!("reading the demo accounts for the peer: {other}")).await,
    }
}

pub struct Peer {
    /// `http://127.0.0.1:<port>`, the peer's page and API.
    pub origin: String,
    task: JoinHandle<()>,
}

struct Data {
    dist: PathBuf,
    records: Vec<Value>,
}

impl Peer {
    pub async fn serve(dist: PathBuf, records: Vec<Value>) -> Peer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("binding the peer's server");
        let origin = format!("http://{}", listener.local_addr().expect("local addr"));
        let app = Router::new()
            .route("/api/accounts", get(list))
            .route("/ping", get(|| async { "ok" }))
            .fallback(files)
            .with_state(Arc::new(Data { dist, records }))
            .layer(GzipLayer);
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Peer { origin, task }
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// simple-rest's getList: `sort` (`["field","ASC"|"DESC"]`), `range` (`[first,last]`,
/// inclusive) and `filter` (ignored: the peer's list has no filters).
async fn list(State(data): State<Arc<Data>>, Query(q): Query<HashMap<String, String>>) -> Response {
    let sort: (String, String) =
        q.get("sort").and_then(|s| serde_json::from_str(s).ok()).unwrap_or_else(|| ("id".into(), "ASC".into()));
    let range: (usize, usize) = q.get("range").and_then(|s| serde_json::from_str(s).ok()).unwrap_or((0, 9));
    let total = data.records.len();
    let mut order: Vec<&Value> = data.records.iter().collect();
    order.sort_by(|a, b| {
        let o = compare(&a[&sort.0], &b[&sort.0]);
        if sort.1.eq_ignore_ascii_case("DESC") {
            o.reverse()
        } else {
            o
        }
    });
    let first = range.0.min(total);
    let last = range.1.saturating_add(1).min(total).max(first);
    let page: Vec<&Value> = order[first..last].to_vec();
    let content_range = format!("accounts {first}-{}/{total}", last.saturating_sub(1));
    ([(header::CONTENT_RANGE, content_range), (header::CACHE_CONTROL, "no-store".to_string())], axum::Json(page))
        .into_response()
}

/// Numbers (and decimal strings, as `marketValue`) by value, other strings as text, no value
/// lowest, as Moneydesk's API sorts them.
fn compare(a: &Value, b: &Value) -> Ordering {
    let num = |v: &Value| v.as_f64().or_else(|| v.as_str().and_then(|s| s.parse::<f64>().ok()));
    match (a, b) {
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Less,
        (_, Value::Null) => Ordering::Greater,
        _ => match (num(a), num(b)) {
            (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
            _ => a.as_str().unwrap_or_default().cmp(b.as_str().unwrap_or_default()),
        },
    }
}

/// The build's files with their precompressed variants, index.html for any other path.
async fn files(State(data): State<Arc<Data>>, req: Request) -> Response {
    let path = req.uri().path().to_string();
    let index = ServeFile::new(data.dist.join("index.html")).precompressed_br().precompressed_gzip();
    let dir = ServeDir::new(&data.dist).precompressed_br().precompressed_gzip().fallback(index);
    let mut resp = match dir.oneshot(req).await {
        Ok(r) => r.map(axum::body::Body::new),
        Err(never) => match never {},
    };
    // Vite names every asset by its content (dist/assets/<name>-<hash>.js).
    let ok = resp.status().is_success() || resp.status() == StatusCode::NOT_MODIFIED;
    let cache = if path.starts_with("/assets/") && ok { "public, max-age=31536000, immutable" } else { "no-cache" };
    let headers = resp.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.append(header::VARY, HeaderValue::from_static("accept-encoding"));
    resp
}
