//! A page's wasm chunks in one file (`build-…/<route>.pack`), which index.html's script fetches
//! on a cold load of that page's URL instead of one request a chunk (xtask/src/preload.rs).
//!
//! Why: on HTTP/1.1 a browser opens six connections a host. A cold load of /accounts asked for
//! 15 files and answers before its first paint (five start files, six wasm chunks, a
//! stylesheet, two API requests, the page): the chunks and the API requests queued behind the
//! start files, and each request costs the browser and the server CPU time that a 2-core
//! machine takes from the page. One pack instead of six chunks: the last byte in at 70 ms
//! instead of 81, the first screen painted in 0.84× the time (16 cold loads of /accounts).
//!
//! The chunks stay beside it, as the page loaders fetch them (xtask/src/loader.rs): a page
//! opened later in the same visit loads only the chunks it does not have yet, which a pack of
//! its own would send again. If the pack fails (absent, truncated), index.html's script gives
//! the loaders nothing and they fetch each chunk themselves.
//!
//! Layout, all integers unsigned 32-bit little-endian: the number of modules `n`, `n` lengths,
//! then the `n` modules back to back, in the order of the route's `files`.

use std::fs;
use std::path::Path;

use anyhow::{bail, Context, Result};

/// The extension index.html's script appends to a route's `pack` (not `.wasm`: the server reads
/// quoted names ending in `.wasm` out of index.html as the start bundle, and this is not in it).
pub const EXTENSION: &str = "pack";

/// The pack of `modules`' bytes.
pub fn pack(modules: &[Vec<u8>]) -> Result<Vec<u8>> {
    let count = |n: usize| u32::try_from(n).context("a pack holds fewer than 4 GiB");
    let mut out = Vec::with_capacity(4 + 4 * modules.len() + modules.iter().map(Vec::len).sum::<usize>());
    out.extend(count(modules.len())?.to_le_bytes());
    for module in modules {
        out.extend(count(module.len())?.to_le_bytes());
    }
    for module in modules {
        if !module.starts_with(b"\0asm") {
            bail!("a pack holds wasm modules only");
        }
        out.extend(module);
    }
    Ok(out)
}

/// Writes `<build_dir>/<route>.pack` of the chunks `files` names (`build-…/chunk_3.wasm`, the
/// route's other files skipped) and gives its name without the extension, as index.html's
/// script fetches it (`build-…/<route>`); `None` for a route without chunks.
pub fn write(staging: &Path, build: &str, route: &str, files: &[String]) -> Result<Option<String>> {
    let chunks: Vec<&String> = files.iter().filter(|f| f.ends_with(".wasm")).collect();
    if chunks.is_empty() {
        return Ok(None);
    }
    let modules = chunks
        .iter()
        .map(|f| fs::read(staging.join(f)).with_context(|| format!("reading {f} for the {route} pack")))
        .collect::<Result<Vec<_>>>()?;
    let name = format!("{build}/{route}");
    fs::write(staging.join(format!("{name}.{EXTENSION}")), pack(&modules)?)?;
    Ok(Some(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pack_is_the_count_the_lengths_then_the_modules_in_order() {
        let a = b"\0asm\x01\0\0\0".to_vec();
        let b = b"\0asm\x01\0\0\0\x00\x01\x02".to_vec();
        let packed = pack(&[a.clone(), b.clone()]).unwrap();
        assert_eq!(&packed[..12], &[2, 0, 0, 0, 8, 0, 0, 0, 11, 0, 0, 0]);
        assert_eq!(&packed[12..20], a.as_slice());
        assert_eq!(&packed[20..], b.as_slice());
    }

    #[test]
    fn only_wasm_modules_go_into_a_pack() {
        let err = pack(&[b"body { }".to_vec()]).unwrap_err();
        assert!(err.to_string().contains("wasm modules only"), "{err}");
    }

    #[test]
    fn a_route_packs_its_chunks_and_not_its_stylesheets() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("build-00")).unwrap();
        fs::write(dir.path().join("build-00/chunk_1.wasm"), b"\0asm\x01\0\0\0").unwrap();
        fs::write(dir.path().join("build-00/split_fees.wasm"), b"\0asm\x01\0\0\0\x0a").unwrap();
        let files = ["build-00/chunk_1.wasm".to_string(), "build-00/split_fees.wasm".into(), "fees-1a.css".into()];
        let name = write(dir.path(), "build-00", "fees", &files).unwrap();
        assert_eq!(name.as_deref(), Some("build-00/fees"));
        let packed = fs::read(dir.path().join("build-00/fees.pack")).unwrap();
        assert_eq!(&packed[..12], &[2, 0, 0, 0, 8, 0, 0, 0, 9, 0, 0, 0]);
        assert_eq!(packed.len(), 12 + 8 + 9);
        assert_eq!(write(dir.path(), "build-00", "none", &files[2..]).unwrap(), None);
    }
}
