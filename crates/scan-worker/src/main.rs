//! The portal's check-scanning Web Worker (wasm32): started by the deposits page
//! (src/api/scan_worker.rs), never with the portal, so the page that scans pays for the image
//! code and no other does. Built by the release build (xtask: `--target no-modules`, a classic
//! worker) and by `trunk serve` (index.html's `data-type="worker"` link).
//!
//! The protocol, one plain object each way:
//!
//! - when ready: `{ ready: true }` (messages sent before would be lost while the wasm loads,
//!   so the client waits for it);
//! - `{ id, op: "frame", width, height, rgba: Uint8Array | Uint8ClampedArray, micr?: bool }` →
//!   `{ id, ok: "<FrameCheck JSON>" }` (`micr`: the front, judged by its MICR line too). The
//!   worker keeps the last frame's corners to tell a steady check from a moving one
//!   (`HoldStill`; see `moneydesk_scan_worker::frame`);
//! - `{ id, op: "side", bytes: Uint8Array, micr: bool, corners: Corners | null, g4?: bool }` →
//!   `{ id, ok: "<SideRead JSON>", jpeg: Uint8Array, g4?: Uint8Array }`, the buffers
//!   transferred (`g4` only for the benchmark, scripts/bench-scan);
//! - anything refused: `{ id, error: "<a sentence>" }`.
//!
//! The release profile aborts on panic, which kills the worker's wasm: the pipeline refuses bad
//! input in words instead, and the client fails every pending request on the worker's `error`.

#[cfg(target_arch = "wasm32")]
mod worker;

#[cfg(target_arch = "wasm32")]
fn main() {
    worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("scan_worker runs in a browser's Web Worker: build it for wasm32 (cargo xtask dist, or trunk serve)");
    std::process::exit(2);
}
