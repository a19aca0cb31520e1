//! Reading import files into records: CSV (a header row of the API's field names) or JSON
//! (an array of objects, or one object per line), each record with the line it starts on.

use std::collections::HashMap;
use std::fmt;

/// One problem of an imported file: its line, the field when one is to blame, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    pub line: usize,
    pub field: Option<String>,
    pub message: String,
}

impl ImportError {
    pub fn new(line: usize, field: Option<&str>, message: impl Into<String>) -> Self {
        ImportError { line, field: field.map(str::to_string), message: message.into() }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "line {}: {field}: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

#[derive(Debug)]
pub enum ImportFailure {
    /// The file has errors; nothing was written.
    Invalid(Vec<ImportError>),
    Db(sqlx::Error),
}

impl From<sqlx::Error> for ImportFailure {
    fn from(e: sqlx::Error) -> Self {
        ImportFailure::Db(e)
    }
}

use serde_json::value::RawValue;

/// One record's fields (absent, null and empty cells are left out), and its line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Record {
    pub line: usize,
    pub fields: HashMap<String, String>,
    /// Fields present but unreadable (already reported): not "missing" as well.
    pub bad: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Json,
}

impl Format {
    /// By the file's extension, else by its first character.
    pub fn detect(path: &std::path::Path, text: &str) -> Format {
        match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("csv") => Format::Csv,
            Some("json" | "jsonl" | "ndjson") => Format::Json,
            _ if matches!(text.trim_start_matches('\u{feff}').trim_start().chars().next(), Some('[' | '{')) => {
                Format::Json
            }
            _ => Format::Csv,
        }
    }
}

/// Reads every record it can, and an error for everything it cannot (with its line);
/// `known` are the field names a record may have.
pub fn read(text: &str, format: Format, known: &[&str]) -> (Vec<Record>, Vec<ImportError>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match format {
        Format::Csv => read_csv(text, known),
        Format::Json => read_json(text, known),
    }
}

fn read_csv(text: &str, known: &[&str]) -> (Vec<Record>, Vec<ImportError>) {
    let mut reader = csv::ReaderBuilder::new().has_headers(true).flexible(false).from_reader(text.as_bytes());
    let headers: Vec<String> = match reader.headers() {
        Ok(h) => h.iter().map(|s| s.trim().to_string()).collect(),
        Err(e) => return (Vec::new(), vec![ImportError::new(1, None, format!("cannot read the header row: {e}"))]),
    };
    let mut errors = Vec::new();
    for (i, h) in headers.iter().enumerate() {
        if !known.contains(&h.as_str()) {
            errors.push(ImportError::new(1, Some(h), format!("unknown column; known columns: {}", known.join(", "))));
        } else if headers[..i].contains(h) {
            errors.push(ImportError::new(1, Some(h), "column given twice"));
        }
    }
    if !errors.is_empty() {
        return (Vec::new(), errors);
    }
    let mut records = Vec::new();
    for result in reader.records() {
        match result {
            Ok(row) => {
                let line = row.position().map(|p| p.line() as usize).unwrap_or(0);
                let fields = headers
                    .iter()
                    .zip(row.iter())
                    .filter(|(_, v)| !v.trim().is_empty())
                    .map(|(h, v)| (h.clone(), v.to_string()))
                    .collect();
                records.push(Record { line, fields, bad: Vec::new() });
            }
            Err(e) => {
                let line = e.position().map(|p| p.line() as usize).unwrap_or(0);
                let message = match e.kind() {
                    csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
                        format!("has {len} fields; the header has {expected_len}")
                    }
                    csv::ErrorKind::Utf8 { .. } => "is not valid UTF-8".to_string(),
                    _ => e.to_string(),
                };
                errors.push(ImportError::new(line, None, message));
            }
        }
    }
    (records, errors)
}

fn read_json(text: &str, known: &[&str]) -> (Vec<Record>, Vec<ImportError>) {
    let start = text.trim_start();
    let items: Vec<(usize, &str)> = if start.starts_with('[') {
        match split_array(text) {
            Ok(items) => items,
            Err(e) => return (Vec::new(), vec![e]),
        }
    } else {
        // JSON Lines: one object per non-blank line.
        text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).map(|(i, l)| (i + 1, l)).collect()
    };
    let mut records = Vec::new();
    let mut errors = Vec::new();
    for (line, item) in items {
        match serde_json::from_str::<HashMap<String, Box<RawValue>>>(item) {
            Ok(map) => {
                let mut rec = Record { line, ..Default::default() };
                for (k, v) in map {
                    if !known.contains(&k.as_str()) {
                        errors.push(ImportError::new(
                            line,
                            Some(&k),
                            format!("unknown field; known fields: {}", known.join(", ")),
                        ));
                        continue;
                    }
                    let raw = v.get().trim();
                    match raw.as_bytes().first() {
                        Some(b'n') if raw == "null" => {}
                        Some(b'"') => match serde_json::from_str::<String>(raw) {
                            Ok(s) if s.trim().is_empty() => {}
                            Ok(s) => {
                                rec.fields.insert(k, s);
                            }
                            Err(e) => {
                                errors.push(ImportError::new(line, Some(&k), e.to_string()));
                                rec.bad.push(k);
                            }
                        },
                        Some(b'-' | b'0'..=b'9') => {
                            // The number's own text: exact, no float in between.
                            rec.fields.insert(k, raw.to_string());
                        }
                        _ => {
                            errors.push(ImportError::new(line, Some(&k), "must be a string, a number or null"));
                            rec.bad.push(k);
                        }
                    }
                }
                records.push(rec);
            }
            Err(e) => {
                let at = line + e.line().saturating_sub(1);
                errors.push(ImportError::new(at, None, format!("not a JSON object: {e}")));
            }
        }
    }
    (records, errors)
}

/// The top-level elements of a JSON array, each with the line it starts on.
fn split_array(text: &str) -> Result<Vec<(usize, &str)>, ImportError> {
    let bytes = text.as_bytes();
    let mut line = 1;
    let mut i = 0;
    let skip_ws = |i: &mut usize, line: &mut usize| {
        while *i < bytes.len() && bytes[*i].is_ascii_whitespace() {
            if bytes[*i] == b'\n' {
                *line += 1;
            }
            *i += 1;
        }
    };
    skip_ws(&mut i, &mut line);
    if bytes.get(i) != Some(&b'[') {
        return Err(ImportError::new(line, None, "expected a JSON array of records"));
    }
    i += 1;
    let mut items = Vec::new();
    loop {
        skip_ws(&mut i, &mut line);
        match bytes.get(i) {
            None => return Err(ImportError::new(line, None, "the JSON array is not closed with ]")),
            Some(b']') if items.is_empty() => break,
            _ => {}
        }
        let (start, start_line) = (i, line);
        let (mut depth, mut in_string, mut escaped) = (0i32, false, false);
        while i < bytes.len() {
            let c = bytes[i];
            if c == b'\n' {
                line += 1;
            }
            if in_string {
                match (escaped, c) {
                    (true, _) => escaped = false,
                    (false, b'\\') => escaped = true,
                    (false, b'"') => in_string = false,
                    _ => {}
                }
            } else {
                match c {
                    b'"' => in_string = true,
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' if depth > 0 => depth -= 1,
                    b',' | b']' if depth == 0 => break,
                    _ => {}
                }
            }
            i += 1;
        }
        items.push((start_line, text[start..i].trim_end()));
        match bytes.get(i) {
            Some(b',') => i += 1,
            Some(b']') => break,
            _ => return Err(ImportError::new(line, None, "the JSON array is not closed with ]")),
        }
    }
    i += 1; // past the closing ]
    skip_ws(&mut i, &mut line);
    if i < bytes.len() {
        return Err(ImportError::new(line, None, "unexpected text after the JSON array"));
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_elements_keep_their_lines() {
        let text = "[\n  {\"a\": \"x,]\"},\n\n  {\"a\": [1, {\"b\": 2}]}\n]\n";
        let items = split_array(text).unwrap();
        assert_eq!(items.iter().map(|(l, _)| *l).collect::<Vec<_>>(), vec![2, 4]);
        assert_eq!(items[0].1, "{\"a\": \"x,]\"}");
        assert!(split_array("[{\"a\":1}").is_err());
        assert!(split_array("[]").unwrap().is_empty());
    }

    #[test]
    fn csv_and_json_agree() {
        let csv = "accountName,marketValue\nA,1.50\n\"B, Inc.\",\n";
        let json =
            "[{\"accountName\":\"A\",\"marketValue\":1.50},\n {\"accountName\":\"B, Inc.\",\"marketValue\":null}]";
        let known = ["accountName", "marketValue"];
        let (a, e1) = read(csv, Format::Csv, &known);
        let (b, e2) = read(json, Format::Json, &known);
        assert!(e1.is_empty() && e2.is_empty());
        assert_eq!(a.iter().map(|r| &r.fields).collect::<Vec<_>>(), b.iter().map(|r| &r.fields).collect::<Vec<_>>());
        assert_eq!((a[0].line, a[1].line, b[0].line, b[1].line), (2, 3, 1, 2));
        assert_eq!(a[0].fields["marketValue"], "1.50");
    }

    #[test]
    fn unknown_columns_and_ragged_rows_are_errors_with_lines() {
        let e = read("accountName,colour\nA,red\n", Format::Csv, &["accountName"]).1;
        assert_eq!((e[0].line, e[0].field.as_deref()), (1, Some("colour")));
        let e = read("accountName\nA\nB,C\n", Format::Csv, &["accountName"]).1;
        assert_eq!(e[0].line, 3);
        let e = read("{\"accountName\":\"A\"}\n{\"accountName\":true}\n", Format::Json, &["accountName"]).1;
        assert_eq!(e[0].line, 2);
    }
}
