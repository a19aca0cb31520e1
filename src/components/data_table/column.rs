//! What a table shows: columns (key, label, format), filters, and how one JSON value becomes
//! the text of a cell. Pure functions, except dates (`crate::format`), which are shown in the
//! user's locale and time zone.

use serde_json::Value;

use crate::format::{format_date, format_date_time};

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
    /// API value → text for people; unknown values are shown as they are.
    Label(&'static [(&'static str, &'static str)]),
    Bool,
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
        Format::Label(labels) => labels.iter().find(|(k, _)| *k == raw).map(|(_, l)| l.to_string()),
        Format::Bool => v.as_bool().map(|b| if b { "Yes" } else { "No" }.to_string()),
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

/// `1284350.27` → `$1,284,350.27`, `-5` → `-$5.00`, `0.5` → `$0.50`: digits are grouped from
/// the decimal text itself (never a float), at least two decimals, all given decimals kept.
/// `None` when the text is not a plain decimal.
pub fn format_money(s: &str) -> Option<String> {
    let s = s.trim();
    let (neg, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !all_digits(int) || !all_digits(frac) || (digits.contains('.') && frac.is_empty()) {
        return None;
    }
    let int = int.trim_start_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    let mut out = String::with_capacity(int.len() + int.len() / 3 + frac.len() + 4);
    let is_zero = int == "0" && frac.bytes().all(|b| b == b'0');
    if neg && !is_zero {
        out.push('-');
    }
    out.push('$');
    out.push_str(&crate::format::thousands(int));
    out.push('.');
    out.push_str(frac);
    for _ in frac.len()..2 {
        out.push('0');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn money_is_grouped_from_the_decimal_text() {
        assert_eq!(format_money("1284350.27").as_deref(), Some("$1,284,350.27"));
        assert_eq!(format_money("1000").as_deref(), Some("$1,000.00"));
        assert_eq!(format_money("999.5").as_deref(), Some("$999.50"));
        assert_eq!(format_money("0.125").as_deref(), Some("$0.125"), "every given decimal is kept");
        assert_eq!(format_money("-1234567.00").as_deref(), Some("-$1,234,567.00"));
        assert_eq!(format_money("-0.00").as_deref(), Some("$0.00"));
        assert_eq!(format_money("007").as_deref(), Some("$7.00"));
        // Past f64's exact range: still exact.
        assert_eq!(format_money("12345678901234567890.01").as_deref(), Some("$12,345,678,901,234,567,890.01"));
        for bad in ["", "abc", "1.2.3", "1e5", "12.", ".5", "1,000", "--1"] {
            assert_eq!(format_money(bad), None, "{bad:?}");
        }
    }

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
