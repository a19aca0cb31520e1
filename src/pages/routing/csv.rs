//! The CSV the bulk check needs: read routing numbers from a pasted list or an uploaded file
//! (the `csv` crate reads it), write the results (cells defused by `components::download`) and
//! hand the file over.

use crate::components::download::{self, csv_cell as cell};
use crate::i18n::fill;

/// The records of a pasted list or file, read by the `csv` crate (RFC 4180: quoted fields
/// with `""`, LF or CRLF line ends, a leading BOM ignored; blank lines skipped; rows of any
/// length). The delimiter is `,`, or `;` / tab when the first line has one of those and no comma.
pub fn parse(text: &str) -> Vec<Vec<String>> {
    let first_line = text.lines().next().unwrap_or("");
    let delimiter = [b',', b';', b'\t'].into_iter().find(|&d| first_line.contains(d as char)).unwrap_or(b',');
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(text.as_bytes())
        .records()
        // Text in, so a record is never invalid UTF-8; and rows of any length are taken.
        .filter_map(Result::ok)
        .map(|r| r.iter().map(str::to_string).collect())
        .collect()
}

/// Whether a header cell names the routing-number column.
fn is_routing_header(cell: &str) -> bool {
    let k: String = cell.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
    k.contains("routing") || matches!(k.as_str(), "aba" | "abanumber" | "rtn" | "rt")
}

/// The routing numbers in a pasted list or CSV, in order. With a header row naming a routing
/// column (`routingNumber`, `Routing number`, `ABA`, ...), that column; else the first cell of
/// each row, where a row of plain text may hold several numbers separated by spaces.
/// An export of ours (cells starting with `'`) reads back the same.
pub fn routing_numbers(text: &str) -> Vec<String> {
    let rows = parse(text);
    let column = rows.first().and_then(|r| r.iter().position(|c| is_routing_header(c)));
    // A quote after a space is the cell's text to the reader (RFC 4180): dropped here with the
    // `'` of our exports.
    let clean = |s: &str| s.trim().trim_matches('"').trim_start_matches('\'').trim().to_string();
    match column {
        Some(col) => rows[1..].iter().filter_map(|r| r.get(col)).map(|c| clean(c)).filter(|c| !c.is_empty()).collect(),
        None => rows
            .iter()
            .filter_map(|r| r.iter().find(|c| !c.trim().is_empty()))
            .flat_map(|c| c.split_whitespace().map(clean).collect::<Vec<_>>())
            .filter(|c| !c.is_empty())
            .collect(),
    }
}

/// Rows to CSV text with CRLF line ends (RFC 4180).
pub fn write(rows: &[Vec<String>]) -> String {
    rows.iter().map(|r| r.iter().map(|c| cell(c)).collect::<Vec<_>>().join(",") + "\r\n").collect()
}

/// Hands `text` to the browser as a CSV file named `file_name`.
pub fn download(file_name: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&text.into());
    download::save(&parts, file_name, download::CSV)
        .map_err(|e| fill(crate::i18n::routing::text().download_refused, &[&format!("{e:?}")]))
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn parses_quotes_crlf_and_other_delimiters() {
        let rows = parse("\u{feff}a,\"b, \"\"c\"\"\",d\r\n1,\"x\ny\",3\n\nlast,row\n");
        assert_eq!(rows[0], ["a", "b, \"c\"", "d"]);
        assert_eq!(rows[1], ["1", "x\ny", "3"]);
        assert_eq!(rows[2], ["last", "row"], "a blank line is no row");
        assert_eq!(parse("a,b\n1\n"), vec![vec!["a", "b"], vec!["1"]], "rows of any length");
        assert_eq!(parse("a;b\n1;2"), vec![vec!["a", "b"], vec!["1", "2"]]);
        assert_eq!(parse("a\tb\n1\t2")[1], ["1", "2"]);
        assert_eq!(parse("last"), vec![vec!["last"]]);
    }

    #[wasm_bindgen_test]
    fn finds_the_routing_numbers() {
        assert_eq!(routing_numbers("011000015\n 021000021 \n\n12345"), ["011000015", "021000021", "12345"]);
        assert_eq!(routing_numbers("011000015 021000021\t\n"), ["011000015", "021000021"]);
        let csv = "Name,Routing Number,City\n\"Bank, N.A.\",011000015,Boston\nOther,'021000021,X\nNone,,Y\n";
        assert_eq!(routing_numbers(csv), ["011000015", "021000021"]);
        assert_eq!(routing_numbers("aba;amount\n011000015;3\n"), ["011000015"]);
        assert_eq!(routing_numbers("name, aba\nX, \"011000015\"\n"), ["011000015"]);
        assert_eq!(routing_numbers("011000015,Boston\n021000021,New York"), ["011000015", "021000021"]);
        assert!(routing_numbers("  \n").is_empty());
    }

    #[wasm_bindgen_test]
    fn cells_are_safe_and_quoted() {
        assert_eq!(cell("011000015"), "011000015");
        assert_eq!(cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(cell("+1"), "'+1");
        assert_eq!(cell("-2"), "'-2");
        assert_eq!(cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(cell("\tx"), "'\tx");
        assert_eq!(cell("BANK, N.A."), "\"BANK, N.A.\"");
        assert_eq!(cell("two\nlines"), "\"two\nlines\"");
        let text = write(&[vec!["a".into(), "b,c".into()], vec!["=1".into(), String::new()]]);
        assert_eq!(text, "a,\"b,c\"\r\n'=1,\r\n");
        // What we write reads back (the `'` guard is dropped by the reader for routing numbers).
        assert_eq!(parse(&text)[0], ["a", "b,c"]);
    }
}
