//! The deposit forms' shared parts: a text field that shows the server's complaint about its
//! request field, the complaints themselves, and how a refused submission is shown.

use leptos::prelude::*;
use moneydesk_model::FieldError;
use wasm_bindgen::JsCast;

use crate::api::ApiError;

/// A field's text, trimmed; `None` when empty (the request leaves it out).
pub(super) fn text(s: RwSignal<String>) -> Option<String> {
    Some(s.get_untracked().trim().to_string()).filter(|t| !t.is_empty())
}

pub(super) fn new_key() -> String {
    let now = js_sys::Date::now() as u64;
    let salt = (js_sys::Math::random() * 1e12) as u64;
    format!("portal-{now:x}-{salt:x}")
}

/// A submission the server refused (or whose answer was lost): the fields it named show their
/// complaints, and the next submission gets a new `Idempotency-Key` — unless no answer came
/// (the network), when the same key makes the retry safe. Shown in `failed`, focused at `error_id`.
pub(super) fn refused(
    e: ApiError,
    key: StoredValue<String>,
    complaints: Complaints,
    failed: RwSignal<Option<ApiError>>,
    error_id: &str,
) {
    if !matches!(e, ApiError::Network { .. }) {
        key.set_value(new_key());
    }
    if let ApiError::Validation { fields, .. } = &e {
        complaints.0.set(fields.clone());
    }
    failed.set(Some(e));
    if let Some(el) = leptos::prelude::document().get_element_by_id(error_id) {
        let _ = el.unchecked_into::<web_sys::HtmlElement>().focus();
    }
}

/// The server's complaints, by the API's field name: each shows on its field.
#[derive(Clone, Copy)]
pub(super) struct Complaints(pub(super) RwSignal<Vec<FieldError>>);

impl Complaints {
    pub(super) fn about(&self, field: &'static str) -> Option<String> {
        self.0.with(|all| {
            let mine: Vec<&str> = all.iter().filter(|e| e.field == field).map(|e| e.problem.as_str()).collect();
            (!mine.is_empty()).then(|| mine.join("; "))
        })
    }
}

/// One text field of the form; `api` is the request field it fills (its complaints show here).
#[component]
pub(super) fn Field(
    id: &'static str,
    label: &'static str,
    api: &'static str,
    value: RwSignal<String>,
    #[prop(optional)] hint: &'static str,
    /// What the page knows about the value as it is typed (the bank's name, the fee).
    #[prop(optional, into)]
    note: Option<Signal<Option<String>>>,
    #[prop(optional)] list: &'static str,
    #[prop(default = "text")] kind: &'static str,
    #[prop(optional)] required: bool,
    #[prop(optional)] inputmode: &'static str,
    #[prop(optional)] pattern: &'static str,
) -> impl IntoView {
    let complaints = expect_context::<Complaints>();
    let problem = Memo::new(move |_| complaints.about(api));
    let (hint_id, error_id, note_id) = (format!("{id}-hint"), format!("{id}-error"), format!("{id}-note"));
    let described = {
        let (hint_id, error_id, note_id) = (hint_id.clone(), error_id.clone(), note_id.clone());
        move || {
            let mut ids = Vec::new();
            if problem.with(Option::is_some) {
                ids.push(error_id.clone());
            }
            if note.is_some_and(|n| n.with(Option::is_some)) {
                ids.push(note_id.clone());
            }
            if !hint.is_empty() {
                ids.push(hint_id.clone());
            }
            (!ids.is_empty()).then(|| ids.join(" "))
        }
    };
    view! {
        <div class="field" class:invalid=move || problem.with(Option::is_some)>
            <label for=id>{label}{required.then_some(" *")}</label>
            <input
                id=id
                type=kind
                required=required
                inputmode=(!inputmode.is_empty()).then_some(inputmode)
                pattern=(!pattern.is_empty()).then_some(pattern)
                list=(!list.is_empty()).then_some(list)
                autocomplete="off"
                aria-invalid=move || problem.with(Option::is_some).then_some("true")
                aria-describedby=described
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))
            />
            {move || problem.get().map(|p| view! { <p class="field-error" id=error_id.clone()>{p}</p> })}
            {move || note.and_then(|n| n.get()).map(|t| view! { <p class="field-note" id=note_id.clone() aria-live="polite">{marked(&t)}</p> })}
            {(!hint.is_empty()).then(|| view! { <p class="hint" id=hint_id.clone()>{hint}</p> })}
        </div>
    }
}

/// A MICR read with the characters the reader was not sure of (`*`) marked, so the operator's
/// eye goes straight to them (issue 47): in the fields' notes, the line, the scan's answer.
pub(super) fn marked(read: &str) -> impl IntoView {
    let unsure = crate::i18n::deposits::text().form.unsure;
    read.split('*')
        .enumerate()
        .map(|(i, part)| {
            let mark = (i > 0).then(|| view! { <mark class="micr-unsure" title=unsure>"*"</mark> });
            view! { {mark}{part.to_string()} }
        })
        .collect_view()
}

#[cfg(test)]
mod tests {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn the_characters_not_read_for_sure_are_marked_and_the_others_kept() {
        let doc = leptos::prelude::document();
        let root = doc.create_element("div").unwrap();
        doc.body().unwrap().append_child(&root).unwrap();
        let handle = leptos::mount::mount_to(root.clone().unchecked_into(), || super::marked("0*12*"));
        assert_eq!(root.text_content().unwrap(), "0*12*");
        let marks = root.query_selector_all("mark.micr-unsure").unwrap();
        assert_eq!(marks.length(), 2, "each * marked");
        assert!(root.query_selector("mark").unwrap().unwrap().get_attribute("title").unwrap().contains("check"));
        drop(handle);
        root.remove();
    }
}
