//! `cargo xtask sizes DIST [N]`: where the start module's bytes go, by the portal's module.
//!
//! Build with `MONEYDESK_WASM_NAMES=1` (the main module keeps its function names, wasm-opt
//! `-g`), then this sums each function body's size under the first `moneydesk::a::b` its name
//! mentions (generic code instantiated for a portal type counts for that type's module; the
//! rest is "other") and prints the `N` largest (40). Compare two builds by diffing the output:
//! the issue-45 start bundle was brought back under budget this way (the router built inside a
//! reactive closure, a `Memo<&str>`, a closure per group title).

use std::collections::HashMap;
use std::path::Path;

use anyhow::{bail, Context, Result};
use wasmparser::{KnownCustom, Name, Parser, Payload};

/// `(bytes, module)` largest first, and the total of code bytes.
pub fn by_module(wasm: &[u8]) -> Result<(Vec<(u64, String)>, u64)> {
    let mut imported = 0u32;
    let mut bodies = Vec::new();
    let mut names = HashMap::new();
    for payload in Parser::new(0).parse_all(wasm) {
        match payload? {
            Payload::ImportSection(r) => {
                for import in r.into_imports() {
                    if matches!(import?.ty, wasmparser::TypeRef::Func(_)) {
                        imported += 1;
                    }
                }
            }
            Payload::CodeSectionEntry(body) => bodies.push(body.range().end - body.range().start),
            Payload::CustomSection(c) => {
                if let KnownCustom::Name(reader) = c.as_known() {
                    for name in reader {
                        if let Name::Function(map) = name? {
                            for n in map {
                                let n = n?;
                                names.insert(n.index, n.name.to_string());
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if names.is_empty() {
        bail!("the module has no function names: build it with MONEYDESK_WASM_NAMES=1");
    }
    let mut sums: HashMap<String, u64> = HashMap::new();
    for (i, size) in bodies.iter().enumerate() {
        let name = names.get(&(imported + i as u32)).map(String::as_str).unwrap_or("?");
        *sums.entry(module_of(name)).or_default() += size;
    }
    let mut rows: Vec<(u64, String)> = sums.into_iter().map(|(m, s)| (s, m)).collect();
    rows.sort_by(|a, b| b.cmp(a));
    Ok((rows, bodies.iter().sum()))
}

/// `moneydesk::a::b` (at most two segments below the crate) of a function's name, or "other".
fn module_of(name: &str) -> String {
    let Some(at) = name.find("moneydesk") else { return "other".into() };
    let rest = &name[at + "moneydesk".len()..];
    // Symbol names carry the crate's hash: `moneydesk[15db5b8f2a2ea3b7]::shell::...`.
    let rest = rest.strip_prefix('[').and_then(|r| r.split_once(']')).map_or(rest, |(_, r)| r);
    let Some(path) = rest.strip_prefix("::") else { return "other".into() };
    let segments: Vec<&str> = path
        .split("::")
        .take(2)
        .map(|s| s.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or_default())
        .take_while(|s| !s.is_empty())
        .collect();
    if segments.is_empty() {
        return "other".into();
    }
    format!("moneydesk::{}", segments.join("::"))
}

/// Prints the `n` largest modules of DIST's start module.
pub fn print(dist: &Path, n: usize) -> Result<()> {
    let html = std::fs::read_to_string(dist.join("index.html")).context("reading DIST/index.html")?;
    let Some(start) = html.split('\'').find(|s| s.ends_with("_bg.wasm")) else {
        bail!("index.html names no start module")
    };
    let wasm = std::fs::read(dist.join(start.trim_start_matches('/')))?;
    let (rows, total) = by_module(&wasm)?;
    println!("{total} bytes of code in {start}");
    for (size, module) in rows.into_iter().take(n) {
        println!("{size:>8} {module}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::module_of;

    #[test]
    fn a_function_counts_for_the_first_portal_module_its_name_mentions() {
        assert_eq!(
            module_of("moneydesk[15db5b8f2a2ea3b7]::shell::layout::__component_header"),
            "moneydesk::shell::layout"
        );
        assert_eq!(
            module_of("<either_of::Either<moneydesk::pages::sign_in, X> as ChooseView>::choose::{closure#0}"),
            "moneydesk::pages::sign_in"
        );
        assert_eq!(module_of("moneydesk::mount_options"), "moneydesk::mount_options");
        assert_eq!(module_of("dlmalloc::Dlmalloc::malloc"), "other");
        assert_eq!(module_of("moneydesk_model::Money::parse"), "other", "the model crate is not the portal");
    }
}
