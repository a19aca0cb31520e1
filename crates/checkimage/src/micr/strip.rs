//! The band straightened and scaled: rows along the candidate line, [`P`] pixels a standard unit
//! (0.013 in), from 2 units above the characters' top to 2 units below their baseline, in
//! darkness (0 paper to 1 ink) with the paper's tint and pattern taken out.

use image::GrayImage;

use super::locate::Candidate;

/// Pixels a unit in the strip: characters are 9 units, 18 pixels, tall.
pub const P: usize = 2;
/// Units above the characters' top in the strip.
pub const ABOVE: usize = 2;
/// Rows of the strip: 13 units.
pub const ROWS: usize = (9 + 2 * ABOVE) * P;

/// A straightened band.
#[derive(Debug, Clone)]
pub struct Strip {
    pub width: usize,
    /// Darkness, row-major, `width` × [`ROWS`].
    pub dark: Vec<f32>,
    /// For each column: the working-image point where it crosses the characters' top line, and
    /// the working pixels a strip pixel there.
    columns: Vec<(f32, f32, f32)>,
    /// For each column: working pixels along the line a strip pixel, over those across.
    aspects: Vec<f32>,
    /// Unit vectors along the line and across it (downwards).
    along: (f32, f32),
    across: (f32, f32),
}

impl Strip {
    /// Column `u`: where it crosses the characters' top line (working pixels) and the working
    /// pixels a strip pixel there.
    pub fn column(&self, u: usize) -> (f32, f32, f32) {
        self.columns[u]
    }

    pub fn at(&self, u: usize, v: usize) -> f32 {
        self.dark[v * self.width + u]
    }

    /// The working-image point of strip point (`u`, `v`) (`u` a column, `v` a row; fractions
    /// move within the pixel).
    pub fn source(&self, u: f32, v: f32) -> (f32, f32) {
        let i = (u.floor().max(0.0) as usize).min(self.columns.len().saturating_sub(1));
        let (x, y, step) = self.columns[i];
        let (du, dv) = ((u - i as f32) * step * self.aspects[i], (v - (ABOVE * P) as f32) * step);
        (x + du * self.along.0 + dv * self.across.0, y + du * self.along.1 + dv * self.across.1)
    }

    /// The axis-aligned working-image box of columns `u0..u1` over the character rows.
    pub fn source_box(&self, u0: f32, u1: f32) -> (f32, f32, f32, f32) {
        let (v0, v1) = ((ABOVE * P) as f32, ((ABOVE + 9) * P) as f32);
        let pts = [self.source(u0, v0), self.source(u1, v0), self.source(u0, v1), self.source(u1, v1)];
        let xs = pts.iter().map(|p| p.0);
        let ys = pts.iter().map(|p| p.1);
        (
            xs.clone().fold(f32::MAX, f32::min),
            ys.clone().fold(f32::MAX, f32::min),
            xs.fold(f32::MIN, f32::max),
            ys.fold(f32::MIN, f32::max),
        )
    }
}

fn bilinear(g: &GrayImage, x: f32, y: f32) -> f32 {
    let (w, h) = (g.width() as i64, g.height() as i64);
    let (fx, fy) = (x - 0.5, y - 0.5);
    let (x0, y0) = (fx.floor(), fy.floor());
    let (ax, ay) = (fx - x0, fy - y0);
    let px = |xi: i64, yi: i64| -> f32 {
        let (xi, yi) = (xi.clamp(0, w - 1), yi.clamp(0, h - 1));
        f32::from(g.as_raw()[(yi * w + xi) as usize])
    };
    let (xi, yi) = (x0 as i64, y0 as i64);
    let top = px(xi, yi) * (1.0 - ax) + px(xi + 1, yi) * ax;
    let bot = px(xi, yi + 1) * (1.0 - ax) + px(xi + 1, yi + 1) * ax;
    top * (1.0 - ay) + bot * ay
}

/// The strip along `c` across the whole width of `gray` (so symbols and fields beyond the
/// characters that found the line are read too), each column scaled to the height of the
/// characters near it. `None` when the line is too small or shows no contrast.
pub fn extract(gray: &GrayImage, c: &Candidate) -> Option<Strip> {
    if c.height / 9.0 < 0.55 {
        return None;
    }
    let norm = (1.0 + c.slope * c.slope).sqrt();
    let along = (1.0 / norm, c.slope / norm);
    let across = (-c.slope / norm, 1.0 / norm);
    // Columns: from the left edge to the right edge of the picture, each a local unit / P
    // further along the line.
    let mut columns = Vec::new();
    let mut aspects = Vec::new();
    let mut x = 0.0f32;
    let wmax = gray.width() as f32;
    while x < wmax && columns.len() < 20_000 {
        let (t, b) = c.top_bottom_at(x);
        // Local height, bounded to ±30 % of the line's.
        let h = ((b - t) / norm).clamp(0.7 * c.height, 1.3 * c.height);
        let step = h / 9.0 / P as f32;
        let aspect = c.aspect_at(x);
        columns.push((x, t, step));
        aspects.push(aspect);
        x += step * aspect * along.0;
    }
    let width = columns.len();
    if width < 4 * P {
        return None;
    }
    let mut gray_strip = vec![0f32; width * ROWS];
    for (u, (&(x, y, step), &aspect)) in columns.iter().zip(&aspects).enumerate() {
        // n × n bilinear samples a strip pixel when the strip is coarser than the picture.
        let n = step.ceil().clamp(1.0, 4.0) as usize;
        for v in 0..ROWS {
            let mut acc = 0.0;
            for sy in 0..n {
                for sx in 0..n {
                    let du = (sx as f32 + 0.5) / n as f32 * step * aspect;
                    let dv = (v as f32 + (sy as f32 + 0.5) / n as f32 - (ABOVE * P) as f32) * step;
                    acc += bilinear(gray, x + du * along.0 + dv * across.0, y + du * along.1 + dv * across.1);
                }
            }
            gray_strip[v * width + u] = acc / (n * n) as f32;
        }
    }
    // Paper and ink levels over the character rows: the paper is the bright bulk, the ink the
    // darkest few per cent.
    let rows = ABOVE * P..(ABOVE + 9) * P;
    let mut levels: Vec<f32> = rows.flat_map(|v| gray_strip[v * width..(v + 1) * width].iter().copied()).collect();
    levels.sort_by(f32::total_cmp);
    let q = |f: f32| levels[((levels.len() - 1) as f32 * f) as usize];
    let paper = q(0.85);
    let ink = q(0.01);
    let range = paper - ink;
    if range < 30.0 {
        return None;
    }
    // Darkness, with anything lighter than a fifth of the way to the ink taken as paper.
    let dark: Vec<f32> = gray_strip.iter().map(|g| (((paper - g) / range - 0.2) / 0.6).clamp(0.0, 1.0)).collect();
    Some(Strip { width, dark: blur(&dark, width), columns, aspects, along, across })
}

/// A [1 2 1]/4 blur across and along.
fn blur(d: &[f32], w: usize) -> Vec<f32> {
    let h = d.len() / w;
    let mut a = vec![0f32; d.len()];
    for y in 0..h {
        for x in 0..w {
            let l = d[y * w + x.saturating_sub(1)];
            let r = d[y * w + (x + 1).min(w - 1)];
            a[y * w + x] = (l + 2.0 * d[y * w + x] + r) / 4.0;
        }
    }
    let mut b = vec![0f32; d.len()];
    for y in 0..h {
        for x in 0..w {
            let t = a[y.saturating_sub(1) * w + x];
            let bo = a[(y + 1).min(h - 1) * w + x];
            b[y * w + x] = (t + 2.0 * a[y * w + x] + bo) / 4.0;
        }
    }
    b
}
