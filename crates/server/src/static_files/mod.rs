//! The built portal (`MONEYDESK_DIST`): files, an SPA fallback to index.html (deep links
//! reload), cache headers, a strict Content-Security-Policy derived from the build, and
//! `/embed.js`, generated from index.html so a host page can load the portal.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

use crate::AppState;

mod derived;

pub use derived::{csp, embed_js};

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const NO_CACHE: &str = "no-cache";

/// What is derived from the build, recomputed when index.html or environments.json change
/// (so a new build, `cargo xtask dist`, into a running server's dist just works).
pub struct Portal {
    dist: Option<PathBuf>,
    cache: Mutex<Option<(Stamp, Arc<Derived>)>>,
}

impl std::fmt::Debug for Portal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Portal").field("dist", &self.dist).finish_non_exhaustive()
    }
}

type Stamp = (Option<SystemTime>, Option<SystemTime>);

pub struct Derived {
    pub csp: String,
    pub embed_js: Option<String>,
}

impl Portal {
    pub fn new(dist: Option<PathBuf>) -> Portal {
        Portal { dist, cache: Mutex::new(None) }
    }

    /// The dist dir, when it holds a build (an index.html).
    fn built(&self) -> Option<&Path> {
        self.dist.as_deref().filter(|d| d.join("index.html").is_file())
    }

    fn derived(&self, dist: &Path) -> Arc<Derived> {
        let mtime = |p: PathBuf| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        let stamp = (mtime(dist.join("index.html")), mtime(dist.join("environments.json")));
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((s, d)) = cache.as_ref() {
            if *s == stamp {
                return d.clone();
            }
        }
        let index = std::fs::read_to_string(dist.join("index.html")).unwrap_or_default();
        let environments = std::fs::read_to_string(dist.join("environments.json")).unwrap_or_default();
        let derived = Arc::new(Derived { csp: csp(&index, &environments), embed_js: embed_js(&index) });
        *cache = Some((stamp, derived.clone()));
        derived
    }
}

/// Fallback for every non-`/api` path.
pub async fn serve(State(state): State<AppState>, req: Request) -> Response {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, "GET, HEAD")], "Method not allowed\n")
            .into_response();
    }
    let Some(dist) = state.portal.built() else { return not_built(req.uri().path()) };
    let derived = state.portal.derived(dist);
    let path = req.uri().path().to_string();

    if path == "/embed.js" {
        return match &derived.embed_js {
            Some(js) => (
                [(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, NO_CACHE)],
                js.clone(),
            )
                .into_response(),
            None => (
                StatusCode::NOT_FOUND,
                [(header::CACHE_CONTROL, NO_CACHE)],
                "embed.js: dist/index.html names no .js and .wasm to load\n",
            )
                .into_response(),
        };
    }

    if let Some(problem) = unsafe_path(&path) {
        return (StatusCode::BAD_REQUEST, [(header::CACHE_CONTROL, NO_CACHE)], format!("Bad path: {problem}\n"))
            .into_response();
    }
    // The release build writes each asset's brotli and gzip variants beside it
    // (xtask/src/compress.rs): they are served by Accept-Encoding (brotli first, with
    // `Vary: Accept-Encoding`), so no request pays for compressing; without a variant the
    // compression layer gzips on the fly as before.
    let files = ServeDir::new(dist).append_index_html_on_directories(true).precompressed_br().precompressed_gzip();
    let served = if looks_like_asset(&path) {
        // A missing asset is a 404, never the SPA: a page kept from an older build must not
        // parse HTML as JavaScript or wasm.
        files.oneshot(req).await
    } else {
        let index = ServeFile::new(dist.join("index.html")).precompressed_br().precompressed_gzip();
        files.fallback(index).oneshot(req).await
    };
    let mut resp = match served {
        Ok(r) => r.map(Body::new),
        Err(never) => match never {},
    };
    if resp.status() == StatusCode::NOT_FOUND {
        return (StatusCode::NOT_FOUND, [(header::CACHE_CONTROL, NO_CACHE)], "Not found\n").into_response();
    }
    let is_html = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("text/html"));
    let cache =
        if !is_html && is_hashed(&path) && (resp.status().is_success() || resp.status() == StatusCode::NOT_MODIFIED) {
            IMMUTABLE
        } else {
            NO_CACHE
        };
    let headers = resp.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    // Which variant (brotli, gzip, none) depends on Accept-Encoding: caches must key on it.
    let varies = headers
        .get_all(header::VARY)
        .iter()
        .any(|v| v.to_str().is_ok_and(|v| v.split(',').any(|p| p.trim().eq_ignore_ascii_case("accept-encoding"))));
    if !varies {
        headers.append(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    if is_html {
        if let Ok(v) = HeaderValue::from_str(&derived.csp) {
            headers.insert(header::CONTENT_SECURITY_POLICY, v);
        }
    }
    resp
}

/// A path whose last segment has a file extension (`app.js`, `x.wasm`, `favicon.ico`): a
/// request for a file, answered 404 when there is none. Extension-less paths are the portal's
/// navigation and fall back to index.html.
pub fn looks_like_asset(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or("");
    name.rfind('.').is_some_and(|dot| dot > 0 && dot + 1 < name.len())
}

/// Why a path may not be looked up in the dist dir: a `..` segment, a backslash, a NUL or an
/// encoded slash, raw or percent-encoded. (`ServeDir` refuses them too; they are answered 400
/// here so that none of them reaches the file system or falls back to index.html.)
pub fn unsafe_path(path: &str) -> Option<&'static str> {
    let lower = path.to_ascii_lowercase();
    if lower.contains("%2f") || lower.contains("%5c") || path.contains('\\') {
        return Some("encoded slashes and backslashes are not allowed");
    }
    let decoded = percent_decode(path);
    if decoded.contains(&0) || decoded.contains(&b'\\') {
        return Some("control characters are not allowed");
    }
    if decoded.split(|b| *b == b'/').any(|segment| segment == b"..") {
        return Some("\"..\" segments are not allowed");
    }
    None
}

fn percent_decode(path: &str) -> Vec<u8> {
    let b = path.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
        match (b[i], b.get(i + 1).and_then(|c| hex(*c)), b.get(i + 2).and_then(|c| hex(*c))) {
            (b'%', Some(h), Some(l)) => {
                out.push(h * 16 + l);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// A file named by its content: its name carries a content hash, `-` followed by 16 hex
/// digits (`main-0123456789abcdef.css`, as trunk names files), or it is in the release build's
/// directory named by the build's hash, or below it (`/build-0123456789abcdef/moneydesk_bg.wasm`,
/// `/build-…/snippets/…/inline0.js`, see
/// xtask/src/main.rs).
pub fn is_hashed(path: &str) -> bool {
    let mut segments = path.trim_start_matches('/').split('/');
    let name = segments.next_back().unwrap_or("");
    let in_build = segments.next().is_some_and(|d| d.strip_prefix("build-").is_some_and(is_hash));
    in_build || hashed_name(name.as_bytes())
}

fn is_hash(s: &str) -> bool {
    s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

fn hashed_name(name: &[u8]) -> bool {
    name.windows(17).enumerate().any(|(i, w)| {
        w[0] == b'-'
            && w[1..].iter().all(|b| b.is_ascii_hexdigit())
            && !name.get(i + 17).is_some_and(|b| b.is_ascii_hexdigit())
    })
}

/// No build in the dist dir: say how to make one instead of failing.
fn not_built(path: &str) -> Response {
    let status = if path == "/" || path == "/index.html" { StatusCode::OK } else { StatusCode::NOT_FOUND };
    let body = "<!doctype html><html lang=en><meta charset=utf-8><title>Moneydesk: portal not built</title>\
        <h1>The Moneydesk portal is not built yet</h1>\
        <p>The API is running (see <a href=\"/api/openapi.json\">/api/openapi.json</a>). To serve the portal, run \
        <code>scripts/run</code>, which builds it (<code>cargo xtask dist</code>) and serves it, or point \
        <code>MONEYDESK_DIST</code> at a built portal, then reload this page.</p></html>\n";
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, NO_CACHE),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
            ),
        ],
        body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashed_names() {
        assert!(is_hashed("/moneydesk-0123456789abcdef_bg.wasm"));
        assert!(is_hashed("/style-1a2b3c4d5e6f7a8b.css"));
        assert!(!is_hashed("/index.html"));
        assert!(!is_hashed("/environments.json"));
        assert!(!is_hashed("/x-0123456789abcdef0.js"), "17 hex digits is not a trunk hash");
        assert!(!is_hashed("/a-0123456789abcdef/index.html"), "only the file name counts");
        assert!(is_hashed("/build-0123456789abcdef/moneydesk_bg.wasm"), "the build's own directory");
        assert!(is_hashed("/build-0123456789abcdef/__wasm_split.js"));
        assert!(is_hashed("/build-0123456789abcdef/snippets/moneydesk-1/inline0.js"), "and below it");
        assert!(!is_hashed("/build-0123456789abcdeg/moneydesk.js"), "not hex");
        assert!(!is_hashed("/x/build-0123456789abcdef/moneydesk.js"), "only at the root");
    }
}
