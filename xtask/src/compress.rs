//! Precompressed variants beside each text asset, wasm module and page pack (xtask/src/pack.rs), served by Accept-Encoding
//! (crates/server/src/static_files/): brotli at its best setting and gzip at 9, done once
//! here instead of on every request. Not environments.json: operators edit it in place, and a
//! variant left from the build would be served instead of their edit.

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::Result;

const EXTENSIONS: [&str; 6] = ["wasm", "pack", "js", "css", "html", "svg"];

/// Writes `F.br` and `F.gz` beside every such file under `dir`; gives how many files.
pub fn precompress(dir: &Path) -> Result<usize> {
    let mut n = 0;
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            n += precompress(&path)?;
            continue;
        }
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
        if !EXTENSIONS.contains(&ext) {
            continue;
        }
        let bytes = fs::read(&path)?;
        fs::write(with_suffix(&path, "gz"), gzip(&bytes)?)?;
        let mut br = Vec::new();
        {
            let params = brotli::enc::BrotliEncoderParams { quality: 11, lgwin: 22, ..Default::default() };
            brotli::BrotliCompress(&mut bytes.as_slice(), &mut br, &params)?;
        }
        fs::write(with_suffix(&path, "br"), br)?;
        n += 1;
    }
    Ok(n)
}

/// `bytes` gzipped at level 9 (as served: the build's page plan weighs modules by it).
pub fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut gz = flate2::GzBuilder::new().write(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes)?;
    Ok(gz.finish()?)
}

fn with_suffix(path: &Path, suffix: &str) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".");
    name.push(suffix);
    name.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn each_asset_gets_a_gzip_and_a_brotli_copy_that_decode_to_it_and_json_gets_none() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("build-0")).unwrap();
        let text = "body { color: red }\n".repeat(50);
        fs::write(dir.path().join("build-0/a.css"), &text).unwrap();
        fs::write(dir.path().join("environments.json"), "{}").unwrap();
        assert_eq!(precompress(dir.path()).unwrap(), 1);
        let mut back = String::new();
        flate2::read::GzDecoder::new(fs::File::open(dir.path().join("build-0/a.css.gz")).unwrap())
            .read_to_string(&mut back)
            .unwrap();
        assert_eq!(back, text);
        let mut back = Vec::new();
        brotli::BrotliDecompress(&mut fs::File::open(dir.path().join("build-0/a.css.br")).unwrap(), &mut back).unwrap();
        assert_eq!(back, text.as_bytes());
        assert!(!dir.path().join("environments.json.gz").exists());
    }
}
