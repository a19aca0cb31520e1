//! What the directory's codes mean, in words: pure functions, so they are tested without a DOM.

use moneydesk_model::routing::RoutingNumberError;

use crate::i18n::fill;
use crate::i18n::routing::text;

/// What a blank field reads as.
pub fn not_given() -> &'static str {
    text().not_given
}

/// A calendar day in the user's locale (`Dec 24, 2015` in en-US).
fn date_words(year: u32, month: u32, day: u32) -> Option<String> {
    crate::format::format_date(&format!("{year:04}-{month:02}-{day:02}"))
}

fn digits(s: &str) -> Option<Vec<u32>> {
    s.chars().map(|c| c.to_digit(10)).collect()
}

/// A FedACH change date, MMDDYY (YY ≥ 70 is 19YY, like the server's as-of date).
pub fn ach_date(raw: &str) -> String {
    let t = raw.trim();
    if t.is_empty() || t.chars().all(|c| c == '0') {
        return not_given().into();
    }
    match digits(t).filter(|d| d.len() == 6) {
        Some(d) => {
            let yy = d[4] * 10 + d[5];
            let year = if yy >= 70 { 1900 + yy } else { 2000 + yy };
            date_words(year, d[0] * 10 + d[1], d[2] * 10 + d[3])
        }
        None => None,
    }
    .unwrap_or_else(|| fill(text().not_a_date, &[t]))
}

/// A Fedwire change date, YYYYMMDD or blank.
pub fn wire_date(raw: &str) -> String {
    let t = raw.trim();
    if t.is_empty() {
        return not_given().into();
    }
    match digits(t).filter(|d| d.len() == 8) {
        Some(d) => date_words(d[..4].iter().fold(0, |y, x| y * 10 + x), d[4] * 10 + d[5], d[6] * 10 + d[7]),
        None => None,
    }
    .unwrap_or_else(|| fill(text().not_a_date, &[t]))
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
        return not_given().into();
    }
    format!("({a}) {p}-{s}")
}

/// `30309-4470`, or just the ZIP when the extension is blank or zeros.
pub fn zip(zip: &str, ext: &str) -> String {
    let (z, e) = (zip.trim(), ext.trim());
    match (z.is_empty(), e.is_empty() || e.chars().all(|c| c == '0')) {
        (true, _) => not_given().into(),
        (false, true) => z.into(),
        (false, false) => format!("{z}-{e}"),
    }
}

/// `ATLANTA, GA 30309-4470` from whatever parts are there.
pub fn place(city: &str, state: &str, zip_text: &str) -> String {
    let zip_text = if zip_text == not_given() { "" } else { zip_text };
    let tail = [state.trim(), zip_text].iter().filter(|s| !s.is_empty()).copied().collect::<Vec<_>>().join(" ");
    let all = [city.trim(), tail.as_str()].iter().filter(|s| !s.is_empty()).copied().collect::<Vec<_>>().join(", ");
    if all.is_empty() {
        not_given().into()
    } else {
        all
    }
}

pub fn office(code: &str) -> String {
    match code.trim() {
        "O" => text().main_office.into(),
        "B" => text().branch.into(),
        other => unknown(other),
    }
}

/// What an ACH record type code tells the sender.
pub fn record_type(code: &str) -> String {
    let [federal_reserve, this, new] = text().record_types;
    match code.trim() {
        "0" => federal_reserve.into(),
        "1" => this.into(),
        "2" => new.into(),
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
        "1" => text().institution_status_1.into(),
        other => unknown(other),
    }
}

pub fn data_view(code: &str) -> String {
    match code.trim() {
        "1" => text().data_view_1.into(),
        other => unknown(other),
    }
}

/// A `Y`/`N` code in words (`[yes, no]`).
fn yes_or_no(code: &str, words: [&'static str; 2]) -> String {
    match code.trim() {
        "Y" => words[0].into(),
        "N" => words[1].into(),
        other => unknown(other),
    }
}

pub fn funds_eligibility(code: &str) -> String {
    yes_or_no(code, text().funds)
}

/// `S` or a single space (the Fed's blank): never read a blank as missing data.
pub fn settlement_only(code: &str) -> String {
    match code.trim() {
        "S" => text().settlement[0].into(),
        "" => text().settlement[1].into(),
        other => unknown(other),
    }
}

pub fn securities_eligibility(code: &str) -> String {
    yes_or_no(code, text().securities)
}

fn unknown(code: &str) -> String {
    if code.is_empty() {
        not_given().into()
    } else {
        fill(text().unknown_code, &[code])
    }
}

/// The Federal Reserve district a routing number's first two digits name.
pub fn district(first_two: u8) -> Option<String> {
    let t = text();
    let (n, kind) = match first_two {
        0 => return Some(t.us_government.into()),
        1..=12 => (first_two, ""),
        21..=32 => (first_two - 20, t.thrift),
        61..=72 => (first_two - 60, t.electronic),
        80 => return Some(t.travelers_cheques.into()),
        _ => return None,
    };
    Some(fill(t.district, &[kind, &format!("{n:02}"), t.districts[n as usize - 1]]))
}

/// What the input check says, in the page's words (the model's error carries the facts).
pub fn problem(e: &RoutingNumberError) -> String {
    let t = text();
    match e {
        RoutingNumberError::Length(n) if *n < 9 => fill(t.too_short, &[&n.to_string()]),
        RoutingNumberError::Length(n) => fill(t.too_long, &[&n.to_string()]),
        RoutingNumberError::NotDigit { found, position } => {
            fill(t.only_digits, &[&found.to_string(), &position.to_string()])
        }
        RoutingNumberError::AllZeros => t.all_zeros.into(),
        RoutingNumberError::Checksum { expected, got } => {
            fill(t.checksum_fails, &[&expected.to_string(), &got.to_string()])
        }
    }
}

/// `19010` → `19,010`.
pub use crate::format::group as count;

/// Yes/no for the tables.
pub fn yes_no(b: bool) -> &'static str {
    text().yes_no[usize::from(!b)]
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
        assert_eq!(ach_date("      "), not_given());
        assert_eq!(ach_date("000000"), not_given());
        assert_eq!(ach_date("13011x"), "13011x (not a date)");
    }

    #[wasm_bindgen_test]
    fn wire_dates_are_yyyymmdd_or_blank() {
        assert_eq!(wire_date("20040910"), "Sep 10, 2004");
        assert_eq!(wire_date(""), not_given());
        assert_eq!(wire_date("        "), not_given());
        assert_eq!(wire_date("20041310"), "20041310 (not a date)");
        assert_eq!(iso_date("2018-12-03"), "Dec 3, 2018");
        assert_eq!(iso_date("soon"), "soon");
    }

    #[wasm_bindgen_test]
    fn phones_zips_and_places() {
        assert_eq!(phone("877", "372", "2457"), "(877) 372-2457");
        assert_eq!(phone("", " ", ""), not_given());
        assert_eq!(phone("000", "000", "0000"), not_given());
        assert_eq!(zip("30309", "4470"), "30309-4470");
        assert_eq!(zip("30309", "0000"), "30309");
        assert_eq!(zip("30309", ""), "30309");
        assert_eq!(zip("", ""), not_given());
        assert_eq!(place("ATLANTA", "GA", &zip("30309", "4470")), "ATLANTA, GA 30309-4470");
        assert_eq!(place("BOSTON", "MA", not_given()), "BOSTON, MA");
        assert_eq!(place("", "", not_given()), not_given());
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
        assert_eq!(office(""), not_given());
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

    #[wasm_bindgen_test]
    fn spanish_is_wholly_spanish() {
        crate::i18n::set_for_test(crate::i18n::Lang::Es);
        let (d, p, o, y) = (district(26), problem(&RoutingNumberError::AllZeros), office("O"), yes_no(true));
        crate::i18n::set_for_test(crate::i18n::Lang::En);
        assert_eq!(d.unwrap(), "institución de ahorro, distrito 06 de la Reserva Federal (Atlanta)");
        assert_eq!(p, "000000000 no es un número de ruta.");
        assert_eq!((o.as_str(), y), ("Oficina principal", "Sí"));
    }
}
