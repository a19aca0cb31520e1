//! Dates in the user's locale (the browser's, within the portal's language: `i18n::locale`):
//! the browser's `Intl.DateTimeFormat`, except for `en-US` (and `en`).
//!
//! Why not always Intl: the first `Intl.DateTimeFormat` a renderer makes loads ICU's locale
//! data and builds its pattern generator, 30–55 ms of main thread in a fresh headless
//! Chromium on this machine (0.2 ms each after), and /accounts and /permissions show a date in
//! every row of their first screen: every cold and warm load paid it inside the first rows'
//! build (`scripts/bench-first-screen`'s `build:10` mark: 18 ms, 6 ms without it). Paying it
//! earlier (in index.html's script, or in a Worker) only moved it: the renderer shares two
//! CPUs with the network and the compiler. So for `en-US` — the locale of a US money-movement
//! back office, and the browser's when nothing else is set — the portal writes the same text
//! itself from the `Date`'s local fields (no locale data needed), and every other locale keeps
//! Intl. The in-browser tests hold the two to the same text over 40,000 instants, in a zone
//! with daylight saving (`scripts/test` runs them with `TZ=America/New_York`).

use std::cell::RefCell;

use moneydesk_model::deposits::{Date, MONTH_ABBREVIATIONS};
use wasm_bindgen::JsValue;

use crate::i18n::locale;

/// The formats of one locale: date and time, and calendar date.
struct Formats {
    locale: String,
    /// `en-US`, or `en`, which Intl writes the same: this module writes those without Intl.
    en_us: bool,
    date_time: Option<js_sys::Function>,
    date: Option<js_sys::Function>,
}

thread_local! {
    /// The current locale's formats, made on first use (and again when the language changes).
    static FORMATS: RefCell<Option<Formats>> = const { RefCell::new(None) };
}

/// Runs `f` with the current locale's formats.
fn with_formats<T>(f: impl FnOnce(&mut Formats) -> T) -> T {
    let locale = locale::current();
    FORMATS.with(|cell| {
        let mut cell = cell.borrow_mut();
        if cell.as_ref().is_none_or(|fs| fs.locale != locale) {
            let en_us = locale == "en-US" || locale == "en";
            *cell = Some(Formats { locale, en_us, date_time: None, date: None });
        }
        f(cell.as_mut().expect("made above"))
    })
}

/// `Intl.DateTimeFormat(locale, options).format`.
fn intl(locale: &str, options: &[(&str, &str)]) -> js_sys::Function {
    js_sys::Intl::DateTimeFormat::new(&js_sys::Array::of1(&locale.into()), &object(options)).format()
}

fn date_time_with(fs: &mut Formats, date: &js_sys::Date) -> Option<String> {
    let locale = fs.locale.clone();
    let f = fs.date_time.get_or_insert_with(|| intl(&locale, &[("dateStyle", "medium"), ("timeStyle", "short")]));
    apply(f, date)
}

fn date_with(fs: &mut Formats, date: &js_sys::Date) -> Option<String> {
    let locale = fs.locale.clone();
    let f = fs.date.get_or_insert_with(|| intl(&locale, &[("dateStyle", "medium"), ("timeZone", "UTC")]));
    apply(f, date)
}

/// `{ key: value, ... }`: the options of an `Intl.DateTimeFormat`.
fn object(options: &[(&str, &str)]) -> js_sys::Object {
    let o = js_sys::Object::new();
    for (k, v) in options {
        let _ = js_sys::Reflect::set(&o, &(*k).into(), &(*v).into());
    }
    o
}

fn apply(f: &js_sys::Function, date: &js_sys::Date) -> Option<String> {
    f.call1(&JsValue::NULL, date).ok()?.as_string()
}

/// Whether an ISO 8601 date-time names its zone (`Z` or `±HH:MM` after the time).
fn has_zone(s: &str) -> bool {
    let time = s.get(11..).unwrap_or("");
    time.ends_with(['Z', 'z']) || time.contains(['+', '-'])
}

/// `2023-09-22T03:16:48.936` (zone-less means UTC) → e.g. `Sep 22, 2023, 5:16 AM` in the
/// user's locale and zone (`dateStyle: medium, timeStyle: short`); `None` when it is not an
/// ISO 8601 date-time.
pub fn format_date_time(s: &str) -> Option<String> {
    if s.len() < 16 || s.as_bytes().get(10) != Some(&b'T') {
        return None;
    }
    let iso = if has_zone(s) { s.to_string() } else { format!("{s}Z") };
    let date = js_sys::Date::new(&iso.into());
    if date.get_time().is_nan() {
        return None;
    }
    with_formats(|fs| match fs.en_us.then(|| en_us_date_time(&date)).flatten() {
        Some(text) => Some(text),
        None => date_time_with(fs, &date),
    })
}

/// `en-US`'s medium date and short time of the instant in the browser's zone, as Intl writes
/// it: `Sep 22, 2023, 3:16 AM` (seconds dropped, not rounded; `12:05 AM` just after
/// midnight). `None` outside years 1000–9999, left to Intl (eras, short years).
fn en_us_date_time(date: &js_sys::Date) -> Option<String> {
    let year = date.get_full_year();
    if !(1000..=9999).contains(&year) {
        return None;
    }
    let (hour, minute) = (date.get_hours(), date.get_minutes());
    let month = MONTH_ABBREVIATIONS[date.get_month() as usize % 12];
    let half = if hour < 12 { "AM" } else { "PM" };
    Some(format!("{month} {}, {year}, {}:{minute:02} {half}", date.get_date(), (hour + 11) % 12 + 1))
}

/// `2024-03-11` or `20240311` → e.g. `Mar 11, 2024`: the same calendar day in every zone, in
/// the user's locale; `None` when it is not a date that exists (`2024-02-30`).
pub fn format_date(s: &str) -> Option<String> {
    let day = if s.len() == 8 && s.bytes().all(|c| c.is_ascii_digit()) {
        Date::parse(&format!("{}-{}-{}", &s[0..4], &s[4..6], &s[6..8]))
    } else {
        Date::parse(s)
    };
    let day = day.ok()?;
    let ms =
        js_sys::Date::utc(f64::from(day.year()), f64::from(day.month() - 1)) + f64::from(day.day() - 1) * 86_400_000.0;
    with_formats(|fs| {
        if fs.en_us && day.year() >= 1000 {
            return Some(en_us_date(day));
        }
        date_with(fs, &js_sys::Date::new(&ms.into()))
    })
}

/// `en-US`'s medium date, as Intl writes it: `Mar 11, 2024`.
fn en_us_date(day: Date) -> String {
    format!("{} {}, {}", day.month_abbreviation(), day.day(), day.year())
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    /// `Intl.DateTimeFormat(locale, options).format` for each locale the portal writes itself.
    fn intl_en(options: &[(&str, &str)]) -> [js_sys::Function; 2] {
        ["en-US", "en"]
            .map(|l| js_sys::Intl::DateTimeFormat::new(&js_sys::Array::of1(&l.into()), &object(options)).format())
    }

    #[wasm_bindgen_test]
    fn en_us_date_times_are_written_as_intl_writes_them() {
        // Every 7 h 13 min 17 s from 1999 to 2031 (each hour of the day and minute of the
        // hour, daylight-saving changes of the browser's zone, leap days), plus the edges of
        // the 12-hour clock.
        let mut instants: Vec<f64> = (0..40_000).map(|i| 915_148_800_000.0 + i as f64 * 25_997_000.0).collect();
        for edge in [
            "2024-01-01T00:00:00",
            "2024-01-01T00:59:59",
            "2024-01-01T12:00:00",
            "2024-01-01T12:59:00",
            "2024-02-29T23:59:59.999",
        ] {
            let local = js_sys::Date::new(&edge.into());
            instants.push(local.get_time());
        }
        let intl = intl_en(&[("dateStyle", "medium"), ("timeStyle", "short")]);
        for ms in instants {
            let date = js_sys::Date::new(&ms.into());
            for f in &intl {
                let expected = apply(f, &date).unwrap();
                assert_eq!(en_us_date_time(&date).as_deref(), Some(expected.as_str()), "{}", date.to_iso_string());
            }
        }
    }

    #[wasm_bindgen_test]
    fn en_us_calendar_dates_are_written_as_intl_writes_them() {
        let intl = intl_en(&[("dateStyle", "medium"), ("timeZone", "UTC")]);
        for y in [1000, 1999, 2000, 2023, 2024, 2100, 9999] {
            for m in 1..=12 {
                let last = (28..=31).rev().find(|&d| Date::new(y, m, d).is_some()).unwrap();
                for d in [1, 9, 10, 28, last] {
                    let ms = js_sys::Date::utc(f64::from(y), f64::from(m - 1)) + f64::from(d - 1) * 86_400_000.0;
                    for f in &intl {
                        let expected = apply(f, &js_sys::Date::new(&ms.into())).unwrap();
                        assert_eq!(en_us_date(Date::new(y, m, d).unwrap()), expected);
                    }
                }
            }
        }
    }

    #[wasm_bindgen_test]
    fn dates_use_the_locale_and_keep_the_instant() {
        let shown = format_date_time("2023-09-22T03:16:48.936").unwrap();
        assert!(shown.contains("2023"), "{shown}");
        // The same instant written with its zone formats the same.
        assert_eq!(format_date_time("2023-09-22T03:16:48.936Z").unwrap(), shown);
        assert_eq!(format_date_time("2023-09-22T05:16:48.936+02:00").unwrap(), shown);
        assert_eq!(format_date_time("yesterday"), None);
        assert_eq!(format_date_time("2023-13-45T99:00:00"), None);
        // Outside the years the portal writes itself, Intl still does.
        assert!(format_date_time("0999-06-01T12:00:00Z").is_some_and(|t| t.contains("999")));
        let day = format_date("2024-03-11").unwrap();
        assert!(day.contains("2024") && day.contains("11"), "{day}");
        assert_eq!(format_date("20240311").unwrap(), day);
        assert!(format_date("2024-02-29").is_some(), "a leap day");
        for missing in ["2024-3-1", "2023-02-29", "2024-04-31", "2024-00-10", "2024-13-01", "20240230", "2024-+1-01"] {
            assert_eq!(format_date(missing), None, "{missing}");
        }
    }
}
