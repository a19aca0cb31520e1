//! Reading the Fed's directory files: fixed width (FedACH 155, Fedwire 101 characters a
//! record) or the Fed's JSON download, told apart by their content. Values are kept exact:
//! names, addresses and cities lose their trailing spaces, nothing else is touched (the
//! settlement-only flag stays `S` or a single space; dates stay as written, blanks included).
//! Any malformed record fails the whole file with its line number and what is wrong.

use moneydesk_model::routing::{AchParticipant, DirectoryFormat, WireParticipant};

use super::validate::{validate_ach, validate_wire, RecordError};

/// FedACH record length, without the line ending.
pub const ACH_WIDTH: usize = 155;
/// Fedwire Funds record length, without the line ending.
pub const WIRE_WIDTH: usize = 101;

#[derive(Debug)]
pub struct Parsed<T> {
    pub records: Vec<T>,
    pub format: DirectoryFormat,
}

/// Parses a FedACH directory in either format.
pub fn parse_ach(bytes: &[u8]) -> Result<Parsed<AchParticipant>, RecordError> {
    match content(bytes)? {
        Content::Json(text) => Ok(Parsed { records: super::json::ach(text)?, format: DirectoryFormat::Json }),
        Content::Fixed(text) => {
            Ok(Parsed { records: fixed(text, ACH_WIDTH, "FedACH", ach_record)?, format: DirectoryFormat::FixedWidth })
        }
    }
}

/// Parses a Fedwire Funds directory in either format.
pub fn parse_wire(bytes: &[u8]) -> Result<Parsed<WireParticipant>, RecordError> {
    match content(bytes)? {
        Content::Json(text) => Ok(Parsed { records: super::json::wire(text)?, format: DirectoryFormat::Json }),
        Content::Fixed(text) => Ok(Parsed {
            records: fixed(text, WIRE_WIDTH, "Fedwire", wire_record)?,
            format: DirectoryFormat::FixedWidth,
        }),
    }
}

enum Content<'a> {
    Json(&'a str),
    Fixed(&'a str),
}

/// JSON when the first thing in the file is `{`; fixed width otherwise.
fn content(bytes: &[u8]) -> Result<Content<'_>, RecordError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()].iter().filter(|b| **b == b'\n').count() + 1;
        RecordError::at(line, "the file is not text (invalid UTF-8)")
    })?;
    match text.trim_start().as_bytes().first() {
        None => Err(RecordError::file("the file is empty")),
        Some(b'{') => Ok(Content::Json(text)),
        Some(_) => Ok(Content::Fixed(text)),
    }
}

/// Splits into lines (LF or CRLF), checks each line's width, parses each record. Empty
/// lines (the final newline, a trailing blank line) are skipped.
fn fixed<T>(
    text: &str,
    width: usize,
    what: &str,
    record: fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, RecordError> {
    let mut out = Vec::with_capacity(text.len() / (width + 2) + 1);
    for (i, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let n = i + 1;
        if line.is_empty() {
            continue;
        }
        if let Some((col, c)) = line.chars().enumerate().find(|(_, c)| !c.is_ascii() || c.is_ascii_control()) {
            return Err(RecordError::at(n, format!("character {c:?} at column {} is not printable ASCII", col + 1)));
        }
        if line.len() != width {
            let hint = match (line.len(), width) {
                (WIRE_WIDTH, ACH_WIDTH) => " (this looks like a Fedwire file)",
                (ACH_WIDTH, WIRE_WIDTH) => " (this looks like a FedACH file)",
                _ => "",
            };
            return Err(RecordError::at(
                n,
                format!("record is {} characters long, expected {width} for a {what} record{hint}", line.len()),
            ));
        }
        out.push(record(line).map_err(|m| RecordError::at(n, m))?);
    }
    if out.is_empty() {
        return Err(RecordError::file("the file holds no records"));
    }
    Ok(out)
}

/// Columns `from..=to`, 1-based as in the Fed's layout.
fn col(line: &str, from: usize, to: usize) -> &str {
    &line[from - 1..to]
}

fn trimmed(line: &str, from: usize, to: usize) -> String {
    col(line, from, to).trim_end_matches(' ').to_string()
}

fn exact(line: &str, from: usize, to: usize) -> String {
    col(line, from, to).to_string()
}

fn ach_record(l: &str) -> Result<AchParticipant, String> {
    let r = AchParticipant {
        routing_number: exact(l, 1, 9),
        office_code: exact(l, 10, 10),
        servicing_frb_number: exact(l, 11, 19),
        record_type_code: exact(l, 20, 20),
        change_date: exact(l, 21, 26),
        new_routing_number: exact(l, 27, 35),
        customer_name: trimmed(l, 36, 71),
        customer_address: trimmed(l, 72, 107),
        customer_city: trimmed(l, 108, 127),
        customer_state: exact(l, 128, 129),
        customer_zip: exact(l, 130, 134),
        customer_zip_ext: exact(l, 135, 138),
        customer_area_code: exact(l, 139, 141),
        customer_phone_prefix: exact(l, 142, 144),
        customer_phone_suffix: exact(l, 145, 148),
        institution_status_code: exact(l, 149, 149),
        data_view_code: exact(l, 150, 150),
    };
    if !col(l, 151, 155).chars().all(|c| c == ' ') {
        return Err(format!("filler (columns 151-155) must be spaces, got {:?}", col(l, 151, 155)));
    }
    validate_ach(&r)?;
    Ok(r)
}

fn wire_record(l: &str) -> Result<WireParticipant, String> {
    let r = WireParticipant {
        routing_number: exact(l, 1, 9),
        telegraphic_name: trimmed(l, 10, 27),
        customer_name: trimmed(l, 28, 63),
        customer_state: exact(l, 64, 65),
        customer_city: trimmed(l, 66, 90),
        funds_eligibility: exact(l, 91, 91),
        settlement_only: exact(l, 92, 92),
        securities_eligibility: exact(l, 93, 93),
        change_date: exact(l, 94, 101),
    };
    validate_wire(&r)?;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACH: &str = "011000015O0110000150122415000000000FEDERAL RESERVE BANK                1000 PEACHTREE ST N.E.              ATLANTA             GA303094470877372245711     ";
    const WIRE: &str =
        "011000028STATE ST BOS      STATE STREET BOSTON                 MABOSTON                   Y Y        ";

    #[test]
    fn fixed_width_fields() {
        let p = parse_ach(format!("{ACH}\r\n").as_bytes()).unwrap();
        assert_eq!(p.format, DirectoryFormat::FixedWidth);
        let a = &p.records[0];
        assert_eq!(
            (a.customer_name.as_str(), a.customer_address.as_str(), a.customer_city.as_str()),
            ("FEDERAL RESERVE BANK", "1000 PEACHTREE ST N.E.", "ATLANTA")
        );
        assert_eq!(
            (a.change_date.as_str(), a.customer_zip_ext.as_str(), a.data_view_code.as_str()),
            ("122415", "4470", "1")
        );
        let w = &parse_wire(WIRE.as_bytes()).unwrap().records[0];
        assert_eq!(
            (w.settlement_only.as_str(), w.change_date.as_str(), w.telegraphic_name.as_str()),
            (" ", "        ", "STATE ST BOS")
        );
    }

    #[test]
    fn malformed_lines_name_line_and_problem() {
        let short = format!("{ACH}\n{}\n", &ACH[..120]);
        assert_eq!(
            parse_ach(short.as_bytes()).unwrap_err(),
            RecordError::at(2, "record is 120 characters long, expected 155 for a FedACH record")
        );
        let e = parse_ach(WIRE.as_bytes()).unwrap_err();
        assert!(e.message.contains("looks like a Fedwire file"), "{e:?}");
        let bad = format!("{ACH}\n{ACH}\n{}x{}\n", &ACH[..8], &ACH[9..]);
        let e = parse_ach(bad.as_bytes()).unwrap_err();
        assert_eq!(e.line, Some(3));
        assert!(e.message.starts_with("routingNumber \"01100001x\""), "{e:?}");
        let e = parse_wire(format!("{}X{}", &WIRE[..91], &WIRE[92..]).as_bytes()).unwrap_err();
        assert!(e.message.contains("settlementOnly"), "{e:?}");
        assert_eq!(parse_ach(b"\n\n").unwrap_err().message, "the file is empty");
        assert_eq!(parse_ach(b"\xff\xfe").unwrap_err().line, Some(1));
    }
}
