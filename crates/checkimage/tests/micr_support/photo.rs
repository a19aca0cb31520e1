//! Synthetic photos of a check: a check front (paper, a light security pattern, a printed frame,
//! blocks of "text", a signature rule and a real E-13B line drawn from the OFL outlines) put on
//! a textured table through a known homography (turned, tilted, at a chosen size), then lit
//! unevenly, blurred, noised and JPEG-compressed. The truth is the four corners in the photo.
//! Its own projective algebra (an 8 × 8 solve), so the crate's is not tested against itself.

use image::{GrayImage, Luma};

use super::{gaussian, svg, Rng};

/// How a photo is taken.
#[derive(Debug, Clone, Copy)]
pub struct Shot {
    pub width: u32,
    pub height: u32,
    /// Turn of the check in degrees (clockwise on the screen); ±90 for a check across a
    /// portrait frame.
    pub rotation: f64,
    /// Share by which one side is shorter than the opposite one (0.1 to 0.15 hand-held).
    pub tilt: f64,
    /// Which side is the short one: 0 top, 1 right, 2 bottom, 3 left.
    pub tilt_side: usize,
    /// The check's extent across the picture's longer axis, as a share of it.
    pub fill: f64,
    /// Where the check's centre is, as shares of the free room (0.5: centred).
    pub place: (f64, f64),
    /// Light from 1 − light to 1 + light across the frame.
    pub light: f64,
    pub noise: f64,
    pub blur: f64,
    pub jpeg_quality: u8,
    /// Gray of the table (the mean) and how strong its grain is.
    pub table: f64,
    pub grain: f64,
    /// A business check (8.5 × 3.5 in) rather than a personal one (6 × 2.75 in).
    pub business: bool,
}

impl Shot {
    /// A hand-held photo: turned up to ±30° (or across a portrait frame), tilted, the check
    /// covering 35 to 95 % of the frame.
    pub fn random(rng: &mut Rng, width: u32, height: u32) -> Shot {
        let portrait = height > width;
        let rotation = if portrait { 90.0 * if rng.below(2) == 0 { 1.0 } else { -1.0 } } else { 0.0 }
            + rng.range(-30.0, 30.0) * if portrait { 0.5 } else { 1.0 };
        Shot {
            width,
            height,
            rotation,
            tilt: rng.range(0.0, 0.15),
            tilt_side: rng.below(4),
            fill: rng.range(0.35, 0.95),
            place: (rng.range(0.1, 0.9), rng.range(0.1, 0.9)),
            light: rng.range(0.0, 0.3),
            noise: rng.range(1.0, 8.0),
            blur: rng.range(0.3, 1.5),
            jpeg_quality: 60 + rng.below(31) as u8,
            table: rng.range(40.0, 140.0),
            grain: rng.range(0.0, 25.0),
            business: rng.below(4) == 0,
        }
    }
}

/// A drawn photo and where the check's corners are in it (top-left, top-right, bottom-right,
/// bottom-left as the check reads, in continuous pixels: the picture spans 0..width).
pub struct Photo {
    pub image: GrayImage,
    pub corners: [[f64; 2]; 4],
}

/// The check front at `dpi` with `line` (spaces keep fields apart) in E-13B along its bottom.
pub fn check_front(
    line: &str,
    outlines: &[(char, svg::Outline)],
    dpi: f64,
    business: bool,
    blur: f64,
    rng: &mut Rng,
) -> GrayImage {
    let (win, hin) = if business { (8.5, 3.5) } else { (6.0, 2.75) };
    let (w, h) = ((win * dpi) as usize, (hin * dpi) as usize);
    let mut ink = vec![0f32; w * h];
    let unit = dpi * 0.013;
    let cells = line.chars().count() as f64;
    let base = h as f64 - 0.1875 * dpi;
    let x0 = w as f64 - 0.3125 * dpi - cells * 8.0 * unit;
    super::ink_line(line, outlines, &mut ink, w, (x0, base), unit);
    let mut put = |x0: f64, y0: f64, x1: f64, y1: f64, hatch: bool| {
        for y in (y0 * dpi) as usize..((y1 * dpi) as usize).min(h) {
            for x in (x0 * dpi) as usize..((x1 * dpi) as usize).min(w) {
                if !hatch || (x / 3 + y / 5) % 3 != 0 {
                    ink[y * w + x] = 1.0;
                }
            }
        }
    };
    // A printed frame 0.12 in inside the edge, 1/100 in thick: the kind of rule a finder must
    // not take for the paper's edge. It stops above the MICR clear band (the bottom 5/8 in,
    // kept free of printing), as on real checks.
    let (t, m, band) = (0.012, 0.12, 0.625);
    put(m, m, win - m, m + t, false);
    put(m, hin - band - t, win - m, hin - band, false);
    put(m, m, m + t, hin - band, false);
    put(win - m - t, m, win - m, hin - band, false);
    // Name and address, date, pay-to line, amount box, signature rule.
    put(0.3, 0.3, 2.2, 0.42, true);
    put(0.3, 0.48, 1.8, 0.58, true);
    put(win - 1.6, 0.3, win - 0.4, 0.4, true);
    put(0.3, 1.15, win - 1.8, 1.17, false);
    put(win - 1.5, 1.0, win - 0.4, 1.25, true);
    put(0.3, 1.5, win - 0.8, 1.52, false);
    put(win - 2.6, hin - 0.75, win - 0.4, hin - 0.735, false);
    put(0.4, hin - 0.9, 2.0, hin - 0.8, true);
    let ink = if blur > 0.05 { gaussian(&ink, w, blur) } else { ink };
    let paper = rng.range(205.0, 245.0);
    let dark = rng.range(15.0, 60.0);
    let (k1, k2) = (rng.range(0.02, 0.06), rng.range(0.01, 0.03));
    GrayImage::from_fn(w as u32, h as u32, |x, y| {
        // A faint security pattern: waves 6 levels deep.
        let (xf, yf) = (x as f64 * 200.0 / dpi, y as f64 * 200.0 / dpi);
        let pattern = 3.0 * ((xf * k1 + 3.0 * (yf * k2).sin()).sin() + 1.0);
        let v = paper - pattern + (dark - paper + pattern) * f64::from(ink[y as usize * w + x as usize]);
        Luma([v.round().clamp(0.0, 255.0) as u8])
    })
}

/// The homography taking the unit square's corners (0,0), (1,0), (1,1), (0,1) to `q`.
pub fn square_to(q: &[[f64; 2]; 4]) -> [f64; 9] {
    let src = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    let mut a = [[0f64; 9]; 8];
    for i in 0..4 {
        let ([u, v], [x, y]) = (src[i], q[i]);
        a[2 * i] = [u, v, 1.0, 0.0, 0.0, 0.0, -u * x, -v * x, x];
        a[2 * i + 1] = [0.0, 0.0, 0.0, u, v, 1.0, -u * y, -v * y, y];
    }
    // Gauss–Jordan with partial pivoting.
    for col in 0..8 {
        let p = (col..8).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs())).unwrap();
        a.swap(col, p);
        let pivot = a[col];
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot[col];
                for (v, p) in row[col..].iter_mut().zip(&pivot[col..]) {
                    *v -= f * p;
                }
            }
        }
    }
    let h: Vec<f64> = (0..8).map(|i| a[i][8] / a[i][i]).collect();
    [h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1.0]
}

/// The inverse of a 3 × 3 matrix (adjugate over determinant).
pub fn invert(m: &[f64; 9]) -> [f64; 9] {
    let [a, b, c, d, e, f, g, h, i] = *m;
    let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    [
        (e * i - f * h) / det,
        (c * h - b * i) / det,
        (b * f - c * e) / det,
        (f * g - d * i) / det,
        (a * i - c * g) / det,
        (c * d - a * f) / det,
        (d * h - e * g) / det,
        (b * g - a * h) / det,
        (a * e - b * d) / det,
    ]
}

/// Where the check's corners go in the photo for `shot`, given its proportions.
pub fn corners(shot: &Shot, aspect: f64) -> [[f64; 2]; 4] {
    let (w, h) = (f64::from(shot.width), f64::from(shot.height));
    let (sn, cs) = shot.rotation.to_radians().sin_cos();
    // The check's extent along the frame's longer axis for a length of 1.
    let along = if w >= h { cs.abs() + sn.abs() / aspect } else { sn.abs() + cs.abs() / aspect };
    let mut len = shot.fill * w.max(h) / along;
    let across =
        |len: f64| if w >= h { len * (sn.abs() + cs.abs() / aspect) } else { len * (cs.abs() + sn.abs() / aspect) };
    // Keep it inside the other way too (with 2 % to spare).
    len = len.min(0.96 * w.min(h) / (across(1.0)));
    let (hw, hh) = (len / 2.0, len / aspect / 2.0);
    let mut q = [[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]];
    // Tilt: the chosen side shrinks about its middle, the opposite one grows as much.
    let (s, o) = (shot.tilt_side, (shot.tilt_side + 2) % 4);
    for (side, k) in [(s, 1.0 - shot.tilt / 2.0), (o, 1.0 + shot.tilt / 2.0)] {
        let (i, j) = (side, (side + 1) % 4);
        let mid = [(q[i][0] + q[j][0]) / 2.0, (q[i][1] + q[j][1]) / 2.0];
        for p in [i, j] {
            q[p] = [mid[0] + (q[p][0] - mid[0]) * k, mid[1] + (q[p][1] - mid[1]) * k];
        }
    }
    let turned = q.map(|[x, y]| [cs * x - sn * y, sn * x + cs * y]);
    let (minx, maxx) = turned.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p[0]), b.max(p[0])));
    let (miny, maxy) = turned.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p[1]), b.max(p[1])));
    let room = (w - (maxx - minx) - 4.0, h - (maxy - miny) - 4.0);
    let (ox, oy) = (2.0 + room.0.max(0.0) * shot.place.0 - minx, 2.0 + room.1.max(0.0) * shot.place.1 - miny);
    turned.map(|[x, y]| [x + ox, y + oy])
}

/// The photo of `check` taken as `shot`.
pub fn photograph(check: &GrayImage, shot: &Shot, rng: &mut Rng) -> Photo {
    let (cw, ch) = (f64::from(check.width()), f64::from(check.height()));
    let q = corners(shot, cw / ch);
    let inv = invert(&square_to(&q));
    let (w, h) = (shot.width as usize, shot.height as usize);
    // Inward unit normals of the quad's sides, for the paper's anti-aliased edge.
    let sides: Vec<([f64; 2], f64)> = (0..4)
        .map(|i| {
            let (a, b) = (q[i], q[(i + 1) % 4]);
            let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
            let l = (dx * dx + dy * dy).sqrt();
            let n = [-dy / l, dx / l];
            (n, n[0] * a[0] + n[1] * a[1])
        })
        .collect();
    let soft = 0.5 + shot.blur;
    let (fx, fy) = (rng.range(0.5, 2.0) * 40.0 / w as f64, rng.range(0.2, 1.0) * 6.0 / h as f64);
    let light_angle = rng.range(0.0, std::f64::consts::TAU);
    let (la, lb) = (light_angle.cos(), light_angle.sin());
    let src = check.as_raw();
    let (iw, ih) = (check.width() as usize, check.height() as usize);
    let mut img = GrayImage::new(shot.width, shot.height);
    for y in 0..h {
        let py = y as f64 + 0.5;
        for x in 0..w {
            let px = x as f64 + 0.5;
            let d = sides.iter().map(|(n, c)| n[0] * px + n[1] * py - c).fold(f64::MAX, f64::min);
            let cover = (d / soft + 0.5).clamp(0.0, 1.0);
            let table = shot.table + shot.grain * (px * fx * 6.0 + 3.0 * (py * fy * 6.0).sin()).sin();
            let mut v = table;
            if cover > 0.0 {
                let m = &inv;
                let den = m[6] * px + m[7] * py + m[8];
                let u = ((m[0] * px + m[1] * py + m[2]) / den * cw - 0.5).clamp(0.0, cw - 1.001);
                let t = ((m[3] * px + m[4] * py + m[5]) / den * ch - 0.5).clamp(0.0, ch - 1.001);
                let (x0, y0) = (u as usize, t as usize);
                let (ax, ay) = (u - x0 as f64, t - y0 as f64);
                let p = |xx: usize, yy: usize| f64::from(src[yy.min(ih - 1) * iw + xx.min(iw - 1)]);
                let top = p(x0, y0) * (1.0 - ax) + p(x0 + 1, y0) * ax;
                let bottom = p(x0, y0 + 1) * (1.0 - ax) + p(x0 + 1, y0 + 1) * ax;
                v = table * (1.0 - cover) + (top * (1.0 - ay) + bottom * ay) * cover;
            }
            let light = 1.0 + shot.light * ((px / w as f64 - 0.5) * la + (py / h as f64 - 0.5) * lb) * 2.0;
            // Triangular noise of deviation `noise` (cheaper than a normal deviate per pixel).
            let r = rng.next();
            let n = ((r & 0xffff) as f64 + ((r >> 16) & 0xffff) as f64) / 65535.0 - 1.0;
            img.put_pixel(
                x as u32,
                y as u32,
                Luma([(v * light + n * shot.noise * 2.45).round().clamp(0.0, 255.0) as u8]),
            );
        }
    }
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, shot.jpeg_quality).encode_image(&img).unwrap();
    Photo { image: image::load_from_memory(&jpeg).unwrap().to_luma8(), corners: q }
}

/// The largest distance of a found corner from the truth, as a share of the check's diagonal.
pub fn corner_error(found: &[[f32; 2]; 4], truth: &[[f64; 2]; 4]) -> f64 {
    let diag = ((truth[0][0] - truth[2][0]).powi(2) + (truth[0][1] - truth[2][1]).powi(2)).sqrt();
    (0..4)
        .map(|i| {
            ((f64::from(found[i][0]) - truth[i][0]).powi(2) + (f64::from(found[i][1]) - truth[i][1]).powi(2)).sqrt()
        })
        .fold(0.0, f64::max)
        / diag
}
