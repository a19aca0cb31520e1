//! What a field's syntax settles.
//!
//! - A routing field is 9 digits between two transit symbols with a good ABA check digit. When
//!   exactly one of its digits is in doubt (unreadable, or read with low confidence while the
//!   check digit fails), of that digit's two best readings the one the check digit accepts is
//!   taken — only when exactly one of them is. (With one digit unknown exactly one value passes,
//!   so when neither reading does, the field stays as read and flagged; choosing among all ten
//!   values instead made two routing numbers of `micr-lines/` silently wrong, where another
//!   digit was misread.) The field is left unflagged only when its other 8 digits are sure.
//! - A dash stands between digits: see [`settle_dashes`].

use super::classify::Item;
use super::fields::{aba_valid, UNCERTAIN};
use super::Symbol;

/// The confidence each of the other 8 digits needs for the digit the check digit chose to
/// leave its field unflagged.
const SURE: f32 = 0.8;

/// `items` with the one unsure digit of a routing field settled by the check digit, when it can
/// be.
pub fn settle_routing(mut items: Vec<Item>) -> Vec<Item> {
    let transits: Vec<usize> = (0..items.len()).filter(|&i| items[i].symbol == Symbol::Transit).collect();
    let [t0, t1, ..] = transits[..] else { return items };
    if t1 != t0 + 10 {
        return items;
    }
    let field = t0 + 1..t1;
    // The digit in doubt: the one unreadable character, or when there is none and the check
    // digit fails, the one digit read with low confidence.
    let stars: Vec<usize> = field.clone().filter(|&j| items[j].symbol == Symbol::Unreadable).collect();
    let unsure = if stars.is_empty() {
        let digits: String = field.clone().map(|j| items[j].symbol.unicode()).collect();
        if aba_valid(&digits) {
            return items;
        }
        field.clone().filter(|&j| items[j].confidence < UNCERTAIN).collect()
    } else {
        stars
    };
    let [i] = unsure[..] else { return items };
    if field.clone().any(|j| j != i && !matches!(items[j].symbol, Symbol::Digit(_))) {
        return items;
    }
    let it = &items[i];
    let first = if it.symbol == Symbol::Unreadable { it.best_guess } else { Some(it.symbol) };
    let passing: Vec<Symbol> = [first, it.second]
        .into_iter()
        .flatten()
        .filter(|s| matches!(s, Symbol::Digit(_)))
        .filter(|&s| {
            let digits: String =
                field.clone().map(|j| if j == i { s.unicode() } else { items[j].symbol.unicode() }).collect();
            aba_valid(&digits)
        })
        .collect();
    if let [s] = passing[..] {
        // Taken without a flag only when the other 8 digits are sure: a wrong one among them
        // could be what makes the check digit accept the reading.
        let others_sure = field.clone().all(|j| j == i || items[j].confidence >= SURE);
        let it = &mut items[i];
        it.symbol = s;
        it.best_guess = None;
        if others_sure {
            it.confidence = it.confidence.max(UNCERTAIN);
        } else {
            it.confidence = it.confidence.min(UNCERTAIN * 0.99);
        }
    }
    items
}

/// A dash stands between digits (or ends a crop cut short): one read at the start of the line
/// or just before a transit, on-us or amount symbol is taken as its second reading when that
/// is the on-us symbol (the two share their short bars; an on-us symbol read as a dash was most
/// of the symbol errors measured on `micr-lines/`), and as unreadable otherwise. (Of the 398
/// labels of `micr-lines/`, none starts with a dash or has one before a symbol; one has a dash
/// after an on-us symbol and five end with one.)
pub fn settle_dashes(mut items: Vec<Item>) -> Vec<Item> {
    for i in 0..items.len() {
        let after = items.get(i + 1).map(|it| it.symbol);
        let misplaced = i == 0 || matches!(after, Some(Symbol::Transit | Symbol::OnUs | Symbol::Amount));
        if items[i].symbol != Symbol::Dash || !misplaced {
            continue;
        }
        let it = &mut items[i];
        if it.second == Some(Symbol::OnUs) {
            it.symbol = Symbol::OnUs;
            it.second = Some(Symbol::Dash);
        } else {
            it.best_guess = Some(Symbol::Dash);
            it.symbol = Symbol::Unreadable;
            it.confidence = 0.0;
        }
    }
    items
}
