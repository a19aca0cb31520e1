//! Finding a check in a photo (its four corners) and straightening it to an upright rectangle.
//!
//! [`find_check`] works on a copy reduced to at most 800 pixels on its longer side (box filter),
//! where a check covering a third of the frame still has sides of 100 pixels and more:
//!
//! 1. edges and the straight lines they lie on, each line with the side its light paper is on
//!    ([`edges`]: smoothing, Sobel, thinning, a Hough table of signed normals);
//! 2. every two pairs of opposite lines, near perpendicular, closing a convex quadrilateral, is
//!    scored by how much of each side really shows paper against a darker background, by its
//!    corners' squareness and by a check's proportions ([`quad`]); a side may be the picture's
//!    own border when the check runs out of the frame;
//! 3. the winner's sides are refitted to their edge points (least squares, sub-pixel);
//! 4. the corners are named as the check reads: long sides top and bottom, the top the one the
//!    MICR line is not along (when a line of E-13B-sized characters is seen along one long side;
//!    otherwise the one that turns the check least).
//!
//! [`find_front`] weighs the best three outlines and takes the best holding a MICR line (a
//! window behind a check can outscore the check).
//!
//! [`straighten`] maps the quadrilateral onto a rectangle through the homography of its corners.

pub mod edges;
pub mod quad;
pub mod warp;

use image::GrayImage;

use crate::micr::locate;
use edges::{EdgePoint, Line};

/// A point in a picture, `[x, y]` in pixels, continuous: the picture spans `0..width` and
/// `0..height`, pixel `(i, j)` has its centre at `(i + 0.5, j + 0.5)`.
pub type Point = [f32; 2];

/// A check found in a picture.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Found {
    /// Corners in the picture's pixels: top-left, top-right, bottom-right, bottom-left as the
    /// check reads (long edges are top and bottom; a picture taken in portrait still gives a
    /// landscape check).
    pub corners: [Point; 4],
    /// 0..1: how sure (share of each side showing paper against something darker, edge
    /// contrast, right angles after perspective, long over short sides within 2.0–3.0).
    pub confidence: f32,
    /// Share of the picture the check covers along the picture's axis it is most extended on
    /// (0..1; its width's share for a landscape check in a landscape picture), for a "move
    /// closer" hint.
    pub fill: f32,
    /// false when a side of the check touches or crosses the picture's border (not all of it is
    /// in the picture).
    pub whole: bool,
    /// The MICR line along its bottom (as named): its count of digit-shaped characters (0: none
    /// seen). A front's outline holds one; a window's or a sheet's does not.
    pub micr: usize,
}

/// Longest side of the working copy. 800 keeps a check that covers a third of a 4:3 frame at
/// 270 × 110 pixels: corners come out within 0.13 % of the check's diagonal on the tests'
/// photos (median 0.01 %); edges, lines and quads take about 7 ms natively on 640 × 480.
const WORK: u32 = 800;
/// Below this confidence nothing is reported. Measured on the tests' pictures: checks wholly in
/// a photo score 0.98 to 1; a check the frame cuts off 0.47 (its missing side counts half); of
/// the eight real scans seven give nothing and one (04) a strip along its edge at 0.43, with a
/// side on the picture's border (not `whole`, so not straightened); blank and noise pictures
/// give no quadrilateral at all.
const MIN_CONFIDENCE: f32 = 0.4;

/// Finds the check: works on a copy scaled to at most 800 pixels on its longer side, answers in
/// `gray`'s pixels. `None` when nothing check-shaped stands out (a blank or noisy picture, or a
/// picture too small to tell).
///
/// ```
/// use moneydesk_checkimage::find::find_check;
/// // A light 2.4:1 card on a dark table.
/// let photo = image::GrayImage::from_fn(640, 480, |x, y| {
///     image::Luma([if (100..580).contains(&x) && (140..340).contains(&y) { 220 } else { 60 }])
/// });
/// let found = find_check(&photo).unwrap();
/// let [tl, _, br, _] = found.corners;
/// assert!((tl[0] - 100.0).abs() < 2.0 && (tl[1] - 140.0).abs() < 2.0);
/// assert!((br[0] - 580.0).abs() < 2.0 && (br[1] - 340.0).abs() < 2.0);
/// assert!(found.whole && (found.fill - 0.75).abs() < 0.01);
/// assert_eq!(find_check(&image::GrayImage::from_pixel(640, 480, image::Luma([128]))), None);
/// ```
pub fn find_check(gray: &GrayImage) -> Option<Found> {
    candidates(gray, 1).into_iter().next()
}

/// How many outlines [`find_front`] weighs.
const FRONT_CANDIDATES: usize = 3;
/// Digit-shaped characters along a long edge that make a MICR line (a routing field alone has 9).
pub const MICR_EVIDENCE: usize = 8;

/// Like [`find_check`], for a check's front: of the best few outlines, the best one that holds
/// a MICR line along a long edge ([`Found::micr`]), the MICR band being the strongest sign of a
/// check — a window or a sheet of paper behind the check can be the largest, brightest
/// quadrilateral in a photo; with no outline holding one, the best outline.
pub fn find_front(gray: &GrayImage) -> Option<Found> {
    let found = candidates(gray, FRONT_CANDIDATES);
    found.iter().find(|f| f.micr >= MICR_EVIDENCE).or(found.first()).copied()
}

/// The `n` best outlines found, best first (at most 800 pixels on the longer side).
fn candidates(gray: &GrayImage, n: usize) -> Vec<Found> {
    let (w, h) = gray.dimensions();
    if w.min(h) < 32 {
        return Vec::new();
    }
    let f = w.max(h).div_ceil(WORK);
    let small = if f > 1 { locate::box_reduce(gray, f) } else { gray.clone() };
    if small.width().min(small.height()) < 16 {
        return Vec::new(); // a sliver: nothing check-shaped fits
    }
    let e = edges::edges(&small);
    let long = small.width().max(small.height()) as f32;
    let lines = edges::hough(&e, 0.05 * long, 30);
    let min_side = 0.06 * long;
    quad::best_few(&e, &lines, min_side, n).into_iter().filter_map(|q| found(gray, &e, q, min_side, f)).collect()
}

/// The outline `q` (found on a copy reduced `f` times) refined, named and measured in `gray`'s
/// pixels; `None` below [`MIN_CONFIDENCE`].
fn found(gray: &GrayImage, e: &edges::Edges, q: quad::Quad, min_side: f32, f: u32) -> Option<Found> {
    let (w, h) = gray.dimensions();
    let refined = refine(e, q.lines, min_side).unwrap_or(q);
    let confidence = (refined.score.min(q.score) * (q.contrast / 30.0).min(1.0)).clamp(0.0, 1.0);
    if confidence < MIN_CONFIDENCE {
        return None;
    }
    let s = f as f32;
    let mut corners = refined.corners.map(|[x, y]| [x * s, y * s]);
    let clear = order(&mut corners);
    let (top, bottom) = micr_lines(gray, &corners);
    let flip = if clear { top >= 8 && top > 2 * bottom } else { top > bottom };
    if flip {
        corners.rotate_left(2);
    }
    let micr = if flip { top } else { bottom };
    let (fw, fh) = (w as f32, h as f32);
    let margin = s;
    let whole = !q.lines.iter().any(|l| l.border)
        && corners.iter().all(|&[x, y]| x > margin && y > margin && x < fw - margin && y < fh - margin);
    let (xs, ys) = (corners.map(|c| c[0]), corners.map(|c| c[1]));
    let extent = |v: [f32; 4], size: f32| {
        (v.iter().copied().fold(f32::MIN, f32::max).min(size) - v.iter().copied().fold(f32::MAX, f32::min).max(0.0))
            / size
    };
    let fill = extent(xs, fw).max(extent(ys, fh)).clamp(0.0, 1.0);
    Some(Found { corners, confidence, fill, whole, micr })
}

/// Each side refitted (total least squares) to the edge points within 2.5 px, then 1.5 px, of it
/// that face the same way, over the middle 90 % of its length; the quad scored again.
fn refine(e: &edges::Edges, mut lines: [Line; 4], min_side: f32) -> Option<quad::Quad> {
    for radius in [2.5f32, 1.5] {
        let q = quad::evaluate(e, lines, min_side, f32::INFINITY)?;
        for (i, line) in lines.iter_mut().enumerate() {
            if !line.border {
                *line = refit(e, line, q.corners[(i + 3) % 4], q.corners[i], radius);
            }
        }
    }
    quad::evaluate(e, lines, min_side, f32::INFINITY)
}

/// `l` fitted to its edge points between `a` and `b` (unchanged with fewer than 10).
fn refit(e: &edges::Edges, l: &Line, a: Point, b: Point, radius: f32) -> Line {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = (dx * dx + dy * dy).max(1e-6);
    let near: Vec<&EdgePoint> = e
        .points
        .iter()
        .filter(|p| {
            let t = ((p.x - a[0]) * dx + (p.y - a[1]) * dy) / len2;
            (0.05..0.95).contains(&t) && l.dist(p.x, p.y).abs() <= radius && p.nx * l.nx + p.ny * l.ny > 0.97
        })
        .collect();
    if near.len() < 10 {
        return *l;
    }
    let n = near.len() as f32;
    let (mx, my) = (near.iter().map(|p| p.x).sum::<f32>() / n, near.iter().map(|p| p.y).sum::<f32>() / n);
    let (mut sxx, mut sxy, mut syy) = (0f32, 0f32, 0f32);
    for p in &near {
        let (u, v) = (p.x - mx, p.y - my);
        sxx += u * u;
        sxy += u * v;
        syy += v * v;
    }
    // The normal is the eigenvector of the scatter matrix's smaller eigenvalue.
    let theta = 0.5 * (2.0 * sxy).atan2(sxx - syy) + std::f32::consts::FRAC_PI_2;
    let (mut nx, mut ny) = (theta.cos(), theta.sin());
    if nx * l.nx + ny * l.ny < 0.0 {
        (nx, ny) = (-nx, -ny);
    }
    Line { nx, ny, c: nx * mx + ny * my, ..*l }
}

/// Puts four corners in turn (any start, either way round) in reading order: clockwise on the
/// screen, starting at the top-left of a long side, the long side that points most to the
/// right taken as the top. Says whether that was clear: the top within 60° of level (a check
/// across a portrait frame is not).
fn order(c: &mut [Point; 4]) -> bool {
    let area: f32 = (0..4).map(|i| c[i][0] * c[(i + 1) % 4][1] - c[(i + 1) % 4][0] * c[i][1]).sum();
    if area < 0.0 {
        c.reverse();
    }
    let side = |i: usize| {
        let (a, b) = (c[i], c[(i + 1) % 4]);
        ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt()
    };
    let first_long = if side(0) + side(2) >= side(1) + side(3) { 0 } else { 1 };
    let dx = |i: usize| c[(i + 1) % 4][0] - c[i][0];
    let top = if dx(first_long) >= dx(first_long + 2) { first_long } else { first_long + 2 };
    c.rotate_left(top);
    let (dx, dy) = (c[1][0] - c[0][0], c[1][1] - c[0][1]);
    dx > 0.5 * (dx * dx + dy * dy).sqrt()
}

/// The MICR lines along the top and the bottom of the check straightened as `corners` name it
/// (a line along the top: it is upside down), each as its count of digit-shaped characters. The MICR reader's locator, on a 900-pixel-wide copy (characters 12 to 18
/// pixels tall; at 720 pixels 2 more of 200 portrait live frames came out upside down), finds
/// lines of
/// characters; a MICR line is one of E-13B's height (0.117 in: 3 to 6.5 % of a check's height)
/// along a long edge (its middle within the outer 22 %: the baseline is 3/16 in from the edge).
/// The evidence for each edge is its best such line's count of digit-shaped characters. When
/// the geometry already says which way is up (`clear`), only a line twice as strong on top
/// overturns it ([`found`]): text at the top of a check can look like a row of digits.
fn micr_lines(gray: &GrayImage, corners: &[Point; 4]) -> (usize, usize) {
    let (wq, hq) = quad_size(corners);
    let width = 900.0f32;
    let height = (hq * width / wq.max(1.0)).round().max(1.0);
    let img = warp::warp(gray, corners, width as u32, height as u32);
    let (mut top, mut bottom) = (0usize, 0usize);
    for c in locate::candidates(&img) {
        let rel = c.height / height;
        if !(0.03..=0.065).contains(&rel) || c.digit_like < 5 {
            continue;
        }
        let y = (c.slope * (c.x0 + c.x1) / 2.0 + (c.top + c.bottom) / 2.0) / height;
        if y > 0.78 {
            bottom = bottom.max(c.digit_like);
        } else if y < 0.22 {
            top = top.max(c.digit_like);
        }
    }
    (top, bottom)
}

/// The rectangle a quad straightens to before any scaling: mean lengths of its top and bottom,
/// and of its left and right sides.
pub fn quad_size(c: &[Point; 4]) -> (f32, f32) {
    let d = |a: Point, b: Point| ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt();
    ((d(c[0], c[1]) + d(c[3], c[2])) / 2.0, (d(c[0], c[3]) + d(c[1], c[2])) / 2.0)
}

/// Perspective warp (homography from the 4 corners, bilinear sampling) to an upright rectangle
/// whose width is the mean length of the top and bottom edges, capped at `max_width` (never
/// upscaled beyond the source's own resolution), and whose height keeps the mean length of the
/// left and right edges in proportion. A picture much larger than the result is box-reduced
/// first, so that sampling does not alias.
///
/// ```
/// use moneydesk_checkimage::find::straighten;
/// let photo = image::GrayImage::from_fn(640, 480, |x, y| image::Luma([(x / 2) as u8]));
/// let corners = [[100.0, 100.0], [540.0, 100.0], [540.0, 300.0], [100.0, 300.0]];
/// let check = straighten(&photo, &corners, 1000);
/// assert_eq!(check.dimensions(), (440, 200));
/// assert_eq!(check.get_pixel(0, 0).0[0], 50);
/// assert_eq!(straighten(&photo, &corners, 220).dimensions(), (220, 100));
/// ```
pub fn straighten(gray: &GrayImage, corners: &[Point; 4], max_width: u32) -> GrayImage {
    let (wq, hq) = quad_size(corners);
    let width = (wq.round() as u32).clamp(1, max_width.max(1));
    let scale = width as f32 / wq.max(1.0);
    let height = ((hq * scale).round() as u32).max(1);
    let f = (1.0 / scale).floor() as u32;
    if f >= 2 && gray.width() >= 2 * f && gray.height() >= 2 * f {
        let reduced = locate::box_reduce(gray, f);
        let c = corners.map(|[x, y]| [x / f as f32, y / f as f32]);
        warp::warp(&reduced, &c, width, height)
    } else {
        warp::warp(gray, corners, width, height)
    }
}
