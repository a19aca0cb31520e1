//! `index.html` is written for trunk (which builds the development portal, `trunk serve`): its
//! `<link data-trunk rel=...>` tags name the Rust binary, the stylesheets and the files to copy.
//! The release build reads the same tags, so index.html stays the one list of the portal's
//! assets, and writes the page the browser gets in their place. A Web Worker's rust link
//! (`data-type="worker"`) is built beside the portal and only named in the page (a `<meta>`),
//! never loaded by it: the page that needs the worker starts it.

use anyhow::{bail, Result};

/// One `<link data-trunk ...>` of index.html, where it is in the text and what it asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrunkLink {
    /// Byte range of the whole tag in index.html.
    pub range: std::ops::Range<usize>,
    pub asset: Asset,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asset {
    /// `rel="rust"`: the portal's binary (`data-bin`), optimised with `data-wasm-opt`.
    Rust { bin: String, wasm_opt: Option<String> },
    /// `rel="rust" data-type="worker"`: a Web Worker's binary (`data-bin`) of the package whose
    /// directory is `href` (relative to the checkout; the portal's own package without one).
    Worker { bin: String, package_dir: Option<String>, wasm_opt: Option<String> },
    /// `rel="css"`: a stylesheet, `href` relative to the checkout.
    Css { href: String },
    /// `rel="copy-file"`: copied into dist under its file name.
    CopyFile { href: String },
}

/// Every `<link data-trunk ...>` tag, in order. An unknown `rel` (or a Rust link of a kind
/// this build does not make) is an error naming it, not a file silently left out.
pub fn trunk_links(html: &str) -> Result<Vec<TrunkLink>> {
    let mut links = Vec::new();
    let mut from = 0;
    while let Some(at) = html[from..].find("<link") {
        let start = from + at;
        let Some(len) = html[start..].find('>') else { bail!("index.html: a <link at byte {start} is not closed") };
        let end = start + len + 1;
        from = end;
        let tag = &html[start..end];
        let attrs = attributes(&tag[5..tag.len() - 1]);
        if !attrs.iter().any(|(k, _)| k == "data-trunk") {
            continue;
        }
        let get = |name: &str| attrs.iter().find(|(k, _)| k == name).and_then(|(_, v)| v.clone());
        let asset = match get("rel").as_deref() {
            Some("rust") => {
                let Some(bin) = get("data-bin") else { bail!("index.html: the rust link names no data-bin") };
                let wasm_opt = get("data-wasm-opt");
                match get("data-type").as_deref() {
                    None | Some("main") => Asset::Rust { bin, wasm_opt },
                    Some("worker") => {
                        let package_dir = if get("href").is_some() { Some(href(&get, tag)?) } else { None };
                        Asset::Worker { bin, package_dir, wasm_opt }
                    }
                    Some(kind) => bail!("index.html: a rust link of data-type={kind:?}: the release build (xtask) makes main and worker binaries"),
                }
            }
            Some("css") => Asset::Css { href: href(&get, tag)? },
            Some("copy-file") => Asset::CopyFile { href: href(&get, tag)? },
            other => {
                bail!("index.html: {tag}: rel={other:?} is not built by the release build (rust, css, copy-file are)")
            }
        };
        links.push(TrunkLink { range: start..end, asset });
    }
    Ok(links)
}

fn href(get: &impl Fn(&str) -> Option<String>, tag: &str) -> Result<String> {
    match get("href") {
        Some(h) if !h.is_empty() && !h.contains("..") && !h.starts_with('/') => Ok(h),
        _ => bail!("index.html: {tag} needs an href relative to the checkout"),
    }
}

/// `name="value"`, `name='value'`, `name=value` and bare `name`, in order.
fn attributes(s: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
            i += 1;
        }
        let name_start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'=' && b[i] != b'/' {
            i += 1;
        }
        if name_start == i {
            break;
        }
        let name = s[name_start..i].to_ascii_lowercase();
        if i < b.len() && b[i] == b'=' {
            i += 1;
            let (value, next) = match b.get(i) {
                Some(&q @ (b'"' | b'\'')) => {
                    let close = s[i + 1..].find(q as char).map_or(b.len(), |n| i + 1 + n);
                    (s[i + 1..close].to_string(), close + 1)
                }
                _ => {
                    let end = s[i..].find(|c: char| c.is_ascii_whitespace()).map_or(b.len(), |n| i + n);
                    (s[i..end].to_string(), end)
                }
            };
            out.push((name, Some(value)));
            i = next;
        } else {
            out.push((name, None));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trunk_links_are_read_with_their_places() {
        let html = r#"<head><title>M</title>
    <link data-trunk rel="rust" data-bin="moneydesk" data-wasm-opt="z" />
    <link data-trunk rel=css href="style/main.css">
    <link rel="icon" href="/favicon.svg" />
    <link data-trunk rel='copy-file' href="public/environments.json"/></head>"#;
        let links = trunk_links(html).unwrap();
        let assets: Vec<_> = links.iter().map(|l| l.asset.clone()).collect();
        assert_eq!(
            assets,
            [
                Asset::Rust { bin: "moneydesk".into(), wasm_opt: Some("z".into()) },
                Asset::Css { href: "style/main.css".into() },
                Asset::CopyFile { href: "public/environments.json".into() },
            ]
        );
        assert_eq!(&html[links[1].range.clone()], r#"<link data-trunk rel=css href="style/main.css">"#);
    }

    #[test]
    fn a_worker_link_names_its_binary_and_package() {
        let html = r#"<link data-trunk rel="rust" href="crates/scan-worker" data-bin="scan_worker" data-type="worker" data-loader-shim data-wasm-opt="z" />"#;
        let links = trunk_links(html).unwrap();
        let worker = Asset::Worker {
            bin: "scan_worker".into(),
            package_dir: Some("crates/scan-worker".into()),
            wasm_opt: Some("z".into()),
        };
        assert_eq!(links[0].asset, worker);
        let e =
            trunk_links(r#"<link data-trunk rel="rust" data-bin="x" data-type="service">"#).unwrap_err().to_string();
        assert!(e.contains("data-type=\"service\""), "{e}");
    }

    #[test]
    fn an_asset_this_build_does_not_make_is_refused_by_name() {
        let e = trunk_links(r#"<link data-trunk rel="sass" href="a.scss">"#).unwrap_err().to_string();
        assert!(e.contains("rel=Some(\"sass\")"), "{e}");
        let e = trunk_links(r#"<link data-trunk rel="css" href="../x.css">"#).unwrap_err().to_string();
        assert!(e.contains("needs an href"), "{e}");
    }

    #[test]
    fn the_portals_own_index_reads() {
        let root = std::path::Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../index.html");
        let links = trunk_links(&std::fs::read_to_string(root).unwrap()).unwrap();
        assert!(links.iter().any(|l| matches!(&l.asset, Asset::Rust { bin, .. } if bin == "moneydesk")));
        assert!(links.iter().any(|l| l.asset == Asset::Css { href: "style/main.css".into() }));
        assert!(links.iter().any(|l| matches!(&l.asset, Asset::Worker { bin, .. } if bin == "scan_worker")));
    }
}
