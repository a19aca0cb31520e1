//! Files the portal hands to the user, in one place: a download from parts held in memory
//! (a CSV export today; vault files, zips and cash letters use the same path), its dated file
//! name, and CSV cells that are safe to open in a spreadsheet.

use leptos::prelude::{document, set_timeout};
use wasm_bindgen::{JsCast, JsValue};

/// Offers `parts` (strings, `ArrayBuffer`s, `Blob`s) as one file named `name` of type `mime`.
pub fn save(parts: &js_sys::Array, name: &str, mime: &str) -> Result<(), JsValue> {
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_blob_sequence_and_options(parts, &options)?;
    save_blob(&blob, name)
}

/// Offers `blob` as a file named `name`: a hidden link with `download`, clicked.
pub fn save_blob(blob: &web_sys::Blob, name: &str) -> Result<(), JsValue> {
    let url = web_sys::Url::create_object_url_with_blob(blob)?;
    let document = document();
    let a: web_sys::HtmlAnchorElement = document.create_element("a")?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.set_hidden(true);
    let body = document.body().ok_or_else(|| JsValue::from_str("no <body>"))?;
    body.append_child(&a)?;
    a.click();
    a.remove();
    // Revoke later: the browser reads the Blob after the click returns.
    set_timeout(move || drop(web_sys::Url::revoke_object_url(&url)), std::time::Duration::from_secs(60));
    Ok(())
}

/// `accounts-2026-11-22.csv` for `("accounts", "csv")`, in the user's local date.
pub fn dated_name(stem: &str, extension: &str) -> String {
    let now = js_sys::Date::new_0();
    format!("{stem}-{:04}-{:02}-{:02}.{extension}", now.get_full_year(), now.get_month() + 1, now.get_date())
}

/// The type of a CSV download.
pub const CSV: &str = "text/csv;charset=utf-8";

/// One CSV cell (RFC 4180 quoting), safe to open in a spreadsheet: a leading `= + - @`, tab
/// or carriage return, which a spreadsheet would run as a formula, is defused with a `'`.
pub fn csv_cell(text: &str) -> String {
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

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn csv_cells_defuse_formulas() {
        assert_eq!(csv_cell("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"");
        assert_eq!(csv_cell("+1"), "'+1");
        assert_eq!(csv_cell("-2+3"), "'-2+3");
        assert_eq!(csv_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_cell("\tcmd"), "'\tcmd");
        assert_eq!(csv_cell("\rcmd"), "\"'\rcmd\"", "a carriage return also needs quotes");
        assert_eq!(csv_cell("a=b"), "a=b", "only a leading sign is a formula");
        assert_eq!(csv_cell(""), "");
    }

    #[wasm_bindgen_test]
    fn csv_quoting_follows_rfc_4180() {
        assert_eq!(csv_cell("plain text"), "plain text");
        assert_eq!(csv_cell("Smith, Jones LLC"), "\"Smith, Jones LLC\"");
        assert_eq!(csv_cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_cell("two\nlines"), "\"two\nlines\"");
        assert_eq!(csv_cell("Café ✓"), "Café ✓");
    }

    #[wasm_bindgen_test]
    fn a_dated_name_has_the_stem_the_date_and_the_extension() {
        let name = dated_name("accounts", "csv");
        let (stem, rest) = name.split_at("accounts-".len());
        assert_eq!(stem, "accounts-");
        let (date, ext) = rest.split_once('.').unwrap();
        assert_eq!(ext, "csv");
        assert!(date.len() == 10 && date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-', "{name}");
    }
}
