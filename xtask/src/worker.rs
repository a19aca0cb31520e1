//! Web Workers (index.html's `<link data-trunk rel="rust" data-type="worker">`, e.g. the
//! check-scanning worker, crates/scan-worker): built for the browser with the portal's
//! toolchain and flags, then `wasm-bindgen --target no-modules` (a classic worker:
//! `importScripts` works in every browser's workers, where module workers came late to some,
//! and it is what trunk builds for `trunk serve`, so development and release load alike),
//! `wasm-opt`, and a two-line loader as trunk's `data-loader-shim` writes.
//!
//! The files go in the build's directory, named by the worker's own hash as well
//! (`build-<h>/scan_worker-<w>_loader.js`, `…-<w>.js`, `…-<w>_bg.wasm`): the server caches
//! that directory as immutable, and the worker can change while the portal's module does not.
//! index.html only names the loader, in `<meta name="<bin>" content="/…_loader.js">`: the page
//! that needs the worker starts it, so it is never in the start bundle.

use std::fs;
use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result};
use wasm_encoder::Section;
use wasmparser::{Parser, Payload};

use crate::index::Asset;
use crate::{cargo_build, js, run_tool, say, short_hash};

pub struct Worker<'a> {
    pub bin: &'a str,
    /// The package's directory, relative to the checkout (None: the portal's own package).
    pub package_dir: Option<&'a str>,
    pub wasm_opt: Option<&'a str>,
}

impl Worker<'_> {
    /// The worker an index.html link asks for, if it is one.
    pub fn of(asset: &Asset) -> Option<Worker<'_>> {
        match asset {
            Asset::Worker { bin, package_dir, wasm_opt } => {
                Some(Worker { bin, package_dir: package_dir.as_deref(), wasm_opt: wasm_opt.as_deref() })
            }
            _ => None,
        }
    }
}

/// Builds `worker` into `dir`; gives its loader's file name (what `new Worker` is given).
pub fn build(root: &Path, dir: &Path, worker: &Worker) -> Result<String> {
    let manifest = worker.package_dir.map(|d| root.join(d).join("Cargo.toml"));
    let linked = cargo_build(root, manifest.as_deref(), worker.bin, "")?;
    let module = without_link_sections(&fs::read(&linked)?)?;
    let name = format!("{}-{}", worker.bin, short_hash(&module));
    let input = dir.join(format!("{name}.linked.wasm"));
    fs::write(&input, &module)?;
    run_tool(
        Command::new("wasm-bindgen")
            .args(["--target", "no-modules", "--no-typescript", "--out-name", &name, "--out-dir"])
            .arg(dir)
            .arg(&input),
    )?;
    fs::remove_file(&input)?;
    let glue = dir.join(format!("{name}.js"));
    js::minify(&glue, js::Kind::Script)?;
    let wasm = dir.join(format!("{name}_bg.wasm"));
    let level = format!("-O{}", worker.wasm_opt.unwrap_or("z"));
    run_tool(
        Command::new("wasm-opt")
            .arg(&level)
            .args(["--strip-producers", "--strip-target-features"])
            .arg(&wasm)
            .arg("-o")
            .arg(&wasm),
    )?;
    let loader = format!("{name}_loader.js");
    fs::write(dir.join(&loader), loader_js(&name))?;
    say(format_args!("worker {}: {} bytes of wasm", worker.bin, fs::metadata(&wasm)?.len()));
    Ok(loader)
}

/// The module without the `linking` and `reloc.*` sections that the portal's `--emit-relocs`
/// (for wasm-split) leaves in every binary: a worker is not split, and wasm-opt would keep them,
/// stale, as half the file. Built with the portal's very flags all the same, so that the
/// dependencies both use are built once, not once per set of flags.
fn without_link_sections(wasm: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(wasm.len());
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload.context("reading the worker's linked wasm module")?;
        match &payload {
            Payload::Version { range, .. } => {
                out.extend_from_slice(&wasm[range.start as usize..range.end as usize]);
                continue;
            }
            Payload::CustomSection(c) if c.name() == "linking" || c.name().starts_with("reloc.") => continue,
            Payload::End(_) => break,
            _ => {}
        }
        if let Some((id, range)) = payload.as_section() {
            wasm_encoder::RawSection { id, data: &wasm[range.start as usize..range.end as usize] }.append_to(&mut out);
        }
    }
    Ok(out)
}

/// The worker's script: wasm-bindgen's glue, then its start (which runs the binary's `main`).
/// Relative names resolve against the loader's own URL, in the same directory.
fn loader_js(name: &str) -> String {
    format!("importScripts(\"./{name}.js\");\nwasm_bindgen({{ module_or_path: \"./{name}_bg.wasm\" }});\n")
}

/// What replaces the worker's link in index.html: its loader's URL, for the page to start it.
pub fn meta(bin: &str, url: &str) -> String {
    format!(r#"<meta name="{bin}" content="{url}">"#)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loader_imports_the_glue_and_starts_the_wasm_beside_it() {
        let js = loader_js("scan_worker-0123456789abcdef");
        assert_eq!(
            js,
            "importScripts(\"./scan_worker-0123456789abcdef.js\");\nwasm_bindgen({ module_or_path: \"./scan_worker-0123456789abcdef_bg.wasm\" });\n"
        );
        assert!(!js.contains('\''), "no apostrophes, as the rest of what the page names");
    }

    #[test]
    fn the_link_sections_are_left_out_and_the_rest_kept() {
        let mut module = b"\0asm\x01\0\0\0".to_vec();
        for name in ["linking", "reloc.CODE", "name"] {
            wasm_encoder::CustomSection { name: name.into(), data: b"x".as_slice().into() }.append_to(&mut module);
        }
        let out = without_link_sections(&module).unwrap();
        let names: Vec<String> = Parser::new(0)
            .parse_all(&out)
            .filter_map(|p| match p.unwrap() {
                Payload::CustomSection(c) => Some(c.name().to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(names, ["name"]);
    }

    #[test]
    fn the_page_names_the_worker_by_its_binary() {
        assert_eq!(
            meta("scan_worker", "/build-00/scan_worker-11_loader.js"),
            r#"<meta name="scan_worker" content="/build-00/scan_worker-11_loader.js">"#
        );
    }
}
