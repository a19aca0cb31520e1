//! The table in Spanish: its words come from the components' catalogue, whose Spanish arrives
//! with the shell's Spanish chunk (`i18n::shell::load_spanish`).

use super::*;
use crate::i18n::{set_for_test, shell, Lang};

#[wasm_bindgen_test]
async fn the_table_speaks_spanish_once_the_spanish_words_are_loaded() {
    let window = web_sys::window().unwrap();
    let history = window.history().unwrap();
    let start_url = window.location().href().unwrap();
    window.local_storage().unwrap().unwrap().clear().unwrap();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/cosas")).unwrap();
    shell::load_spanish().await.unwrap();
    set_for_test(Lang::Es);

    let fetcher = fake(Arc::new(Mutex::new(Vec::new())), Arc::new(Mutex::new(false)));
    let root = container();
    let owner = Owner::new();
    let handle = owner.with(|| {
        leptos::mount::mount_to(root.clone(), move || {
            view! { <Router><DataTable id="cosas" caption="Cosas" noun=("cosa", "cosas") columns=COLS filters=FILTERS fetcher/></Router> }
        })
    });

    let total = wait_for_text(&root, ".table-total", "1–10 de 42 cosas").await;
    let said =
        |selector: &str| root.query_selector(selector).unwrap().and_then(|el| el.text_content()).unwrap_or_default();
    let attr = |selector: &str, name: &str| {
        root.query_selector(selector).unwrap().and_then(|el| el.get_attribute(name)).unwrap_or_default()
    };
    // What the table says, read first and compared once English is back: a panic in wasm runs
    // no destructor, and the language is the page's, so a failing assertion here would leave
    // every later test of the run in Spanish.
    let mut shown = vec![
        total,
        said("label[for=cosas-size]"),
        said(".pager button[data-page=next]"),
        said("[data-action=export]"),
        attr(".pager button[data-page=next]", "title"),
        attr("form.table-filters", "aria-label"),
        attr("th[data-key=name] button", "title"),
    ];

    // A filter with no match: the empty state and its button, in Spanish.
    if let Some(name) = root.query_selector("#cosas-filter-name").unwrap() {
        let name: web_sys::HtmlInputElement = name.unchecked_into();
        name.set_value("nada parecido");
        fire(&name, "change");
    }
    let empty = wait_for_text(&root, "[data-testid=table-empty] p", "No hay cosas que coincidan").await;
    shown.push(empty);
    shown.push(said("[data-testid=table-empty] button"));
    set_for_test(Lang::En);
    drop(handle);
    owner.cleanup();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&start_url)).unwrap();

    assert_eq!(
        shown,
        [
            "1–10 de 42 cosas",
            "Filas por página",
            "Siguiente ›",
            "Exportar CSV",
            "Página siguiente",
            "Filtrar cosas",
            "Ordenar por Name",
            "No hay cosas que coincidan con estos filtros.",
            "Borrar los filtros",
        ]
    );
}

/// `text_containing` without its panic: the text last seen once it holds `needle` or after ~3 s.
async fn wait_for_text(root: &web_sys::Element, selector: &str, needle: &str) -> String {
    let mut last = String::new();
    for _ in 0..150 {
        last = root.query_selector(selector).unwrap().and_then(|el| el.text_content()).unwrap_or_default();
        if last.contains(needle) {
            break;
        }
        crate::test_util::sleep(20).await;
    }
    last
}
