//! The check-scanning Web Worker (crates/scan-worker, the check-image code in wasm) from the
//! page's side: started by the page that scans, so neither the worker nor its megabyte of
//! image code is part of the portal's start. Each request is a message with an id; its answer
//! (the model's `FrameCheck` or `SideRead` as JSON) settles a promise kept under that id.
//!
//! The worker names itself ready once its wasm runs (messages sent earlier would be lost), so
//! every request waits for that first. A worker that fails (a panic aborts its wasm) fails
//! every request waiting and every later one: start a new `ScanWorker`. The promises are only
//! ever resolved, a failure with `{ error }` as the worker answers one: a rejection nobody
//! awaits any more (a page left mid-scan) would be an uncaught error in the console.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array, JSON};
use moneydesk_model::deposits::{Corners, FrameCheck, SideRead};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{MessageEvent, Worker};

/// The worker's loader: the release build names it in `<meta name="scan_worker">` (xtask,
/// hashed); `trunk serve` writes it under this name.
const DEV_URL: &str = "/scan_worker_loader.js";
const STOPPED: &str = "The scanning worker stopped";

pub struct ScanWorker {
    worker: Worker,
    state: Rc<RefCell<State>>,
    /// Settled by the worker's `{ ready: true }` (request id 0).
    ready: Promise,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(JsValue)>,
}

#[derive(Default)]
struct State {
    last_id: u32,
    /// Each request waiting: its id and its promise's resolve.
    waiting: Vec<(u32, Function)>,
    /// Why the worker can answer no more.
    stopped: Option<String>,
}

impl State {
    fn wait(state: &Rc<RefCell<State>>, id: u32) -> Promise {
        Promise::new(&mut |resolve, _| state.borrow_mut().waiting.push((id, resolve)))
    }

    fn settle(&mut self, data: &JsValue) {
        let id = get(data, "id").as_f64().map_or(0, |v| v as u32);
        let Some(at) = self.waiting.iter().position(|w| w.0 == id) else { return };
        let _ = self.waiting.swap_remove(at).1.call1(&JsValue::NULL, data);
    }

    fn fail_all(&mut self, why: String) {
        let failed = Object::new();
        let _ = Reflect::set(&failed, &"error".into(), &why.as_str().into());
        for (_, resolve) in self.waiting.drain(..) {
            let _ = resolve.call1(&JsValue::NULL, &failed);
        }
        self.stopped.get_or_insert(why);
    }
}

impl ScanWorker {
    /// Starts the worker (its wasm loads in the background; requests wait for it).
    pub fn start() -> Result<ScanWorker, String> {
        let worker = Worker::new(&same_origin(&url())?).map_err(|e| text(&e))?;
        let state = Rc::new(RefCell::new(State::default()));
        let ready = State::wait(&state, 0);
        let on_message = {
            let state = state.clone();
            Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| state.borrow_mut().settle(&e.data()))
        };
        let on_error = {
            let (state, worker) = (state.clone(), worker.clone());
            // An ErrorEvent when its code threw (a panic traps its wasm), a plain Event when
            // its script did not load.
            Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
                // Its wasm may be left half-way through a request: never ask it again.
                worker.terminate();
                let why = get(&e, "message").as_string().unwrap_or_else(|| "it did not load".into());
                state.borrow_mut().fail_all(format!("{STOPPED}: {why}"));
            })
        };
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(ScanWorker { worker, state, ready, _on_message: on_message, _on_error: on_error })
    }

    /// Where the check is in one frame of the live camera (RGBA, `width` × `height`, best
    /// downscaled to about 640 pixels wide) and what to tell the person holding it; `micr`:
    /// the front, whose MICR line says it is a check (and can stand for its outline).
    pub async fn frame(&self, rgba: &[u8], width: u32, height: u32, micr: bool) -> Result<FrameCheck, String> {
        // A Uint8Array (the worker takes either): its glue is in the start bundle already.
        let pixels = Uint8Array::from(rgba);
        let m = message(
            "frame",
            &[
                ("width", width.into()),
                ("height", height.into()),
                ("rgba", pixels.clone().into()),
                ("micr", micr.into()),
            ],
        );
        let data = self.ask(&m, &pixels.buffer()).await?;
        parse(&data)
    }

    /// One side from its encoded picture (JPEG, PNG or TIFF: a file, or a full-resolution
    /// capture): the answer and the straightened side as a grayscale JPEG. `corners` are in
    /// the picture's pixels (a live frame's, scaled up); without them the check is looked for.
    pub async fn side(
        &self,
        bytes: &[u8],
        micr: bool,
        corners: Option<Corners>,
    ) -> Result<(SideRead, Vec<u8>), String> {
        let picture = Uint8Array::from(bytes);
        let corners = match corners {
            Some(c) => JSON::parse(&serde_json::to_string(&c).map_err(|e| e.to_string())?).map_err(|e| text(&e))?,
            None => JsValue::NULL,
        };
        let m = message("side", &[("bytes", picture.clone().into()), ("micr", micr.into()), ("corners", corners)]);
        let data = self.ask(&m, &picture.buffer()).await?;
        let jpeg = get(&data, "jpeg").dyn_into::<Uint8Array>().map(|a| a.to_vec()).unwrap_or_default();
        Ok((parse(&data)?, jpeg))
    }

    async fn ask(&self, message: &Object, transfer: &JsValue) -> Result<JsValue, String> {
        answered(JsFuture::from(self.ready.clone()).await)?;
        let id = {
            let mut state = self.state.borrow_mut();
            if let Some(why) = &state.stopped {
                return Err(why.clone());
            }
            state.last_id += 1;
            state.last_id
        };
        let answer = State::wait(&self.state, id);
        let _ = Reflect::set(message, &"id".into(), &id.into());
        // The buffer moves to the worker: no copy of a 12-megapixel picture.
        self.worker.post_message_with_transfer(message, &Array::of1(transfer)).map_err(|e| text(&e))?;
        answered(JsFuture::from(answer).await)
    }
}

impl Drop for ScanWorker {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
        self.state.borrow_mut().fail_all(STOPPED.into());
    }
}

/// The loader's URL from the release build's `<meta>`, else trunk's.
fn url() -> String {
    let meta = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("meta[name=scan_worker]").ok().flatten())
        .and_then(|m| m.get_attribute("content"));
    meta.unwrap_or_else(|| DEV_URL.into())
}

/// A worker must come from the page's origin. Embedded in another site's page (embed.js names
/// the loader with the portal server's URL), the worker is a small script of the page's own
/// (a blob) that loads the glue and the wasm from the portal's server, as the loader would.
fn same_origin(loader: &str) -> Result<String, String> {
    let here = web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default();
    let Some(absolute) = web_sys::Url::new_with_base(loader, &here).ok().filter(|u| u.origin() != here) else {
        return Ok(loader.to_string());
    };
    let stem = absolute.href();
    let stem = stem.strip_suffix("_loader.js").ok_or("the scanning worker's loader is misnamed")?;
    let script = format!(
        "importScripts({:?});\nwasm_bindgen({{ module_or_path: {:?} }});\n",
        format!("{stem}.js"),
        format!("{stem}_bg.wasm")
    );
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&Array::of1(&script.into()), &options)
        .map_err(|e| text(&e))?;
    web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| text(&e))
}

fn message(op: &str, fields: &[(&str, JsValue)]) -> Object {
    let m = Object::new();
    let _ = Reflect::set(&m, &"op".into(), &op.into());
    for (k, v) in fields {
        let _ = Reflect::set(&m, &(*k).into(), v);
    }
    m
}

/// An answer, or its `error`.
fn answered(settled: Result<JsValue, JsValue>) -> Result<JsValue, String> {
    let data = settled.map_err(|e| text(&e))?;
    match get(&data, "error").as_string() {
        Some(why) => Err(why),
        None => Ok(data),
    }
}

/// The answer's `ok`: the model's type as JSON.
fn parse<T: serde::de::DeserializeOwned>(data: &JsValue) -> Result<T, String> {
    let json = get(data, "ok").as_string().unwrap_or_default();
    serde_json::from_str(&json).map_err(|e| e.to_string())
}

fn get(o: &JsValue, key: &str) -> JsValue {
    Reflect::get(o, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

/// A rejection's words (the worker rejects with a sentence; the browser with an Error).
fn text(e: &JsValue) -> String {
    match e.dyn_ref::<js_sys::Error>() {
        Some(error) => error.message().into(),
        None => e.as_string().unwrap_or_default(),
    }
}
