//! The script index.html runs first (xtask/src/start.js, written into the page by the release
//! build): on a cold load of a page's URL it starts what that page will need, in parallel with
//! the main module instead of after it (a chain of round trips, each waiting for the one before):
//!
//! - the page's wasm chunks, in one response (the route's pack: xtask/src/pack.rs), compiled
//!   as soon as it is in (the page's loader instantiates them: xtask/src/loader.rs), and its
//!   own stylesheets (linked: src/pages/lazy.rs finds them);
//! - for a stored sign-in (the credentials src/session.rs keeps), the session check
//!   (`auth/me`) and, when the page opens on a request known without running it (`opens_on` in
//!   src/groups.rs), that request: at once when the scopes remembered beside the token open
//!   the page, else as soon as the session check says the token's scopes do (the portal itself
//!   builds such a page only once it has read that answer and loaded the page's code, later).
//!
//! Without a stored sign-in, the page started is the sign-in page's, wherever the URL points: the
//! portal sends a signed-out user there.
//!
//! Each such answer is read whole as it arrives (a `Response` over its text, the text also
//! beside it as `moneydeskText`), so that the portal decodes it as soon as it asks, without
//! waiting for another task to read the body (src/api/early.rs).
//! The portal's client takes such an answer instead of sending the same request again
//! (`window.moneydeskEarly(url, authorization)`, src/api/early.rs): once, for the same absolute
//! URL and the same `Authorization`, and only until the first navigation (the Navigation API's
//! `navigate`, which also fires for `history.pushState`), so a page opened later never shows
//! what the first load fetched. A browser without the Navigation API keeps them for 10 s.
//! Nothing is requested for a URL with a query (the page's own keys may change the request),
//! without stored credentials, or for a token whose scopes do not open the page (its refusal
//! would be a 403 in the console for a page the user cannot open).
//!
//! It also asks the browser for the first screen's fonts, 4 ms of them a task, while the main
//! thread waits for the network (xtask/src/fonts.rs says why).
//!
//! The names it shares with the portal (storage keys, globals) are
//! `moneydesk_model::portal_shell`'s, written in with the rest of its values ([`fill`]).

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use moneydesk_model::paths::AUTH_ME;
use moneydesk_model::portal_shell as shell;
use serde::Serialize;

/// What a route's page loads: its files (`build-…/chunk_3.wasm`, `table-….css`) and, when it
/// opens on a request index.html may start, that request and the scopes that open the page.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Route {
    /// `[name, extension]` of each file, the name without its extension (the server reads
    /// quoted names ending in `.wasm`, `.js` or `.css` out of index.html as the start bundle;
    /// these are not in it).
    pub files: Vec<(String, String)>,
    /// Its wasm files in one (`build-…/<route>`, without `.pack`: xtask/src/pack.rs), fetched
    /// instead of each of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pack: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
}

impl Route {
    pub fn new(files: &[String], pack: Option<String>, first: Option<String>, scopes: Vec<String>) -> Route {
        let files =
            files.iter().filter_map(|f| f.rsplit_once('.')).map(|(n, e)| (n.to_string(), e.to_string())).collect();
        let scopes = if first.is_some() { scopes } else { Vec::new() };
        Route { files, pack, first, scopes }
    }
}

/// The route of the sign-in page (`/signin`), whose page wasm-split names `sign_in`.
pub const SIGN_IN_ROUTE: &str = "signin";

/// The script, as written (xtask/src/start.js): the build minifies it ([`crate::js::minify_text`])
/// before [`with_script`] writes the values of its placeholders in.
pub const SOURCE: &str = include_str!("start.js");

/// How a placeholder's value is written into the script.
enum Value {
    /// A JavaScript value, as JSON.
    Json(String),
    /// An identifier, where the script names a property (`window.MODULE_GLOBAL`), or letters,
    /// digits and `_` inside a regular expression (`TOKEN_PREFIX`).
    Word(&'static str),
}

fn json<T: Serialize + ?Sized>(value: &T) -> Result<Value> {
    Ok(Value::Json(serde_json::to_string(value)?))
}

/// The script's upper-case names and their values: the portal's storage keys and globals
/// (moneydesk_model::portal_shell), the routes' files and first requests, the fonts.
fn placeholders(routes: &BTreeMap<String, Route>, fonts: &[String]) -> Result<Vec<(&'static str, Value)>> {
    Ok(vec![
        ("ROUTES", json(routes)?),
        ("FONTS", json(fonts)?),
        ("SIGN_IN", json(SIGN_IN_ROUTE)?),
        ("AUTH_ME", json(AUTH_ME)?),
        ("PACK_EXTENSION", json(&format!(".{}", crate::pack::EXTENSION))?),
        ("CREDENTIALS_KEY", json(shell::CREDENTIALS_KEY)?),
        ("SCOPES_KEY", json(shell::SCOPES_KEY)?),
        ("TOKEN_PREFIX", Value::Word(shell::TOKEN_PREFIX)),
        ("MODULE_GLOBAL", Value::Word(shell::MODULE)),
        ("EARLY_GLOBAL", Value::Word(shell::EARLY)),
        ("EARLY_TEXT_GLOBAL", Value::Word(shell::EARLY_TEXT)),
    ])
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// `script` (start.js, minified or not) with each placeholder, a whole identifier, replaced in
/// one pass (a value written in is never searched again); every placeholder must be there.
pub fn fill(script: &str, routes: &BTreeMap<String, Route>, fonts: &[String]) -> Result<String> {
    let values = placeholders(routes, fonts)?;
    for (name, value) in &values {
        if let Value::Word(w) = value {
            if w.is_empty() || w.starts_with(|c: char| c.is_ascii_digit()) || !w.chars().all(is_word) {
                bail!("{name} = {w:?} cannot be written into the start script as it is");
            }
        }
    }
    let mut used = vec![false; values.len()];
    let mut out = String::with_capacity(script.len() + 4096);
    let mut rest = script;
    while let Some(at) = rest.find(is_word) {
        out.push_str(&rest[..at]);
        let len = rest[at..].find(|c: char| !is_word(c)).unwrap_or(rest.len() - at);
        let word = &rest[at..at + len];
        match values.iter().position(|(name, _)| *name == word) {
            Some(i) => {
                used[i] = true;
                out.push_str(match &values[i].1 {
                    Value::Json(v) => v,
                    Value::Word(v) => v,
                });
            }
            None => out.push_str(word),
        }
        rest = &rest[at + len..];
    }
    out.push_str(rest);
    if let Some(i) = used.iter().position(|u| !u) {
        bail!("the start script has no {} to write its value in (xtask/src/start.js)", values[i].0);
    }
    Ok(out)
}

/// index.html with `script` (start.js, minified: [`SOURCE`]) after its `<title>`, its values
/// written in; `fonts` are CSS `font` values (xtask/src/fonts.rs).
pub fn with_script(html: &str, script: &str, routes: &BTreeMap<String, Route>, fonts: &[String]) -> Result<String> {
    if script.contains('\'') {
        bail!("the start script has an apostrophe: the server reads quoted names out of index.html");
    }
    let script = fill(script.trim_end(), routes, fonts)?;
    let Some(at) = html.find("</title>") else { bail!("index.html has no </title> to put the preloads after") };
    let at = at + "</title>".len();
    Ok(format!("{}\n    <script>{}</script>{}", &html[..at], script, &html[at..]))
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    fn sample() -> (BTreeMap<String, Route>, Vec<String>) {
        let mut routes = BTreeMap::new();
        let files = ["build-00/accounts.wasm".to_string(), "table-1a.css".to_string()];
        let scopes = vec!["accounts:read".to_string(), "admin".to_string()];
        let pack = Some("build-00/accounts".to_string());
        routes.insert(
            "accounts".to_string(),
            Route::new(&files, pack, Some("/api/a?page=1&size=10".into()), scopes.clone()),
        );
        routes.insert("fees".to_string(), Route::new(&files[..1], None, None, scopes));
        (routes, vec!["400 15px system-ui, \"Segoe UI\", sans-serif".to_string()])
    }

    #[test]
    fn each_route_lists_its_files_as_name_and_extension_and_its_first_request() {
        let (routes, fonts) = sample();
        let html = with_script("<head><title>M</title></head>", SOURCE, &routes, &fonts).unwrap();
        let table = r#"const routes = {"accounts":{"files":[["build-00/accounts","wasm"],["table-1a","css"]],"pack":"build-00/accounts","first":"/api/a?page=1&size=10","scopes":["accounts:read","admin"]},"fees":{"files":[["build-00/accounts","wasm"]]}};"#;
        assert!(html.contains(table), "{html}");
        assert!(html.contains(r#"get("/api/v1/cores/auth/me");"#), "{html}");
        assert!(html.contains(r#"fetch("/" + route.pack + ".pack")"#), "{html}");
        assert!(html.contains(r#"|| "" : "signin"] ||"#), "signed out, the sign-in page: {html}");
        assert!(html.contains(r#"const fonts = ["400 15px system-ui, \"Segoe UI\", sans-serif"];"#), "{html}");
        assert!(html.find("<script>").unwrap() > html.find("</title>").unwrap());
    }

    #[test]
    fn the_names_shared_with_the_portal_are_the_models() {
        let (routes, fonts) = sample();
        let js = fill(SOURCE, &routes, &fonts).unwrap();
        for shared in [
            r#"s.getItem("moneydesk.credentials")"#,
            r#"kept.getItem("moneydesk.scopes")"#,
            "/^mdk_[A-Za-z0-9_-]+$/.test(stored.token)",
            "window.moneydeskModule = (url)",
            "window.moneydeskEarly = (url, auth)",
            "answer.moneydeskText = text;",
            "JSON.parse(r.moneydeskText)",
        ] {
            assert!(js.contains(shared), "{shared}: {js}");
        }
        assert!(!js.contains("_GLOBAL") && !js.contains("_KEY"), "every placeholder filled: {js}");
    }

    #[test]
    fn a_script_without_a_placeholder_or_with_an_apostrophe_is_refused() {
        let (routes, fonts) = sample();
        let e = fill(&SOURCE.replace("FONTS", "[]"), &routes, &fonts).unwrap_err().to_string();
        assert!(e.contains("no FONTS"), "{e}");
        assert!(!SOURCE.contains('\''), "no apostrophes: the server reads quoted names");
        assert!(with_script("<title>M</title>", "'x'", &routes, &fonts).is_err());
    }

    /// As the release build writes it (skipped where esbuild is absent: that build needs it).
    #[test]
    fn the_minified_script_keeps_its_placeholders_and_quotes() {
        if Command::new("esbuild").arg("--version").output().is_err() {
            eprintln!("esbuild absent: not minified here");
            return;
        }
        let (routes, fonts) = sample();
        let minified = crate::js::minify_text(SOURCE, "start.js").unwrap();
        let html = with_script("<title>M</title>", &minified, &routes, &fonts).unwrap();
        assert!(html.len() < SOURCE.len(), "{html}");
        for shared in [r#"getItem("moneydesk.credentials")"#, "window.moneydeskEarly=", r#"+".pack")"#] {
            assert!(html.contains(shared), "{shared}: {html}");
        }
        let e = crate::js::minify_text("const = 1;", "broken.js").unwrap_err().to_string();
        assert!(e.contains("broken.js"), "a syntax error fails the build: {e}");
    }

    /// The script run by node against a pack written by [`crate::pack::pack`] and a stored
    /// sign-in: the page's modules compiled from the pack and the session check offered once.
    /// Skipped where node is absent (the release build also parses the script: esbuild).
    #[test]
    fn node_runs_the_script_on_a_pack_of_this_build() {
        if Command::new("node").arg("--version").output().is_err() {
            eprintln!("node absent: the start script is checked by the release build's esbuild only");
            return;
        }
        let mut routes = BTreeMap::new();
        let files = ["build-00/a.wasm".to_string(), "build-00/b.wasm".into(), "t-1.css".into()];
        let pack = Some("build-00/accounts".to_string());
        routes.insert("accounts".into(), Route::new(&files, pack, Some("/rows".into()), vec!["admin".into()]));
        let dir = tempfile::tempdir().unwrap();
        let empty = b"\0asm\x01\0\0\0".to_vec();
        std::fs::write(dir.path().join("p"), crate::pack::pack(&[empty.clone(), empty]).unwrap()).unwrap();
        let script = fill(SOURCE, &routes, &["12px serif".to_string()]).unwrap();
        std::fs::write(dir.path().join("start.js"), script).unwrap();
        let harness = r#"
const fs = require("fs");
const store = { "moneydesk.credentials": JSON.stringify({ baseUrl: "http://h", token: "mdk_t" }), "moneydesk.scopes": "admin" };
Object.assign(globalThis, {
  window: globalThis,
  sessionStorage: { getItem: (k) => store[k] ?? null },
  localStorage: { getItem: () => null },
  location: { pathname: "/accounts", href: "http://h/accounts", search: "" },
  document: { createElement: () => ({ getContext: () => ({ measureText: () => {} }) }), head: { appendChild: (l) => (globalThis.linked = l) } },
});
const asked = [];
globalThis.fetch = async (url, init) => {
  asked.push(String(url));
  if (String(url).endsWith(".pack")) return new Response(fs.readFileSync(process.argv[2] + "/p"));
  return new Response(JSON.stringify({ data: { scopes: ["admin"] }, auth: init.headers.Authorization }));
};
require(process.argv[2] + "/start.js");
(async () => {
  const a = await window.moneydeskModule("http://h/build-00/a.wasm");
  const b = await window.moneydeskModule("http://h/build-00/b.wasm");
  const me = await window.moneydeskEarly("http://h/api/v1/cores/auth/me", "Bearer mdk_t");
  const again = window.moneydeskEarly("http://h/api/v1/cores/auth/me", "Bearer mdk_t");
  console.log(JSON.stringify({
    modules: [a, b].map((m) => m instanceof WebAssembly.Module),
    me: JSON.parse(me.moneydeskText).auth,
    again: again === undefined,
    asked,
    linked: globalThis.linked.rel + " " + globalThis.linked.href,
  }));
  process.exit(0);
})();
"#;
        std::fs::write(dir.path().join("harness.js"), harness).unwrap();
        let out = Command::new("node").arg(dir.path().join("harness.js")).arg(dir.path()).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
        let got: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
        assert_eq!(got["modules"], serde_json::json!([true, true]), "{got}");
        assert_eq!(got["me"], "Bearer mdk_t", "{got}");
        assert_eq!(got["again"], true, "an answer is taken once: {got}");
        let asked = serde_json::json!(["http://h/api/v1/cores/auth/me", "http://h/rows", "/build-00/accounts.pack"]);
        let mut sorted: Vec<String> = serde_json::from_value(got["asked"].clone()).unwrap();
        sorted.sort();
        let mut want: Vec<String> = serde_json::from_value(asked).unwrap();
        want.sort();
        assert_eq!(sorted, want, "the pack, the session check and the first rows, once each: {got}");
        assert_eq!(got["linked"], "stylesheet /t-1.css", "{got}");
    }
}
