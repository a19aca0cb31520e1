#!/usr/bin/env python3
"""Rewrites a wasm module linked with --emit-relocs so that wasm-split-cli 0.2.4 accepts it.

wasm-ld leaves zero-initialised segments (.bss) out of the data section (memory starts zeroed)
but still lists them, and the symbols defined in them, in the `linking` section. wasm-split
rejects those symbols ("Invalid data segment index in symbol"). Marked undefined here, they keep
the addresses the linker gave them: that memory belongs to the main module, whose memory every
chunk shares, and wasm-split leaves references to undefined data symbols as they are.

Usage: bss-undefined.py IN.wasm OUT.wasm
"""
import sys

WASM_SYMBOL_TABLE = 8
SYMTAB_DATA = 1
SYM_UNDEFINED = 0x10
SYM_EXPLICIT_NAME = 0x40


def leb(b, i):
    result = shift = 0
    while True:
        byte = b[i]
        i += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, i


def enc(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def symbol_table(payload, data_segments):
    count, i = leb(payload, 0)
    out = bytearray(enc(count))
    changed = 0
    for _ in range(count):
        start = i
        kind = payload[i]
        flags, i = leb(payload, i + 1)
        if kind == SYMTAB_DATA:
            name_len, j = leb(payload, i)
            name_end = j + name_len
            i = name_end
            if not flags & SYM_UNDEFINED:
                segment, i = leb(payload, i)
                _, i = leb(payload, i)  # offset
                _, i = leb(payload, i)  # size
                if segment >= data_segments:
                    out += bytes([kind]) + enc(flags | SYM_UNDEFINED) + payload[start + 1 + len(enc(flags)):name_end]
                    changed += 1
                    continue
        elif kind == 3:  # section
            _, i = leb(payload, i)
        else:  # function, global, tag, table: an index, then a name when defined or explicit
            _, i = leb(payload, i)
            if not flags & SYM_UNDEFINED or flags & SYM_EXPLICIT_NAME:
                name_len, i = leb(payload, i)
                i += name_len
        out += payload[start:i]
    assert i == len(payload), "symbol table not read to its end"
    return bytes(out), changed


def main(src, dst):
    wasm = open(src, "rb").read()
    assert wasm[:4] == b"\0asm", "not a wasm module"
    out = bytearray(wasm[:8])
    i = 8
    data_segments = None
    changed = 0
    while i < len(wasm):
        section_id = wasm[i]
        size, body_start = leb(wasm, i + 1)
        body = wasm[body_start:body_start + size]
        end = body_start + size
        if section_id == 11:
            data_segments, _ = leb(body, 0)
        if section_id == 0:
            name_len, j = leb(body, 0)
            if body[j:j + name_len] == b"linking":
                assert data_segments is not None, "the linking section precedes the data section"
                k = j + name_len
                _, k = leb(body, k)  # version
                new_body = bytearray(body[:k])
                while k < len(body):
                    sub_type = body[k]
                    sub_size, p = leb(body, k + 1)
                    sub = body[p:p + sub_size]
                    if sub_type == WASM_SYMBOL_TABLE:
                        sub, changed = symbol_table(sub, data_segments)
                    new_body += bytes([sub_type]) + enc(len(sub)) + sub
                    k = p + sub_size
                out += bytes([0]) + enc(len(new_body)) + new_body
                i = end
                continue
        out += wasm[i:end]
        i = end
    open(dst, "wb").write(out)
    print(f"bss-undefined: {changed} data symbols outside the data section marked undefined", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
