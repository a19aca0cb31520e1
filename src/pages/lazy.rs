//! Pages whose code loads with them: the release build (`scripts/wasm-split`, `--cfg
//! moneydesk_split`) cuts each `#[wasm_split]` function and what only it uses into a wasm chunk
//! fetched on first use, so the start bundle is the shell. Other builds (tests, `trunk serve`)
//! call the same functions directly. The groups' chunks are declared by `src/groups.rs`; the
//! sign-in page (a signed-in start never shows it) is declared here.

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

/// `split_page!(name, Component)`: a module `name` whose `load()` gives the page, cut into the
/// chunk `name` in the release build.
macro_rules! split_page {
    ($name:ident, $page:path) => {
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
                Box::pin($name())
            }
        }
    };
}
pub(crate) use split_page;

split_page!(sign_in, crate::pages::signin::SignInPage);

/// Shows "Loading…" until the page's code is there, then the page; the network-error view with
/// Retry when it cannot be fetched.
pub fn page(load: LoadFuture) -> AnyView {
    let load = SendWrapper::new(load);
    let page = Suspend::new(async move {
        match load.await {
            Ok(page) => page,
            Err(LoadError) => {
                let origin = web_sys::window().and_then(|w| w.location().origin().ok());
                let error =
                    ApiError::Network { url: origin.unwrap_or_default(), message: "the page's code did not load".into() };
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
