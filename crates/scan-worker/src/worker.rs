//! The worker's message loop: requests read from plain JS objects, answered with the
//! pipeline's JSON (the model's types, so the portal reads them with serde as any API answer).

use std::cell::RefCell;

use js_sys::{Array, Object, Reflect, Uint8Array, Uint8ClampedArray, JSON};
use moneydesk_model::deposits::Corners;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

thread_local! {
    /// The check's corners in the last frame (or its MICR line's, the check filling the
    /// frame), for `HoldStill`.
    static PREVIOUS: RefCell<Option<Corners>> = const { RefCell::new(None) };
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

pub fn start() {
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(|e: MessageEvent| answer(&e.data()));
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget(); // lives as long as the worker
    let ready = Object::new();
    set(&ready, "ready", &JsValue::TRUE);
    let _ = scope().post_message(&ready);
}

fn answer(request: &JsValue) {
    let reply = Object::new();
    set(&reply, "id", &get(request, "id"));
    let transfer = Array::new();
    match handle(request) {
        Ok((json, buffers)) => {
            set(&reply, "ok", &json.into());
            for (name, bytes) in buffers {
                let array = Uint8Array::from(bytes.as_slice());
                transfer.push(&array.buffer());
                set(&reply, name, &array);
            }
        }
        Err(e) => set(&reply, "error", &e.into()),
    }
    let _ = scope().post_message_with_transfer(&reply, &transfer);
}

type Answer = (String, Vec<(&'static str, Vec<u8>)>);

fn handle(request: &JsValue) -> Result<Answer, String> {
    let json = |v: Result<String, serde_json::Error>| v.map_err(|e| e.to_string());
    match get(request, "op").as_string().as_deref() {
        Some("frame") => {
            let size = |k| get(request, k).as_f64().filter(|v| *v >= 1.0 && *v <= 12_000.0).map(|v| v as u32);
            let (Some(width), Some(height)) = (size("width"), size("height")) else {
                return Err("The frame needs a width and a height in pixels.".into());
            };
            let rgba = bytes(&get(request, "rgba")).ok_or("The frame has no rgba pixels.")?;
            let previous = PREVIOUS.with(|p| *p.borrow());
            let micr = get(request, "micr").is_truthy();
            let check = moneydesk_scan_worker::frame(rgba, width, height, previous.as_ref(), micr)?;
            PREVIOUS.with(|p| *p.borrow_mut() = check.corners.or(check.band));
            Ok((json(serde_json::to_string(&check))?, Vec::new()))
        }
        Some("side") => {
            let picture = bytes(&get(request, "bytes")).ok_or("The side has no picture bytes.")?;
            let corners = match get(request, "corners") {
                c if c.is_null() || c.is_undefined() => None,
                c => Some(corners(&c).ok_or("The corners must be four [x, y] points.")?),
            };
            let flag = |k| get(request, k).is_truthy();
            let performance = scope().performance();
            let now = move || performance.as_ref().map_or(0.0, |p| p.now());
            let side = moneydesk_scan_worker::side(&picture, flag("micr"), corners.as_ref(), flag("g4"), &now)?;
            let mut buffers = vec![("jpeg", side.jpeg)];
            buffers.extend(side.g4_tiff.map(|t| ("g4", t)));
            Ok((json(serde_json::to_string(&side.read))?, buffers))
        }
        other => Err(format!("No such operation: {other:?} (frame, side).")),
    }
}

/// The bytes of a Uint8Array, a Uint8ClampedArray or an ArrayBuffer.
fn bytes(v: &JsValue) -> Option<Vec<u8>> {
    if let Some(a) = v.dyn_ref::<Uint8Array>() {
        Some(a.to_vec())
    } else if let Some(a) = v.dyn_ref::<Uint8ClampedArray>() {
        Some(a.to_vec())
    } else if v.is_instance_of::<js_sys::ArrayBuffer>() {
        Some(Uint8Array::new(v).to_vec())
    } else {
        None
    }
}

/// `[[x, y], ×4]`, through JSON: the model's own reading of corners.
fn corners(v: &JsValue) -> Option<Corners> {
    let text: String = JSON::stringify(v).ok()?.into();
    serde_json::from_str(&text).ok()
}

fn get(o: &JsValue, key: &str) -> JsValue {
    Reflect::get(o, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

fn set(o: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(o, &key.into(), value);
}
