//! CSV for the export: the header and the lines of a page of records, CRLF line ends, each
//! cell quoted and defused by `components::download::csv_cell`.

use serde_json::Value;

use super::column::{raw_text, Column};
use crate::components::download::csv_cell as cell;

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
