//! `__wasm_split.js`, the module the main module imports its page loaders from
//! (`__wasm_split_load_<page>`, named by wasm_split_macros), written for the files
//! [`crate::bundle`] makes instead of wasm-split's one-file-per-chunk loader: a page's loader
//! fetches and instantiates that page's files in parallel, each once (a failed one is tried
//! again on the next call: Retry after a network error; a file index.html compiled already for
//! the page at its URL is instantiated from that, xtask/src/preload.rs), then calls back into
//! the main module with whether they all loaded, as wasm-split's does.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use anyhow::{bail, Result};
use wasmparser::{Parser, Payload};

/// The module name every chunk imports the main module's shared things under.
const SHARED: &str = "__wasm_split";
/// The main module's function table: the loader calls back through it.
const TABLE: &str = "__indirect_function_table";

const RUNTIME: &str = r#"let shared;
function sharedImports() {
  if (shared === undefined) {
    const { NAMES } = initSync(undefined, undefined);
    shared = { __wasm_split: { NAMES } };
  }
  return shared;
}
function file(name) {
  let loading;
  return () => {
    if (loading === undefined) {
      const url = new URL(name, import.meta.url).href;
      // Compiled already when index.html started it for the page at this URL (preload.rs).
      const compiled = window.MODULE_GLOBAL && window.MODULE_GLOBAL(url);
      const fetched = () => WebAssembly.instantiateStreaming(fetch(url), sharedImports());
      const load = compiled ? compiled.then((m) => WebAssembly.instantiate(m, sharedImports()), fetched) : fetched();
      load.catch(() => { if (loading === load) loading = undefined; });
      loading = load;
    }
    return loading;
  };
}
function page(files) {
  return async (callbackIndex, callbackData) => {
    let success;
    try {
      await Promise.all(files.map((f) => f()));
      success = true;
    } catch (e) {
      console.error(e);
      success = false;
    } finally {
      sharedImports().__wasm_split.__indirect_function_table.get(callbackIndex)(callbackData, success);
    }
  };
}
"#;

/// What the modules import from the main module (`__wasm_split.<name>`), which must be among
/// `main`'s exports.
pub fn shared_names<'a>(modules: impl IntoIterator<Item = &'a [u8]>, main: &[u8]) -> Result<BTreeSet<String>> {
    let mut names = BTreeSet::from([TABLE.to_string()]);
    for wasm in modules {
        for payload in Parser::new(0).parse_all(wasm) {
            if let Payload::ImportSection(r) = payload? {
                for i in r.into_imports() {
                    let i = i?;
                    if i.module != SHARED {
                        bail!("a chunk imports {}.{}, which the loader does not give", i.module, i.name);
                    }
                    names.insert(i.name.to_string());
                }
            }
        }
    }
    let mut exported = BTreeSet::new();
    for payload in Parser::new(0).parse_all(main) {
        if let Payload::ExportSection(r) = payload? {
            for e in r {
                exported.insert(e?.name.to_string());
            }
        }
    }
    if let Some(missing) = names.iter().find(|n| !exported.contains(*n)) {
        bail!("the chunks import {missing:?}, which the main module does not export");
    }
    Ok(names)
}

/// The loader: `main_js` is the main module's JS (`./moneydesk.js`), `pages` each split
/// page's files (stems in the build directory, possibly none).
pub fn script(main_js: &str, names: &BTreeSet<String>, pages: &BTreeMap<String, Vec<String>>) -> String {
    let names = names.iter().cloned().collect::<Vec<_>>().join(", ");
    let mut js = format!(
        "// The page loaders of this build, written by xtask/src/loader.rs.\nimport {{ initSync }} from {};\n{}",
        serde_json::Value::from(main_js),
        RUNTIME.replace("NAMES", &names).replace("MODULE_GLOBAL", moneydesk_model::portal_shell::MODULE)
    );
    let files: BTreeSet<&String> = pages.values().flatten().collect();
    let var = |stem: &str| format!("f_{}", stem.replace(|c: char| !c.is_ascii_alphanumeric(), "_"));
    for stem in &files {
        let _ = writeln!(js, "const {} = file({});", var(stem), serde_json::Value::from(format!("./{stem}.wasm")));
    }
    for (page, stems) in pages {
        let list = stems.iter().map(|s| var(s)).collect::<Vec<_>>().join(", ");
        let _ = writeln!(js, "export const __wasm_split_load_{page} = page([{list}]);");
    }
    js
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_page_loads_its_files_each_file_declared_once() {
        let mut pages = BTreeMap::new();
        pages.insert("accounts".to_string(), vec!["split_accounts".to_string(), "chunk_1".to_string()]);
        pages.insert("fees".to_string(), vec!["chunk_1".to_string()]);
        pages.insert("empty".to_string(), vec![]);
        let names = BTreeSet::from(["memory".to_string(), TABLE.to_string()]);
        let js = script("./moneydesk.js", &names, &pages);
        assert!(js.contains(r#"import { initSync } from "./moneydesk.js";"#), "{js}");
        assert!(js.contains("const { __indirect_function_table, memory } = initSync(undefined, undefined);"), "{js}");
        assert_eq!(js.matches("= file(\"./chunk_1.wasm\")").count(), 1, "{js}");
        assert!(js.contains("export const __wasm_split_load_accounts = page([f_split_accounts, f_chunk_1]);"), "{js}");
        assert!(js.contains("export const __wasm_split_load_fees = page([f_chunk_1]);"), "{js}");
        assert!(js.contains("export const __wasm_split_load_empty = page([]);"), "{js}");
        assert!(js.contains("window.moneydeskModule && window.moneydeskModule(url)"), "index.html's modules: {js}");
    }
}
