//! The locale dates, numbers and money are written in: the browser's own (`navigator.language`)
//! when it is of the portal's language (`es-MX` for Spanish), else the language's usual one
//! (`en-US`, `es`), so the figures read as the words around them do.

use super::{lang, Lang};

/// The BCP 47 locale to format with now.
pub fn current() -> String {
    let lang = lang();
    let browser = web_sys::window().and_then(|w| w.navigator().language()).unwrap_or_default();
    let fits = browser.split('-').next() == Some(lang.tag());
    match (fits, lang) {
        (true, _) => browser,
        (false, Lang::En) => "en-US".into(),
        (false, Lang::Es) => "es".into(),
    }
}

/// Whether the portal writes figures itself (`1,234.50`, `$5.00`): `en-US` and `en`, as Intl
/// writes them there; other locales go through `Intl.NumberFormat`.
pub fn writes_itself() -> bool {
    matches!(current().as_str(), "en-US" | "en")
}

/// A decimal text (`-1234567.5`) as the locale writes it, through `Intl.NumberFormat`, which
/// reads a string exactly (no float); as US dollars when `money`, keeping every given decimal
/// and at least two. `None` when Intl gives nothing.
pub fn intl_number(decimal: &str, money: bool) -> Option<String> {
    let options = js_sys::Object::new();
    let set = |k: &str, v: wasm_bindgen::JsValue| {
        let _ = js_sys::Reflect::set(&options, &k.into(), &v);
    };
    let decimals = decimal.split_once('.').map_or(0, |(_, f)| f.len());
    if money {
        set("style", "currency".into());
        set("currency", "USD".into());
        set("minimumFractionDigits", 2.into());
    }
    set("maximumFractionDigits", (decimals.clamp(2, 100) as u32).into());
    let locales = js_sys::Array::of1(&current().into());
    let format = js_sys::Intl::NumberFormat::new(&locales, &options).format();
    format.call1(&wasm_bindgen::JsValue::NULL, &decimal.into()).ok()?.as_string()
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::super::{set_for_test, Lang};
    use crate::format::{format_date, format_money, group};

    #[wasm_bindgen_test]
    fn spanish_writes_figures_and_dates_as_its_locale_does() {
        set_for_test(Lang::Es);
        let (money, count, day) = (format_money("1284350.27"), group(24_000), format_date("2024-03-11"));
        let exact = format_money("12345678901234567890.125");
        set_for_test(Lang::En);
        let money = money.unwrap();
        assert!(money.contains("1.284.350,27") && money.contains("US$"), "{money}");
        assert_eq!(count, "24.000");
        assert!(day.as_deref().is_some_and(|d| d.contains("mar") && d.contains("2024")), "{day:?}");
        let exact = exact.unwrap();
        assert!(exact.contains("12.345.678.901.234.567.890,125"), "read from the text, not a float: {exact}");
        // English again: as before.
        assert_eq!(format_money("1284350.27").as_deref(), Some("$1,284,350.27"));
        assert_eq!(group(24_000), "24,000");
    }
}
