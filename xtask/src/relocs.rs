//! Makes a module linked with `--emit-relocs` acceptable to wasm-split.
//!
//! wasm-ld leaves zero-initialised segments (`.bss`) out of the data section (a module's memory
//! starts zeroed) but still lists them, and the symbols defined in them, in the `linking`
//! section. wasm_split_cli_support 0.2.4 rejects those symbols ("Invalid data segment index in
//! symbol"). Marked undefined here, they keep the addresses the linker gave them: that memory
//! belongs to the main module, whose memory every chunk shares, and wasm-split leaves
//! references to undefined data symbols as they are.
//!
//! Everything else is copied byte for byte; sections are read with `wasmparser` and framed
//! with `wasm-encoder` (the versions wasm-split itself uses).

use anyhow::{bail, Context, Result};
use wasm_encoder::{Encode, Section};
use wasmparser::{BinaryReader, Parser, Payload, SymbolInfo, SymbolInfoMap};

/// `linking` subsection holding the symbol table (tool-conventions/Linking.md).
const WASM_SYMBOL_TABLE: u8 = 8;
const SYMTAB_DATA: u8 = 1;

/// The module with every data symbol of a segment past the data section marked undefined, and
/// how many were.
pub fn undefine_bss_symbols(wasm: &[u8]) -> Result<(Vec<u8>, usize)> {
    let mut out = Vec::with_capacity(wasm.len());
    let mut data_segments: Option<u32> = None;
    let mut changed = 0;
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload.context("reading the linked wasm module")?;
        match &payload {
            Payload::Version { range, .. } => {
                out.extend_from_slice(&wasm[range.start as usize..range.end as usize]);
                continue;
            }
            Payload::DataSection(r) => data_segments = Some(r.count()),
            Payload::CustomSection(c) if c.name() == "linking" => {
                let Some(segments) = data_segments else {
                    bail!("the linking section comes before the data section");
                };
                let (body, n) = linking(c.data(), c.data_offset(), segments)?;
                changed += n;
                wasm_encoder::CustomSection { name: "linking".into(), data: body.into() }.append_to(&mut out);
                continue;
            }
            Payload::End(_) => break,
            _ => {}
        }
        if let Some((id, range)) = payload.as_section() {
            let data = &wasm[range.start as usize..range.end as usize];
            wasm_encoder::RawSection { id, data }.append_to(&mut out);
        }
    }
    Ok((out, changed))
}

/// The linking section's contents with the symbol table rewritten.
fn linking(data: &[u8], offset: u64, data_segments: u32) -> Result<(Vec<u8>, usize)> {
    let mut reader = BinaryReader::new(data, offset);
    let version = reader.read_var_u32()?;
    let mut out = Vec::with_capacity(data.len());
    version.encode(&mut out);
    let mut changed = 0;
    while !reader.eof() {
        let id = reader.read_u8()?;
        let size = reader.read_var_u32()? as usize;
        let at = reader.original_position();
        let sub = reader.read_bytes(size)?;
        let sub = if id == WASM_SYMBOL_TABLE {
            let (table, n) = symbol_table(sub, at, data_segments)?;
            changed += n;
            table
        } else {
            sub.to_vec()
        };
        out.push(id);
        sub.as_slice().encode(&mut out); // its length, then its bytes
    }
    Ok((out, changed))
}

fn symbol_table(sub: &[u8], at: u64, data_segments: u32) -> Result<(Vec<u8>, usize)> {
    let map = SymbolInfoMap::new(BinaryReader::new(sub, at))?;
    let mut out = Vec::with_capacity(sub.len());
    map.count().encode(&mut out);
    let mut entries = map.into_iter_with_offsets().peekable();
    let mut changed = 0;
    while let Some(entry) = entries.next() {
        let (start, symbol) = entry?;
        let end = match entries.peek() {
            Some(Ok((next, _))) => *next as usize,
            _ => at as usize + sub.len(),
        };
        let raw = &sub[start as usize - at as usize..end - at as usize];
        match symbol {
            SymbolInfo::Data { flags, name, symbol: Some(def) } if def.index >= data_segments => {
                out.push(SYMTAB_DATA);
                (flags.bits() | wasm_encoder::SymbolTable::WASM_SYM_UNDEFINED).encode(&mut out);
                name.encode(&mut out);
                changed += 1;
            }
            _ => out.extend_from_slice(raw),
        }
    }
    Ok((out, changed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_encoder::{
        CodeSection, DataSection, DataSymbolDefinition, Function, FunctionSection, LinkingSection, MemorySection,
        MemoryType, Module, SymbolTable, TypeSection,
    };

    /// A module with one data segment, a function, and symbols in segment 0 and segment 1 (the
    /// one wasm-ld left out as .bss).
    fn module() -> Vec<u8> {
        let mut m = Module::new();
        let mut types = TypeSection::new();
        types.ty().function([], []);
        m.section(&types);
        let mut funcs = FunctionSection::new();
        funcs.function(0);
        m.section(&funcs);
        let mut mem = MemorySection::new();
        mem.memory(MemoryType { minimum: 1, maximum: None, memory64: false, shared: false, page_size_log2: None });
        m.section(&mem);
        let mut code = CodeSection::new();
        let mut f = Function::new([]);
        f.instructions().end();
        code.function(&f);
        m.section(&code);
        let mut data = DataSection::new();
        data.active(0, &wasm_encoder::ConstExpr::i32_const(16), b"hello".iter().copied());
        m.section(&data);
        let mut symbols = SymbolTable::new();
        symbols.function(0, 0, Some("f"));
        symbols.data(0, "in_data", Some(DataSymbolDefinition { index: 0, offset: 0, size: 5 }));
        symbols.data(0, "in_bss", Some(DataSymbolDefinition { index: 1, offset: 0, size: 8 }));
        let mut linking = LinkingSection::new();
        linking.symbol_table(&symbols);
        m.section(&linking);
        m.finish()
    }

    fn data_symbols(wasm: &[u8]) -> Vec<(String, bool)> {
        let mut found = Vec::new();
        for p in Parser::new(0).parse_all(wasm) {
            if let Payload::CustomSection(c) = p.unwrap() {
                if let wasmparser::KnownCustom::Linking(l) = c.as_known() {
                    for sub in l.subsections() {
                        if let wasmparser::Linking::SymbolTable(map) = sub.unwrap() {
                            for s in map {
                                if let SymbolInfo::Data { name, symbol, .. } = s.unwrap() {
                                    found.push((name.to_string(), symbol.is_some()));
                                }
                            }
                        }
                    }
                }
            }
        }
        found
    }

    #[test]
    fn a_symbol_in_a_segment_past_the_data_section_becomes_undefined_and_nothing_else_changes() {
        let before = module();
        wasmparser::Validator::new().validate_all(&before).expect("the test's module is valid");
        assert_eq!(data_symbols(&before).len(), 2);
        let (after, changed) = undefine_bss_symbols(&before).unwrap();
        assert_eq!(changed, 1);
        assert_eq!(data_symbols(&after), [("in_data".to_string(), true), ("in_bss".to_string(), false)]);
        wasmparser::Validator::new().validate_all(&after).expect("still a valid module");
        // Run again: nothing left to change, and the bytes stay as they are.
        let (again, changed) = undefine_bss_symbols(&after).unwrap();
        assert_eq!((changed, again), (0, after));
    }
}
