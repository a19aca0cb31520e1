//! The repeated parts: rows and cells (as one escaped HTML string), skeleton rows and
//! the drawer's fields. Up to 500 rows × every column is where the time and the wasm size
//! would go with one generic view type per cell kind, so this stays a few small loops.

use serde_json::Value;
use web_sys::{Document, Element};

use super::bulk::{badge, Ran};
use super::column::{badge_class, display, raw_text, Column, Format};
use crate::components::selection::Selection;
use crate::i18n::components::text;

/// What a table with bulk actions adds to each row: a box first (ticked when selected) and,
/// after a run, a last cell with the row's outcome.
#[derive(Clone, Copy)]
pub struct Marks<'a> {
    pub selection: &'a Selection,
    pub ran: Option<&'a Ran>,
}

impl Marks<'_> {
    /// How many cells a row has beyond the columns'.
    pub fn extra(marks: Option<&Marks>) -> usize {
        marks.map_or(0, |m| 1 + usize::from(m.ran.is_some()))
    }
}

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
fn fill_value(doc: &Document, target: &Element, format: Format, v: &Value) {
    match display(format, v) {
        None => {
            let nil = span(doc, "nil", "—");
            nil.set_attribute("title", text().table.not_given).ok();
            append(target, &nil);
        }
        Some(text) if format.is_badge() => append(target, &span(doc, &badge_class(&raw_text(v)), &text)),
        Some(text) if format == Format::DateTime => {
            target.set_text_content(Some(&text));
            append(target, &span(doc, "muted raw", &format!("{} UTC", raw_text(v))));
        }
        Some(text) => target.set_text_content(Some(&text)),
    }
}

/// `&`, `<`, `>`, `"` and `'` as entities: safe as text and inside a quoted attribute.
pub fn escape_into(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// The rows for `records` (the visible `columns`) as HTML, every value escaped; `records[0]` is
/// row `first` of the page (a window of it, windowing.rs). Each row carries its index on the
/// page (`data-row`), its position in the table for assistive technology (`aria-rowindex`:
/// the header row is 1) and its key (`data-id`); row `tab_stop` is the tab stop. One
/// `innerHTML` is far cheaper than a DOM call per cell. `marks`: see [`Marks`].
pub fn rows_html(
    records: &[Value],
    first: usize,
    columns: &[&'static Column],
    row_key: &str,
    tab_stop: usize,
    marks: Option<&Marks>,
) -> String {
    let mut out = String::with_capacity(records.len() * (columns.len() + Marks::extra(marks)) * 48);
    let t = &text().table;
    for (i, record) in (first..).zip(records) {
        let id = raw_text(&record[row_key]);
        out.push_str("<tr data-row=\"");
        out.push_str(&i.to_string());
        out.push_str("\" aria-rowindex=\"");
        out.push_str(&(i + 2).to_string());
        out.push_str("\" data-id=\"");
        escape_into(&mut out, &id);
        let ticked = marks.is_some_and(|m| m.selection.contains(&id));
        if ticked {
            out.push_str("\" class=\"selected");
        }
        out.push_str(if i == tab_stop { "\" tabindex=\"0\">" } else { "\" tabindex=\"-1\">" });
        if marks.is_some() {
            out.push_str("<td class=\"select\"><input type=\"checkbox\" data-select aria-label=\"");
            escape_into(&mut out, &crate::i18n::fill(t.select_row, &[&id]));
            out.push_str(if ticked { "\" checked></td>" } else { "\"></td>" });
        }
        for c in columns {
            let v = &record[c.key];
            out.push_str("<td data-key=\"");
            out.push_str(c.key);
            out.push('"');
            let class = c.cell_class();
            if !class.is_empty() {
                out.push_str(" class=\"");
                out.push_str(class);
                out.push('"');
            }
            match display(c.format, v) {
                None => {
                    out.push_str("><span class=\"nil\" title=\"");
                    out.push_str(t.not_given);
                    out.push_str("\">—</span>");
                }
                Some(text) => {
                    if c.format == Format::DateTime {
                        out.push_str(" title=\"");
                        escape_into(&mut out, &raw_text(v));
                        out.push_str(" UTC\"");
                    }
                    out.push('>');
                    if c.format.is_badge() {
                        out.push_str("<span class=\"");
                        escape_into(&mut out, &badge_class(&raw_text(v)));
                        out.push_str("\">");
                        escape_into(&mut out, &text);
                        out.push_str("</span>");
                    } else {
                        escape_into(&mut out, &text);
                    }
                }
            }
            out.push_str("</td>");
        }
        if let Some(ran) = marks.and_then(|m| m.ran) {
            out.push_str("<td class=\"bulk-outcome-cell\">");
            if let Some((class, text)) = ran.item(&id).map(badge) {
                out.push_str("<span class=\"");
                out.push_str(class);
                out.push_str("\">");
                escape_into(&mut out, &text);
                out.push_str("</span>");
            }
            out.push_str("</td>");
        }
        out.push_str("</tr>");
    }
    out
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
                fill_value(doc, &li, Format::Text, v);
                append(&ol, &li);
            }
            append(&dd, &ol);
        }
        _ => {
            if format == Format::Mono {
                dd.set_class_name("mono");
            }
            fill_value(doc, &dd, format, v);
        }
    }
    append(dl, &dt);
    append(dl, &dd);
}

fn document() -> Document {
    leptos::prelude::document()
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    const COLS: &[Column] = &[
        Column::new("id", "Id", Format::Mono),
        Column::new("name", "Name", Format::Text),
        Column::new("status", "Status", Format::Badge),
        Column::new("note", "Note", Format::Text),
    ];

    #[wasm_bindgen_test]
    fn rows_are_escaped_html() {
        let cols: Vec<&'static Column> = COLS.iter().collect();
        let records = [
            json!({"id": "a\"1", "name": "<img src=x onerror=alert(1)>", "status": "Act\"ive<", "note": null}),
            json!({"id": 2, "name": "Smith & 'Sons'", "status": "Closed", "note": "x"}),
            json!({"id": 3, "name": "c", "status": "Active", "note": "y"}),
        ];
        let html = rows_html(&records, 0, &cols, "id", 0, None);
        assert!(
            html.starts_with(
                r#"<tr data-row="0" aria-rowindex="2" data-id="a&quot;1" tabindex="0"><td data-key="id" class="mono">a&quot;1</td>"#
            ),
            "{html}"
        );
        assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
        assert!(html.contains(r#"<span class="badge badge-act-ive-">Act&quot;ive&lt;</span>"#), "{html}");
        assert!(html.contains(r#"<td data-key="note"><span class="nil" title="not given">—</span></td>"#));
        assert!(html.contains("Smith &amp; &#39;Sons&#39;"));
        assert!(html.contains(r#"<tr data-row="2" aria-rowindex="4" data-id="3" tabindex="-1">"#));
        // A window of a page: indices and positions from its first row; the tab stop inside.
        let window = rows_html(&records[1..], 200, &cols, "id", 201, None);
        assert!(window.starts_with(r#"<tr data-row="200" aria-rowindex="202" data-id="2" tabindex="-1">"#), "{window}");
        assert!(window.contains(r#"<tr data-row="201" aria-rowindex="203" data-id="3" tabindex="0">"#), "{window}");
        // Parsed by the browser, the hostile name is text, not an element.
        let tbody = leptos::prelude::document().create_element("tbody").unwrap();
        tbody.set_inner_html(&html);
        assert!(tbody.query_selector("img").unwrap().is_none());
        assert_eq!(
            tbody.query_selector("td[data-key=name]").unwrap().unwrap().text_content().unwrap(),
            "<img src=x onerror=alert(1)>"
        );
        assert_eq!(rows_html(&[], 0, &cols, "id", 0, None), "");
    }

    #[wasm_bindgen_test]
    fn a_bulk_table_row_has_its_box_and_after_a_run_its_outcome() {
        use crate::components::data_table::bulk::BulkAction;
        use moneydesk_model::bulk::{BulkItem, BulkResult};

        let cols: Vec<&'static Column> = COLS[..2].iter().collect();
        let records =
            [json!({"id": "7", "name": "a"}), json!({"id": "8", "name": "b"}), json!({"id": "<9>", "name": "c"})];
        let mut selection = Selection::default();
        selection.toggle(1, "8");
        let marks = Marks { selection: &selection, ran: None };
        let html = rows_html(&records, 0, &cols, "id", 0, Some(&marks));
        assert!(
            html.starts_with(r#"<tr data-row="0" aria-rowindex="2" data-id="7" tabindex="0"><td class="select"><input type="checkbox" data-select aria-label="Select 7"></td><td data-key="id""#),
            "{html}"
        );
        assert!(html.contains(r#"data-id="8" class="selected" tabindex="-1"><td class="select"><input type="checkbox" data-select aria-label="Select 8" checked></td>"#), "{html}");
        assert!(html.contains(r#"aria-label="Select &lt;9&gt;""#), "{html}");
        assert!(!html.contains("bulk-outcome"), "no outcome cell before a run");

        let result = BulkResult::new(
            "confirm",
            vec![BulkItem::done("7"), BulkItem::refused("8", "invalid_state", "It was <sent>.")],
        );
        let ran = Ran::new(BulkAction::new("confirm", "Confirm", "confirmed"), result);
        let html = rows_html(&records, 0, &cols, "id", 0, Some(&Marks { selection: &selection, ran: Some(&ran) }));
        assert!(
            html.contains(
                r#"<td class="bulk-outcome-cell"><span class="bulk-outcome badge badge-done">Done</span></td></tr>"#
            ),
            "{html}"
        );
        assert!(
            html.contains(r#"<span class="bulk-outcome badge badge-refused">Refused: It was &lt;sent&gt;.</span>"#),
            "{html}"
        );
        assert!(
            html.ends_with(r#"<td class="bulk-outcome-cell"></td></tr>"#),
            "a row the answer does not name: an empty cell"
        );
    }
}
