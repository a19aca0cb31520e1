//! One wasm module made of several page chunks ([`crate::bundle`] decides which).
//!
//! wasm-split's chunks are independent of one another: each imports only what the main module
//! shares (its memory, its function table, the stack pointer), calls the other modules' code
//! through that table, installs its own functions into the table with active element segments
//! and its data into memory with active data segments, at addresses no other module uses. So
//! the merged module is the chunks side by side: one import of each shared thing, every
//! chunk's functions, segments and globals renumbered, and instantiating it does what
//! instantiating each chunk did. Read with `wasmparser`, written with `wasm-encoder`'s
//! `Reencode` (which rewrites every index in the code), the versions wasm-split itself uses.
//! (binaryen's `wasm-merge`, installed beside wasm-opt, links modules through their imports
//! and exports but keeps two imports of one memory apart: two chunks gave a module with two
//! memories and two tables, which needs the multi-memory proposal not every browser has.)

use std::collections::HashMap;

use anyhow::{anyhow, bail, Context, Result};
use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasm_encoder::{
    CodeSection, DataCountSection, DataSection, ElementSection, EntityType, ExportSection, FunctionSection,
    GlobalSection, ImportSection, MemorySection, Module, TableSection, TypeSection, ValType,
};
use wasmparser::{
    Data, Element, Export, FuncType, FunctionBody, Global, MemoryType, Parser, Payload, Table, TableType, TypeRef,
};

/// One input module, read.
#[derive(Default)]
struct Input<'a> {
    types: Vec<FuncType>,
    imports: Vec<(&'a str, &'a str, TypeRef)>,
    functions: Vec<u32>,
    tables: Vec<Table<'a>>,
    memories: Vec<MemoryType>,
    globals: Vec<Global<'a>>,
    exports: Vec<Export<'a>>,
    elements: Vec<Element<'a>>,
    data: Vec<Data<'a>>,
    code: Vec<FunctionBody<'a>>,
    /// The `target_features` section: which proposals the code uses (wasm-opt reads it).
    features: Option<&'a [u8]>,
}

fn read(wasm: &[u8]) -> Result<Input<'_>> {
    let mut m = Input::default();
    for payload in Parser::new(0).parse_all(wasm) {
        match payload? {
            Payload::CustomSection(c) if c.name() == "target_features" => m.features = Some(c.data()),
            Payload::Version { .. } | Payload::End(_) | Payload::CustomSection(_) => {}
            Payload::TypeSection(r) => {
                for ty in r.into_iter_err_on_gc_types() {
                    m.types.push(ty?);
                }
            }
            Payload::ImportSection(r) => {
                for i in r.into_imports() {
                    let i = i?;
                    m.imports.push((i.module, i.name, i.ty));
                }
            }
            Payload::FunctionSection(r) => m.functions = r.into_iter().collect::<Result<_, _>>()?,
            Payload::TableSection(r) => m.tables = r.into_iter().collect::<Result<_, _>>()?,
            Payload::MemorySection(r) => m.memories = r.into_iter().collect::<Result<_, _>>()?,
            Payload::GlobalSection(r) => m.globals = r.into_iter().collect::<Result<_, _>>()?,
            Payload::ExportSection(r) => m.exports = r.into_iter().collect::<Result<_, _>>()?,
            Payload::ElementSection(r) => m.elements = r.into_iter().collect::<Result<_, _>>()?,
            Payload::DataCountSection { .. } | Payload::CodeSectionStart { .. } => {}
            Payload::DataSection(r) => m.data = r.into_iter().collect::<Result<_, _>>()?,
            Payload::CodeSectionEntry(body) => m.code.push(body),
            // A start function would run once per chunk; wasm-split writes none.
            Payload::StartSection { .. } => bail!("a chunk with a start function cannot be merged"),
            other => bail!("a chunk with a section the merge does not know: {:?}", other.as_section().map(|s| s.0)),
        }
    }
    Ok(m)
}

/// Where one input module's indices land in the merged module.
#[derive(Default)]
struct Remap {
    types: Vec<u32>,
    /// Per kind: the merged index of each of the module's imports, then where its own
    /// definitions start.
    funcs: (Vec<u32>, u32),
    tables: (Vec<u32>, u32),
    memories: (Vec<u32>, u32),
    globals: (Vec<u32>, u32),
    elements: u32,
    data: u32,
}

fn index((imported, defined_from): &(Vec<u32>, u32), i: u32) -> u32 {
    match imported.get(i as usize) {
        Some(&at) => at,
        None => defined_from + (i - imported.len() as u32),
    }
}

impl Reencode for Remap {
    type Error = std::convert::Infallible;
    fn type_index(&mut self, ty: u32) -> Result<u32, wasm_encoder::reencode::Error<Self::Error>> {
        Ok(self.types[ty as usize])
    }
    fn function_index(&mut self, f: u32) -> Result<u32, wasm_encoder::reencode::Error<Self::Error>> {
        Ok(index(&self.funcs, f))
    }
    fn table_index(&mut self, t: u32) -> Result<u32, wasm_encoder::reencode::Error<Self::Error>> {
        Ok(index(&self.tables, t))
    }
    fn memory_index(&mut self, m: u32) -> Result<u32, wasm_encoder::reencode::Error<Self::Error>> {
        Ok(index(&self.memories, m))
    }
    fn global_index(&mut self, g: u32) -> Result<u32, wasm_encoder::reencode::Error<Self::Error>> {
        Ok(index(&self.globals, g))
    }
    fn element_index(&mut self, e: u32) -> Result<u32, wasm_encoder::reencode::Error<Self::Error>> {
        Ok(self.elements + e)
    }
    fn data_index(&mut self, d: u32) -> Result<u32, wasm_encoder::reencode::Error<Self::Error>> {
        Ok(self.data + d)
    }
}

/// The merged module's imports: each `(module, name)` once.
#[derive(Default)]
struct Imports<'a> {
    list: Vec<(&'a str, &'a str, TypeRef)>,
    /// `(module, name)` → (position in `list`, index in its kind's space)
    seen: HashMap<(&'a str, &'a str), (usize, u32)>,
    counts: [u32; 4], // functions, tables, memories, globals
}

impl<'a> Imports<'a> {
    /// The merged index of an import whose type has already been mapped to merged types.
    fn add(&mut self, module: &'a str, name: &'a str, ty: TypeRef) -> Result<u32> {
        if let Some(&(at, index)) = self.seen.get(&(module, name)) {
            self.list[at].2 = same_import(self.list[at].2, ty).with_context(|| format!("import {module}.{name}"))?;
            return Ok(index);
        }
        let kind = match ty {
            TypeRef::Func(_) => 0,
            TypeRef::Table(_) => 1,
            TypeRef::Memory(_) => 2,
            TypeRef::Global(_) => 3,
            other => bail!("import {module}.{name}: a {other:?} import cannot be merged"),
        };
        let index = self.counts[kind];
        self.counts[kind] += 1;
        self.seen.insert((module, name), (self.list.len(), index));
        self.list.push((module, name, ty));
        Ok(index)
    }
}

/// Two chunks' imports of the same thing: the same type, but a memory or table may be asked
/// with different initial sizes (the larger is the one both accept).
fn same_import(a: TypeRef, b: TypeRef) -> Result<TypeRef> {
    Ok(match (a, b) {
        (a, b) if a == b => a,
        (TypeRef::Memory(x), TypeRef::Memory(y))
            if MemoryType { initial: 0, ..x } == MemoryType { initial: 0, ..y } =>
        {
            TypeRef::Memory(MemoryType { initial: x.initial.max(y.initial), ..x })
        }
        (TypeRef::Table(x), TypeRef::Table(y)) if TableType { initial: 0, ..x } == TableType { initial: 0, ..y } => {
            TypeRef::Table(TableType { initial: x.initial.max(y.initial), ..x })
        }
        (a, b) => bail!("imported as {a:?} and as {b:?}"),
    })
}

/// The modules as one (one module is given back as it is).
pub fn merge(modules: &[&[u8]]) -> Result<Vec<u8>> {
    if let [one] = modules {
        return Ok(one.to_vec());
    }
    let inputs: Vec<Input> = modules
        .iter()
        .enumerate()
        .map(|(i, m)| read(m).with_context(|| format!("reading chunk {i}")))
        .collect::<Result<_>>()?;
    let features = inputs.iter().filter_map(|m| m.features).collect::<std::collections::BTreeSet<_>>();
    if features.len() > 1 {
        bail!("the chunks were built for different wasm features");
    }

    // Types, each signature once.
    let mut types: Vec<(Vec<ValType>, Vec<ValType>)> = Vec::new();
    let mut remaps: Vec<Remap> = Vec::new();
    for m in &inputs {
        let mut remap = Remap::default();
        for ty in &m.types {
            let params = ty.params().iter().map(|v| RoundtripReencoder.val_type(*v)).collect::<Result<Vec<_>, _>>()?;
            let results =
                ty.results().iter().map(|v| RoundtripReencoder.val_type(*v)).collect::<Result<Vec<_>, _>>()?;
            let sig = (params, results);
            let at = match types.iter().position(|t| *t == sig) {
                Some(at) => at,
                None => {
                    types.push(sig);
                    types.len() - 1
                }
            };
            remap.types.push(at as u32);
        }
        remaps.push(remap);
    }

    // Imports, each once; then every module's definitions after all of them.
    let mut imports = Imports::default();
    for (m, remap) in inputs.iter().zip(&mut remaps) {
        for &(module, name, ty) in &m.imports {
            let ty = match ty {
                TypeRef::Func(t) => TypeRef::Func(remap.types[t as usize]),
                other => other,
            };
            let at = imports.add(module, name, ty)?;
            match ty {
                TypeRef::Func(_) => remap.funcs.0.push(at),
                TypeRef::Table(_) => remap.tables.0.push(at),
                TypeRef::Memory(_) => remap.memories.0.push(at),
                _ => remap.globals.0.push(at),
            }
        }
    }
    let [mut funcs, mut tables, mut memories, mut globals] = imports.counts;
    let (mut elements, mut data) = (0, 0);
    for (m, remap) in inputs.iter().zip(&mut remaps) {
        remap.funcs.1 = funcs;
        remap.tables.1 = tables;
        remap.memories.1 = memories;
        remap.globals.1 = globals;
        remap.elements = elements;
        remap.data = data;
        funcs += m.functions.len() as u32;
        tables += m.tables.len() as u32;
        memories += m.memories.len() as u32;
        globals += m.globals.len() as u32;
        elements += m.elements.len() as u32;
        data += m.data.len() as u32;
    }
    if memories > 1 {
        bail!("the chunks have {memories} memories between them; they must share the main module's one");
    }

    let mut type_section = TypeSection::new();
    for (params, results) in &types {
        type_section.ty().function(params.iter().copied(), results.iter().copied());
    }
    let mut import_section = ImportSection::new();
    for &(module, name, ty) in &imports.list {
        let ty: EntityType = RoundtripReencoder.entity_type(ty)?;
        import_section.import(module, name, ty);
    }
    let (mut function_section, mut table_section, mut memory_section, mut global_section) =
        (FunctionSection::new(), TableSection::new(), MemorySection::new(), GlobalSection::new());
    let (mut export_section, mut element_section, mut code_section, mut data_section) =
        (ExportSection::new(), ElementSection::new(), CodeSection::new(), DataSection::new());
    let mut exported = std::collections::HashSet::new();
    for (i, (m, remap)) in inputs.into_iter().zip(&mut remaps).enumerate() {
        let fail = |e| anyhow!("chunk {i}: {e:?}");
        for ty in m.functions {
            function_section.function(remap.types[ty as usize]);
        }
        for t in m.tables {
            remap.parse_table(&mut table_section, t).map_err(fail)?;
        }
        for mem in m.memories {
            memory_section.memory(remap.memory_type(mem).map_err(fail)?);
        }
        for g in m.globals {
            remap.parse_global(&mut global_section, g).map_err(fail)?;
        }
        for e in m.exports {
            if !exported.insert(e.name) {
                bail!("two chunks export {:?}", e.name);
            }
            remap.parse_export(&mut export_section, e).map_err(fail)?;
        }
        for e in m.elements {
            remap.parse_element(&mut element_section, e).map_err(fail)?;
        }
        for body in m.code {
            remap.parse_function_body(&mut code_section, body).map_err(fail)?;
        }
        for d in m.data {
            remap.parse_data(&mut data_section, d).map_err(fail)?;
        }
    }

    let mut out = Module::new();
    out.section(&type_section).section(&import_section).section(&function_section);
    if !table_section.is_empty() {
        out.section(&table_section);
    }
    if !memory_section.is_empty() {
        out.section(&memory_section);
    }
    if !global_section.is_empty() {
        out.section(&global_section);
    }
    if !export_section.is_empty() {
        out.section(&export_section);
    }
    if !element_section.is_empty() {
        out.section(&element_section);
    }
    if data > 0 {
        out.section(&DataCountSection { count: data });
    }
    out.section(&code_section);
    if data > 0 {
        out.section(&data_section);
    }
    if let Some(features) = features.first() {
        out.section(&wasm_encoder::CustomSection { name: "target_features".into(), data: (*features).into() });
    }
    let out = out.finish();
    wasmparser::Validator::new_with_features(wasmparser::WasmFeatures::all())
        .validate_all(&out)
        .context("the merged module does not validate")?;
    Ok(out)
}

#[cfg(test)]
mod tests;
