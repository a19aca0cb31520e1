//! The table's controls, built once with DOM calls when the table mounts: the filters, the
//! column chooser, the export control, the table and the pager. Events reach them through a
//! few handlers on the table's root (events.rs); their state is written by sync.rs. Built by
//! hand because one generic view type per control cost more wasm than the rest of the table.

use std::time::Duration;

use leptos::prelude::{request_animation_frame, request_idle_callback_with_handle, set_timeout, WithUntracked};
use wasm_bindgen::JsCast;
use web_sys::{Document, Element};

use super::action::{Action, ATTR};
use super::column::{Column, FilterKind};
use super::ctx::Ctx;
use super::state::PAGE_SIZES;
use crate::i18n::components::text;
use crate::i18n::fill;
use crate::i18n::vocab::say;

/// `<tag attr=value ...>text</tag>`.
pub fn el(doc: &Document, tag: &str, attrs: &[(&str, &str)], text: &str) -> Element {
    let e = doc.create_element(tag).expect("createElement of a known tag");
    for (k, v) in attrs {
        let _ = e.set_attribute(k, v);
    }
    if !text.is_empty() {
        e.set_text_content(Some(text));
    }
    e
}

/// Appends `children` to `parent` and returns `parent`.
pub fn with(parent: Element, children: &[&Element]) -> Element {
    for c in children {
        let _ = parent.append_child(c);
    }
    parent
}

/// The toolbar (filters, columns, export) and the live region, into `top`.
pub fn top(doc: &Document, top: &Element, ctx: Ctx) {
    let (id, t) = (ctx.id, &text().table);
    let form = el(
        doc,
        "form",
        &[("class", "table-filters"), ("role", "search"), ("aria-label", &fill(t.filter_noun, &[ctx.noun()]))],
        "",
    );
    if ctx.filters.is_empty() {
        let _ = form.set_attribute("hidden", "");
    }
    for f in ctx.filters {
        let fid = format!("{id}-filter-{}", f.param);
        let control = match f.kind {
            FilterKind::Select(options) => {
                let select = el(doc, "select", &[("id", &fid), ("data-filter", f.param)], "");
                let _ = select.append_child(&el(doc, "option", &[("value", "")], t.any));
                for (value, label) in options {
                    let _ = select.append_child(&el(doc, "option", &[("value", value)], say(label)));
                }
                select
            }
            FilterKind::Text { placeholder } => el(
                doc,
                "input",
                &[
                    ("type", "search"),
                    ("id", &fid),
                    ("data-filter", f.param),
                    ("placeholder", placeholder),
                    ("autocomplete", "off"),
                ],
                "",
            ),
            FilterKind::Date => el(
                doc,
                "input",
                &[
                    ("type", "text"),
                    ("id", &fid),
                    ("data-filter", f.param),
                    (DATE, ""),
                    ("placeholder", t.date_hint),
                    ("autocomplete", "off"),
                ],
                "",
            ),
        };
        let class = match f.kind {
            FilterKind::Date => "filter filter-date",
            _ => "filter",
        };
        let label = el(doc, "label", &[("for", &fid)], f.label);
        let _ = form.append_child(&with(el(doc, "div", &[("class", class)], ""), &[&label, &control]));
    }
    let clear = el(
        doc,
        "button",
        &[("type", "button"), ("class", "button clear-filters"), (ATTR, Action::Clear.as_str())],
        t.clear,
    );
    let _ = form.append_child(&clear);

    let fieldset =
        with(el(doc, "fieldset", &[], ""), &[&el(doc, "legend", &[("class", "sr-only")], t.columns_to_show)]);
    for c in ctx.columns {
        let check = el(doc, "input", &[("type", "checkbox"), ("value", c.key), ("data-column", c.key)], "");
        let label = with(el(doc, "label", &[("class", "check")], ""), &[&check]);
        let _ = label.append_with_str_1(c.label);
        let _ = fieldset.append_child(&label);
    }
    let chooser = with(
        el(doc, "details", &[("class", "column-chooser")], ""),
        &[&el(doc, "summary", &[("class", "button")], t.columns), &fieldset],
    );

    let progress_id = format!("{id}-export-progress");
    let export = el(
        doc,
        "button",
        &[
            ("type", "button"),
            ("class", "button"),
            ("id", &format!("{id}-export")),
            (ATTR, Action::Export.as_str()),
            ("disabled", ""),
        ],
        t.export_csv,
    );
    let progress = with(
        el(doc, "div", &[("class", "export-progress"), ("hidden", "")], ""),
        &[
            &el(doc, "label", &[("for", &progress_id)], ""),
            &el(doc, "progress", &[("id", &progress_id), ("max", "1"), ("value", "0")], ""),
            &el(
                doc,
                "button",
                &[
                    ("type", "button"),
                    ("class", "button"),
                    ("id", &format!("{id}-export-cancel")),
                    (ATTR, Action::Cancel.as_str()),
                ],
                t.cancel,
            ),
        ],
    );
    let actions = with(el(doc, "div", &[("class", "table-actions")], ""), &[&chooser, &export, &progress]);
    crate::components::saved_views::mount(&actions, ctx);
    let toolbar = with(el(doc, "div", &[("class", "table-toolbar")], ""), &[&form, &actions]);
    let status = el(doc, "p", &[("class", "sr-only"), ("aria-live", "polite"), ("data-part", "status")], "");
    let _ = top.append_child(&toolbar);
    let _ = top.append_child(&status);
    if ctx.filters.iter().any(|f| matches!(f.kind, FilterKind::Date)) {
        become_date_inputs(form);
    }
}

/// Marks a date filter's input, a text input until [`become_date_inputs`].
const DATE: &str = "data-date";

/// The date filters become date inputs when the browser is next idle after the first frame
/// (a frame's idle period follows its paint; Safari has no `requestIdleCallback`: the next
/// task), in the same box (table.css sizes it for the browser's mm/dd/yyyy): a browser builds
/// a date input's fields and calendar button from the locale's date format, 2–3 ms each on
/// creating it and more in the style and layout of the frame that first shows it, which the
/// first rows waited for (bench/peer/results/README.md, 27). Until then a value from the URL
/// shows as the API writes it (2024-01-31).
fn become_date_inputs(form: Element) {
    let upgrade = move || {
        let Ok(inputs) = form.query_selector_all(&format!("input[{DATE}]")) else { return };
        for i in 0..inputs.length() {
            if let Some(input) = inputs.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                let _ = input.set_attribute("type", "date");
                let _ = input.remove_attribute("placeholder");
            }
        }
    };
    request_animation_frame(move || {
        if request_idle_callback_with_handle(upgrade.clone()).is_err() {
            set_timeout(upgrade, Duration::ZERO);
        }
    });
}

/// The idle and empty states, the table and the pager, into `main`.
pub fn main(doc: &Document, main: &Element, ctx: Ctx, caption: &str, idle: &str) {
    let id = ctx.id;
    let (hint_id, caption_id) = (format!("{id}-hint"), format!("{id}-caption"));
    let idle = el(doc, "p", &[("class", "table-state"), ("data-testid", "table-idle"), ("hidden", "")], idle);
    let empty = with(
        el(
            doc,
            "div",
            &[("class", "table-state table-empty"), ("data-testid", "table-empty"), ("role", "status"), ("hidden", "")],
            "",
        ),
        &[&el(doc, "p", &[], ""), &el(doc, "button", &[("type", "button"), ("class", "button")], "")],
    );
    let hint = el(doc, "p", &[("class", "sr-only"), ("id", &hint_id)], text().table.keys_hint);
    let table = with(
        el(
            doc,
            "table",
            &[
                ("id", &format!("{id}-table")),
                ("class", "data-table"),
                ("aria-busy", "true"),
                ("aria-describedby", &hint_id),
            ],
            "",
        ),
        &[
            &el(doc, "caption", &[("class", "sr-only"), ("id", &caption_id), ("data-caption", caption)], caption),
            &with(el(doc, "thead", &[], ""), &[&el(doc, "tr", &[("aria-rowindex", "1")], "")]),
            &el(doc, "tbody", &[], ""),
        ],
    );
    let scroll = with(
        el(
            doc,
            "div",
            &[("class", "table-scroll"), ("role", "region"), ("aria-labelledby", &caption_id), ("tabindex", "0")],
            "",
        ),
        &[&table],
    );
    let _ = main.append_child(&idle);
    let _ = main.append_child(&empty);
    let _ = main.append_child(&hint);
    let _ = main.append_child(&scroll);
    let _ = main.append_child(&pager(doc, ctx));
}

fn pager(doc: &Document, ctx: Ctx) -> Element {
    let (id, t) = (ctx.id, &text().table);
    let (size_id, jump_id) = (format!("{id}-size"), format!("{id}-jump"));
    let select = el(doc, "select", &[("id", &size_id), (ATTR, Action::Size.as_str())], "");
    for s in PAGE_SIZES {
        let s = s.to_string();
        let _ = select.append_child(&el(doc, "option", &[("value", &s)], &s));
    }
    // A button with words ("‹ Prev") is named by them: an aria-label that does not contain the
    // visible words ("Previous page") fails axe-core 4.11+'s label-content-name-mismatch, and
    // a voice user says what they see. The « and » buttons have no words, so a label.
    let button = |page: &str, label: &str, text: &str, worded: bool| {
        let named: &[(&str, &str)] = if worded { &[] } else { &[("aria-label", label)] };
        let attrs = [&[("type", "button"), ("class", "button"), ("data-page", page), ("title", label)], named].concat();
        el(doc, "button", &attrs, text)
    };
    let jump = with(
        el(doc, "form", &[("class", "jump"), (ATTR, Action::Jump.as_str())], ""),
        &[
            &el(doc, "label", &[("for", &jump_id)], t.page),
            &el(doc, "input", &[("type", "number"), ("id", &jump_id), ("min", "1"), ("inputmode", "numeric")], ""),
            &el(doc, "span", &[("class", "of")], ""),
            &el(doc, "button", &[("type", "submit"), ("class", "button")], t.go),
        ],
    );
    let buttons = with(
        el(doc, "span", &[("class", "pager-buttons")], ""),
        &[
            &button("first", t.first_page, "«", false),
            &button("prev", t.previous_page, t.prev, true),
            &jump,
            &button("next", t.next_page, t.next, true),
            &button("last", t.last_page, "»", false),
        ],
    );
    with(
        el(doc, "nav", &[("class", "pager"), ("aria-label", &fill(t.pages_of, &[ctx.noun()]))], ""),
        &[
            &el(doc, "span", &[("class", "table-total")], ""),
            &with(
                el(doc, "span", &[("class", "page-size")], ""),
                &[&el(doc, "label", &[("for", &size_id)], t.rows_per_page), &select],
            ),
            &buttons,
        ],
    )
}

/// The header row for the visible columns; sortable ones get a button (`data-sort`). A bulk
/// table's header starts with the page's box and, after a run, ends with "Outcome".
pub fn header(doc: &Document, tr: &Element, columns: &[&'static Column], ctx: Ctx) {
    let (cells, t) = (doc.create_document_fragment(), &text().table);
    if ctx.selectable() {
        let label = fill(t.select_page, &[ctx.noun()]);
        let check = el(doc, "input", &[("type", "checkbox"), ("data-select-page", ""), ("aria-label", &label)], "");
        let _ = cells.append_child(&with(el(doc, "th", &[("scope", "col"), ("class", "select")], ""), &[&check]));
    }
    for c in columns {
        let class = c.cell_class();
        let th = el(doc, "th", &[("scope", "col"), ("data-key", c.key)], "");
        if !class.is_empty() {
            th.set_class_name(class);
        }
        match c.sort {
            None => th.set_text_content(Some(c.label)),
            Some(field) => {
                let button = el(doc, "button", &[("type", "button"), ("class", "sort"), ("data-sort", field)], c.label);
                let _ = button.append_child(&el(doc, "span", &[("class", "sort-icon"), ("aria-hidden", "true")], "↕"));
                let _ = th.append_child(&button);
            }
        }
        let _ = cells.append_child(&th);
    }
    if ctx.selectable() && ctx.ran.with_untracked(Option::is_some) {
        let _ = cells.append_child(&el(doc, "th", &[("scope", "col"), ("class", "bulk-outcome-cell")], t.outcome));
    }
    tr.replace_children_with_node_1(&cells);
}
