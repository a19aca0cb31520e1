//! The script index.html runs first: on a cold load of a page's URL it starts what that page
//! will need, in parallel with the main module instead of after it (issue 10's chain of round
//! trips, each waiting for the one before):
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
//! It also asks the browser for the first screen's fonts, 4 ms of them a task, while the main thread
//! waits for the network (xtask/src/fonts.rs says why).

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use moneydesk_model::paths::AUTH_ME;
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

/// No apostrophes in it: the server reads quoted names out of index.html (static_files/derived.rs).
const SCRIPT: &str = r#"<script>
(() => {
  // What the page at this URL loads first, started now, in parallel with the main module
  // (written by the release build: xtask/src/preload.rs says why and what).
  const routes = ROUTES;
  const NO_BODY = [204, 205, 304];
  // The sign-in kept by an earlier visit (src/session.rs), read once. Without one, every page
  // sends the user to the sign-in page (src/components/layout.rs): that is the page to start.
  let kept, stored;
  try {
    kept = [sessionStorage, localStorage].find((s) => s.getItem("moneydesk.credentials"));
    stored = kept && JSON.parse(kept.getItem("moneydesk.credentials"));
  } catch (e) {}
  const signedIn = !!stored && /^mdk_[A-Za-z0-9_-]+$/.test(stored.token) && typeof stored.baseUrl === "string";
  const route = routes[signedIn ? location.pathname.split("/")[1] || "" : SIGN_IN] || { files: [] };
  // The wasm files of the page are compiled (off the main thread) while the main module loads;
  // the loader of the page (xtask/src/loader.rs) instantiates what it finds here
  // (`window.moneydeskModule`, taken once) and fetches the file itself otherwise. They come in
  // one response, the pack of the route (xtask/src/pack.rs: a request a file had queued behind the
  // start files); one that fails or does not add up leaves each file to its loader.
  const wasm = route.files.filter(([, ext]) => ext === "wasm").length;
  const packed = route.pack && fetch("/" + route.pack + ".PACK")
    .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(r.status + " " + r.url))))
    .then((bytes) => {
      const view = new DataView(bytes);
      const count = bytes.byteLength >= 4 ? view.getUint32(0, true) : -1;
      const parts = [];
      let at = 4 + 4 * count;
      for (let i = 0; count === wasm && at <= bytes.byteLength && i < count; i++) {
        const length = view.getUint32(4 + 4 * i, true);
        parts.push(new Uint8Array(bytes, at, Math.min(length, bytes.byteLength - at)));
        at += length;
      }
      if (parts.length !== wasm || at !== bytes.byteLength) throw new Error("a pack that does not add up");
      return parts;
    });
  let slot = 0;
  const modules = new Map();
  for (const [name, ext] of route.files) {
    const href = "/" + name + "." + ext;
    if (ext === "wasm" && (packed || WebAssembly.compileStreaming)) {
      const url = new URL(href, location.href).href;
      const i = slot++;
      const compiled = packed ? packed.then((parts) => WebAssembly.compile(parts[i])) : WebAssembly.compileStreaming(fetch(url));
      compiled.catch(() => {});
      modules.set(url, compiled);
      continue;
    }
    // A stylesheet is linked at once (not only preloaded): loaded by the time the page is
    // built, the page does not wait for its load event, a task after which the browser had
    // laid out and painted the shell alone first. A failed one is removed, for the page to
    // link again (src/pages/lazy.rs).
    const link = document.createElement("link");
    if (ext === "css") {
      link.rel = "stylesheet";
      link.onerror = () => link.remove();
    } else {
      link.rel = "preload";
      link.as = "fetch";
      link.crossOrigin = "anonymous";
    }
    link.href = href;
    document.head.appendChild(link);
  }
  window.moneydeskModule = (url) => {
    const compiled = modules.get(url);
    modules.delete(url);
    return compiled;
  };
  const early = new Map();
  let authorization;
  try {
    if (signedIn) {
      authorization = "Bearer " + stored.token;
      // The answer is read whole as it arrives, its text kept beside it (moneydeskText): the
      // portal decodes it in the same task as it builds the page instead of reading the body
      // in a later task, which the browser ran after laying out and painting the page without
      // its rows (bench/peer/results/README.md, 20).
      const read = (r) => r.text().then((text) => {
        const init = { status: r.status, statusText: r.statusText, headers: r.headers };
        const answer = new Response(NO_BODY.includes(r.status) ? null : text, init);
        answer.moneydeskText = text;
        return answer;
      });
      const get = (path) => {
        const url = new URL(stored.baseUrl + path, location.href).href;
        const answer = fetch(url, { headers: { Accept: "application/json", Authorization: authorization }, credentials: "omit" })
          .then(read);
        answer.catch(() => {});
        early.set(url, answer);
        return answer;
      };
      const me = get(AUTH_ME);
      const opens = (scopes) => route.scopes.some((s) => scopes.includes(s));
      if (route.first && !location.search) {
        if (opens((kept.getItem("moneydesk.scopes") || "").split(" "))) get(route.first);
        // In the same reaction as the answer arrives: before the portal, which takes the same
        // answer, can build the page and ask for the rows itself.
        else me.then((r) => r.ok && opens(JSON.parse(r.moneydeskText).data.scopes) && get(route.first)).catch(() => {});
      }
    }
  } catch (e) {}
  const forget = () => early.clear();
  if (window.navigation) navigation.addEventListener("navigate", forget, { once: true });
  else setTimeout(forget, 10000);
  window.moneydeskEarly = (url, auth) => {
    const answer = auth === authorization ? early.get(url) : undefined;
    early.delete(url);
    return answer;
  };
  // The fonts of the first screen (xtask/src/fonts.rs), 4 ms of them a task, so that the main
  // module, arriving, waits for little, and all of them in two or three tasks (a chain of a
  // task each, every timeout after the fifth delayed 4 ms, had not reached the last ones when
  // the page was built): measuring a word on a canvas makes the browser find the font, as the
  // text of the page would inside its first frame.
  const fonts = FONTS;
  let canvas;
  const warm = () => {
    canvas = canvas || document.createElement("canvas").getContext("2d");
    const until = performance.now() + 4;
    while (canvas && fonts.length && performance.now() < until) {
      canvas.font = fonts.shift();
      canvas.measureText("Aa0");
    }
    if (canvas && fonts.length) setTimeout(warm);
  };
  setTimeout(warm);
})();
</script>"#;

/// index.html with the script after its `<title>`; `fonts` are CSS `font` values
/// (xtask/src/fonts.rs).
pub fn with_script(html: &str, routes: &BTreeMap<String, Route>, fonts: &[String]) -> Result<String> {
    let script = SCRIPT
        .replace(".PACK", &format!(".{}", crate::pack::EXTENSION))
        .replace("SIGN_IN", &serde_json::to_string(SIGN_IN_ROUTE)?)
        .replace("ROUTES", &serde_json::to_string(routes)?)
        .replace("AUTH_ME", &serde_json::to_string(AUTH_ME)?)
        .replace("FONTS", &serde_json::to_string(fonts)?);
    let Some(at) = html.find("</title>") else { bail!("index.html has no </title> to put the preloads after") };
    let at = at + "</title>".len();
    Ok(format!("{}\n    {}{}", &html[..at], script, &html[at..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_route_lists_its_files_as_name_and_extension_and_its_first_request() {
        let mut routes = BTreeMap::new();
        let files = ["build-00/accounts.wasm".to_string(), "table-1a.css".to_string()];
        let scopes = vec!["accounts:read".to_string(), "admin".to_string()];
        let pack = Some("build-00/accounts".to_string());
        routes.insert(
            "accounts".to_string(),
            Route::new(&files, pack, Some("/api/a?page=1&size=10".into()), scopes.clone()),
        );
        routes.insert("fees".to_string(), Route::new(&files[..1], None, None, scopes));
        let fonts = ["400 15px system-ui, \"Segoe UI\", sans-serif".to_string()];
        let html = with_script("<head><title>M</title></head>", &routes, &fonts).unwrap();
        let table = r#"const routes = {"accounts":{"files":[["build-00/accounts","wasm"],["table-1a","css"]],"pack":"build-00/accounts","first":"/api/a?page=1&size=10","scopes":["accounts:read","admin"]},"fees":{"files":[["build-00/accounts","wasm"]]}};"#;
        assert!(html.contains(table), "{html}");
        assert!(html.contains(r#"get("/api/v1/cores/auth/me");"#), "{html}");
        assert!(html.contains(r#"fetch("/" + route.pack + ".pack")"#), "{html}");
        assert!(html.contains(r#"|| "" : "signin"] ||"#), "signed out, the sign-in page: {html}");
        assert!(html.contains(r#"const fonts = ["400 15px system-ui, \"Segoe UI\", sans-serif"];"#), "{html}");
        assert!(html.find("<script>").unwrap() > html.find("</title>").unwrap());
        assert!(!SCRIPT.contains('\''), "no apostrophes: the server reads quoted names");
    }
}
