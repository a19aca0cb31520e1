//! Pages whose code loads with them: the release build (`cargo xtask dist`, `--cfg
//! moneydesk_split`) cuts each `#[wasm_split]` function and what only it uses into a wasm chunk
//! fetched on first use, so the start bundle is the shell. Such a page also loads the
//! stylesheets only it uses (its group's `stylesheets`), beside its chunk and before it shows,
//! so it never shows unstyled. Other builds (tests, `trunk serve`) call the same functions
//! directly, with every stylesheet linked from index.html. The groups' chunks are declared by
//! `src/groups.rs`; the sign-in page (a signed-in start never shows it) is declared here.

use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;
use send_wrapper::SendWrapper;

use crate::api::ApiError;
use crate::components::error_view::ApiErrorView;
use crate::components::loading::Loading;

/// A chunk could not be fetched (offline, a deploy replaced it): the network-error view.
pub struct LoadError;

#[cfg(moneydesk_split)]
impl From<leptos::wasm_split::SplitLoaderError> for LoadError {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> LoadError {
        LoadError
    }
}

/// A page's code being fetched.
pub type LoadFuture = Pin<Box<dyn Future<Output = Result<AnyView, LoadError>>>>;

/// `split_page!(name, Component, ["stylesheet", ...])`: a module `name` whose `load()` gives
/// the page, cut into the chunk `name` in the release build, which also loads the page's
/// stylesheets (`style/NAME.css`).
macro_rules! split_page {
    ($name:ident, $page:path, [$($css:literal),*]) => {
        pub mod $name {
            use leptos::prelude::*;

            use $crate::pages::lazy::{LoadError, LoadFuture};

            #[cfg(moneydesk_split)]
            #[leptos::wasm_split::wasm_split($name, wasm_split_path = ::leptos::wasm_split, fallible)]
            fn $name() -> Result<AnyView, LoadError> {
                Ok(leptos::view! { <$page/> }.into_any())
            }

            #[cfg(not(moneydesk_split))]
            async fn $name() -> Result<AnyView, LoadError> {
                Ok(leptos::view! { <$page/> }.into_any())
            }

            pub fn load() -> LoadFuture {
                #[cfg(moneydesk_split)]
                {
                    $crate::pages::lazy::stylesheets::with_page(Box::pin($name()), &[$($css),*])
                }
                #[cfg(not(moneydesk_split))]
                Box::pin($name())
            }
        }
    };
}
pub(crate) use split_page;

split_page!(sign_in, crate::pages::signin::SignInPage, []);

/// The stylesheets only split pages use: in the release build index.html does not link them;
/// the page that needs one adds its `<link>` and waits for it. Their content-hashed names come
/// from the build (`MONEYDESK_PAGE_STYLESHEETS`, `name=file;...`, written by the xtask).
#[cfg(moneydesk_split)]
pub mod stylesheets {
    use wasm_bindgen::prelude::wasm_bindgen;
    use wasm_bindgen_futures::JsFuture;

    use super::{LoadError, LoadFuture};

    const FILES: &str = env!("MONEYDESK_PAGE_STYLESHEETS");

    // The loader is a few lines of JavaScript (wasm-bindgen's inline snippet, one import)
    // rather than the same DOM calls bound one by one from Rust: those imports and their shims
    // cost the start bundle 1.7 KB gzip, over its budget. It adds each stylesheet not yet in
    // the document (under `MoneydeskEmbed.assetBase` for an embedded portal) and resolves
    // when all have loaded; a failed one is removed again, so Retry fetches it anew. One
    // index.html linked already (its first script links the stylesheets of the page at its
    // URL: xtask/src/preload.rs) is waited for only while it loads: once loaded, the page is
    // built in the same task as the portal starts, without a frame of the shell alone first.
    #[wasm_bindgen(inline_js = r#"
export function load_stylesheets(files) {
  const embed = globalThis.MoneydeskEmbed;
  const base = (embed && embed.assetBase) || "/";
  return Promise.all(files.split(" ").filter(Boolean).map((file) => {
    const href = base + file;
    const present = document.querySelector(`link[rel=stylesheet][href="${href}"]`);
    if (present) return present.sheet ? undefined : new Promise((resolve, reject) => {
      present.addEventListener("load", resolve);
      present.addEventListener("error", () => reject(new Error("stylesheet " + href)));
    });
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    const loaded = new Promise((resolve, reject) => {
      link.onload = resolve;
      link.onerror = () => { link.remove(); reject(new Error("stylesheet " + href)); };
    });
    document.head.appendChild(link);
    return loaded;
  }));
}
"#)]
    extern "C" {
        fn load_stylesheets(files: &str) -> js_sys::Promise;
    }

    /// The page's code and its stylesheets, fetched together (the stylesheets start now, so
    /// they arrive while the chunk does): the page shows when both are there.
    pub fn with_page(page: LoadFuture, names: &'static [&'static str]) -> LoadFuture {
        let files: Vec<&str> = names
            .iter()
            .filter_map(|n| FILES.split(';').find_map(|kv| kv.strip_prefix(*n)?.strip_prefix('=')))
            .collect();
        let styles = JsFuture::from(load_stylesheets(&files.join(" ")));
        Box::pin(async move {
            let page = page.await;
            styles.await.map_err(|_| LoadError)?;
            page
        })
    }
}

/// Shows "Loading…" until the page's code is there, then the page; the network-error view with
/// Retry when it cannot be fetched.
pub fn page(load: LoadFuture) -> AnyView {
    let load = SendWrapper::new(load);
    let page = Suspend::new(async move {
        match load.await {
            Ok(page) => page,
            Err(LoadError) => {
                let origin = web_sys::window().and_then(|w| w.location().origin().ok());
                let error = ApiError::Network {
                    url: origin.unwrap_or_default(),
                    message: "the page's code did not load".into(),
                };
                // A fresh start fetches the chunk again (and a newer build's, after a deploy).
                let retry = Callback::new(|()| {
                    let _ = web_sys::window().map(|w| w.location().reload());
                });
                view! { <ApiErrorView error retry page=true/> }.into_any()
            }
        }
    });
    view! { <Suspense fallback=|| view! { <Loading/> }>{page}</Suspense> }.into_any()
}
