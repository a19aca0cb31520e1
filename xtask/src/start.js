// The script index.html runs first (xtask/src/preload.rs says why and what). The release build
// minifies it (esbuild: a syntax error fails the build), then writes in the values of the
// upper-case names (preload.rs `placeholders`): the storage keys and globals of
// moneydesk_model::portal_shell, the files and first request of each route, the fonts of the
// first screen. No apostrophes, even here: the server reads quoted names out of index.html.
(() => {
  // What the page at this URL loads first, started now, in parallel with the main module.
  const routes = ROUTES;
  const NO_BODY = [204, 205, 304];
  // The sign-in kept by an earlier visit (src/session.rs), read once. Without one, every page
  // sends the user to the sign-in page (src/shell/layout.rs): that is the page to start.
  let kept, stored;
  try {
    kept = [sessionStorage, localStorage].find((s) => s.getItem(CREDENTIALS_KEY));
    stored = kept && JSON.parse(kept.getItem(CREDENTIALS_KEY));
  } catch (e) {}
  const signedIn = !!stored && /^TOKEN_PREFIX[A-Za-z0-9_-]+$/.test(stored.token) && typeof stored.baseUrl === "string";
  const route = routes[signedIn ? location.pathname.split("/")[1] || "" : SIGN_IN] || { files: [] };
  // The wasm files of the page are compiled (off the main thread) while the main module loads;
  // the loader of the page (xtask/src/loader.rs) instantiates what it finds here, taken once,
  // and fetches the file itself otherwise. They come in one response, the pack of the route
  // (xtask/src/pack.rs has its layout): on HTTP/1.1 a request a file queued behind the start
  // files. A pack that fails or does not add up leaves each file to its loader.
  const wasm = route.files.filter(([, ext]) => ext === "wasm").length;
  const packed = route.pack && fetch("/" + route.pack + PACK_EXTENSION)
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
  window.MODULE_GLOBAL = (url) => {
    const compiled = modules.get(url);
    modules.delete(url);
    return compiled;
  };
  const early = new Map();
  let authorization;
  try {
    if (signedIn) {
      authorization = "Bearer " + stored.token;
      // The answer is read whole as it arrives, its text kept beside it: the portal decodes it
      // in the task that builds the page, instead of reading the body in a later task, which
      // the browser ran after laying out and painting the page without its rows.
      const read = (r) => r.text().then((text) => {
        const init = { status: r.status, statusText: r.statusText, headers: r.headers };
        const answer = new Response(NO_BODY.includes(r.status) ? null : text, init);
        answer.EARLY_TEXT_GLOBAL = text;
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
        if (opens((kept.getItem(SCOPES_KEY) || "").split(" "))) get(route.first);
        // In the same reaction as the answer arrives: before the portal, which takes the same
        // answer, can build the page and ask for the rows itself.
        else me.then((r) => r.ok && opens(JSON.parse(r.EARLY_TEXT_GLOBAL).data.scopes) && get(route.first)).catch(() => {});
      }
    }
  } catch (e) {}
  const forget = () => early.clear();
  if (window.navigation) navigation.addEventListener("navigate", forget, { once: true });
  else setTimeout(forget, 10000);
  window.EARLY_GLOBAL = (url, auth) => {
    const answer = auth === authorization ? early.get(url) : undefined;
    early.delete(url);
    return answer;
  };
  // The fonts of the first screen (xtask/src/fonts.rs), 4 ms of them a task, so that the main
  // module, arriving, waits for little, and all of them in two or three tasks (a task a font,
  // each timeout after the fifth delayed 4 ms, had not reached the last ones when the page was
  // built): measuring a word on a canvas makes the browser find the font, as the text of the
  // page would inside its first frame.
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
