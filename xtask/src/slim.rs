//! What the main module carries that nothing runs, taken out before `wasm-opt` (which then
//! drops the code only those held).
//!
//! - **Null table entries.** wasm-split writes, in the main module, an active element segment
//!   of `ref.null` for every table slot a chunk fills in when it loads (469 segments, 22.8 KB of
//!   the 26.6 KB element section in the issue-45 build). A table starts null, so they set
//!   nothing: dropped, 930 bytes gzip less.
//! - **wasm-streams' exports.** leptos turns on `server_fn/browser`, which brings wasm-streams,
//!   whose `#[wasm_bindgen]` classes (`IntoUnderlyingSource`, `…Sink`, `…ByteSource`) are
//!   exported, so kept with their code. They serve streaming server functions; the portal has
//!   no server function and makes none of them (nothing in the portal names wasm-streams: a
//!   Rust caller would fail to build no differently, but a JS one would find the method
//!   missing: see `UNUSED_EXPORTS`). Dropped, 1.3 KB gzip less once wasm-opt has removed their
//!   code. wasm-bindgen's JS classes stay (never constructed).
//!
//! Everything else is copied byte for byte (the sections framed with `wasm-encoder`).

use anyhow::{Context, Result};
use wasm_encoder::{Encode, Section};
use wasmparser::{ElementItems, ElementKind, Operator, Parser, Payload};

/// Export names (prefixes) of classes the portal never constructs: wasm-streams', through
/// server_fn (see the module's comment).
pub const UNUSED_EXPORTS: &[&str] =
    &["intounderlyingbytesource_", "intounderlyingsink_", "intounderlyingsource_", "__wbg_intounderlying"];

/// What [`slim`] took out.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Slimmed {
    pub null_segments: usize,
    pub exports: usize,
}

/// The module without its all-null active element segments and the exports [`UNUSED_EXPORTS`]
/// names.
pub fn slim(wasm: &[u8]) -> Result<(Vec<u8>, Slimmed)> {
    let mut out = Vec::with_capacity(wasm.len());
    let mut done = Slimmed::default();
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload.context("reading the main wasm module")?;
        match payload {
            Payload::Version { range, .. } => {
                out.extend_from_slice(&wasm[span(range)]);
                continue;
            }
            Payload::ElementSection(r) => {
                let mut kept = Vec::new();
                for element in r {
                    let element = element?;
                    if sets_nothing(&element)? {
                        done.null_segments += 1;
                    } else {
                        kept.push(&wasm[span(element.range.clone())]);
                    }
                }
                section(&mut out, 9, &kept);
                continue;
            }
            Payload::ExportSection(r) => {
                let end = r.range().end;
                let mut entries = r.into_iter_with_offsets().peekable();
                let mut kept = Vec::new();
                while let Some(entry) = entries.next() {
                    let (start, export) = entry?;
                    let stop = match entries.peek() {
                        Some(Ok((next, _))) => *next,
                        _ => end,
                    };
                    if UNUSED_EXPORTS.iter().any(|p| export.name.starts_with(p)) {
                        done.exports += 1;
                    } else {
                        kept.push(&wasm[span(start..stop)]);
                    }
                }
                section(&mut out, 7, &kept);
                continue;
            }
            Payload::End(_) => break,
            _ => {}
        }
        if let Some((id, range)) = payload.as_section() {
            wasm_encoder::RawSection { id, data: &wasm[span(range)] }.append_to(&mut out);
        }
    }
    Ok((out, done))
}

/// wasmparser's offsets (u64) as a slice range.
fn span(r: std::ops::Range<u64>) -> std::ops::Range<usize> {
    r.start as usize..r.end as usize
}

/// An active segment whose every item is `ref.null`, or that has none.
fn sets_nothing(element: &wasmparser::Element) -> Result<bool> {
    if !matches!(element.kind, ElementKind::Active { .. }) {
        return Ok(false);
    }
    Ok(match &element.items {
        ElementItems::Functions(f) => f.count() == 0,
        ElementItems::Expressions(_, exprs) => {
            for expr in exprs.clone() {
                let mut ops = expr?.get_operators_reader();
                if !matches!(ops.read()?, Operator::RefNull { .. }) || !matches!(ops.read()?, Operator::End) {
                    return Ok(false);
                }
            }
            true
        }
    })
}

/// Section `id`: the count of `entries`, then their bytes.
fn section(out: &mut Vec<u8>, id: u8, entries: &[&[u8]]) {
    let mut body = Vec::new();
    (entries.len() as u32).encode(&mut body);
    for e in entries {
        body.extend_from_slice(e);
    }
    wasm_encoder::RawSection { id, data: &body }.append_to(out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_encoder::{
        CodeSection, ConstExpr, ElementSection, Elements, ExportKind, ExportSection, Function, FunctionSection, Module,
        RefType, TableSection, TableType, TypeSection,
    };

    /// Two functions in a table of 8: slot 1 holds function 0; slots 2–5 are written null (as
    /// wasm-split writes a chunk's slots); an empty segment; function 1 exported twice, once
    /// under a wasm-streams name.
    fn module() -> Vec<u8> {
        let mut m = Module::new();
        let mut types = TypeSection::new();
        types.ty().function([], []);
        m.section(&types);
        let mut funcs = FunctionSection::new();
        funcs.function(0).function(0);
        m.section(&funcs);
        let mut tables = TableSection::new();
        tables.table(TableType {
            element_type: RefType::FUNCREF,
            table64: false,
            minimum: 8,
            maximum: None,
            shared: false,
        });
        m.section(&tables);
        let mut exports = ExportSection::new();
        exports.export("run", ExportKind::Func, 1).export("intounderlyingsink_write", ExportKind::Func, 1);
        m.section(&exports);
        let mut elements = ElementSection::new();
        elements.active(Some(0), &ConstExpr::i32_const(1), Elements::Functions([0].as_slice().into()));
        let nulls = vec![ConstExpr::ref_null(wasm_encoder::HeapType::FUNC); 4];
        elements.active(Some(0), &ConstExpr::i32_const(2), Elements::Expressions(RefType::FUNCREF, nulls.into()));
        elements.active(Some(0), &ConstExpr::i32_const(6), Elements::Functions([].as_slice().into()));
        m.section(&elements);
        let mut code = CodeSection::new();
        for _ in 0..2 {
            let mut f = Function::new([]);
            f.instructions().end();
            code.function(&f);
        }
        m.section(&code);
        m.finish()
    }

    #[test]
    fn null_segments_and_the_unused_exports_go_and_the_rest_stays() {
        let (out, done) = slim(&module()).unwrap();
        assert_eq!(done, Slimmed { null_segments: 2, exports: 1 });
        wasmparser::Validator::new().validate_all(&out).expect("still a valid module");
        let mut exports = Vec::new();
        let mut segments = 0;
        for payload in Parser::new(0).parse_all(&out) {
            match payload.unwrap() {
                Payload::ExportSection(r) => exports = r.into_iter().map(|e| e.unwrap().name.to_string()).collect(),
                Payload::ElementSection(r) => segments = r.count(),
                _ => {}
            }
        }
        assert_eq!(exports, ["run"]);
        assert_eq!(segments, 1, "the segment that sets slot 1 stays");
    }

    #[test]
    fn a_module_with_nothing_to_take_out_is_copied_byte_for_byte() {
        let mut m = Module::new();
        let mut types = TypeSection::new();
        types.ty().function([], []);
        m.section(&types);
        let wasm = m.finish();
        assert_eq!(slim(&wasm).unwrap(), (wasm, Slimmed::default()));
    }
}
