//! The generated JavaScript (wasm-bindgen's glue, wasm-split's loader, the inline snippets) and
//! index.html's first script (xtask/src/start.js) minified by esbuild (npm, installed by scripts/setup beside binaryen): the glue is in the
//! start bundle on every first visit. Measured on this portal: glue 12,645 → 11,327 bytes gzip,
//! loader 1,668 → 1,185. Only whitespace, comments and local names change: exports, import
//! paths and the property names the wasm module reaches its imports by stay as they are.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

/// What a file of JavaScript is to the browser.
#[derive(Clone, Copy)]
pub enum Kind {
    /// An ES module (`import`/`export`) of the portal's start: its own top-level names are
    /// minified too, and it begins with [`COMPILE_HINT`].
    Module,
    /// A classic script (a worker's `importScripts`): its top-level names are globals other
    /// scripts use, so esbuild keeps them.
    Script,
}

/// V8's explicit compile hint, the first line of a script whose functions its page calls as it
/// loads: V8 then compiles them all while the script streams in, on a background thread,
/// instead of each on the main thread at its first call (Chromium 136 and later; other
/// browsers read a comment). Much of the glue runs as the portal starts (the imports the first
/// screen uses) and compiling the rest off the main thread costs the page nothing: cold loads
/// of /accounts painted 0.91–0.96× as soon as the same build without it.
pub const COMPILE_HINT: &str = "//# allFunctionsCalledOnLoad";

impl Kind {
    /// esbuild's options for this kind (a module's banner, the hint, is written above the
    /// minified code).
    fn options(self) -> Vec<String> {
        match self {
            Kind::Module => vec!["--format=esm".into(), format!("--banner:js={COMPILE_HINT}")],
            Kind::Script => Vec::new(),
        }
    }
}

/// Minifies the JavaScript at `path` in place.
pub fn minify(path: &Path, kind: Kind) -> Result<()> {
    let out = Command::new("esbuild")
        .arg(path)
        .args(["--minify", "--charset=utf8", "--log-level=error", "--allow-overwrite"])
        .args(kind.options())
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

/// `source`, a classic script of the page's own (index.html's inline start script), minified:
/// esbuild parses it first, so a syntax error fails the build instead of the browser.
pub fn minify_text(source: &str, name: &str) -> Result<String> {
    let mut child = Command::new("esbuild")
        .args(["--minify", "--charset=utf8", "--log-level=error", "--loader=js"])
        .arg(format!("--sourcefile={name}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context(
            "running esbuild (scripts/setup installs it under ~/.cache/moneydesk/tools; md_wasm puts it on PATH)",
        )?;
    child.stdin.take().context("esbuild's stdin")?.write_all(source.as_bytes())?;
    let out = child.wait_with_output()?;
    if !out.status.success() {
        bail!("esbuild could not minify {name}: {}", String::from_utf8_lossy(&out.stderr));
    }
    String::from_utf8(out.stdout).context("esbuild's output")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_module_of_the_start_begins_with_the_compile_hint_and_a_worker_script_does_not() {
        assert_eq!(Kind::Module.options(), ["--format=esm", "--banner:js=//# allFunctionsCalledOnLoad"]);
        assert!(Kind::Script.options().is_empty());
    }
}
