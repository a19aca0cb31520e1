//! `cargo xtask dist`: the five steps of the release build (the crate's doc lists them), each
//! a function, into a staging directory swapped in whole at the end.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::index::{Asset, TrunkLink as Link};
use crate::{bundle, compress, css, fonts, groups, index, js, pack, preload, relocs, slim, worker};
use crate::{cargo_build, files_under, run_tool, say, short_hash, HOME, SIGN_IN};

pub fn dist(root: &Path, out: &Path) -> Result<()> {
    let html = fs::read_to_string(root.join("index.html")).context("reading index.html")?;
    let links = index::trunk_links(&html)?;
    let read = |path: &str| fs::read_to_string(root.join(path)).with_context(|| format!("reading {path}"));
    // The groups, and the home page (`home!`, in src/pages/mod.rs), read as one source.
    let portal = format!("{}\n{}", read("src/groups.rs")?, read("src/pages/mod.rs")?);
    let pages = groups::split_pages(&portal, &read("crates/model/src/paths.rs")?)?;

    let staging = out.with_extension("partial");
    if staging.exists() {
        fs::remove_dir_all(&staging)?;
    }
    fs::create_dir_all(&staging)?;

    // Stylesheets first: the wasm is told the names of those its pages load.
    let sheets = stylesheets(root, &links, &pages, &staging)?;
    let rust: Vec<_> = links
        .iter()
        .filter_map(|l| match &l.asset {
            Asset::Rust { bin, wasm_opt } => Some((bin.clone(), wasm_opt.clone())),
            _ => None,
        })
        .collect();
    let [(bin, wasm_opt)] = rust.as_slice() else { bail!("index.html must have exactly one rust link") };
    let modules = modules(root, bin, wasm_opt.as_deref(), &sheets, &staging)?;
    let workers = workers_and_scripts(root, &links, &modules, bin)?;
    write_page(root, &html, &links, &pages, &sheets, &modules, &workers, bin, &staging)?;

    let compressed = compress::precompress(&staging)?;
    say(format_args!("{compressed} files precompressed (br, gz)"));
    swap_in(&staging, out)?;
    say(format_args!("{} ready: {}/ with {} page files", out.display(), modules.build, modules.bundled.files.len()));
    Ok(())
}

/// The stylesheets index.html links, minified and named by their hash. Those the start loads
/// (every one no split page names) ship as one file, in index.html's order, named after the
/// first (main.css): one request, and the bytes of one stylesheet however the sources are cut.
struct Sheets {
    /// style name -> hashed file name (every start stylesheet's is the joined file's)
    names: BTreeMap<String, String>,
    /// Those a split page loads itself (not linked by index.html's output).
    of_pages: Vec<String>,
    /// main.css's first-screen fonts (index.html's script preloads them).
    first_fonts: Vec<String>,
}

fn stylesheets(root: &Path, links: &[Link], pages: &[groups::SplitPage], staging: &Path) -> Result<Sheets> {
    let of_pages: Vec<String> = pages.iter().flat_map(|p| p.stylesheets.iter().cloned()).collect();
    let mut names = BTreeMap::new();
    let mut first_fonts = None;
    let mut start: Vec<(String, String)> = Vec::new();
    for link in links {
        if let Asset::Css { href } = &link.asset {
            let source = fs::read_to_string(root.join(href)).with_context(|| format!("reading {href}"))?;
            if href.ends_with("/main.css") {
                first_fonts = Some(fonts::first_screen(&source)?);
            }
            let stem = Path::new(href).file_stem().and_then(|s| s.to_str()).context("a stylesheet without a name")?;
            if !of_pages.iter().any(|s| s == stem) {
                start.push((stem.to_string(), source));
                continue;
            }
            let bytes = css::minify(&source).into_bytes();
            let name = format!("{stem}-{}.css", short_hash(&bytes));
            fs::write(staging.join(&name), &bytes)?;
            names.insert(stem.to_string(), name);
        }
    }
    if let Some((first, _)) = start.first() {
        let bytes = css::join(start.iter().map(|(_, source)| source.as_str())).into_bytes();
        let name = format!("{first}-{}.css", short_hash(&bytes));
        fs::write(staging.join(&name), &bytes)?;
        names.extend(start.iter().map(|(stem, _)| (stem.clone(), name.clone())));
    }
    for sheet in &of_pages {
        if !names.contains_key(sheet) {
            bail!("src/groups.rs names the stylesheet {sheet:?}, which index.html does not link (add <link data-trunk rel=\"css\" href=\"style/{sheet}.css\">)");
        }
    }
    let Some(first_fonts) = first_fonts else { bail!("index.html links no style/main.css (the fonts' stacks)") };
    Ok(Sheets { names, of_pages, first_fonts })
}

/// What steps 1–3 made: the build directory's name and its merged page modules.
struct Modules {
    build: String,
    build_dir: PathBuf,
    bundled: bundle::Bundled,
}

/// 1. cargo, 2. wasm-split, 3. wasm-bindgen, slim, wasm-opt and the page modules merged.
fn modules(root: &Path, bin: &str, wasm_opt: Option<&str>, sheets: &Sheets, staging: &Path) -> Result<Modules> {
    let page_css: Vec<String> =
        sheets.names.iter().filter(|(k, _)| sheets.of_pages.contains(k)).map(|(k, v)| format!("{k}={v}")).collect();
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
    let level = format!("-O{}", wasm_opt.unwrap_or("z"));
    let mut modules: Vec<PathBuf> = split.split_modules.clone();
    modules.push(main_bg.clone());
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
    Ok(Modules { build, build_dir, bundled })
}

/// 4. The workers, beside the modules (bin -> the page's `<meta>` naming its loader), and the
/// JavaScript beside them minified.
fn workers_and_scripts(root: &Path, links: &[Link], m: &Modules, bin: &str) -> Result<BTreeMap<String, String>> {
    let mut workers = BTreeMap::new();
    for link in links {
        if let Some(w) = worker::Worker::of(&link.asset) {
            let loader = worker::build(root, &m.build_dir, &w)?;
            workers.insert(w.bin.to_string(), worker::meta(w.bin, &format!("/{}/{loader}", m.build)));
        }
    }
    // wasm-bindgen's inline snippets (the stylesheet loader), imported by the main module's
    // JS: preloaded with it (start_tags), so they cost no round trip of their own.
    let snippets = files_under(&m.build_dir.join("snippets"))?;
    let scripts = std::iter::once(format!("{bin}.js"))
        .chain(std::iter::once("__wasm_split.js".to_string()))
        .chain(snippets.iter().map(|s| format!("snippets/{s}")));
    for script in scripts {
        let path = m.build_dir.join(script);
        if path.is_file() {
            js::minify(&path, js::Kind::Module)?;
        }
    }
    Ok(workers)
}

/// 5. Each page's pack, and index.html with its trunk links replaced and its first script.
#[allow(clippy::too_many_arguments)]
fn write_page(
    root: &Path,
    html: &str,
    links: &[Link],
    pages: &[groups::SplitPage],
    sheets: &Sheets,
    m: &Modules,
    workers: &BTreeMap<String, String>,
    bin: &str,
    staging: &Path,
) -> Result<()> {
    let build = &m.build;
    let mut routes: BTreeMap<String, preload::Route> = BTreeMap::new();
    for (split_name, stems) in &m.bundled.pages {
        let route = match split_name.as_str() {
            s if s == SIGN_IN.0 => SIGN_IN.1.to_string(),
            s if s == HOME.0 => HOME.1.to_string(),
            _ => split_name.clone(),
        };
        let mut files: Vec<String> = stems.iter().map(|s| format!("{build}/{s}.wasm")).collect();
        let page = pages.iter().find(|p| &p.split == split_name);
        if let Some(page) = page {
            files.extend(page.stylesheets.iter().map(|s| sheets.names[s.as_str()].clone()));
        }
        let first = page.and_then(|p| p.first_request.clone());
        // The home page's route is empty: its pack is named after its split.
        let pack_name = if route.is_empty() { split_name.as_str() } else { route.as_str() };
        let pack = pack::write(staging, build, pack_name, &files)?;
        let opened_by = page.map(|p| p.opened_by.clone()).unwrap_or_default();
        routes.insert(route, preload::Route::new(&files, pack, first, opened_by));
    }
    let snippets = files_under(&m.build_dir.join("snippets"))?;
    let mut page = html.to_string();
    // The start's stylesheets are one file: linked where the first of them was.
    let first_start_css = links.iter().position(|l| match &l.asset {
        Asset::Css { href } => !sheets.of_pages.iter().any(|s| Some(s.as_str()) == stem_of(href)),
        _ => false,
    });
    for (i, link) in links.iter().enumerate().rev() {
        let replacement = match &link.asset {
            Asset::Rust { .. } => start_tags(build, bin, &snippets),
            Asset::Worker { bin, .. } => workers[bin].clone(),
            Asset::Css { href } => {
                let stem = stem_of(href).unwrap_or_default();
                // A page's is loaded by its page (src/pages/lazy.rs); the start's are joined into
                // the first of them.
                if sheets.of_pages.iter().any(|s| s == stem) || Some(i) != first_start_css {
                    String::new()
                } else {
                    format!(r#"<link rel="stylesheet" href="/{}">"#, sheets.names[stem])
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
    let start = js::minify_text(preload::SOURCE, "xtask/src/start.js")?;
    let page = preload::with_script(&page, &start, &routes, &sheets.first_fonts)?;
    let page: String = page.lines().filter(|l| !l.trim().is_empty()).map(|l| format!("{l}\n")).collect();
    fs::write(staging.join("index.html"), page)?;
    Ok(())
}

fn stem_of(href: &str) -> Option<&str> {
    Path::new(href).file_stem().and_then(|s| s.to_str())
}

/// The new build in whole: a server reading dist never sees half of one.
fn swap_in(staging: &Path, out: &Path) -> Result<()> {
    let old = out.with_extension("old");
    if old.exists() {
        fs::remove_dir_all(&old)?;
    }
    if out.exists() {
        fs::rename(out, &old)?;
    }
    fs::rename(staging, out)?;
    if old.exists() {
        fs::remove_dir_all(&old)?;
    }
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
