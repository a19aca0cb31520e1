//! In-browser test helpers: a stand-in `fetch` answering real `Response` objects per path,
//! a container to mount into, and waiting for the DOM.

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// What the stand-in `fetch` answers for a path.
pub enum Answer {
    /// `new Response(body, { status, headers: { "Content-Type": content_type } })`.
    Body { status: u16, content_type: &'static str, body: String },
    /// A pending request that fails with an `AbortError` when its signal aborts.
    Hang,
}

pub fn json(status: u16, body: &str) -> Answer {
    Answer::Body { status, content_type: "application/json", body: body.to_string() }
}

/// Replaces `window.fetch` until the guard drops. Paths not listed fail like a server that
/// is down (`TypeError: Failed to fetch`). Every request is recorded in `requests()`.
pub struct FakeFetch {
    original: JsValue,
}

const FAKE: &str = r#"
const [routes] = arguments;
const original = globalThis.fetch;
globalThis.__mdkRequests = [];
globalThis.fetch = (input, init) => {
  const req = input instanceof Request ? input : new Request(input, init);
  globalThis.__mdkRequests.push({ url: req.url, method: req.method, auth: req.headers.get("Authorization") });
  const r = routes[new URL(req.url).pathname];
  if (r === undefined) return Promise.reject(new TypeError("Failed to fetch"));
  if (r === "hang") {
    return new Promise((_, reject) =>
      req.signal.addEventListener("abort", () => reject(new DOMException("The user aborted a request.", "AbortError"))));
  }
  return Promise.resolve(new Response(r.body, { status: r.status, headers: { "Content-Type": r.type } }));
};
return original;
"#;

impl FakeFetch {
    pub fn install(routes: Vec<(&str, Answer)>) -> FakeFetch {
        let table = Object::new();
        for (path, answer) in routes {
            let value: JsValue = match answer {
                Answer::Hang => "hang".into(),
                Answer::Body { status, content_type, body } => {
                    let o = Object::new();
                    Reflect::set(&o, &"status".into(), &status.into()).unwrap();
                    Reflect::set(&o, &"type".into(), &content_type.into()).unwrap();
                    Reflect::set(&o, &"body".into(), &body.into()).unwrap();
                    o.into()
                }
            };
            Reflect::set(&table, &path.into(), &value).unwrap();
        }
        let original = Function::new_no_args(FAKE).call1(&JsValue::NULL, &table).unwrap();
        FakeFetch { original }
    }

    /// `(url, method, Authorization header)` of every request so far.
    pub fn requests(&self) -> Vec<(String, String, Option<String>)> {
        let list = Reflect::get(&js_sys::global(), &"__mdkRequests".into()).unwrap();
        js_sys::Array::from(&list)
            .iter()
            .map(|r| {
                let get = |k: &str| Reflect::get(&r, &k.into()).unwrap().as_string();
                (get("url").unwrap_or_default(), get("method").unwrap_or_default(), get("auth"))
            })
            .collect()
    }
}

impl Drop for FakeFetch {
    fn drop(&mut self) {
        let _ = Reflect::set(&js_sys::global(), &"fetch".into(), &self.original);
    }
}

pub async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms).unwrap();
    });
    JsFuture::from(promise).await.unwrap();
}

/// Waits (up to ~3 s, polling every 10 ms) until `ready()` holds; panics naming `what`.
/// Tests wait on the condition they need, never a fixed time.
pub async fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    for _ in 0..300 {
        if ready() {
            return;
        }
        sleep(10).await;
    }
    panic!("timed out waiting until {what}");
}

/// A fresh `<div>` in the test page's body.
pub fn container() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let div = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&div).unwrap();
    div.unchecked_into()
}

/// Waits (up to ~3 s) for `selector` to match inside `root`.
pub async fn find(root: &web_sys::Element, selector: &str) -> web_sys::HtmlElement {
    for _ in 0..150 {
        if let Some(el) = root.query_selector(selector).unwrap() {
            return el.unchecked_into();
        }
        sleep(20).await;
    }
    panic!("nothing matched {selector:?}; the DOM is: {}", root.inner_html());
}

/// Waits (up to ~3 s) for `selector`'s text to contain `needle`, and returns the text.
pub async fn text_containing(root: &web_sys::Element, selector: &str, needle: &str) -> String {
    let mut last = String::new();
    for _ in 0..150 {
        if let Some(el) = root.query_selector(selector).unwrap() {
            last = el.text_content().unwrap_or_default();
            if last.contains(needle) {
                return last;
            }
        }
        sleep(20).await;
    }
    panic!("{selector:?} never contained {needle:?}; last text {last:?}; DOM: {}", root.inner_html());
}

pub fn clear_storage() {
    let w = web_sys::window().unwrap();
    w.session_storage().unwrap().unwrap().clear().unwrap();
    w.local_storage().unwrap().unwrap().clear().unwrap();
}
