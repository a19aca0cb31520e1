//! The merge's tests: chunks built with wasm-encoder, merged, and read back as text.

use super::*;
use wasm_encoder::{
    ConstExpr, Elements, Function, GlobalType, Instruction, MemoryType as Mem, RefType, TableType as Tab,
};

/// A chunk as wasm-split writes one: the shared memory, table and stack pointer imported,
/// `n` functions of its own (each storing `value` at `address` and calling table slot 0),
/// installed at `slot`, and `data` at `address + 8`.
fn chunk(n: u32, slot: i32, address: i32, value: i32, data: &[u8]) -> Vec<u8> {
    let mut types = TypeSection::new();
    types.ty().function([], []);
    types.ty().function([ValType::I32], [ValType::I32]);
    let mut imports = ImportSection::new();
    imports.import(
        "__wasm_split",
        "memory",
        Mem { minimum: 20, maximum: None, memory64: false, shared: false, page_size_log2: None },
    );
    imports.import(
        "__wasm_split",
        "__indirect_function_table",
        Tab { element_type: RefType::FUNCREF, minimum: 100, maximum: None, table64: false, shared: false },
    );
    imports.import(
        "__wasm_split",
        "__wasm_split_shared0",
        GlobalType { val_type: ValType::I32, mutable: true, shared: false },
    );
    let mut functions = FunctionSection::new();
    let mut code = CodeSection::new();
    for _ in 0..n {
        functions.function(0);
        let mut f = Function::new([]);
        f.instruction(&Instruction::I32Const(address))
            .instruction(&Instruction::I32Const(value))
            .instruction(&Instruction::I32Store(wasm_encoder::MemArg { offset: 0, align: 2, memory_index: 0 }))
            .instruction(&Instruction::GlobalGet(0))
            .instruction(&Instruction::GlobalSet(0))
            .instruction(&Instruction::I32Const(0))
            .instruction(&Instruction::CallIndirect { type_index: 0, table_index: 0 })
            .instruction(&Instruction::End);
        code.function(&f);
    }
    let mut elements = ElementSection::new();
    let funcs: Vec<u32> = (0..n).collect();
    elements.active(Some(0), &ConstExpr::i32_const(slot), Elements::Functions(funcs.into()));
    let mut data_section = DataSection::new();
    data_section.active(0, &ConstExpr::i32_const(address + 8), data.iter().copied());
    let mut m = Module::new();
    m.section(&types).section(&imports).section(&functions).section(&elements);
    m.section(&DataCountSection { count: 1 }).section(&code).section(&data_section);
    m.finish()
}

fn text(wasm: &[u8]) -> String {
    wasmprinter::print_bytes(wasm).unwrap()
}

#[test]
fn two_chunks_become_one_module_sharing_one_import_of_each_with_every_function_and_segment() {
    let a = chunk(2, 10, 1000, 7, b"first");
    let b = chunk(1, 20, 2000, 9, b"second");
    let merged = merge(&[&a, &b]).unwrap();
    let wat = text(&merged);
    assert_eq!(wat.matches("(import ").count(), 3, "{wat}");
    assert_eq!(wat.matches("(func (;").count(), 3, "{wat}");
    // Each chunk's functions go to its own slots, its data to its own address.
    assert!(wat.contains("(elem (;0;) (table 0) (i32.const 10) func 0 1)"), "{wat}");
    assert!(wat.contains("(elem (;1;) (table 0) (i32.const 20) func 2)"), "{wat}");
    assert!(wat.contains("(data (;0;) (i32.const 1008) \"first\")"), "{wat}");
    assert!(wat.contains("(data (;1;) (i32.const 2008) \"second\")"), "{wat}");
    // The second chunk's code still stores its own value and uses the one stack pointer.
    assert!(wat.contains("i32.const 2000\n    i32.const 9\n    i32.store"), "{wat}");
    assert_eq!(wat.matches("global.get 0").count(), 3, "{wat}");
    // One signature of each kind.
    assert_eq!(wat.matches("(type (;").count(), 2, "{wat}");
    assert_eq!(merge(&[&a]).unwrap(), a);
}

#[test]
fn chunks_that_import_one_name_as_different_things_are_refused_by_name() {
    let a = chunk(1, 10, 1000, 7, b"a");
    let mut types = TypeSection::new();
    types.ty().function([], []);
    let mut imports = ImportSection::new();
    imports.import("__wasm_split", "memory", GlobalType { val_type: ValType::I32, mutable: true, shared: false });
    let mut m = Module::new();
    m.section(&types).section(&imports);
    let b = m.finish();
    let err = format!("{:#}", merge(&[&a, &b]).unwrap_err());
    assert!(err.contains("import __wasm_split.memory"), "{err}");
}
