//! Serving the built portal from a temporary dist dir: SPA fallback, cache headers, CSP,
//! embed.js, CORS on assets; and the page shown when no build exists.

use crate::common;

use std::path::Path;

use base64::Engine;
use common::{json, Server};
use reqwest::StatusCode;
use sha2::Digest;

const INLINE: &str = "\nimport init, * as bindings from '/moneydesk-0123456789abcdef.js';\nconst wasm = await init({ module_or_path: '/moneydesk-0123456789abcdef_bg.wasm' });\nwindow.wasmBindings = bindings;\n";

fn write_dist(dir: &Path) {
    let index = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\">\
         <link rel=\"stylesheet\" href=\"/style-1a2b3c4d5e6f7a8b.css\">\
         <link rel=\"modulepreload\" href=\"/moneydesk-0123456789abcdef.js\" crossorigin=\"anonymous\">\
         <script type=\"module\">{INLINE}</script></head><body></body></html>"
    );
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("index.html"), index).unwrap();
    std::fs::write(dir.join("moneydesk-0123456789abcdef.js"), "export default async function init() {}\n").unwrap();
    std::fs::write(dir.join("moneydesk-0123456789abcdef_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(dir.join("style-1a2b3c4d5e6f7a8b.css"), ".moneydesk { color: black; }\n").unwrap();
    std::fs::write(
        dir.join("environments.json"),
        r#"{"environments":[{"id":"local","label":"Local","baseUrl":""},{"id":"sandbox","label":"Sandbox","baseUrl":"https://sandbox.example.com"}]}"#,
    )
    .unwrap();
}

async fn with_dist() -> Server {
    let dist = tempfile::tempdir().unwrap().keep();
    write_dist(&dist);
    Server::start_with(move |c| {
        c.dist_dir = Some(dist);
        c.cors_origins = vec!["http://host.test".into()];
    })
    .await
}

#[tokio::test]
async fn index_and_deep_links_get_the_app_with_csp_and_no_cache() {
    let s = with_dist().await;
    let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(INLINE.as_bytes()));
    for path in ["/", "/index.html", "/deposits", "/vault/some/deep/folder", "/accounts?page=2"] {
        let resp = s.get(path).await;
        assert_eq!(resp.status(), StatusCode::OK, "{path}");
        assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("text/html"), "{path}");
        assert_eq!(resp.headers()["cache-control"], "no-cache", "{path}");
        let csp = resp.headers()["content-security-policy"].to_str().unwrap().to_string();
        for part in [
            "default-src 'self'",
            &format!("script-src 'self' 'wasm-unsafe-eval' 'sha256-{hash}'"),
            "style-src 'self'",
            "img-src 'self' data: blob:",
            "connect-src 'self' https://sandbox.example.com",
            "frame-ancestors 'none'",
            "base-uri 'self'",
            "object-src 'none'",
            "form-action 'self'",
        ] {
            assert!(csp.contains(part), "{path}: {part} missing in {csp}");
        }
        assert!(resp.text().await.unwrap().contains("modulepreload"), "{path}");
    }
    s.running.stop().await;
}

#[tokio::test]
async fn hashed_assets_are_immutable_others_revalidate() {
    let s = with_dist().await;
    for (path, ctype) in [
        ("/moneydesk-0123456789abcdef_bg.wasm", "application/wasm"),
        ("/moneydesk-0123456789abcdef.js", "javascript"),
        ("/style-1a2b3c4d5e6f7a8b.css", "text/css"),
    ] {
        let resp = s.get(path).await;
        assert_eq!(resp.status(), StatusCode::OK, "{path}");
        assert_eq!(resp.headers()["cache-control"], "public, max-age=31536000, immutable", "{path}");
        assert!(resp.headers()["content-type"].to_str().unwrap().contains(ctype), "{path}");
        assert!(resp.headers().get("content-security-policy").is_none(), "{path}");
    }
    let resp = s.get("/environments.json").await;
    assert_eq!(resp.headers()["cache-control"], "no-cache");
    assert_eq!(json(resp).await["environments"][1]["id"], "sandbox");
    s.running.stop().await;
}

#[tokio::test]
async fn embed_js_loads_the_build_and_assets_allow_configured_origins() {
    let s = with_dist().await;
    let resp = s.get("/embed.js").await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["cache-control"], "no-cache");
    assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("text/javascript"));
    let js = resp.text().await.unwrap();
    for needle in [
        "import.meta.url",
        "\"/moneydesk-0123456789abcdef.js\"",
        "\"/moneydesk-0123456789abcdef_bg.wasm\"",
        "\"/style-1a2b3c4d5e6f7a8b.css\"",
        "MoneydeskEmbed",
    ] {
        assert!(js.contains(needle), "{needle} missing in {js}");
    }
    // A host page on a configured origin may fetch the module and the wasm.
    for path in ["/embed.js", "/moneydesk-0123456789abcdef.js", "/moneydesk-0123456789abcdef_bg.wasm"] {
        let resp = s.client.get(s.url(path)).header("Origin", "http://host.test").send().await.unwrap();
        assert_eq!(resp.headers()["access-control-allow-origin"], "http://host.test", "{path}");
        let resp = s.client.get(s.url(path)).header("Origin", "http://other.test").send().await.unwrap();
        assert!(resp.headers().get("access-control-allow-origin").is_none(), "{path}");
    }
    s.running.stop().await;
}

#[tokio::test]
async fn api_paths_never_fall_back_to_the_app() {
    let s = with_dist().await;
    let resp = s.get("/api/v1/unknown").await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    assert_eq!(json(resp).await["code"], 404);
    let resp = s.client.post(s.url("/deposits")).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::METHOD_NOT_ALLOWED);
    s.running.stop().await;
}

#[tokio::test]
async fn without_a_build_the_root_says_how_to_build_it() {
    let s = Server::start().await; // for_tests: no dist
    let resp = s.get("/").await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.text().await.unwrap().contains("scripts/run"));
    let missing = tempfile::tempdir().unwrap();
    let path = missing.path().join("nope");
    let s2 = Server::start_with(move |c| c.dist_dir = Some(path)).await;
    let resp = s2.get("/signin").await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    assert!(resp.text().await.unwrap().contains("MONEYDESK_DIST"));
    s.running.stop().await;
    s2.running.stop().await;
}

#[tokio::test]
async fn a_missing_asset_is_a_404_never_the_app() {
    let s = with_dist().await;
    for path in [
        "/moneydesk-fedcba9876543210.js",
        "/moneydesk-fedcba9876543210_bg.wasm",
        "/style-fedcba9876543210.css",
        "/chunks/page-0123456789abcdef.wasm",
        "/favicon.ico",
        "/deposits/receipt.pdf",
    ] {
        let resp = s.get(path).await;
        assert_eq!(resp.status(), StatusCode::NOT_FOUND, "{path}");
        let ctype = resp.headers().get("content-type").map(|v| v.to_str().unwrap().to_string());
        assert!(!ctype.as_deref().unwrap_or("").starts_with("text/html"), "{path}: {ctype:?}");
        assert!(!resp.text().await.unwrap().contains("<html"), "{path} answered the app");
    }
    // Extension-less navigation still gets the app, and an existing asset is served.
    assert!(s.get("/accounts/detail").await.text().await.unwrap().contains("modulepreload"));
    assert_eq!(s.get("/moneydesk-0123456789abcdef.js").await.status(), StatusCode::OK);
    s.running.stop().await;
}

/// Sends `path` exactly as written (no client normalises it) and returns the status and body.
async fn raw_get(s: &Server, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut conn = tokio::net::TcpStream::connect(s.running.addr).await.unwrap();
    conn.write_all(format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    conn.read_to_end(&mut answer).await.unwrap();
    let text = String::from_utf8_lossy(&answer).to_string();
    let status = text.get(9..12).and_then(|c| c.parse().ok()).unwrap_or_else(|| panic!("{path}: {text}"));
    (status, text)
}

#[tokio::test]
async fn path_traversal_never_leaves_the_dist_dir() {
    let root = tempfile::tempdir().unwrap();
    let dist = root.path().join("dist");
    write_dist(&dist);
    std::fs::write(root.path().join("secret.txt"), "TOP SECRET outside dist\n").unwrap();
    std::fs::create_dir_all(dist.join("sub")).unwrap();
    let s = Server::start_with(|c| c.dist_dir = Some(dist.clone())).await;
    for path in [
        "/../secret.txt",
        "/sub/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E/secret.txt",
        "/sub/%2e%2e%2f%2e%2e%2fsecret.txt",
        "/..%2fsecret.txt",
        "/..%5csecret.txt",
        "/sub\\..\\..\\secret.txt",
        "/secret.txt%00.js",
        "/%00",
        "/sub/..",
    ] {
        let (status, text) = raw_get(&s, path).await;
        assert!(status == 400 || status == 404, "{path}: {status}\n{text}");
        assert!(!text.contains("TOP SECRET"), "{path} answered a file outside dist:\n{text}");
    }
    s.running.stop().await;
}

/// The release build's precompressed variants are served by `Accept-Encoding`: brotli when
/// the client takes it, else gzip, else the file itself; `Vary` says so, and a variant refused
/// with `q=0` is never sent. An asset without variants is compressed on the fly as before.
#[tokio::test]
async fn precompressed_variants_are_chosen_by_accept_encoding() {
    let dist = tempfile::tempdir().unwrap().keep();
    write_dist(&dist);
    let js = "moneydesk-0123456789abcdef.js";
    std::fs::write(dist.join(format!("{js}.br")), b"BROTLI BYTES").unwrap();
    std::fs::write(dist.join(format!("{js}.gz")), b"GZIP BYTES").unwrap();
    std::fs::write(dist.join("index.html.br"), b"BROTLI INDEX").unwrap();
    let s = Server::start_with(move |c| c.dist_dir = Some(dist)).await;
    let get = |path: &str, accept: Option<&str>| {
        let mut req = s.client.get(s.url(path));
        if let Some(a) = accept {
            req = req.header("accept-encoding", a);
        }
        req.send()
    };
    for (accept, encoding, body) in [
        (Some("gzip, deflate, br, zstd"), Some("br"), "BROTLI BYTES"),
        (Some("gzip"), Some("gzip"), "GZIP BYTES"),
        (Some("br;q=0, gzip"), Some("gzip"), "GZIP BYTES"),
        (None, None, "export default async function init() {}\n"),
    ] {
        let r = get(&format!("/{js}"), accept).await.unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{accept:?}");
        assert_eq!(r.headers().get("content-encoding").map(|v| v.to_str().unwrap()), encoding, "{accept:?}");
        assert!(r.headers()["vary"].to_str().unwrap().to_ascii_lowercase().contains("accept-encoding"), "{accept:?}");
        assert!(r.headers()["content-type"].to_str().unwrap().contains("javascript"), "{accept:?}");
        assert_eq!(r.headers()["cache-control"], "public, max-age=31536000, immutable", "{accept:?}");
        assert_eq!(r.text().await.unwrap(), body, "{accept:?}");
    }
    // The app's navigations get the precompressed index too, as HTML and never cached.
    let r = get("/accounts", Some("br")).await.unwrap();
    assert_eq!(
        (r.headers()["content-encoding"].to_str().unwrap(), r.headers()["cache-control"].to_str().unwrap()),
        ("br", "no-cache")
    );
    assert!(r.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    // No variant of the stylesheet: gzip on the fly, as before.
    let r = get("/style-1a2b3c4d5e6f7a8b.css", Some("br, gzip")).await.unwrap();
    assert_ne!(r.headers().get("content-encoding").map(|v| v.to_str().unwrap()), Some("br"));
    s.running.stop().await;
}
