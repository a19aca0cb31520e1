//! Answers index.html asked for before the portal ran: on a cold load of a page's URL with a
//! stored sign-in, the release build's first script starts the session check and the page's
//! first request with the main module (xtask/src/preload.rs), and offers each answer once as
//! `window.moneydeskEarly(url, authorization)`. The client takes it instead of sending the
//! same GET again; the script has read the body whole already ([`text`]), so the page decodes
//! it at once instead of in a later task (after the browser laid out and painted the page
//! without it: bench/peer/results/README.md, 20). Other builds (tests, `trunk serve`, an
//! embedded portal) have no such script, and every request goes out as usual.

use moneydesk_model::portal_shell;
use wasm_bindgen::{JsCast, JsValue};

/// The answer already under way for this absolute URL and `Authorization` value, taken (a
/// second request for it is sent as usual).
pub fn take(url: &str, authorization: &str) -> Option<js_sys::Promise> {
    let offer = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str(portal_shell::EARLY)).ok()?;
    let offer: js_sys::Function = offer.dyn_into().ok()?;
    offer.call2(&JsValue::NULL, &JsValue::from_str(url), &JsValue::from_str(authorization)).ok()?.dyn_into().ok()
}

/// The body of an answer taken here, as the script read it (its `moneydeskText`); `None` for
/// any other answer.
pub fn text(answer: &web_sys::Response) -> Option<String> {
    js_sys::Reflect::get(answer, &JsValue::from_str(portal_shell::EARLY_TEXT)).ok()?.as_string()
}
