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
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use sha2::{Digest, Sha256};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

use crate::AppState;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const NO_CACHE: &str = "no-cache";

/// What is derived from the build, recomputed when index.html or environments.json change
/// (so `trunk build` into a running server's dist just works).
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

/// default-src 'self' plus the inline scripts' hashes and the configured environments' origins.
pub fn csp(index_html: &str, environments_json: &str) -> String {
    let mut script_src = vec!["'self'".to_string(), "'wasm-unsafe-eval'".to_string()];
    for body in inline_scripts(index_html) {
        script_src.push(format!("'sha256-{}'", STANDARD.encode(Sha256::digest(body.as_bytes()))));
    }
    let mut connect_src = vec!["'self'".to_string()];
    for origin in environment_origins(environments_json) {
        if !connect_src.contains(&origin) {
            connect_src.push(origin);
        }
    }
    format!(
        "default-src 'self'; script-src {}; style-src 'self'; img-src 'self' data: blob:; connect-src {}; \
         frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'",
        script_src.join(" "),
        connect_src.join(" ")
    )
}

/// The text of every `<script>` without a `src`, exactly as the browser hashes it.
fn inline_scripts(html: &str) -> Vec<&str> {
    let lower = html.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(start) = lower[from..].find("<script").map(|i| i + from) {
        let Some(tag_end) = lower[start..].find('>').map(|i| i + start) else { break };
        let Some(close) = lower[tag_end..].find("</script").map(|i| i + tag_end) else { break };
        let tag = &lower[start..tag_end];
        if !tag.contains(" src=") && !tag.contains("\tsrc=") && !tag.contains("\nsrc=") {
            out.push(&html[tag_end + 1..close]);
        }
        from = close + 1;
    }
    out
}

/// Origins of the non-empty `baseUrl`s in environments.json.
fn environment_origins(json: &str) -> Vec<String> {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(json) else { return Vec::new() };
    let envs = v.get("environments").and_then(|e| e.as_array()).cloned().unwrap_or_default();
    envs.iter()
        .filter_map(|e| e.get("baseUrl").and_then(|b| b.as_str()))
        .filter(|b| !b.trim().is_empty())
        .filter_map(|b| url::Url::parse(b.trim()).ok())
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .map(|u| u.origin().ascii_serialization())
        .collect()
}

/// Quoted strings in index.html ending in `ext` (trunk writes each asset URL this way).
fn quoted_assets<'a>(html: &'a str, ext: &str) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for quote in ['"', '\''] {
        let parts: Vec<&str> = html.split(quote).collect();
        for (i, s) in parts.iter().enumerate() {
            let inside = i % 2 == 1;
            let plausible = !s.is_empty() && s.len() < 300 && !s.contains(char::is_whitespace) && !s.contains('<');
            if inside && plausible && s.ends_with(ext) && !out.contains(s) {
                out.push(s);
            }
        }
    }
    out
}

/// `/embed.js`: adds the build's stylesheets, imports its JS and starts it with its wasm,
/// every URL resolved against embed.js's own URL (the server), not the host page.
pub fn embed_js(index_html: &str) -> Option<String> {
    let wasm = *quoted_assets(index_html, ".wasm").first()?;
    // The module wasm-bindgen wrote for that wasm (`x_bg.wasm` → `x.js`): index.html also names
    // the snippets it imports (preloaded), which are not it.
    let scripts = quoted_assets(index_html, ".js");
    let own = wasm.strip_suffix("_bg.wasm").map(|stem| format!("{stem}.js"));
    let js = *scripts
        .iter()
        .find(|s| Some(s.to_string()) == own)
        .or_else(|| scripts.iter().find(|s| !s.ends_with("embed.js") && !s.contains("/snippets/")))?;
    let css = quoted_assets(index_html, ".css");
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let css_list: Vec<String> = css.iter().map(|s| q(s)).collect();
    Some(format!(
        r#"// Generated by moneydesk-server from dist/index.html. Host pages set
// window.MoneydeskEmbed = {{ target, basePath, baseUrl, token }} and load this as a module.
const assetUrl = (path) => new URL(path, import.meta.url).href;
const options = window.MoneydeskEmbed;
if (options && !options.baseUrl) {{
  options.baseUrl = new URL(import.meta.url).origin;
}}
if (options) {{
  // Where pages load their own stylesheets from (src/pages/lazy.rs): this server.
  options.assetBase = assetUrl("/");
}}
for (const href of [{css}]) {{
  const url = assetUrl(href);
  if (!document.querySelector(`link[rel="stylesheet"][href="${{url}}"]`)) {{
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = url;
    document.head.appendChild(link);
  }}
}}
// Web Workers the pages start (src/api/scan_worker.rs finds each by its meta tag): named
// here with this server's URL, as index.html names them for the portal's own page.
for (const [name, path] of [{workers}]) {{
  if (!document.querySelector(`meta[name="${{name}}"]`)) {{
    const meta = document.createElement("meta");
    meta.name = name;
    meta.content = assetUrl(path);
    document.head.appendChild(meta);
  }}
}}
const bindings = await import(assetUrl({js}));
await bindings.default({{ module_or_path: assetUrl({wasm}) }});
export default bindings;
"#,
        css = css_list.join(", "),
        workers = worker_metas(index_html)
            .iter()
            .map(|(n, p)| format!("[{}, {}]", q(n), q(p)))
            .collect::<Vec<_>>()
            .join(", "),
        js = q(js),
        wasm = q(wasm),
    ))
}

/// The workers index.html names (`<meta name="scan_worker" content="/build-…/…_loader.js">`,
/// written by the release build): their names and loaders.
fn worker_metas(html: &str) -> Vec<(&str, &str)> {
    html.split("<meta name=\"")
        .skip(1)
        .filter_map(|rest| {
            let (name, rest) = rest.split_once('"')?;
            let content = rest.trim_start().strip_prefix("content=\"")?.split('"').next()?;
            content.ends_with("_loader.js").then_some((name, content))
        })
        .collect()
}

/// No build in the dist dir: say how to make one instead of failing.
fn not_built(path: &str) -> Response {
    let status = if path == "/" || path == "/index.html" { StatusCode::OK } else { StatusCode::NOT_FOUND };
    let body = "<!doctype html><html lang=en><meta charset=utf-8><title>Moneydesk: portal not built</title>\
        <h1>The Moneydesk portal is not built yet</h1>\
        <p>The API is running (see <a href=\"/api/openapi.json\">/api/openapi.json</a>). To serve the portal, build it \
        with <code>trunk build --release</code> (or run <code>scripts/run</code>, which builds it), or point \
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

    const TRUNK_INDEX: &str = r#"<!DOCTYPE html><html><head>
<link rel="stylesheet" href="/style-1a2b3c4d5e6f7a8b.css" integrity="sha384-x"/>
<link rel="modulepreload" href="/moneydesk-0123456789abcdef.js" crossorigin="anonymous" integrity="sha384-y">
<link rel="preload" href="/moneydesk-0123456789abcdef_bg.wasm" crossorigin="anonymous" as="fetch" type="application/wasm">
<script type="module">
import init, * as bindings from '/moneydesk-0123456789abcdef.js';
const wasm = await init({ module_or_path: '/moneydesk-0123456789abcdef_bg.wasm' });
window.wasmBindings = bindings;
</script>
<script src="/other.js"></script>
</head><body></body></html>"#;

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

    #[test]
    fn csp_hashes_inline_scripts_and_allows_environments() {
        let envs = r#"{"environments":[{"id":"local","label":"Local","baseUrl":""},{"id":"sandbox","label":"S","baseUrl":"https://sandbox.example.com/api/"}]}"#;
        let csp = csp(TRUNK_INDEX, envs);
        let inline = inline_scripts(TRUNK_INDEX);
        assert_eq!(inline.len(), 1);
        assert!(inline[0].starts_with("\nimport init"));
        let hash = STANDARD.encode(Sha256::digest(inline[0].as_bytes()));
        assert!(csp.contains(&format!("script-src 'self' 'wasm-unsafe-eval' 'sha256-{hash}';")), "{csp}");
        assert!(csp.contains("connect-src 'self' https://sandbox.example.com;"), "{csp}");
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("object-src 'none'"));
    }

    #[test]
    fn embed_loads_the_hashed_assets() {
        let js = embed_js(TRUNK_INDEX).unwrap();
        assert!(js.contains(r#"await import(assetUrl("/moneydesk-0123456789abcdef.js"))"#), "{js}");
        assert!(js.contains(r#"module_or_path: assetUrl("/moneydesk-0123456789abcdef_bg.wasm")"#));
        assert!(js.contains(r#"for (const href of ["/style-1a2b3c4d5e6f7a8b.css"])"#));
        assert!(embed_js("<html></html>").is_none());
        // The release build preloads wasm-bindgen's snippets before the module: not them.
        let split = r#"<meta name="scan_worker" content="/build-0123456789abcdef/scan_worker-fedcba9876543210_loader.js">
<link rel="modulepreload" href="/build-0123456789abcdef/snippets/moneydesk-1/inline0.js">
<link rel="modulepreload" href="/build-0123456789abcdef/moneydesk.js">
<script type="module">import init, * as bindings from '/build-0123456789abcdef/moneydesk.js';
const wasm = await init({ module_or_path: '/build-0123456789abcdef/moneydesk_bg.wasm' });</script>"#;
        let js = embed_js(split).unwrap();
        assert!(js.contains(r#"await import(assetUrl("/build-0123456789abcdef/moneydesk.js"))"#), "{js}");
        // The worker the deposits page starts is named in the host page with this server's URL.
        assert!(js.contains(r#"for (const [name, path] of [["scan_worker", "/build-0123456789abcdef/scan_worker-fedcba9876543210_loader.js"]])"#), "{js}");
        assert!(embed_js(TRUNK_INDEX).unwrap().contains("for (const [name, path] of [])"), "no worker, none named");
    }
}
