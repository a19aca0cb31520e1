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

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use sha2::{Digest, Sha256};

mod bundle;
mod compress;
mod css;
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

use index::Asset;

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
            dist(&root, &out)
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

fn dist(root: &Path, out: &Path) -> Result<()> {
    let html = fs::read_to_string(root.join("index.html")).context("reading index.html")?;
    let links = index::trunk_links(&html)?;
    let read = |path: &str| fs::read_to_string(root.join(path)).with_context(|| format!("reading {path}"));
    // The groups, and the home page (`home!`, in src/pages/mod.rs), read as one source.
    let portal = format!("{}\n{}", read("src/groups.rs")?, read("src/pages/mod.rs")?);
    let pages = groups::split_pages(&portal, &read("crates/model/src/paths.rs")?)?;
    let page_sheets: Vec<&str> = pages.iter().flat_map(|p| p.stylesheets.iter().map(String::as_str)).collect();

    let staging = out.with_extension("partial");
    if staging.exists() {
        fs::remove_dir_all(&staging)?;
    }
    fs::create_dir_all(&staging)?;

    // Stylesheets first: the wasm is told the names of those its pages load.
    let mut css_names = BTreeMap::new(); // style name -> hashed file name
    let mut first_fonts = None;
    for link in &links {
        if let Asset::Css { href } = &link.asset {
            let source = fs::read_to_string(root.join(href)).with_context(|| format!("reading {href}"))?;
            if href.ends_with("/main.css") {
                first_fonts = Some(fonts::first_screen(&source)?);
            }
            let bytes = css::minify(&source).into_bytes();
            let stem = Path::new(href).file_stem().and_then(|s| s.to_str()).context("a stylesheet without a name")?;
            let name = format!("{stem}-{}.css", short_hash(&bytes));
            fs::write(staging.join(&name), &bytes)?;
            css_names.insert(stem.to_string(), name);
        }
    }
    for sheet in &page_sheets {
        if !css_names.contains_key(*sheet) {
            bail!("src/groups.rs names the stylesheet {sheet:?}, which index.html does not link (add <link data-trunk rel=\"css\" href=\"style/{sheet}.css\">)");
        }
    }
    let page_css: Vec<String> =
        css_names.iter().filter(|(k, _)| page_sheets.contains(&k.as_str())).map(|(k, v)| format!("{k}={v}")).collect();

    let rust = links.iter().filter_map(|l| match &l.asset {
        Asset::Rust { bin, wasm_opt } => Some((bin.clone(), wasm_opt.clone())),
        _ => None,
    });
    let rust: Vec<_> = rust.collect();
    let [(bin, wasm_opt)] = rust.as_slice() else { bail!("index.html must have exactly one rust link") };

    let linked = cargo_build(root, None, bin, &page_css.join(";"))?;
    let (wasm, undefined) = relocs::undefine_bss_symbols(&fs::read(&linked)?)?;
    say(format_args!("{undefined} data symbols outside the data section marked undefined for wasm-split"));
    let build = format!("build-{}", short_hash(&wasm));
    let build_dir = staging.join(&build);
    fs::create_dir_all(&build_dir)?;

    // 2. split
    let main_in = staging.join("main.wasm");
    let main_module = format!("./{bin}.js");
    let split = {
        let mut opts = wasm_split_cli_support::Options::new(&wasm);
        opts.output_dir = &build_dir;
        opts.main_out_path = &main_in;
        opts.link_name = "./__wasm_split.js";
        opts.main_module = &main_module;
        wasm_split_cli_support::transform(opts).map_err(|e| anyhow::anyhow!("wasm-split: {e:#}"))?
    };
    let main_wasm = fs::read(&main_in)?;

    // 3. bindgen and optimise
    run_tool(
        Command::new("wasm-bindgen")
            .args(["--target", "web", "--no-typescript", "--keep-lld-exports", "--out-name", bin, "--out-dir"])
            .arg(&build_dir)
            .arg(&main_in),
    )?;
    fs::remove_file(&main_in)?;
    let main_bg = build_dir.join(format!("{bin}_bg.wasm"));
    let (slimmed, took) = slim::slim(&fs::read(&main_bg)?)?;
    fs::write(&main_bg, slimmed)?;
    say(format_args!(
        "main module: {} all-null element segments and {} unused exports taken out",
        took.null_segments, took.exports
    ));
    let level = format!("-O{}", wasm_opt.as_deref().unwrap_or("z"));
    let mut modules: Vec<PathBuf> = split.split_modules.clone();
    modules.push(build_dir.join(format!("{bin}_bg.wasm")));
    // `MONEYDESK_WASM_NAMES=1` keeps the functions' names (wasm-opt `-g`): a build to profile,
    // whose samples name Rust functions (the main module's `name` section is 2.5 times its code: never ship it).
    let names = std::env::var_os("MONEYDESK_WASM_NAMES").is_some_and(|v| v == "1");
    for module in &modules {
        // The `producers` and `target_features` sections only describe the build (300 bytes a
        // module, 67 modules): browsers do not read them.
        // The main module twice: a second pass finds 165 more bytes gzip there (measured on the
        // issue-45 build; the pages' modules gain nothing from it).
        let passes = if *module == main_bg { 2 } else { 1 };
        run_tool(
            Command::new("wasm-opt")
                .args(std::iter::repeat_n(&level, passes))
                .args(names.then_some("-g"))
                .args(["--strip-producers", "--strip-target-features"])
                .arg(module)
                .arg("-o")
                .arg(module),
        )?;
    }
    // Merged once optimised: the plan weighs the bytes a page will load.
    let bundled = bundle::bundle(&build_dir, &split.prefetch_map, &main_wasm, &main_module)?;
    say(format_args!("{} page modules merged into {} files", bundled.modules, bundled.files.len()));

    // 4. the workers, beside the modules; the page gets each one's loader URL
    let mut workers = BTreeMap::new(); // bin -> meta tag
    for link in &links {
        if let Some(w) = worker::Worker::of(&link.asset) {
            let loader = worker::build(root, &build_dir, &w)?;
            workers.insert(w.bin.to_string(), worker::meta(w.bin, &format!("/{build}/{loader}")));
        }
    }

    // wasm-bindgen's inline snippets (the stylesheet loader), imported by the main module's
    // JS: preloaded with it, so they cost no round trip of their own.
    let snippets = files_under(&build_dir.join("snippets"))?;
    let scripts = std::iter::once(format!("{bin}.js"))
        .chain(std::iter::once("__wasm_split.js".to_string()))
        .chain(snippets.iter().map(|s| format!("snippets/{s}")));
    for script in scripts {
        let path = build_dir.join(script);
        if path.is_file() {
            js::minify(&path, js::Kind::Module)?;
        }
    }

    // 5. the page and the rest of the assets
    let mut routes: BTreeMap<String, preload::Route> = BTreeMap::new();
    for (split_name, stems) in &bundled.pages {
        let route = match split_name.as_str() {
            s if s == SIGN_IN.0 => SIGN_IN.1.to_string(),
            s if s == HOME.0 => HOME.1.to_string(),
            _ => split_name.clone(),
        };
        let mut files: Vec<String> = stems.iter().map(|s| format!("{build}/{s}.wasm")).collect();
        let page = pages.iter().find(|p| &p.split == split_name);
        if let Some(page) = page {
            files.extend(page.stylesheets.iter().map(|s| css_names[s.as_str()].clone()));
        }
        let first = page.and_then(|p| p.first_request.clone());
        // The home page's route is empty: its pack is named after its split.
        let pack_name = if route.is_empty() { split_name.as_str() } else { route.as_str() };
        let pack = pack::write(&staging, &build, pack_name, &files)?;
        let opened_by = page.map(|p| p.opened_by.clone()).unwrap_or_default();
        routes.insert(route, preload::Route::new(&files, pack, first, opened_by));
    }
    let mut page = html.clone();
    for link in links.iter().rev() {
        let replacement = match &link.asset {
            Asset::Rust { .. } => start_tags(&build, bin, &snippets),
            Asset::Worker { bin, .. } => workers[bin].clone(),
            Asset::Css { href } => {
                let stem = Path::new(href).file_stem().and_then(|s| s.to_str()).unwrap_or_default();
                if page_sheets.contains(&stem) {
                    String::new() // loaded by its page (src/pages/lazy.rs)
                } else {
                    format!(r#"<link rel="stylesheet" href="/{}">"#, css_names[stem])
                }
            }
            Asset::CopyFile { href } => {
                let name = Path::new(href).file_name().context("copy-file without a name")?;
                fs::copy(root.join(href), staging.join(name)).with_context(|| format!("copying {href}"))?;
                String::new()
            }
        };
        page.replace_range(link.range.clone(), &replacement);
    }
    let Some(first_fonts) = first_fonts else { bail!("index.html links no style/main.css (the fonts' stacks)") };
    let start = js::minify_text(preload::SOURCE, "xtask/src/start.js")?;
    let page = preload::with_script(&page, &start, &routes, &first_fonts)?;
    let page: String = page.lines().filter(|l| !l.trim().is_empty()).map(|l| format!("{l}\n")).collect();
    fs::write(staging.join("index.html"), page)?;

    let compressed = compress::precompress(&staging)?;
    say(format_args!("{compressed} files precompressed (br, gz)"));

    // Swap the new build in whole: a server reading dist never sees half of one.
    let old = out.with_extension("old");
    if old.exists() {
        fs::remove_dir_all(&old)?;
    }
    if out.exists() {
        fs::rename(out, &old)?;
    }
    fs::rename(&staging, out)?;
    if old.exists() {
        fs::remove_dir_all(&old)?;
    }
    say(format_args!("{} ready: {build}/ with {} page files", out.display(), bundled.files.len()));
    Ok(())
}

/// The tags that start the portal, where index.html's rust link was (as trunk writes them:
/// preload the module and its wasm, then import and start it). The split loader the module
/// imports is preloaded too: found only once `{bin}.js` was parsed, it was requested ~160 ms
/// after it and queued behind the page's chunk preloads (bench-first-screen's waterfall; the
/// slow-network load of /accounts 2048 → 1969 ms with it).
fn start_tags(build: &str, bin: &str, snippets: &[String]) -> String {
    let preload: String = snippets
        .iter()
        .map(|s| format!("<link rel=\"modulepreload\" href=\"/{build}/snippets/{s}\" crossorigin=\"anonymous\">\n    "))
        .collect();
    format!(
        r#"{preload}<link rel="modulepreload" href="/{build}/{bin}.js" crossorigin="anonymous">
    <link rel="modulepreload" href="/{build}/__wasm_split.js" crossorigin="anonymous">
    <link rel="preload" href="/{build}/{bin}_bg.wasm" crossorigin="anonymous" as="fetch" type="application/wasm">
    <script type="module">
import init, * as bindings from '/{build}/{bin}.js';
const wasm = await init({{ module_or_path: '/{build}/{bin}_bg.wasm' }});
window.wasmBindings = bindings;
</script>"#
    )
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
