//! The portal's release build: `cargo xtask dist [DIR]` (default `./dist`).
//!
//! trunk builds the development portal (`trunk serve`, unsplit). The release build cuts the
//! heavy pages into wasm chunks fetched when a page is first opened, which needs a step between
//! cargo's link and wasm-bindgen that trunk 0.21 has no place for (it runs `cargo` from PATH);
//! this tool is that build, as cargo-leptos does its `--split`:
//!
//! 1. `cargo build --release --target wasm32-unknown-unknown` of index.html's rust binary, with
//!    `--cfg moneydesk_split` (src/groups.rs and src/pages/lazy.rs mark the split points),
//!    `-Clink-args=--emit-relocs` (wasm-split reads the relocations), `MONEYDESK_WASM_RUSTFLAGS`
//!    (scripts/setup: smaller panics where the toolchain allows) and
//!    `MONEYDESK_PAGE_STYLESHEETS` (the hashed names of the stylesheets each split page loads
//!    itself, src/pages/lazy.rs);
//! 2. `wasm_split_cli_support::transform` (after [`relocs::undefine_bss_symbols`]) into the main
//!    module and one module per page and per set of pages sharing code;
//! 3. `wasm-bindgen --target web --keep-lld-exports` on the main module (the chunks import the
//!    linker's function table), what the main module holds and nothing runs taken out
//!    ([`slim`]) and `wasm-opt` on every module, then the page modules merged
//!    into fewer files ([`bundle`]: a file costs a page more than a few KB it does not need)
//!    with the loader `__wasm_split.js` for those ([`loader`], instead of wasm-split's);
//! 4. the Web Workers index.html links (`data-type="worker"`, src/worker.rs) built into the same
//!    directory and named in the page by a `<meta>`, not loaded by it;
//! 5. index.html with its trunk links replaced and its first script (xtask/src/start.js,
//!    minified: [`preload`]), the stylesheets and copied files, and a precompressed (brotli,
//!    gzip) copy of every text asset and module.
//!
//! `cargo xtask worker DIR` builds only the workers, into DIR (the scanning benchmark,
//! scripts/bench-scan). `cargo xtask sizes DIST [N]` lists where the start module's code goes
//! ([`sizes`]).
//!
//! Every file the build makes from the wasm is in one directory named by the linked module's
//! hash (`build-<16 hex>/`), where they find each other by relative names: nothing generated is
//! patched, and a tab still running an older build never loads a newer build's chunk (it gets a
//! 404 and offers Retry). Stylesheets are named by their own content hash.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use sha2::{Digest, Sha256};

mod bundle;
mod compress;
mod css;
mod dist;
mod fonts;
mod groups;
mod index;
mod js;
mod loader;
mod merge;
mod pack;
mod preload;
mod relocs;
mod sizes;
mod slim;
mod worker;

const TARGET: &str = "wasm32-unknown-unknown";

/// The sign-in page is a split of its own (src/pages/lazy.rs), shown at this route.
const SIGN_IN: (&str, &str) = ("sign_in", preload::SIGN_IN_ROUTE);
/// The home page (`home!` in src/pages/mod.rs) is shown at `/`: index.html's script names that
/// route by the empty first segment.
const HOME: (&str, &str) = ("dashboard", "");

fn main() {
    if let Err(e) = run() {
        eprintln!("xtask: error: {e:#}");
        std::process::exit(1);
    }
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("dist") => {
            let root = checkout()?;
            let out = match args.get(1) {
                Some(dir) => PathBuf::from(dir),
                None => root.join("dist"),
            };
            dist::dist(&root, &out)
        }
        Some("worker") if args.len() == 2 => {
            let root = checkout()?;
            let html = fs::read_to_string(root.join("index.html")).context("reading index.html")?;
            let out = PathBuf::from(&args[1]);
            fs::create_dir_all(&out)?;
            for link in index::trunk_links(&html)? {
                if let Some(w) = worker::Worker::of(&link.asset) {
                    let loader = worker::build(&root, &out, &w)?;
                    println!("{}", out.join(loader).display());
                }
            }
            Ok(())
        }
        Some("sizes") if (2..=3).contains(&args.len()) => {
            let n = match args.get(2) {
                Some(n) => n.parse().context("N: a number of modules to list")?,
                None => 40,
            };
            sizes::print(Path::new(&args[1]), n)
        }
        _ => {
            eprintln!(
                "usage: cargo xtask dist [DIR]   the portal's release build (split into page chunks) into DIR (./dist)"
            );
            eprintln!(
                "       cargo xtask sizes DIST [N]   the start module's code by portal module (a build made with MONEYDESK_WASM_NAMES=1)"
            );
            eprintln!(
                "       cargo xtask worker DIR   only index.html's Web Workers, into DIR (prints each loader's path)"
            );
            std::process::exit(2)
        }
    }
}

/// The checkout: the nearest directory up from here holding index.html and src/groups.rs.
fn checkout() -> Result<PathBuf> {
    let here = std::env::current_dir()?;
    here.ancestors()
        .find(|d| d.join("index.html").is_file() && d.join("src/groups.rs").is_file())
        .map(Path::to_path_buf)
        .context("run it inside the Moneydesk checkout (no index.html with src/groups.rs above the current directory)")
}

fn say(what: impl std::fmt::Display) {
    eprintln!("xtask: {what}");
}

/// Builds the portal's binary (or with `manifest`, another package's: a worker) for the
/// browser and gives the linked module's path. Every build gets the same flags, so the
/// dependencies the worker and the portal share are built once.
fn cargo_build(root: &Path, manifest: Option<&Path>, bin: &str, page_css: &str) -> Result<PathBuf> {
    let mut flags = std::env::var("RUSTFLAGS").unwrap_or_default();
    for f in ["--cfg moneydesk_split", "-Clink-args=--emit-relocs"] {
        flags = format!("{flags} {f}");
    }
    if let Ok(extra) = std::env::var("MONEYDESK_WASM_RUSTFLAGS") {
        flags = format!("{flags} {extra}");
    }
    say(format_args!("cargo build --release --target {TARGET} --bin {bin} (RUSTFLAGS:{flags})"));
    let mut cargo = Command::new("cargo");
    cargo.arg("build");
    if let Some(m) = manifest {
        cargo.arg("--manifest-path").arg(m);
    }
    let output = cargo
        .current_dir(root)
        .args(["--release", "--target", TARGET, "--bin", bin, "--message-format=json-render-diagnostics"])
        .env("RUSTFLAGS", flags.trim())
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env("MONEYDESK_PAGE_STYLESHEETS", page_css)
        .stderr(std::process::Stdio::inherit())
        .output()
        .context("running cargo")?;
    if !output.status.success() {
        bail!("cargo build failed ({})", output.status);
    }
    let wanted = format!("/{TARGET}/release/{bin}.wasm");
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        if msg["reason"] != "compiler-artifact" {
            continue;
        }
        if let Some(files) = msg["filenames"].as_array() {
            if let Some(f) = files.iter().filter_map(|f| f.as_str()).find(|f| f.ends_with(&wanted)) {
                return Ok(PathBuf::from(f));
            }
        }
    }
    bail!("cargo named no {wanted} among its artifacts")
}

/// The `.js` files under `dir`, as paths relative to it (`/`-separated); none when it is absent.
fn files_under(dir: &Path) -> Result<Vec<String>> {
    let mut out = Vec::new();
    if !dir.is_dir() {
        return Ok(out);
    }
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        let name =
            path.file_name().and_then(|n| n.to_str()).context("a snippet with a name that is not UTF-8")?.to_string();
        if path.is_dir() {
            out.extend(files_under(&path)?.into_iter().map(|f| format!("{name}/{f}")));
        } else if name.ends_with(".js") {
            out.push(name);
        }
    }
    out.sort();
    Ok(out)
}

fn run_tool(cmd: &mut Command) -> Result<()> {
    let status = cmd
        .status()
        .with_context(|| format!("running {:?} (is it on PATH? scripts/setup installs it)", cmd.get_program()))?;
    if !status.success() {
        bail!("{:?} failed ({status})", cmd.get_program());
    }
    Ok(())
}

/// The first 16 hex digits of the SHA-256 (as trunk names its files).
fn short_hash(bytes: &[u8]) -> String {
    hex::encode(&Sha256::digest(bytes)[..8])
}
