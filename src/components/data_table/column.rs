//! What a table shows: columns (key, label, format), filters, and how one JSON value becomes
//! the text of a cell. Pure functions, except dates (`crate::format`), which are shown in the
//! user's locale and time zone.

use serde_json::Value;

use crate::format::{format_date, format_date_time, format_money};
use crate::i18n::vocab::say;

/// How a column's values are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    /// Ids and codes, in a monospace font.
    Mono,
    /// Right-aligned number, as the API wrote it.
    Number,
    /// US dollars from a decimal string (or JSON number): `$1,284,350.27`.
    Money,
    /// ISO 8601 date-time; zone-less means UTC. Shown in the user's locale and zone.
    DateTime,
    /// A calendar date (`YYYY-MM-DD` or `YYYYMMDD`), shown in the user's locale, no zone shift.
    Date,
    /// A status pill, `badge badge-<lowercased value>`.
    Badge,
    /// API value → text for people, from a model vocabulary's `OPTIONS` (its labels said in
    /// the portal's language, `i18n::vocab::say`); unknown values are shown as they are.
    Label(&'static [(&'static str, &'static str)]),
    /// A status pill (as `Badge`) showing the value's label (as `Label`).
    LabelBadge(&'static [(&'static str, &'static str)]),
    Bool,
}

impl Format {
    /// Shown as a status pill, `badge badge-<value>`.
    pub fn is_badge(self) -> bool {
        matches!(self, Format::Badge | Format::LabelBadge(_))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// The record's JSON field (also the CSV header and `data-key`).
    pub key: &'static str,
    pub label: &'static str,
    pub format: Format,
    /// The API's sort field, when the column can be sorted.
    pub sort: Option<&'static str>,
    /// Hidden until chosen in the column chooser (always in the drawer and the CSV).
    pub hidden: bool,
}

impl Column {
    pub const fn new(key: &'static str, label: &'static str, format: Format) -> Column {
        Column { key, label, format, sort: None, hidden: false }
    }

    /// Sortable by the field of the same name.
    pub const fn sortable(self) -> Column {
        self.sort_by(self.key)
    }

    pub const fn sort_by(mut self, field: &'static str) -> Column {
        self.sort = Some(field);
        self
    }

    pub const fn hidden(mut self) -> Column {
        self.hidden = true;
        self
    }

    /// Extra CSS class of the cell.
    pub fn cell_class(&self) -> &'static str {
        match self.format {
            Format::Number | Format::Money => "num",
            Format::Mono => "mono",
            Format::DateTime | Format::Date => "nowrap",
            _ => "",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterKind {
    Text {
        placeholder: &'static str,
    },
    /// The values and their labels (a model vocabulary's `OPTIONS`, or the page's own words),
    /// each label said through `i18n::vocab::say`.
    Select(&'static [(&'static str, &'static str)]),
    /// `<input type=date>`: `YYYY-MM-DD`.
    Date,
}

/// A filter above the table: `param` is both the URL's and the API's query parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FilterDef {
    pub param: &'static str,
    pub label: &'static str,
    pub kind: FilterKind,
}

impl FilterDef {
    pub const fn text(param: &'static str, label: &'static str, placeholder: &'static str) -> FilterDef {
        FilterDef { param, label, kind: FilterKind::Text { placeholder } }
    }

    pub const fn select(
        param: &'static str,
        label: &'static str,
        options: &'static [(&'static str, &'static str)],
    ) -> FilterDef {
        FilterDef { param, label, kind: FilterKind::Select(options) }
    }

    pub const fn date(param: &'static str, label: &'static str) -> FilterDef {
        FilterDef { param, label, kind: FilterKind::Date }
    }
}

/// The value as the API wrote it, for the CSV and titles: strings as they are, `null` empty,
/// nested values as compact JSON.
pub fn raw_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
    }
}

/// The text a person reads in a cell; `None` for a missing value (shown as a dash).
pub fn display(format: Format, v: &Value) -> Option<String> {
    if v.is_null() {
        return None;
    }
    let raw = raw_text(v);
    let shown = match format {
        Format::Money => format_money(&raw),
        Format::DateTime => format_date_time(&raw),
        Format::Date => format_date(&raw),
        Format::Label(labels) | Format::LabelBadge(labels) => {
            labels.iter().find(|(k, _)| *k == raw).map(|(_, l)| say(l).to_string())
        }
        Format::Bool => v.as_bool().map(|b| {
            let t = &crate::i18n::components::text().table;
            if b { t.yes } else { t.no }.to_string()
        }),
        Format::Badge => Some(raw.replace('_', " ")),
        _ => None,
    };
    Some(shown.unwrap_or(raw))
}

/// `badge badge-<value>`, the value lowercased with anything but letters and digits as `-`.
pub fn badge_class(raw: &str) -> String {
    let mut class = String::from("badge badge-");
    class.extend(raw.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }));
    class
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn cells_format_by_kind() {
        assert_eq!(display(Format::Money, &json!("1284350.27")).as_deref(), Some("$1,284,350.27"));
        assert_eq!(display(Format::Money, &json!(12.5)).as_deref(), Some("$12.50"));
        assert_eq!(display(Format::Money, &json!(null)), None);
        assert_eq!(display(Format::Money, &json!("n/a")).as_deref(), Some("n/a"), "odd values shown as they are");
        const TYPES: &[(&str, &str)] = &[("Corporate_Client", "Corporate client")];
        assert_eq!(display(Format::Label(TYPES), &json!("Corporate_Client")).as_deref(), Some("Corporate client"));
        assert_eq!(display(Format::Label(TYPES), &json!("Other")).as_deref(), Some("Other"));
        assert_eq!(display(Format::Bool, &json!(true)).as_deref(), Some("Yes"));
        assert_eq!(display(Format::Number, &json!(17)).as_deref(), Some("17"));
        assert_eq!(display(Format::Badge, &json!("In_Progress_1")).as_deref(), Some("In Progress 1"));
        assert_eq!(badge_class("In_Progress_1"), "badge badge-in-progress-1");
        assert_eq!(raw_text(&json!({"a": 1})), r#"{"a":1}"#);
        assert_eq!(display(Format::DateTime, &json!("garbage")).as_deref(), Some("garbage"));
        assert_eq!(
            display(Format::Date, &json!("2024-02-30")).as_deref(),
            Some("2024-02-30"),
            "a day that does not exist"
        );
    }
}
