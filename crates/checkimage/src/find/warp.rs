//! The perspective warp: the homography that takes an upright rectangle to the four corners
//! found, and bilinear sampling through it.

use image::GrayImage;

use super::Point;

/// A 3 × 3 projective map, row-major, `h[8]` = 1.
#[derive(Debug, Clone, Copy)]
pub struct Homography(pub [f64; 9]);

impl Homography {
    /// The map from the unit square ((0,0), (1,0), (1,1), (0,1)) to `q` in that order
    /// (Heckbert's closed form: no linear system to solve, no failure short of a degenerate quad).
    ///
    /// ```
    /// use moneydesk_checkimage::find::warp::Homography;
    /// let q = [[10.0, 20.0], [410.0, 40.0], [400.0, 230.0], [20.0, 200.0]];
    /// let h = Homography::square_to_quad(&q);
    /// for ((u, v), [x, y]) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].into_iter().zip(q) {
    ///     let (px, py) = h.apply(u, v);
    ///     assert!((px - f64::from(x)).abs() < 1e-9 && (py - f64::from(y)).abs() < 1e-9);
    /// }
    /// ```
    pub fn square_to_quad(q: &[Point; 4]) -> Homography {
        let [x0, y0] = q[0].map(f64::from);
        let [x1, y1] = q[1].map(f64::from);
        let [x2, y2] = q[2].map(f64::from);
        let [x3, y3] = q[3].map(f64::from);
        let (sx, sy) = (x0 - x1 + x2 - x3, y0 - y1 + y2 - y3);
        let (dx1, dx2, dy1, dy2) = (x1 - x2, x3 - x2, y1 - y2, y3 - y2);
        let det = dx1 * dy2 - dx2 * dy1;
        let (g, h) = if det.abs() < 1e-12 || (sx.abs() < 1e-9 && sy.abs() < 1e-9) {
            (0.0, 0.0)
        } else {
            ((sx * dy2 - dx2 * sy) / det, (dx1 * sy - sx * dy1) / det)
        };
        Homography([x1 - x0 + g * x1, x3 - x0 + h * x3, x0, y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h, 1.0])
    }

    /// Where `(u, v)` goes.
    pub fn apply(&self, u: f64, v: f64) -> (f64, f64) {
        let m = &self.0;
        let w = m[6] * u + m[7] * v + m[8];
        ((m[0] * u + m[1] * v + m[2]) / w, (m[3] * u + m[4] * v + m[5]) / w)
    }
}

/// Bilinear sample at continuous `(x, y)` (pixel centres at `i + 0.5`), edges clamped.
fn sample(src: &[u8], w: usize, h: usize, x: f32, y: f32) -> u8 {
    let (x, y) = ((x - 0.5).clamp(0.0, (w - 1) as f32), (y - 0.5).clamp(0.0, (h - 1) as f32));
    let (x0, y0) = (x as usize, y as usize);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (ax, ay) = (x - x0 as f32, y - y0 as f32);
    let p = |xx: usize, yy: usize| f32::from(src[yy * w + xx]);
    let top = p(x0, y0) + (p(x1, y0) - p(x0, y0)) * ax;
    let bottom = p(x0, y1) + (p(x1, y1) - p(x0, y1)) * ax;
    (top + (bottom - top) * ay + 0.5) as u8
}

/// `gray` inside the quad `q` (top-left, top-right, bottom-right, bottom-left) resampled onto a
/// `width` × `height` rectangle.
pub fn warp(gray: &GrayImage, q: &[Point; 4], width: u32, height: u32) -> GrayImage {
    let (sw, sh) = (gray.width() as usize, gray.height() as usize);
    let mut out = GrayImage::new(width.max(1), height.max(1));
    if sw == 0 || sh == 0 {
        return out;
    }
    let hm = Homography::square_to_quad(q);
    let m = hm.0;
    let src = gray.as_raw();
    let (ow, oh) = (out.width() as usize, out.height() as usize);
    let dst: &mut [u8] = &mut out;
    for y in 0..oh {
        let v = (y as f64 + 0.5) / oh as f64;
        // Along a row the numerators and the denominator are affine in u: step them.
        let du = 1.0 / ow as f64;
        let u0 = 0.5 * du;
        let (mut nx, mut ny, mut nw) =
            (m[0] * u0 + m[1] * v + m[2], m[3] * u0 + m[4] * v + m[5], m[6] * u0 + m[7] * v + m[8]);
        let (sx, sy, sw_) = (m[0] * du, m[3] * du, m[6] * du);
        for px in &mut dst[y * ow..(y + 1) * ow] {
            *px = sample(src, sw, sh, (nx / nw) as f32, (ny / nw) as f32);
            nx += sx;
            ny += sy;
            nw += sw_;
        }
    }
    out
}
