//! The templates the strip is matched against: each of the crate's E-13B drawings
//! ([`super::glyphs`]) rendered at the strip's scale, in a few widths, blurred like the strip,
//! with what normalized correlation needs precomputed.

use std::sync::OnceLock;

use super::glyphs::{Glyph, GLYPHS};
use super::strip::{ABOVE, P};
use super::Symbol;

/// Blank columns around a glyph in its template.
pub const MARGIN: usize = 1;
/// Template rows: a unit above and below the character.
pub const T_ROWS: usize = 11 * P;
/// First strip row of a template at no vertical offset.
pub const T_TOP: usize = (ABOVE - 1) * P;

/// A glyph's template: its values (coverage, blurred), and for the whole window and each half
/// (top, bottom rows) the mean and the norm of the values less that mean, for normalized
/// correlation. Its glyph's width in strip pixels.
pub struct Template {
    pub symbol: Symbol,
    pub glyph_width: usize,
    pub(crate) width: usize,
    pub(crate) values: Vec<f32>,
    /// (mean, norm) over all rows, the top half, the bottom half.
    pub(crate) zones: [(f32, f32); 3],
}

/// The row where a template's bottom half starts: the middle of the character.
pub const SPLIT: usize = T_ROWS / 2;

/// Each glyph as drawn, and in the widths printers' and fonts' E-13B also come in: the wide
/// ones (5 units and more) 1 unit narrower, so that a condensed 0 does not read as 8, and the
/// narrow ones (4 and 5 units) wider, so that an extended 2 does not either.
pub fn templates() -> &'static [Template] {
    static T: OnceLock<Vec<Template>> = OnceLock::new();
    T.get_or_init(|| {
        GLYPHS
            .iter()
            .flat_map(|g| {
                let units = g.width() / 2;
                let w = units * P;
                let mut widths = vec![w];
                if units >= 5 {
                    widths.push(w - P);
                }
                if units <= 5 {
                    widths.push(w + P);
                }
                if units == 4 {
                    widths.push(w + 2 * P);
                }
                widths.into_iter().map(|width| render(g, width)).collect::<Vec<_>>()
            })
            .collect()
    })
}

/// A glyph at [`P`] pixels a unit, `glyph_width` pixels wide (area-resampled across), blurred
/// like the strip, zero-mean and of unit norm.
fn render(g: &Glyph, glyph_width: usize) -> Template {
    let half = P / 2;
    let width = glyph_width + 2 * MARGIN;
    let mut v = vec![0f32; width * T_ROWS];
    let scale = g.width() as f32 / glyph_width as f32; // half-unit cells a pixel
    for row in 0..18 {
        for x in 0..glyph_width {
            // Coverage of pixel x by ink cells of this row.
            let (a, b) = (x as f32 * scale, (x + 1) as f32 * scale);
            let mut cover = 0.0;
            let mut c = a.floor() as usize;
            while (c as f32) < b && c < g.width() {
                let overlap = (b.min(c as f32 + 1.0) - a.max(c as f32)).max(0.0);
                if g.ink(c, row) {
                    cover += overlap;
                }
                c += 1;
            }
            for dy in 0..half {
                v[(P + row * half + dy) * width + MARGIN + x] = cover / scale;
            }
        }
    }
    let v = blur121(&v, width);
    let zone = |part: &[f32]| {
        let mean = part.iter().sum::<f32>() / part.len() as f32;
        (mean, part.iter().map(|x| (x - mean) * (x - mean)).sum::<f32>().sqrt().max(1e-3))
    };
    let zones = [zone(&v), zone(&v[..SPLIT * width]), zone(&v[SPLIT * width..])];
    Template { symbol: g.symbol, glyph_width, width, values: v, zones }
}

fn blur121(d: &[f32], w: usize) -> Vec<f32> {
    let h = d.len() / w;
    let get = |x: isize, y: isize| {
        if x < 0 || y < 0 || x >= w as isize || y >= h as isize {
            0.0
        } else {
            d[y as usize * w + x as usize]
        }
    };
    let mut a = vec![0f32; d.len()];
    for y in 0..h as isize {
        for x in 0..w as isize {
            a[y as usize * w + x as usize] = (get(x - 1, y) + 2.0 * get(x, y) + get(x + 1, y)) / 4.0;
        }
    }
    let geta = |x: isize, y: isize| if y < 0 || y >= h as isize { 0.0 } else { a[y as usize * w + x as usize] };
    let mut b = vec![0f32; d.len()];
    for y in 0..h as isize {
        for x in 0..w as isize {
            b[y as usize * w + x as usize] = (geta(x, y - 1) + 2.0 * geta(x, y) + geta(x, y + 1)) / 4.0;
        }
    }
    b
}
