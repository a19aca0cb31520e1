//! What the directory's codes mean, in words: pure functions, so they are tested without a DOM.

use moneydesk_model::deposits::Date;
use moneydesk_model::routing::RoutingNumberError;

pub const NOT_GIVEN: &str = "not given";

fn date_words(year: u32, month: u32, day: u32) -> Option<String> {
    let date = Date::new(u16::try_from(year).ok()?, u8::try_from(month).ok()?, u8::try_from(day).ok()?)?;
    Some(format!("{} {}, {}", date.month_abbreviation(), date.day(), date.year()))
}

fn digits(s: &str) -> Option<Vec<u32>> {
    s.chars().map(|c| c.to_digit(10)).collect()
}

/// A FedACH change date, MMDDYY (YY ≥ 70 is 19YY, like the server's as-of date).
pub fn ach_date(raw: &str) -> String {
    let t = raw.trim();
    if t.is_empty() || t.chars().all(|c| c == '0') {
        return NOT_GIVEN.into();
    }
    match digits(t).filter(|d| d.len() == 6) {
        Some(d) => {
            let yy = d[4] * 10 + d[5];
            let year = if yy >= 70 { 1900 + yy } else { 2000 + yy };
            date_words(year, d[0] * 10 + d[1], d[2] * 10 + d[3])
        }
        None => None,
    }
    .unwrap_or_else(|| format!("{t} (not a date)"))
}

/// A Fedwire change date, YYYYMMDD or blank.
pub fn wire_date(raw: &str) -> String {
    let t = raw.trim();
    if t.is_empty() {
        return NOT_GIVEN.into();
    }
    match digits(t).filter(|d| d.len() == 8) {
        Some(d) => date_words(d[..4].iter().fold(0, |y, x| y * 10 + x), d[4] * 10 + d[5], d[6] * 10 + d[7]),
        None => None,
    }
    .unwrap_or_else(|| format!("{t} (not a date)"))
}

/// `YYYY-MM-DD` (the status endpoint's dates) in words.
pub fn iso_date(raw: &str) -> String {
    let p: Vec<&str> = raw.split('-').collect();
    match p.as_slice() {
        [y, m, d] => match (y.parse(), m.parse(), d.parse()) {
            (Ok(y), Ok(m), Ok(d)) => date_words(y, m, d),
            _ => None,
        },
        _ => None,
    }
    .unwrap_or_else(|| raw.to_string())
}

/// `(877) 372-2457`; "not given" when the directory has no number.
pub fn phone(area: &str, prefix: &str, suffix: &str) -> String {
    let (a, p, s) = (area.trim(), prefix.trim(), suffix.trim());
    if [a, p, s].iter().all(|x| x.is_empty() || x.chars().all(|c| c == '0')) {
        return NOT_GIVEN.into();
    }
    format!("({a}) {p}-{s}")
}

/// `30309-4470`, or just the ZIP when the extension is blank or zeros.
pub fn zip(zip: &str, ext: &str) -> String {
    let (z, e) = (zip.trim(), ext.trim());
    match (z.is_empty(), e.is_empty() || e.chars().all(|c| c == '0')) {
        (true, _) => NOT_GIVEN.into(),
        (false, true) => z.into(),
        (false, false) => format!("{z}-{e}"),
    }
}

/// `ATLANTA, GA 30309-4470` from whatever parts are there.
pub fn place(city: &str, state: &str, zip_text: &str) -> String {
    let zip_text = if zip_text == NOT_GIVEN { "" } else { zip_text };
    let tail = [state.trim(), zip_text].iter().filter(|s| !s.is_empty()).copied().collect::<Vec<_>>().join(" ");
    let all = [city.trim(), tail.as_str()].iter().filter(|s| !s.is_empty()).copied().collect::<Vec<_>>().join(", ");
    if all.is_empty() {
        NOT_GIVEN.into()
    } else {
        all
    }
}

pub fn office(code: &str) -> String {
    match code.trim() {
        "O" => "Main office".into(),
        "B" => "Branch".into(),
        other => unknown(other),
    }
}

/// What an ACH record type code tells the sender.
pub fn record_type(code: &str) -> String {
    match code.trim() {
        "0" => "0: a Federal Reserve Bank".into(),
        "1" => "1: send entries to this routing number".into(),
        "2" => "2: send entries to the new routing number".into(),
        other => unknown(other),
    }
}

/// `000000000` (or blank) means the record names no new number.
pub fn new_routing_number(raw: &str) -> Option<&str> {
    let t = raw.trim();
    (!t.is_empty() && !t.chars().all(|c| c == '0')).then_some(t)
}

pub fn institution_status(code: &str) -> String {
    match code.trim() {
        "1" => "1: receives government and commercial ACH entries".into(),
        other => unknown(other),
    }
}

pub fn data_view(code: &str) -> String {
    match code.trim() {
        "1" => "1: current address".into(),
        other => unknown(other),
    }
}

pub fn funds_eligibility(code: &str) -> String {
    match code.trim() {
        "Y" => "Eligible: can send and receive Fedwire funds transfers".into(),
        "N" => "Not eligible for Fedwire funds transfers".into(),
        other => unknown(other),
    }
}

/// `S` or a single space (the Fed's blank): never read a blank as missing data.
pub fn settlement_only(code: &str) -> String {
    match code.trim() {
        "S" => "Settlement only: takes settlement transfers, not third-party payments".into(),
        "" => "No: takes all funds transfers".into(),
        other => unknown(other),
    }
}

pub fn securities_eligibility(code: &str) -> String {
    match code.trim() {
        "Y" => "Eligible for Fedwire Securities transfers".into(),
        "N" => "Not eligible for Fedwire Securities transfers".into(),
        other => unknown(other),
    }
}

fn unknown(code: &str) -> String {
    if code.is_empty() {
        NOT_GIVEN.into()
    } else {
        format!("{code} (a code the directory format does not define)")
    }
}

/// The Federal Reserve district a routing number's first two digits name.
pub fn district(first_two: u8) -> Option<String> {
    const NAMES: [&str; 12] = [
        "Boston",
        "New York",
        "Philadelphia",
        "Cleveland",
        "Richmond",
        "Atlanta",
        "Chicago",
        "St. Louis",
        "Minneapolis",
        "Kansas City",
        "Dallas",
        "San Francisco",
    ];
    let (n, kind) = match first_two {
        0 => return Some("the United States government".into()),
        1..=12 => (first_two, ""),
        21..=32 => (first_two - 20, "thrift institution, "),
        61..=72 => (first_two - 60, "electronic transactions, "),
        80 => return Some("traveler's cheques".into()),
        _ => return None,
    };
    Some(format!("{kind}Federal Reserve district {n:02} ({})", NAMES[n as usize - 1]))
}

/// What the input check says, in the page's words (the model's error carries the facts).
pub fn problem(e: &RoutingNumberError) -> String {
    match e {
        RoutingNumberError::Length(n) if *n < 9 => {
            format!("Too short: a routing number has 9 digits, this has {n}.")
        }
        RoutingNumberError::Length(n) => format!("Too long: a routing number has 9 digits, this has {n}."),
        RoutingNumberError::NotDigit { found, position } => {
            format!("Only digits: “{found}” at position {position} is not a digit.")
        }
        RoutingNumberError::AllZeros => "000000000 is not a routing number.".into(),
        RoutingNumberError::Checksum { expected, got } => {
            format!("Checksum fails: with these first eight digits the last digit should be {expected}, not {got}.")
        }
    }
}

/// `19010` → `19,010`.
pub use crate::format::group as count;

/// Yes/no for the tables.
pub fn yes_no(b: bool) -> &'static str {
    if b {
        "Yes"
    } else {
        "No"
    }
}

#[cfg(test)]
mod tests {
    use moneydesk_model::routing::RoutingNumber;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn ach_dates_are_mmddyy_with_a_pivot() {
        assert_eq!(ach_date("122415"), "Dec 24, 2015");
        assert_eq!(ach_date("010199"), "Jan 1, 1999");
        assert_eq!(ach_date("022900"), "Feb 29, 2000");
        assert_eq!(ach_date("022901"), "022901 (not a date)");
        assert_eq!(ach_date("      "), NOT_GIVEN);
        assert_eq!(ach_date("000000"), NOT_GIVEN);
        assert_eq!(ach_date("13011x"), "13011x (not a date)");
    }

    #[wasm_bindgen_test]
    fn wire_dates_are_yyyymmdd_or_blank() {
        assert_eq!(wire_date("20040910"), "Sep 10, 2004");
        assert_eq!(wire_date(""), NOT_GIVEN);
        assert_eq!(wire_date("        "), NOT_GIVEN);
        assert_eq!(wire_date("20041310"), "20041310 (not a date)");
        assert_eq!(iso_date("2018-12-03"), "Dec 3, 2018");
        assert_eq!(iso_date("soon"), "soon");
    }

    #[wasm_bindgen_test]
    fn phones_zips_and_places() {
        assert_eq!(phone("877", "372", "2457"), "(877) 372-2457");
        assert_eq!(phone("", " ", ""), NOT_GIVEN);
        assert_eq!(phone("000", "000", "0000"), NOT_GIVEN);
        assert_eq!(zip("30309", "4470"), "30309-4470");
        assert_eq!(zip("30309", "0000"), "30309");
        assert_eq!(zip("30309", ""), "30309");
        assert_eq!(zip("", ""), NOT_GIVEN);
        assert_eq!(place("ATLANTA", "GA", &zip("30309", "4470")), "ATLANTA, GA 30309-4470");
        assert_eq!(place("BOSTON", "MA", NOT_GIVEN), "BOSTON, MA");
        assert_eq!(place("", "", NOT_GIVEN), NOT_GIVEN);
    }

    #[wasm_bindgen_test]
    fn codes_in_words() {
        assert_eq!(office("O"), "Main office");
        assert_eq!(office("B"), "Branch");
        assert!(record_type("0").contains("Federal Reserve Bank"));
        assert!(record_type("2").contains("new routing number"));
        assert_eq!(new_routing_number("000000000"), None);
        assert_eq!(new_routing_number("061000146"), Some("061000146"));
        assert!(settlement_only(" ").starts_with("No"), "the Fed's single space is a real value");
        assert!(settlement_only("S").starts_with("Settlement only"));
        assert!(funds_eligibility("Y").starts_with("Eligible"));
        assert!(securities_eligibility("N").starts_with("Not eligible"));
        assert_eq!(office("X"), "X (a code the directory format does not define)");
        assert_eq!(office(""), NOT_GIVEN);
    }

    #[wasm_bindgen_test]
    fn districts_and_problems() {
        assert_eq!(district(1).unwrap(), "Federal Reserve district 01 (Boston)");
        assert_eq!(district(26).unwrap(), "thrift institution, Federal Reserve district 06 (Atlanta)");
        assert_eq!(district(50), None);
        let e = RoutingNumber::parse("011000017").unwrap_err();
        assert_eq!(problem(&e), "Checksum fails: with these first eight digits the last digit should be 5, not 7.");
        assert!(problem(&RoutingNumber::parse("0110").unwrap_err()).contains("this has 4"));
        assert!(problem(&RoutingNumber::parse("01100001x").unwrap_err()).contains("“x” at position 9"));
        assert_eq!(count(19010), "19,010");
        assert_eq!(count(7), "7");
        assert_eq!(count(1234567), "1,234,567");
    }
}
