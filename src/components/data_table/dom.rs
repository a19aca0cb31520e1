//! The repeated parts (rows and cells, skeleton rows, the drawer's fields) built straight
//! with DOM calls: up to 500 rows × every column is where the time and the wasm size would
//! go with one generic view type per cell kind, so this stays a few small loops.

use serde_json::Value;
use web_sys::{Document, Element};

use super::column::{badge_class, display, raw_text, Column, Format};

fn el(doc: &Document, tag: &str) -> Element {
    doc.create_element(tag).expect("createElement of a known tag")
}

fn append(parent: &Element, child: &Element) {
    let _ = parent.append_child(child);
}

/// A `<span class=...>text</span>`.
fn span(doc: &Document, class: &str, text: &str) -> Element {
    let s = el(doc, "span");
    s.set_class_name(class);
    s.set_text_content(Some(text));
    s
}

/// One value as a person reads it, into `target` (a cell or a `<dd>`).
fn fill_value(doc: &Document, target: &Element, format: Format, v: &Value, in_drawer: bool) {
    match display(format, v) {
        None => {
            let nil = span(doc, "nil", "—");
            nil.set_attribute("title", "not given").ok();
            append(target, &nil);
        }
        Some(text) if format == Format::Badge => append(target, &span(doc, &badge_class(&raw_text(v)), &text)),
        Some(text) if format == Format::DateTime => {
            let raw = format!("{} UTC", raw_text(v));
            if in_drawer {
                target.set_text_content(Some(&text));
                append(target, &span(doc, "muted raw", &raw));
            } else {
                target.set_text_content(Some(&text));
                target.set_attribute("title", &raw).ok();
            }
        }
        Some(text) => target.set_text_content(Some(&text)),
    }
}

/// Replaces `tbody`'s rows with `records` (the visible `columns`): the first row is the tab
/// stop, each row carries its index (`data-row`) and its key (`data-id`).
pub fn fill_rows(tbody: &Element, records: &[Value], columns: &[&'static Column], row_key: &str) {
    let doc = document();
    let rows = doc.create_document_fragment();
    for (i, record) in records.iter().enumerate() {
        let tr = el(&doc, "tr");
        tr.set_attribute("data-row", &i.to_string()).ok();
        tr.set_attribute("data-id", &raw_text(&record[row_key])).ok();
        tr.set_attribute("tabindex", if i == 0 { "0" } else { "-1" }).ok();
        for c in columns {
            let td = el(&doc, "td");
            td.set_attribute("data-key", c.key).ok();
            let class = c.cell_class();
            if !class.is_empty() {
                td.set_class_name(class);
            }
            fill_value(&doc, &td, c.format, &record[c.key], false);
            append(&tr, &td);
        }
        let _ = rows.append_child(&tr);
    }
    tbody.replace_children_with_node_1(&rows);
}

/// Grey placeholder rows in the table's shape while the first page loads.
pub fn fill_skeleton(tbody: &Element, rows: u32, columns: usize) {
    let doc = document();
    let frag = doc.create_document_fragment();
    for _ in 0..rows {
        let tr = el(&doc, "tr");
        tr.set_class_name("skeleton-row");
        tr.set_attribute("aria-hidden", "true").ok();
        for _ in 0..columns {
            let td = el(&doc, "td");
            append(&td, &span(&doc, "skeleton", ""));
            append(&tr, &td);
        }
        let _ = frag.append_child(&tr);
    }
    tbody.replace_children_with_node_1(&frag);
}

/// Every field of `record` into the `<dl>`: the columns' fields first (with their labels and
/// formats), then any other field by its name; nested objects as nested lists.
pub fn fill_fields(dl: &Element, columns: &[Column], record: &Value) {
    let doc = document();
    for c in columns {
        field(&doc, dl, c.label, c.key, c.format, &record[c.key]);
    }
    if let Some(map) = record.as_object() {
        for (k, v) in map.iter().filter(|(k, _)| !columns.iter().any(|c| c.key == k.as_str())) {
            field(&doc, dl, k, k, Format::Text, v);
        }
    }
}

fn field(doc: &Document, dl: &Element, label: &str, key: &str, format: Format, v: &Value) {
    let dt = el(doc, "dt");
    dt.set_text_content(Some(label));
    let dd = el(doc, "dd");
    dd.set_attribute("data-key", key).ok();
    match v {
        Value::Object(map) => {
            let inner = el(doc, "dl");
            inner.set_class_name("record-fields nested");
            for (k, v) in map {
                field(doc, &inner, k, k, Format::Text, v);
            }
            append(&dd, &inner);
        }
        Value::Array(list) => {
            let ol = el(doc, "ol");
            ol.set_class_name("record-list");
            for v in list {
                let li = el(doc, "li");
                fill_value(doc, &li, Format::Text, v, true);
                append(&ol, &li);
            }
            append(&dd, &ol);
        }
        _ => {
            if format == Format::Mono {
                dd.set_class_name("mono");
            }
            fill_value(doc, &dd, format, v, true);
        }
    }
    append(dl, &dt);
    append(dl, &dd);
}

fn document() -> Document {
    leptos::prelude::document()
}
