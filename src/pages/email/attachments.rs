//! Attachments: by the file picker or dropped on the box, read into memory (a send carries
//! them base64 in its JSON), listed with their sizes and a running total against the 30 MiB a
//! request may carry; images can go inline (their `cid:` for the HTML is shown).

use crate::format::bytes;
use crate::i18n::{email::text, fill};
use leptos::prelude::*;
use moneydesk_model::email::send::MAX_TOTAL_BYTES;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[derive(Clone, Debug, PartialEq)]
pub struct Picked {
    pub name: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
    pub inline: bool,
}

impl Picked {
    /// The Content-ID an inline image is referred to by: its name, without what a header
    /// or `cid:` URL cannot hold.
    pub fn content_id(&self) -> String {
        self.name.chars().filter(|c| c.is_ascii_alphanumeric() || ".-_".contains(*c)).collect()
    }
}

async fn read(file: web_sys::File) -> Option<Picked> {
    let buffer = JsFuture::from(file.array_buffer()).await.ok()?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    let content_type = if file.type_().is_empty() { "application/octet-stream".to_string() } else { file.type_() };
    Some(Picked { name: file.name(), content_type, bytes, inline: false })
}

fn add(list: web_sys::FileList, picked: RwSignal<Vec<Picked>>) {
    let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
    leptos::task::spawn_local(async move {
        for f in files {
            if let Some(p) = read(f).await {
                picked.try_update(|v| v.push(p));
            }
        }
    });
}

#[component]
pub fn Attachments(picked: RwSignal<Vec<Picked>>) -> impl IntoView {
    let input = NodeRef::<leptos::html::Input>::new();
    let dragging = RwSignal::new(false);
    let total = Memo::new(move |_| picked.with(|p| p.iter().map(|a| a.bytes.len() as u64).sum::<u64>()));
    let t = &text().compose;
    view! {
        <fieldset class="email-attachments">
            <legend>{text().message.attachments}</legend>
            <div class="drop-zone" id="email-drop" class:drop-active=move || dragging.get()
                on:dragover=move |ev: web_sys::DragEvent| { ev.prevent_default(); dragging.set(true); }
                on:dragleave=move |_| dragging.set(false)
                on:drop=move |ev: web_sys::DragEvent| {
                    ev.prevent_default();
                    dragging.set(false);
                    if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
                        add(files, picked);
                    }
                }>
                {t.drop}
                <label class="link-button" for="email-attach-input">{t.choose}</label>
                <input type="file" multiple id="email-attach-input" class="sr-only" node_ref=input
                    on:change=move |_| {
                        if let Some(i) = input.get() {
                            if let Some(files) = i.files() {
                                add(files, picked);
                            }
                            i.set_value("");
                        }
                    }/>
            </div>
            <ul class="attachment-list">
                {move || picked.get().into_iter().enumerate().map(|(i, a)| {
                    let image = a.content_type.starts_with("image/");
                    let cid = a.content_id();
                    let name = a.name.clone();
                    view! {
                        <li class="attachment">
                            <span class="attachment-name">{a.name.clone()}</span>
                            <span class="muted">{format!("{} · {}", bytes(a.bytes.len() as u64), a.content_type)}</span>
                            {image.then(|| view! {
                                <label class="attachment-inline">
                                    <input type="checkbox" prop:checked=a.inline
                                        on:change=move |ev| {
                                            let on = event_target::<web_sys::HtmlInputElement>(&ev).checked();
                                            picked.update(|p| if let Some(x) = p.get_mut(i) { x.inline = on; });
                                        }/>
                                    {fill(t.inline, &[&cid])}
                                </label>
                            })}
                            <button type="button" class="link-button" aria-label=fill(t.remove_named, &[&name])
                                on:click=move |_| picked.update(|p| { if i < p.len() { p.remove(i); } })>{t.remove}</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
            <p id="email-attach-total" class=move || total_class(total.get())>
                {move || fill(t.total, &[&bytes(total.get()), &bytes(MAX_TOTAL_BYTES as u64)])}
            </p>
        </fieldset>
    }
}

/// Past the limit the total reads as an error.
fn total_class(total: u64) -> &'static str {
    if total > MAX_TOTAL_BYTES as u64 {
        "field-error"
    } else {
        "muted"
    }
}

/// Reads a dropped or picked CSV's text.
pub async fn text_of(file: web_sys::File) -> Option<String> {
    let text = JsFuture::from(file.text()).await.ok()?;
    text.dyn_into::<js_sys::JsString>().ok().map(String::from)
}
