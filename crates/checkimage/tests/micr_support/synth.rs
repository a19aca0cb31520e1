//! Synthetic MICR lines: random lines in the usual layouts, drawn from the OFL E-13B outlines
//! and spoiled as a scan or a photo would be (turned, blurred, noised, JPEG-compressed).

use image::{GrayImage, Luma};

use super::{shared, svg, Rng};

/// The 14 outlines by character (digits, ⑆ ⑇ ⑈ ⑉).
pub fn outlines() -> Vec<(char, svg::Outline)> {
    let names = [
        ('0', "u0030"),
        ('1', "u0031"),
        ('2', "u0032"),
        ('3', "u0033"),
        ('4', "u0034"),
        ('5', "u0035"),
        ('6', "u0036"),
        ('7', "u0037"),
        ('8', "u0038"),
        ('9', "u0039"),
        ('⑆', "u2446"),
        ('⑇', "u2447"),
        ('⑈', "u2448"),
        ('⑉', "u2449"),
    ];
    names
        .iter()
        .map(|(c, n)| {
            let text = std::fs::read_to_string(shared(&format!("fonts/e13b-ofl-svgs/{n}.svg"))).unwrap();
            (*c, svg::parse(&text))
        })
        .collect()
}

/// A routing number with a good ABA check digit.
pub fn routing(rng: &mut Rng) -> String {
    let mut d = rng.digits(8);
    let w = [3, 7, 1, 3, 7, 1, 3, 7];
    let s: u32 = d.bytes().zip(w).map(|(b, w)| u32::from(b - b'0') * w).sum();
    d.push(char::from(b'0' + ((10 - s % 10) % 10) as u8));
    d
}

/// A random line in one of the usual layouts, spaces where fields are apart.
pub fn random_line(rng: &mut Rng) -> String {
    let mut s = String::new();
    if rng.below(4) == 0 {
        s += &format!("⑈{}⑈  ", rng.some_digits(4, 5));
    }
    s += &format!("⑆{}⑆ ", routing(rng));
    let account = match rng.below(3) {
        0 => format!("{}⑉{}", rng.some_digits(3, 3), rng.some_digits(4, 4)),
        _ => rng.some_digits(6, 7),
    };
    if rng.below(3) == 0 {
        s += &format!("{}⑈{}⑈", rng.digits(4), account);
    } else {
        s += &format!("{account}⑈ {}", rng.some_digits(3, 3));
    }
    if rng.below(3) == 0 {
        s += &format!("   ⑇{}⑇", rng.digits(10));
    }
    s
}

/// How a synthetic picture is made.
#[derive(Debug, Clone, Copy)]
pub struct Look {
    pub dpi: f64,
    pub skew_degrees: f64,
    /// Gaussian blur, in pixels.
    pub blur: f64,
    /// Gaussian noise, in gray levels.
    pub noise: f64,
    pub jpeg_quality: u8,
    /// A whole check (6 × 2.75 in, with other marks above the line) rather than a cropped band.
    pub full_check: bool,
}

impl Look {
    pub fn random(rng: &mut Rng, full_check: bool) -> Look {
        Look {
            dpi: rng.range(150.0, 300.0),
            skew_degrees: rng.range(-5.0, 5.0),
            blur: rng.range(0.3, 1.0),
            noise: rng.range(2.0, 10.0),
            jpeg_quality: 55 + rng.below(40) as u8,
            full_check,
        }
    }
}

/// `line`'s E-13B characters inked into `ink` (`w` pixels a row), 8 an inch (`unit` pixels a
/// unit of the standard), each right-aligned in its cell, the first cell starting at `x0` and
/// the characters standing on `base`.
pub fn ink_line(
    line: &str,
    outlines: &[(char, svg::Outline)],
    ink: &mut [f32],
    w: usize,
    (x0, base): (f64, f64),
    unit: f64,
) {
    let scale = unit * 9.0 / 8.42; // pixels an SVG unit (the outlines are 8.42 tall for 9 units)
    for (i, c) in line.chars().enumerate() {
        let Some((_, o)) = outlines.iter().find(|(k, _)| *k == c) else { continue };
        let right = x0 + (i as f64 + 1.0) * 8.0 * unit;
        // Vertical place in the 9-unit cell: on-us from ½ unit, dash from 2½, the others full.
        let top = base - 9.0 * unit
            + match c {
                '⑈' => 0.5 * unit,
                '⑉' => 2.5 * unit,
                _ => 0.0,
            };
        svg::fill(o, ink, w, right - o.width * scale, top, scale);
    }
}

/// `line` drawn in E-13B from the outlines at `look`: 8 characters an inch, each right-aligned
/// in its cell, then turned, blurred, noised and JPEG-compressed.
pub fn draw(line: &str, outlines: &[(char, svg::Outline)], look: Look, rng: &mut Rng) -> GrayImage {
    let unit = look.dpi * 0.013; // pixels a unit
    let cells = line.chars().count() as f64;
    let (w, h, x0, base) = if look.full_check {
        // 6 in wide, or wider for a long line (business checks are up to 8.75 in).
        // With 1/2 in around it, so that the turned check stays in the picture.
        let width_in = (6.0f64).max(cells / 8.0 + 1.0);
        let pad = 0.5 * look.dpi;
        let (w, h) = (((width_in + 1.0) * look.dpi) as usize, (3.75 * look.dpi) as usize);
        // The line ends about 5/16 in from the check's right edge; its baseline is 3/16 in from
        // the bottom.
        let right = w as f64 - pad - 0.3125 * look.dpi;
        (w, h, right - cells * 8.0 * unit, h as f64 - pad - 0.1875 * look.dpi)
    } else {
        let w = ((cells + 6.0) * 8.0 * unit) as usize;
        // Tall enough for the turned line to stay inside.
        let h = ((20.0 + (cells + 6.0) * 8.0 * look.skew_degrees.to_radians().sin().abs()) * unit) as usize;
        (w, h, 3.0 * 8.0 * unit, h as f64 / 2.0 + 4.5 * unit)
    };
    let mut ink = vec![0f32; w * h];
    ink_line(line, outlines, &mut ink, w, (x0, base), unit);
    if look.full_check {
        // Other marks: rules and blocks of "text" well above the band.
        for _ in 0..12 {
            let (bw, bh) = (rng.range(0.3, 2.0) * look.dpi, rng.range(0.02, 0.15) * look.dpi);
            let (bx, by) = (rng.range(0.7, 6.0) * look.dpi, rng.range(0.7, 2.4) * look.dpi);
            for y in by as usize..((by + bh) as usize).min(h) {
                for x in bx as usize..((bx + bw) as usize).min(w) {
                    if (x / 3 + y / 5) % 3 != 0 {
                        ink[y * w + x] = 1.0;
                    }
                }
            }
        }
    }
    // Turn about the centre (inverse mapping, bilinear).
    let (sn, cs) = look.skew_degrees.to_radians().sin_cos();
    let (cx, cy) = (w as f64 / 2.0, h as f64 / 2.0);
    let at = |x: isize, y: isize| {
        if x < 0 || y < 0 || x >= w as isize || y >= h as isize {
            0.0
        } else {
            ink[y as usize * w + x as usize]
        }
    };
    let mut turned = vec![0f32; w * h];
    for y in 0..h {
        for x in 0..w {
            let (dx, dy) = (x as f64 + 0.5 - cx, y as f64 + 0.5 - cy);
            let (sx, sy) = (cs * dx + sn * dy + cx - 0.5, -sn * dx + cs * dy + cy - 0.5);
            let (fx, fy) = (sx.floor(), sy.floor());
            let (ax, ay) = ((sx - fx) as f32, (sy - fy) as f32);
            let (ix, iy) = (fx as isize, fy as isize);
            turned[y * w + x] = (at(ix, iy) * (1.0 - ax) + at(ix + 1, iy) * ax) * (1.0 - ay)
                + (at(ix, iy + 1) * (1.0 - ax) + at(ix + 1, iy + 1) * ax) * ay;
        }
    }
    let blurred = gaussian(&turned, w, look.blur);
    let (paper, dark) = (rng.range(200.0, 245.0), rng.range(10.0, 70.0));
    let mut img = GrayImage::new(w as u32, h as u32);
    for (i, p) in img.pixels_mut().enumerate() {
        let v = paper + (dark - paper) * f64::from(blurred[i]) + look.noise * rng.normal();
        *p = Luma([v.round().clamp(0.0, 255.0) as u8]);
    }
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, look.jpeg_quality).encode_image(&img).unwrap();
    image::load_from_memory(&jpeg).unwrap().to_luma8()
}

pub fn gaussian(d: &[f32], w: usize, sigma: f64) -> Vec<f32> {
    let r = (3.0 * sigma).ceil() as isize;
    let k: Vec<f32> = (-r..=r).map(|i| (-(i * i) as f64 / (2.0 * sigma * sigma)).exp() as f32).collect();
    let ks: f32 = k.iter().sum();
    let h = d.len() / w;
    let mut a = vec![0f32; d.len()];
    for y in 0..h {
        for x in 0..w {
            let mut s = 0.0;
            for (j, kv) in k.iter().enumerate() {
                let xx = (x as isize + j as isize - r).clamp(0, w as isize - 1) as usize;
                s += kv * d[y * w + xx];
            }
            a[y * w + x] = s / ks;
        }
    }
    let mut b = vec![0f32; d.len()];
    for y in 0..h {
        for x in 0..w {
            let mut s = 0.0;
            for (j, kv) in k.iter().enumerate() {
                let yy = (y as isize + j as isize - r).clamp(0, h as isize - 1) as usize;
                s += kv * a[yy * w + x];
            }
            b[y * w + x] = s / ks;
        }
    }
    b
}
