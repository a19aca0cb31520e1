//! The table in Spanish: its words come from the components' catalogue, whose Spanish arrives
//! with the shell's Spanish chunk (`i18n::shell::load_spanish`).

use super::*;
use crate::i18n::{set_for_test, shell, Lang};

/// English again when the test ends, however it ends (the language is the thread's).
struct English;

impl Drop for English {
    fn drop(&mut self) {
        set_for_test(Lang::En);
    }
}

#[wasm_bindgen_test]
async fn the_table_speaks_spanish_once_the_spanish_words_are_loaded() {
    let window = web_sys::window().unwrap();
    let history = window.history().unwrap();
    let start_url = window.location().href().unwrap();
    window.local_storage().unwrap().unwrap().clear().unwrap();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/cosas")).unwrap();
    shell::load_spanish().await.unwrap();
    let _english = English;
    set_for_test(Lang::Es);

    let fetcher = fake(Arc::new(Mutex::new(Vec::new())), Arc::new(Mutex::new(false)));
    let root = container();
    let owner = Owner::new();
    let handle = owner.with(|| {
        leptos::mount::mount_to(root.clone(), move || {
            view! { <Router><DataTable id="cosas" caption="Cosas" noun=("cosa", "cosas") columns=COLS filters=FILTERS fetcher/></Router> }
        })
    });

    text_containing(&root, ".table-total", "1–10 de 42 cosas").await;
    let said = |selector: &str| root.query_selector(selector).unwrap().unwrap().text_content().unwrap();
    assert_eq!(said("label[for=cosas-size]"), "Filas por página");
    assert_eq!(said(".pager button[data-page=next]"), "Siguiente ›");
    assert_eq!(said("[data-action=export]"), "Exportar CSV");
    let next = find(&root, ".pager button[data-page=next]").await;
    assert_eq!(next.get_attribute("aria-label").as_deref(), Some("Página siguiente"));
    let form = find(&root, "form.table-filters").await;
    assert_eq!(form.get_attribute("aria-label").as_deref(), Some("Filtrar cosas"));
    let sort = find(&root, "th[data-key=name] button").await;
    assert_eq!(sort.get_attribute("title").as_deref(), Some("Ordenar por Name"));

    // A filter with no match: the empty state and its button, in Spanish.
    let name: web_sys::HtmlInputElement = find(&root, "#cosas-filter-name").await.unchecked_into();
    name.set_value("nada parecido");
    fire(&name, "change");
    text_containing(&root, "[data-testid=table-empty]", "No hay cosas que coincidan con estos filtros.").await;
    assert_eq!(said("[data-testid=table-empty] button"), "Borrar los filtros");

    drop(handle);
    owner.cleanup();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&start_url)).unwrap();
}
