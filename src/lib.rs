//! Moneydesk portal: Leptos 0.8 CSR, built by trunk.
//!
//! `start()` (the binary's `main`) mounts the portal into `window.MoneydeskEmbed.target` when a
//! host page set that global, else onto `<body>`. Hosts may also call the exported `mount`.

pub mod api;
pub mod app;
pub mod components;
pub mod config;
pub mod format;
pub mod groups;
pub mod i18n;
pub mod pages;
pub mod session;
pub mod shell;
pub mod theme;

use wasm_bindgen::prelude::*;

use crate::config::MountOptions;

/// Entry point of the binary.
pub fn start() {
    console_error_panic_hook::set_once();
    let global =
        js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("MoneydeskEmbed")).ok().filter(|v| v.is_object());
    match global {
        Some(options) => {
            if let Err(e) = mount(options) {
                web_sys::console::error_1(&e);
            }
        }
        None => mount_options(MountOptions::default()),
    }
}

/// Mounts the portal for a host page: `options` is `{ target, basePath, baseUrl, token }`
/// (see `config::MountOptions`). Throws a JS error naming what is wrong with the options.
#[wasm_bindgen]
pub fn mount(options: JsValue) -> Result<(), JsValue> {
    console_error_panic_hook::set_once();
    let options = MountOptions::from_js(&options).map_err(|e| JsValue::from(js_sys::Error::new(&e)))?;
    mount_options(options);
    Ok(())
}

fn mount_options(options: MountOptions) {
    let target = match options.target.resolve() {
        Ok(el) => el,
        Err(e) => {
            web_sys::console::error_1(&JsValue::from_str(&e));
            return;
        }
    };
    options.enter_base_path();
    // A language remembered other than English: its shell words are fetched first (a small
    // chunk), so the portal shows in it from the start; a failed fetch shows it in English.
    match i18n::stored().filter(|l| *l != i18n::Lang::En) {
        None => mount_app(target, options),
        // wasm-bindgen's own executor: leptos' is set up by the mount that has not happened yet.
        Some(_) => wasm_bindgen_futures::spawn_local(async move {
            i18n::start_in_stored(!options.app_config().embedded).await;
            mount_app(target, options);
        }),
    }
}

fn mount_app(target: web_sys::HtmlElement, options: MountOptions) {
    leptos::mount::mount_to(target, move || leptos::view! { <app::App options/> }).forget();
}

#[cfg(test)]
mod test_util;

#[cfg(test)]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
