//! CSV for the export: RFC 4180 quoting, CRLF line ends, and cells that a spreadsheet would
//! run as a formula (`= + - @`, or a leading tab / carriage return) defused with a `'`.

use serde_json::Value;

use super::column::{raw_text, Column};

/// One cell, safe to open in a spreadsheet.
pub fn cell(text: &str) -> String {
    let defused = match text.as_bytes().first() {
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r') => format!("'{text}"),
        _ => text.to_string(),
    };
    if defused.contains(['"', ',', '\n', '\r']) {
        format!("\"{}\"", defused.replace('"', "\"\""))
    } else {
        defused
    }
}

/// The header line: the columns' keys (the API's field names, as the import CLI reads them).
pub fn header(columns: &[Column]) -> String {
    let mut line = columns.iter().map(|c| cell(c.key)).collect::<Vec<_>>().join(",");
    line.push_str("\r\n");
    line
}

/// The lines of a page of records: raw API values, in the order of `columns`.
pub fn rows(columns: &[Column], records: &[Value]) -> String {
    let mut out = String::new();
    for record in records {
        for (i, c) in columns.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&cell(&raw_text(&record[c.key])));
        }
        out.push_str("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::components::data_table::column::Format;

    #[wasm_bindgen_test]
    fn formulas_are_defused() {
        assert_eq!(cell("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"");
        assert_eq!(cell("+1"), "'+1");
        assert_eq!(cell("-2+3"), "'-2+3");
        assert_eq!(cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(cell("\tcmd"), "'\tcmd");
        assert_eq!(cell("\rcmd"), "\"'\rcmd\"", "a carriage return also needs quotes");
        assert_eq!(cell("a=b"), "a=b", "only a leading sign is a formula");
        assert_eq!(cell(""), "");
    }

    #[wasm_bindgen_test]
    fn quoting_follows_rfc_4180() {
        assert_eq!(cell("plain text"), "plain text");
        assert_eq!(cell("Smith, Jones LLC"), "\"Smith, Jones LLC\"");
        assert_eq!(cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(cell("two\nlines"), "\"two\nlines\"");
        assert_eq!(cell("Café ✓"), "Café ✓");
    }

    #[wasm_bindgen_test]
    fn records_become_lines_in_column_order() {
        const COLS: &[Column] = &[
            Column::new("id", "Id", Format::Mono),
            Column::new("accountName", "Name", Format::Text),
            Column::new("marketValue", "Value", Format::Money),
            Column::new("active", "Active", Format::Bool),
        ];
        assert_eq!(header(COLS), "id,accountName,marketValue,active\r\n");
        let records = [
            json!({"id": "a1", "accountName": "=cmd|' /C calc'!A0", "marketValue": "1284350.27", "active": true}),
            json!({"id": 7, "accountName": "Smith, \"Bo\"", "marketValue": null}),
        ];
        assert_eq!(rows(COLS, &records), "a1,'=cmd|' /C calc'!A0,1284350.27,true\r\n7,\"Smith, \"\"Bo\"\"\",,\r\n");
    }
}
