//! The little CSV the bulk check needs: read routing numbers from a pasted list or an uploaded
//! file, write the results (cells defused by `components::download`) and hand the file over.

use crate::components::download::{self, csv_cell as cell};

/// RFC 4180 records: quoted fields with `""`, LF or CRLF line ends, a leading BOM ignored.
/// The delimiter is `,`, or `;` / tab when the first line has one of those and no comma.
pub fn parse(text: &str) -> Vec<Vec<String>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first_line = text.lines().next().unwrap_or("");
    let delim = if first_line.contains(',') {
        ','
    } else if first_line.contains(';') {
        ';'
    } else if first_line.contains('\t') {
        '\t'
    } else {
        ','
    };
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.trim().is_empty() => {
                field.clear();
                quoted = true;
            }
            (false, c) if c == delim => row.push(std::mem::take(&mut field)),
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n' | '\r') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
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
    let clean = |s: &str| s.trim().trim_start_matches('\'').trim().to_string();
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
    download::save(&parts, file_name, download::CSV).map_err(|e| format!("the browser refused the download: {e:?}"))
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn parses_quotes_crlf_and_other_delimiters() {
        let rows = parse("\u{feff}a,\"b, \"\"c\"\"\",d\r\n1,\"x\ny\",3\n\n");
        assert_eq!(rows[0], ["a", "b, \"c\"", "d"]);
        assert_eq!(rows[1], ["1", "x\ny", "3"]);
        assert_eq!(rows[2], [""]);
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
