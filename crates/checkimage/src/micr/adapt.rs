//! The line's own print as a second opinion: the characters read with confidence are averaged,
//! symbol by symbol, into templates of this line's font, ink and wear, and a character the
//! drawings left in doubt between two readings is matched against those. A check's line repeats
//! its digits (a third of the characters of `micr-lines/` are zeros), so a worn 0 is compared
//! with the line's clear 0s and 8s rather than with the standard's.

use std::collections::BTreeMap;

use super::classify::Item;
use super::strip::Strip;
use super::templates::{MARGIN, T_ROWS, T_TOP};
use super::Symbol;

/// Characters this sure make the line's templates; characters less sure are looked at again.
const MODEL: f32 = 0.9;
const DOUBT: f32 = 0.8;

/// The line's template must match this well, and this far ahead of the other reading's.
/// Measured on `micr-lines/` (0.8 and 0.1: 6 more characters right, 2 fewer substituted; these:
/// 8 and 3; lower still, or any symbol the line has rather than the two readings: more
/// substituted).
const MATCH: f32 = 0.75;
const LEAD: f32 = 0.06;

/// A patch of the strip: `width` columns from `u`, the template rows moved by `dy`.
fn patch(s: &Strip, u: usize, width: usize, dy: i32) -> Option<Vec<f32>> {
    let top = T_TOP as i32 + dy;
    if u + width > s.width || top < 0 || (top as usize + T_ROWS) * s.width > s.dark.len() {
        return None;
    }
    let top = top as usize;
    Some((top..top + T_ROWS).flat_map(|v| (u..u + width).map(move |x| s.at(x, v))).collect())
}

/// Normalized correlation of two patches of one size.
fn ncc(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len() as f32;
    let (ma, mb) = (a.iter().sum::<f32>() / n, b.iter().sum::<f32>() / n);
    let (mut ab, mut aa, mut bb) = (0f32, 0f32, 0f32);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (x - ma, y - mb);
        ab += x * y;
        aa += x * x;
        bb += y * y;
    }
    if aa < 1e-3 || bb < 1e-3 {
        return 0.0;
    }
    ab / (aa * bb).sqrt()
}

/// The best match of `template` (`width` columns) around `it`'s place: window starts within 2
/// pixels of its left edge less the margin, rows moved by up to 1.
fn best_match(s: &Strip, it: &Item, template: &[f32], width: usize) -> f32 {
    // Centre the window on the item's centre.
    let centre2 = (it.u0 + it.u1) as isize;
    let start = (centre2 - width as isize) / 2;
    let mut best = 0f32;
    for du in -2..=2isize {
        let u = start + du;
        if u < 0 {
            continue;
        }
        for dy in -1..=1 {
            if let Some(p) = patch(s, u as usize, width, dy) {
                best = best.max(ncc(&p, template));
            }
        }
    }
    best
}

/// `items` with the characters in doubt between two readings settled by the line's own
/// templates when one of the two matches well and clearly better.
pub fn adapt(s: &Strip, mut items: Vec<Item>) -> Vec<Item> {
    // The line's templates: the mean patch of the sure characters of each symbol (of its most
    // common width).
    let mut by_symbol: BTreeMap<usize, BTreeMap<usize, Vec<&Item>>> = BTreeMap::new();
    for it in items.iter().filter(|i| i.symbol != Symbol::Unreadable && i.confidence >= MODEL) {
        by_symbol.entry(it.symbol.index()).or_default().entry(it.u1 - it.u0).or_default().push(it);
    }
    let mut line: BTreeMap<usize, (Vec<f32>, usize)> = BTreeMap::new();
    for (sym, widths) in &by_symbol {
        let Some((w, members)) = widths.iter().max_by_key(|(_, m)| m.len()) else { continue };
        let width = w + 2 * MARGIN;
        let patches: Vec<Vec<f32>> =
            members.iter().filter_map(|it| patch(s, it.u0.checked_sub(MARGIN)?, width, 0)).collect();
        if patches.is_empty() {
            continue;
        }
        let mut mean = vec![0f32; patches[0].len()];
        for p in &patches {
            mean.iter_mut().zip(p).for_each(|(m, v)| *m += v / patches.len() as f32);
        }
        line.insert(*sym, (mean, width));
    }
    for it in items.iter_mut() {
        if it.symbol != Symbol::Unreadable && it.confidence >= DOUBT {
            continue;
        }
        let first = if it.symbol == Symbol::Unreadable { it.best_guess } else { Some(it.symbol) };
        let (Some(a), Some(b)) = (first, it.second) else { continue };
        let score = |sym: Symbol| line.get(&sym.index()).map(|(t, w)| best_match(s, it, t, *w));
        let (sa, sb) = (score(a), score(b));
        // Both readings need the line's template to be compared; one alone may stand only if it
        // is the first reading already.
        let pick = match (sa, sb) {
            (Some(x), Some(y)) if x >= MATCH && x >= y + LEAD => Some((a, x, y)),
            (Some(x), Some(y)) if y >= MATCH && y >= x + LEAD => Some((b, y, x)),
            _ => None,
        };
        if let Some((sym, best, other)) = pick {
            it.symbol = sym;
            it.best_guess = None;
            it.second = Some(if sym == a { b } else { a });
            it.confidence = it.confidence.max(((best - other) / (2.0 * LEAD)).clamp(0.0, 1.0) * 0.8);
        }
    }
    items
}
