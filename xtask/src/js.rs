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

/// V8's explicit compile hint, the first line of a script whose functions its page calls as it
/// loads: V8 then compiles them all while the script streams in, on a background thread,
/// instead of each on the main thread at its first call (Chromium 136 and later; other
/// browsers read a comment). Much of the glue runs as the portal starts (the imports the first
/// screen uses) and compiling the rest off the main thread costs the page nothing. Measured on
/// cold loads of /accounts, interleaved with the same build without it: first content painted
/// 0.91×, 0.96× and 0.95× as soon (three runs of 10–16 loads; bench/peer/results/README.md, 25).
pub const COMPILE_HINT: &str = "//# allFunctionsCalledOnLoad\n";

/// Puts [`COMPILE_HINT`] first in the script at `path` (once).
pub fn compile_eagerly(path: &Path) -> Result<()> {
    let source = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    if !source.starts_with(COMPILE_HINT) {
        std::fs::write(path, format!("{COMPILE_HINT}{source}"))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compile_hint_is_the_first_line_once() {
        let dir = std::env::temp_dir().join(format!("xtask-js-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("glue.js");
        std::fs::write(&path, "export function f(){}").unwrap();
        compile_eagerly(&path).unwrap();
        compile_eagerly(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "//# allFunctionsCalledOnLoad\nexport function f(){}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
