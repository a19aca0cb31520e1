//! From pixels to ink: the working image, the local threshold and the connected components
//! that [`candidates`](super::candidates) chains into lines.

use image::GrayImage;

use super::MAX_WIDTH;

/// The picture reduced to at most [`MAX_WIDTH`] wide, and the factor back to its pixels.
pub fn working_image(gray: &GrayImage) -> (GrayImage, f32) {
    let w = gray.width();
    if w <= MAX_WIDTH {
        return (gray.clone(), 1.0);
    }
    let f = w.div_ceil(MAX_WIDTH);
    (box_reduce(gray, f), f as f32)
}

/// Averages `f` × `f` blocks.
pub fn box_reduce(gray: &GrayImage, f: u32) -> GrayImage {
    let (w, h) = gray.dimensions();
    let (nw, nh) = ((w / f).max(1), (h / f).max(1));
    let src = gray.as_raw();
    let mut out = vec![0u8; (nw * nh) as usize];
    let mut acc = vec![0u32; nw as usize];
    for oy in 0..nh {
        acc.iter_mut().for_each(|a| *a = 0);
        for y in oy * f..((oy + 1) * f).min(h) {
            let row = &src[(y * w) as usize..((y + 1) * w) as usize];
            for (ox, a) in acc.iter_mut().enumerate() {
                let start = ox * f as usize;
                *a += row[start..start + f as usize].iter().map(|&p| u32::from(p)).sum::<u32>();
            }
        }
        let n = f * f;
        for (ox, a) in acc.iter().enumerate() {
            out[(oy * nw) as usize + ox] = (a / n) as u8;
        }
    }
    GrayImage::from_raw(nw, nh, out).unwrap_or_else(|| GrayImage::new(nw, nh))
}

/// Ink by Sauvola's local threshold (window `2r+1`, k = 0.25, R = 128), as a row-major mask.
pub fn sauvola(gray: &GrayImage, r: u32) -> Vec<bool> {
    let (w, h) = (gray.width() as usize, gray.height() as usize);
    let src = gray.as_raw();
    // Integral images of the values and their squares, (w+1) × (h+1).
    let iw = w + 1;
    let mut sum = vec![0u64; iw * (h + 1)];
    let mut sq = vec![0u64; iw * (h + 1)];
    for y in 0..h {
        let (mut rs, mut rq) = (0u64, 0u64);
        for x in 0..w {
            let v = u64::from(src[y * w + x]);
            rs += v;
            rq += v * v;
            sum[(y + 1) * iw + x + 1] = sum[y * iw + x + 1] + rs;
            sq[(y + 1) * iw + x + 1] = sq[y * iw + x + 1] + rq;
        }
    }
    let r = r as usize;
    let mut out = vec![false; w * h];
    const K: f64 = 0.25;
    const R: f64 = 128.0;
    for y in 0..h {
        let (y0, y1) = (y.saturating_sub(r), (y + r + 1).min(h));
        for x in 0..w {
            let v = src[y * w + x];
            if v > 235 {
                continue;
            }
            let (x0, x1) = (x.saturating_sub(r), (x + r + 1).min(w));
            let n = ((y1 - y0) * (x1 - x0)) as f64;
            let s = (sum[y1 * iw + x1] + sum[y0 * iw + x0] - sum[y0 * iw + x1] - sum[y1 * iw + x0]) as f64;
            let q = (sq[y1 * iw + x1] + sq[y0 * iw + x0] - sq[y0 * iw + x1] - sq[y1 * iw + x0]) as f64;
            let m = s / n;
            let var = q / n - m * m;
            // v < m (1 + K (sd / R − 1)), without the square root: v − m (1 − K) < m K sd / R.
            let lhs = f64::from(v) - m * (1.0 - K);
            let k = m * K / R;
            out[y * w + x] = var > 144.0 && (lhs < 0.0 || lhs * lhs < k * k * var);
        }
    }
    out
}

/// A connected component's box and pixel count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Component {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
    pub pixels: u32,
}

impl Component {
    pub fn width(&self) -> u32 {
        self.x1 - self.x0 + 1
    }
    pub fn height(&self) -> u32 {
        self.y1 - self.y0 + 1
    }
}

pub(super) fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let p = parent[parent[i as usize] as usize];
        parent[i as usize] = p;
        i = p;
    }
    i
}

pub(super) fn union(parent: &mut [u32], a: u32, b: u32) {
    let (a, b) = (find(parent, a), find(parent, b));
    if a != b {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        parent[hi as usize] = lo;
    }
}

/// 8-connected components of `mask` (`w` wide), by runs.
pub fn components(mask: &[bool], w: usize) -> Vec<Component> {
    let h = mask.len().checked_div(w).unwrap_or(0);
    // Runs: (y, x0, x1 inclusive).
    let mut runs: Vec<(u32, u32, u32)> = Vec::new();
    let mut row_start = Vec::with_capacity(h + 1);
    for y in 0..h {
        row_start.push(runs.len());
        let row = &mask[y * w..(y + 1) * w];
        let mut x = 0;
        while x < w {
            if row[x] {
                let s = x;
                while x < w && row[x] {
                    x += 1;
                }
                runs.push((y as u32, s as u32, x as u32 - 1));
            } else {
                x += 1;
            }
        }
    }
    row_start.push(runs.len());
    let mut parent: Vec<u32> = (0..runs.len() as u32).collect();
    for y in 1..h {
        let (prev, cur) = (row_start[y - 1]..row_start[y], row_start[y]..row_start[y + 1]);
        let mut j = prev.start;
        for i in cur {
            let (_, a0, a1) = runs[i];
            while j < prev.end && runs[j].2 + 1 < a0 {
                j += 1;
            }
            let mut k = j;
            while k < prev.end && runs[k].1 <= a1 + 1 {
                union(&mut parent, i as u32, k as u32);
                k += 1;
            }
        }
    }
    let mut index = vec![u32::MAX; runs.len()];
    let mut out: Vec<Component> = Vec::new();
    for (i, &(y, a, b)) in runs.iter().enumerate() {
        let root = find(&mut parent, i as u32) as usize;
        if index[root] == u32::MAX {
            index[root] = out.len() as u32;
            out.push(Component { x0: a, y0: y, x1: b, y1: y, pixels: 0 });
        }
        let c = &mut out[index[root] as usize];
        c.x0 = c.x0.min(a);
        c.x1 = c.x1.max(b);
        c.y0 = c.y0.min(y);
        c.y1 = c.y1.max(y);
        c.pixels += b - a + 1;
    }
    out
}
