//! The fields of a MICR line (ANSI X9.13 layout, read right to left on the document but parsed
//! here left to right), and the rules this reader applies to split them:
//!
//! - **Routing** (transit field): what stands between the first two transit symbols `⑆`. It is
//!   valid when it is 9 readable digits whose ABA check digit holds (3·d1 + 7·d2 + d3 + 3·d4 +
//!   7·d5 + d6 + 3·d7 + 7·d8 + d9 ≡ 0 mod 10). One that fails is reported as read with
//!   `routing_valid: false`, never corrected. With a single `⑆`, the 9 characters before it are
//!   taken when there are that many (the leading symbol unreadable), else none.
//! - **EPC** (external processing code, position 44): one digit standing just left of the first
//!   `⑆`, with nothing or an on-us symbol before it.
//! - **Auxiliary on-us**: what is left of the routing field (less the EPC), between its on-us
//!   symbols (`⑈0347927⑈` gives `0347927`).
//! - **On-us** field: from the second `⑆` to the first amount symbol `⑇` (or the end), written
//!   as X9's type-25 record writes it: digits, `/` for on-us, `-` for dash, `*` unreadable
//!   (`1211-1234-56789/`).
//!   - The **account** number is what stands before the last `⑈` of the field, back to the `⑈`
//!     before it (or the start of the field): `12345678⑈0101` → `12345678`;
//!     `1005⑈4192580⑈` → `4192580`; `1211⑉1234⑉56789⑈` → `1211-1234-56789` (dashes kept as
//!     `-`).
//!   - The **check number** is the digits after the last `⑈` (`⑈0101` → `0101`, the personal
//!     check layout); when there are none, the digits before the first of two `⑈` in the field
//!     (`1005⑈…⑈` → `1005`); when there are none either, the auxiliary on-us field (the
//!     business check layout keeps the serial number there); otherwise none: a field with a
//!     single trailing `⑈` is all account, as X9 treats it.
//! - **Amount**: the 10 digits between the last two `⑇`, in cents.
//!
//! Each field's confidence is the lowest of its characters'; it is uncertain when one of them
//! is unreadable (`*`) or below [`UNCERTAIN`].

use super::{MicrChar, MicrLine, Rect, Symbol};

/// Below this confidence a character makes its field uncertain.
pub const UNCERTAIN: f32 = 0.5;

/// One field of the line.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Digits, `-` for dash, `/` for on-us (X9's type-25 characters), `*` unreadable.
    pub value: String,
    /// The lowest confidence of its characters.
    pub confidence: f32,
    /// Whether a character is unreadable or below [`UNCERTAIN`].
    pub uncertain: bool,
    /// The characters it was read from: `chars[start..end]` of the line.
    pub start: usize,
    pub end: usize,
}

/// How X9's type-25 record writes a symbol.
pub fn x9_char(s: Symbol) -> char {
    match s {
        Symbol::OnUs => '/',
        Symbol::Dash => '-',
        Symbol::Transit => 'T',
        Symbol::Amount => 'A',
        other => other.unicode(),
    }
}

/// Whether `routing` is 9 digits with a good ABA check digit.
///
/// ```
/// use moneydesk_checkimage::micr::aba_valid;
/// assert!(aba_valid("122000661"));
/// assert!(!aba_valid("011234567"));
/// assert!(!aba_valid("12200066"));
/// ```
pub fn aba_valid(routing: &str) -> bool {
    let d: Vec<u32> = routing.chars().filter_map(|c| c.to_digit(10)).collect();
    if d.len() != 9 || routing.chars().count() != 9 {
        return false;
    }
    let w = [3, 7, 1];
    d.iter().enumerate().map(|(i, x)| x * w[i % 3]).sum::<u32>() % 10 == 0
}

/// A line typed or stored as text (digits, `⑆ ⑈ ⑇ ⑉` or fin-ocr's `T U A D`, `*`; anything else,
/// spaces included, is skipped), with its fields; every character has confidence 1.
pub fn parse(text: &str) -> MicrLine {
    let chars = text
        .chars()
        .filter_map(Symbol::from_char)
        .map(|symbol| MicrChar {
            symbol,
            confidence: if symbol == Symbol::Unreadable { 0.0 } else { 1.0 },
            bbox: Rect::default(),
            best_guess: None,
        })
        .collect();
    from_chars(chars)
}

fn field(chars: &[MicrChar], start: usize, end: usize, keep: impl Fn(Symbol) -> bool) -> Option<Field> {
    let part: Vec<(usize, &MicrChar)> = chars[start..end].iter().enumerate().filter(|(_, c)| keep(c.symbol)).collect();
    if part.is_empty() {
        return None;
    }
    let value = part.iter().map(|(_, c)| x9_char(c.symbol)).collect();
    let confidence = part.iter().map(|(_, c)| c.confidence).fold(1.0, f32::min);
    let uncertain = part.iter().any(|(_, c)| c.symbol == Symbol::Unreadable || c.confidence < UNCERTAIN);
    let (first, last) = (part[0].0, part[part.len() - 1].0);
    Some(Field { value, confidence, uncertain, start: start + first, end: start + last + 1 })
}

fn content(s: Symbol) -> bool {
    matches!(s, Symbol::Digit(_) | Symbol::Dash | Symbol::Unreadable)
}

/// The line of `chars` with its fields parsed by the rules above.
pub fn from_chars(chars: Vec<MicrChar>) -> MicrLine {
    let syms: Vec<Symbol> = chars.iter().map(|c| c.symbol).collect();
    let n = syms.len();
    let transits: Vec<usize> = (0..n).filter(|&i| syms[i] == Symbol::Transit).collect();
    let amounts: Vec<usize> = (0..n).filter(|&i| syms[i] == Symbol::Amount).collect();
    // The routing field's bounds: (first char, one past last, where the on-us field starts,
    // where the left part ends).
    let routing_span = match transits.as_slice() {
        [] => None,
        [t] => {
            let start = t.saturating_sub(9);
            (t - start == 9 && syms[start..*t].iter().all(|s| content(*s))).then_some((
                start,
                *t,
                t + 1,
                start.saturating_sub(1),
            ))
        }
        [t0, t1, ..] => Some((t0 + 1, *t1, t1 + 1, *t0)),
    };
    let mut line = MicrLine { raw: syms.iter().map(|s| s.unicode()).collect(), ..MicrLine::default() };
    line.confidence = if chars.is_empty() { 0.0 } else { chars.iter().map(|c| c.confidence).fold(1.0, f32::min) };
    if let [.., a0, a1] = amounts.as_slice() {
        line.amount = field(&chars, a0 + 1, *a1, content);
        if let Some(a) = &line.amount {
            if a.value.len() == 10 && a.value.bytes().all(|b| b.is_ascii_digit()) {
                line.amount_cents = a.value.parse().ok();
            }
        }
    }
    let Some((r0, r1, on_us_start, left_end)) = routing_span else {
        // No routing field: the line before any amount is one on-us field.
        let end = amounts.first().copied().unwrap_or(n);
        on_us(&mut line, &chars, 0, end);
        line.chars = chars;
        return line;
    };
    line.routing = field(&chars, r0, r1, |s| s != Symbol::OnUs);
    line.routing_valid = line.routing.as_ref().is_some_and(|f| aba_valid(&f.value));
    // Left of the routing field: EPC and auxiliary on-us.
    let mut left_end = left_end.min(r0);
    if left_end >= 1
        && matches!(syms[left_end - 1], Symbol::Digit(_))
        && (left_end == 1 || syms[left_end - 2] == Symbol::OnUs)
    {
        line.epc = field(&chars, left_end - 1, left_end, |_| true);
        left_end -= 1;
    }
    line.aux_on_us = field(&chars, 0, left_end, content);
    let end = amounts.iter().copied().find(|&a| a >= on_us_start).unwrap_or(n);
    on_us(&mut line, &chars, on_us_start, end);
    if line.check_number.is_none() {
        line.check_number = line.aux_on_us.clone();
    }
    line.chars = chars;
    line
}

fn on_us(line: &mut MicrLine, chars: &[MicrChar], start: usize, end: usize) {
    if start >= end {
        return;
    }
    line.on_us = field(chars, start, end, |s| s != Symbol::Transit && s != Symbol::Amount);
    let ons: Vec<usize> = (start..end).filter(|&i| chars[i].symbol == Symbol::OnUs).collect();
    match ons.as_slice() {
        [] => line.account = field(chars, start, end, content),
        [.., last] => {
            let prev = if ons.len() >= 2 { Some(ons[ons.len() - 2]) } else { None };
            line.account = field(chars, prev.map_or(start, |p| p + 1), *last, content);
            let tail = field(chars, last + 1, end, content);
            let head = prev.and_then(|p| field(chars, start, p, content));
            line.check_number = tail.or(head);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(f: &Option<Field>) -> Option<&str> {
        f.as_ref().map(|f| f.value.as_str())
    }

    #[test]
    fn the_fields_of_the_common_layouts() {
        let l = parse("⑆122000661⑆1211⑉1234⑉56789⑈");
        assert_eq!(
            (v(&l.routing), l.routing_valid, v(&l.account), v(&l.check_number)),
            (Some("122000661"), true, Some("1211-1234-56789"), None)
        );
        assert_eq!(l.on_us_x9(), Some("1211-1234-56789/"));
        let l = parse("⑆011234567⑆001234567⑈243");
        assert_eq!(
            (v(&l.routing), l.routing_valid, v(&l.account), v(&l.check_number)),
            (Some("011234567"), false, Some("001234567"), Some("243"))
        );
        let l = parse("⑆322271779⑆1005⑈4192580⑈⑇0000000419⑇");
        assert_eq!((v(&l.account), v(&l.check_number), l.amount_cents), (Some("4192580"), Some("1005"), Some(419)));
        let l = parse("C0347927CA114000019A001641003755C".replace('A', "⑆").replace('C', "⑈").as_str());
        assert_eq!(
            (v(&l.aux_on_us), v(&l.routing), v(&l.account), v(&l.check_number)),
            (Some("0347927"), Some("114000019"), Some("001641003755"), Some("0347927"))
        );
        let l = parse("⑈0347927⑈5⑆114000019⑆001641003755⑈");
        assert_eq!((v(&l.epc), v(&l.aux_on_us)), (Some("5"), Some("0347927")));
        let l = parse("T12200066*T1211U");
        assert!(!l.routing_valid && l.routing.as_ref().unwrap().uncertain);
    }
}
