//! The generated JavaScript (wasm-bindgen's glue, wasm-split's loader, the inline snippets)
//! minified by esbuild (npm, installed by scripts/setup beside binaryen): the glue is in the
//! start bundle on every first visit. Measured on this portal: glue 12,645 → 11,327 bytes gzip,
//! loader 1,668 → 1,185. Only whitespace, comments and local names change: exports, import
//! paths and the property names the wasm module reaches its imports by stay as they are.

use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};

/// What a file of JavaScript is to the browser.
#[derive(Clone, Copy)]
pub enum Kind {
    /// An ES module (`import`/`export`): its own top-level names are minified too.
    Module,
    /// A classic script (a worker's `importScripts`): its top-level names are globals other
    /// scripts use, so esbuild keeps them.
    Script,
}

/// Minifies the JavaScript at `path` in place.
pub fn minify(path: &Path, kind: Kind) -> Result<()> {
    let format = match kind {
        Kind::Module => Some("--format=esm"),
        Kind::Script => None,
    };
    let out = Command::new("esbuild")
        .arg(path)
        .args(["--minify", "--charset=utf8", "--log-level=error", "--allow-overwrite"])
        .args(format)
        .arg(format!("--outfile={}", path.display()))
        .output()
        .context(
            "running esbuild (scripts/setup installs it under ~/.cache/moneydesk/tools; md_wasm puts it on PATH)",
        )?;
    if !out.status.success() {
        bail!("esbuild could not minify {}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    }
    Ok(())
}
