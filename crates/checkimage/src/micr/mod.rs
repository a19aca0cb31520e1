//! Reading the MICR line: the E-13B characters printed in magnetic ink along the bottom of a
//! check (ISO 1004, ANSI X9.27), read here from the picture alone.
//!
//! [`read`] takes a grayscale picture of a check front (any resolution from about 75 to 600 dpi,
//! or a line already cropped) and:
//!
//! 1. finds the band: dark marks of one height standing on one straight (possibly tilted, ±6°)
//!    baseline, found by joining connected components of a locally thresholded image into lines
//!    ([`locate`]); each line is read and the one that reads best as E-13B is kept;
//! 2. straightens the band and scales it to 2 pixels a standard unit (0.013 in), so that
//!    characters are 18 pixels tall whatever the resolution ([`strip`]);
//! 3. cuts and classifies the characters in one pass: a dynamic programme chooses the sequence of
//!    characters (and blank columns) that best explains the ink, each character scored by the
//!    normalized correlation of its drawing ([`glyphs`], the product's own) with the picture
//!    ([`classify`], [`templates`]): touching characters and the broken parts of a symbol are read as E-13B's
//!    fixed shapes, not as blobs;
//! 4. looks again at the characters left in doubt: on the strip with its ink thickened
//!    ([`refine`]), against templates of the line's own sure characters ([`adapt`]), and by the
//!    fields' syntax ([`syntax`]: the ABA check digit between the two best readings of one
//!    unsure routing digit; a dash where only a symbol can stand);
//! 5. parses the fields ([`fields`]): routing number with its ABA check digit, on-us (account,
//!    check number), auxiliary on-us, amount, EPC.
//!
//! Deterministic, no threads, nothing downloaded: the same in the browser's worker as on the
//! server.
//!
//! ```
//! use moneydesk_checkimage::micr::{parse, Symbol};
//! // A line as text (here with the Unicode symbols; T U A D letters are read too).
//! let line = parse("⑆000067894⑆12345678⑈0101");
//! assert_eq!(line.routing.as_ref().unwrap().value, "000067894");
//! assert!(line.routing_valid);
//! assert_eq!(line.account.as_ref().unwrap().value, "12345678");
//! assert_eq!(line.check_number.as_ref().unwrap().value, "0101");
//! assert_eq!(line.ascii(), "T000067894T12345678U0101");
//! assert_eq!(Symbol::from_char('⑈'), Some(Symbol::OnUs));
//! ```

pub mod adapt;
pub mod classify;
pub mod fields;
pub mod glyphs;
pub mod locate;
pub mod refine;
pub mod strip;
pub mod syntax;
pub mod templates;

use image::GrayImage;

pub use fields::{aba_valid, parse, Field};

/// One of the 14 E-13B characters, or a character that could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symbol {
    Digit(u8),
    /// ⑆ (U+2446), around the routing number.
    Transit,
    /// ⑈ (U+2448 by its shape; Unicode's names of U+2448 and U+2449 are swapped), ends the
    /// account number and brackets the auxiliary on-us field.
    OnUs,
    /// ⑇ (U+2447), around the amount.
    Amount,
    /// ⑉ (U+2449 by its shape), a separator inside the routing or on-us field.
    Dash,
    /// A mark where a character is, read as none with enough confidence (X9 writes `*`).
    Unreadable,
}

impl Symbol {
    /// Digits 0 to 9, then transit 10, on-us 11, amount 12, dash 13; unreadable 14 (no glyph).
    pub fn index(self) -> usize {
        match self {
            Symbol::Digit(d) => d as usize,
            Symbol::Transit => 10,
            Symbol::OnUs => 11,
            Symbol::Amount => 12,
            Symbol::Dash => 13,
            Symbol::Unreadable => 14,
        }
    }

    /// The character as Unicode writes it: a digit, `⑆ ⑈ ⑇ ⑉`, or `*`.
    pub fn unicode(self) -> char {
        match self {
            Symbol::Digit(d) => char::from(b'0' + d),
            Symbol::Transit => '⑆',
            Symbol::OnUs => '⑈',
            Symbol::Amount => '⑇',
            Symbol::Dash => '⑉',
            Symbol::Unreadable => '*',
        }
    }

    /// The character in plain ASCII, with fin-ocr's letters: `T` transit, `U` on-us, `A`
    /// amount, `D` dash; `*` unreadable. (X9's type-25 fields write on-us `/` and dash `-`: see
    /// [`MicrLine::on_us_x9`].)
    pub fn ascii(self) -> char {
        match self {
            Symbol::Transit => 'T',
            Symbol::OnUs => 'U',
            Symbol::Amount => 'A',
            Symbol::Dash => 'D',
            other => other.unicode(),
        }
    }

    /// The symbol a character stands for: digits, the Unicode symbols, fin-ocr's `T U A D`,
    /// `*`.
    pub fn from_char(c: char) -> Option<Symbol> {
        Some(match c {
            '0'..='9' => Symbol::Digit(c as u8 - b'0'),
            '⑆' | 'T' => Symbol::Transit,
            '⑈' | 'U' => Symbol::OnUs,
            '⑇' | 'A' => Symbol::Amount,
            '⑉' | 'D' => Symbol::Dash,
            '*' => Symbol::Unreadable,
            _ => return None,
        })
    }
}

/// A rectangle in the pixels of the image read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rect {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

/// One character read.
#[derive(Debug, Clone, PartialEq)]
pub struct MicrChar {
    pub symbol: Symbol,
    /// 0 (a guess) to 1 (certain): how well the drawing matches and how far ahead of the next
    /// best character it is.
    pub confidence: f32,
    /// Where it is in the image read (axis-aligned around the character's cell).
    pub bbox: Rect,
    /// For an unreadable character, the character it looked most like, if any.
    pub best_guess: Option<Symbol>,
}

/// A MICR line read, with its fields.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MicrLine {
    /// The characters as Unicode (`⑆ ⑈ ⑇ ⑉`, `*` unreadable), without spaces.
    pub raw: String,
    pub chars: Vec<MicrChar>,
    /// The 9 digits between the transit symbols (or whatever stands there).
    pub routing: Option<Field>,
    /// Whether the routing field is 9 readable digits with a good ABA check digit (weights 3,
    /// 7, 1). A routing number that fails is kept as read and flagged here, never corrected.
    pub routing_valid: bool,
    pub account: Option<Field>,
    pub check_number: Option<Field>,
    /// The field between on-us symbols left of the routing number (business checks: usually
    /// the check's serial number).
    pub aux_on_us: Option<Field>,
    /// The whole on-us field (right of the routing number, up to the amount), in X9's type-25
    /// form: `/` for on-us, `-` for dash.
    pub on_us: Option<Field>,
    /// The 10 digits between the amount symbols.
    pub amount: Option<Field>,
    /// The amount in cents, when the amount field is 10 readable digits.
    pub amount_cents: Option<u64>,
    /// The external processing code: one digit just left of the routing field.
    pub epc: Option<Field>,
    /// The lowest confidence of a character (0 for an empty line).
    pub confidence: f32,
    /// Height of the characters in the image, in pixels (0.117 in; 35 at 300 dpi).
    pub char_height: f32,
    /// Tilt of the line found, in degrees (positive: clockwise).
    pub skew_degrees: f32,
}

impl MicrLine {
    /// The line with fin-ocr's ASCII letters (`T` transit, `U` on-us, `A` amount, `D` dash).
    pub fn ascii(&self) -> String {
        self.chars.iter().map(|c| c.symbol.ascii()).collect()
    }

    /// The on-us field as X9.100-187 writes it in the check detail record (type 25): digits,
    /// `/` for on-us, `-` for dash, `*` for an unreadable character.
    pub fn on_us_x9(&self) -> Option<&str> {
        self.on_us.as_ref().map(|f| f.value.as_str())
    }

    /// Whether every character was read with at least `min` confidence.
    pub fn is_certain(&self, min: f32) -> bool {
        !self.chars.is_empty() && self.chars.iter().all(|c| c.symbol != Symbol::Unreadable && c.confidence >= min)
    }
}

/// Why no line was read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MicrError {
    #[error("is {0} × {1} pixels: too small to hold a MICR line")]
    TooSmall(u32, u32),
    #[error("shows no MICR line: no row of E-13B characters was found")]
    NoBand,
}

/// A reading's score (confidences of its characters, less unreadable ones) past which no other
/// candidate line is read.
const SURE: f32 = 12.0;

/// Reads the MICR line of `gray`: a check front (the line is looked for everywhere; of the
/// likeliest lines, the one that reads best as E-13B wins) or a line already cropped.
pub fn read(gray: &GrayImage) -> Result<MicrLine, MicrError> {
    let (w, h) = gray.dimensions();
    if w < 40 || h < 8 {
        return Err(MicrError::TooSmall(w, h));
    }
    let (work, factor) = locate::working_image(gray);
    let candidates = locate::candidates(&work);
    let mut best: Option<(f32, strip::Strip, Vec<classify::Item>, &locate::Candidate)> = None;
    for cand in candidates.iter().take(locate::MAX_READ) {
        let Some(s) = strip::extract(&work, cand) else { continue };
        let read = classify::read_strip(&s);
        let score = classify::score(&read);
        if score <= 0.0 {
            continue;
        }
        let sure = score >= SURE;
        if best.as_ref().is_none_or(|b| score > b.0) {
            best = Some((score, s, read, cand));
        }
        // A dozen confident E-13B characters on one line: no other line of a check reads so.
        if sure {
            break;
        }
    }
    let (_, s, read, cand) = best.ok_or(MicrError::NoBand)?;
    let read = refine::refine(&s, read);
    let read = adapt::adapt(&s, read);
    let read = syntax::settle_dashes(syntax::settle_routing(read));
    Ok(assemble(&s, &read, cand, factor, (w, h)))
}

fn assemble(
    s: &strip::Strip,
    read: &[classify::Item],
    cand: &locate::Candidate,
    factor: f32,
    (w, h): (u32, u32),
) -> MicrLine {
    let chars: Vec<MicrChar> = read
        .iter()
        .map(|it| {
            let (x0, y0, x1, y1) = s.source_box(it.u0 as f32, it.u1 as f32);
            let to = |v: f32, max: u32| ((v * factor).max(0.0) as u32).min(max);
            let (bx, by) = (to(x0, w - 1), to(y0, h - 1));
            let (ex, ey) = (to(x1, w), to(y1, h));
            MicrChar {
                symbol: it.symbol,
                confidence: it.confidence,
                bbox: Rect { x: bx, y: by, width: ex.saturating_sub(bx).max(1), height: ey.saturating_sub(by).max(1) },
                best_guess: it.best_guess,
            }
        })
        .collect();
    let mut line = fields::from_chars(chars);
    line.char_height = cand.height * factor;
    line.skew_degrees = cand.slope.atan().to_degrees();
    line
}
