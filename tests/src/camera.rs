//! What Chromium's fake camera films (`--use-fake-device-for-media-stream
//! --use-file-for-fake-video-capture=<file>`): a real check image as a phone held over it sees
//! it, in the ways phones see checks ([`Kind`]), in a 1280×720 frame. [`frame`] draws one frame
//! (the capture benchmark, tests/perf/capture.rs, draws many, each a little moved, as a hand
//! holds a phone); [`video`] writes it as Y4M 4:2:0, studio range, which Chromium loops.

use std::io::Write;
use std::path::{Path, PathBuf};

use image::{Rgb, RgbImage};

pub const WIDTH: u32 = 1280;
pub const HEIGHT: u32 = 720;

/// How the phone sees the check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// On a dark table, turned 3°, filling 83 % of the frame's width: the easy case.
    DarkTable,
    /// Edge to edge: wider than the frame by 2 % (a flat scan fitted into the frame, or a phone
    /// held close), the table showing above and below.
    FillsFrame,
    /// Running 12 % of its width off the right edge: the MICR line (which ends 5/16 in from
    /// the right edge only where an amount is encoded) still whole in the frame.
    OffRight,
    /// Running 12 % of its width off the left edge: its MICR line, which starts about 5 % from
    /// the left edge, is cut off (the wizard should say "move back", never take it).
    OffLeft,
    /// On a light table (a white desk): little contrast between paper and table.
    LightTable,
    /// Seen at 22° from square: its far side shorter (the top, or the right side when
    /// `Shake::alternate` says so), the rest foreshortened.
    Perspective,
    /// A glare spot (a lamp's reflection) on the check's upper left, away from the MICR line
    /// and the amount: washing out about a quarter of the check.
    Glare,
    /// Slightly out of focus (a Gaussian blur of 1.6 pixels).
    Blurred,
}

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::DarkTable,
        Kind::FillsFrame,
        Kind::OffRight,
        Kind::OffLeft,
        Kind::LightTable,
        Kind::Perspective,
        Kind::Glare,
        Kind::Blurred,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::DarkTable => "dark table",
            Kind::FillsFrame => "fills the frame",
            Kind::OffRight => "off the right edge",
            Kind::OffLeft => "off the left edge",
            Kind::LightTable => "light table",
            Kind::Perspective => "22° perspective",
            Kind::Glare => "glare spot",
            Kind::Blurred => "slightly blurred",
        }
    }
}

/// A hand's small movement between frames: a shift in pixels and a turn in degrees, and which
/// way a perspective leans.
#[derive(Debug, Clone, Copy, Default)]
pub struct Shake {
    pub dx: f32,
    pub dy: f32,
    pub turn: f32,
    /// Perspective: the right side is the far one (otherwise the top).
    pub alternate: bool,
}

/// The table: dark or light, with a faint grain so it is not a flat colour.
fn table(kind: Kind, x: u32, y: u32) -> [f32; 3] {
    let grain = ((x.wrapping_mul(7919) ^ y.wrapping_mul(104_729)) % 17) as f32;
    if kind == Kind::LightTable {
        [196.0 + grain, 192.0 + grain, 186.0 + grain]
    } else {
        [48.0 + grain, 40.0 + grain, 36.0 + grain]
    }
}

/// Where the check's corners land in the frame (top-left, top-right, bottom-right,
/// bottom-left), for a check of `aspect` (width over height).
pub fn corners(kind: Kind, aspect: f32, shake: Shake) -> [[f32; 2]; 4] {
    let (width, turn, centre_x) = match kind {
        Kind::FillsFrame => (WIDTH as f32 * 1.02, 0.5, WIDTH as f32 / 2.0),
        Kind::OffRight => (1000.0, 2.0, WIDTH as f32 - 500.0 + 120.0),
        Kind::OffLeft => (1000.0, 2.0, 500.0 - 120.0),
        Kind::LightTable => (1000.0, 4.0, WIDTH as f32 / 2.0),
        Kind::Perspective => (1000.0, 0.0, WIDTH as f32 / 2.0),
        Kind::DarkTable | Kind::Glare | Kind::Blurred => (1060.0, 3.0, WIDTH as f32 / 2.0),
    };
    let (hw, hh) = (width / 2.0, width / aspect / 2.0);
    let mut q = [[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]];
    if kind == Kind::Perspective {
        // 22° about the check's middle, seen from ~3 check widths away: the far side 12 %
        // shorter than the near one, the sides between foreshortened by cos 22°.
        let (far, near) = (0.94f32, 1.06f32);
        let squash = 22f32.to_radians().cos();
        q = if shake.alternate {
            [[-hw * squash, -hh * near], [hw * squash, -hh * far], [hw * squash, hh * far], [-hw * squash, hh * near]]
        } else {
            [[-hw * far, -hh * squash], [hw * far, -hh * squash], [hw * near, hh * squash], [-hw * near, hh * squash]]
        };
    }
    let (sin, cos) = (turn + shake.turn).to_radians().sin_cos();
    let (cx, cy) = (centre_x + shake.dx, HEIGHT as f32 / 2.0 + shake.dy);
    q.map(|[x, y]| [cx + x * cos - y * sin, cy + x * sin + y * cos])
}

/// The homography taking the unit square's corners (0,0) (1,0) (1,1) (0,1) to `q` (Heckbert's
/// closed form), as the 3×3 matrix's rows.
fn square_to(q: &[[f32; 2]; 4]) -> [[f64; 3]; 3] {
    let p = q.map(|[x, y]| [f64::from(x), f64::from(y)]);
    let (dx1, dy1) = (p[1][0] - p[2][0], p[1][1] - p[2][1]);
    let (dx2, dy2) = (p[3][0] - p[2][0], p[3][1] - p[2][1]);
    let (dx3, dy3) = (p[0][0] - p[1][0] + p[2][0] - p[3][0], p[0][1] - p[1][1] + p[2][1] - p[3][1]);
    let den = dx1 * dy2 - dx2 * dy1;
    let g = (dx3 * dy2 - dx2 * dy3) / den;
    let h = (dx1 * dy3 - dx3 * dy1) / den;
    [
        [p[1][0] - p[0][0] + g * p[1][0], p[3][0] - p[0][0] + h * p[3][0], p[0][0]],
        [p[1][1] - p[0][1] + g * p[1][1], p[3][1] - p[0][1] + h * p[3][1], p[0][1]],
        [g, h, 1.0],
    ]
}

/// The inverse of a 3×3 matrix (its adjugate; the scale does not matter to a homography).
fn adjugate(m: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let c = |r0: usize, r1: usize, c0: usize, c1: usize| m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0];
    [
        [c(1, 2, 1, 2), -c(0, 2, 1, 2), c(0, 1, 1, 2)],
        [-c(1, 2, 0, 2), c(0, 2, 0, 2), -c(0, 1, 0, 2)],
        [c(1, 2, 0, 1), -c(0, 2, 0, 1), c(0, 1, 0, 1)],
    ]
}

fn bilinear(img: &RgbImage, x: f64, y: f64) -> Option<[f32; 3]> {
    let (w, h) = img.dimensions();
    if x < 0.0 || y < 0.0 || x > f64::from(w - 1) || y > f64::from(h - 1) {
        return None;
    }
    let (x0, y0) = (x.floor() as u32, y.floor() as u32);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = ((x - f64::from(x0)) as f32, (y - f64::from(y0)) as f32);
    let p = |x, y| img.get_pixel(x, y).0.map(f32::from);
    let (a, b, c, d) = (p(x0, y0), p(x1, y0), p(x0, y1), p(x1, y1));
    Some(std::array::from_fn(|i| (a[i] * (1.0 - fx) + b[i] * fx) * (1.0 - fy) + (c[i] * (1.0 - fx) + d[i] * fx) * fy))
}

/// One frame of `check` seen as `kind`, moved by `shake`.
pub fn frame(check: &RgbImage, kind: Kind, shake: Shake) -> RgbImage {
    let (cw, ch) = (f64::from(check.width()), f64::from(check.height()));
    let q = corners(kind, (cw / ch) as f32, shake);
    let back = adjugate(&square_to(&q));
    // The glare's centre and radius, in the check's unit square.
    // Large enough to wash out over a quarter of the check (the quality finding's bar), clear of
    // the MICR line and the amount.
    let (gx, gy, gr) = (0.27, 0.3, 0.19);
    let mut out = RgbImage::new(WIDTH, HEIGHT);
    for (x, y, px) in out.enumerate_pixels_mut() {
        let (fx, fy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
        let w = back[2][0] * fx + back[2][1] * fy + back[2][2];
        let (u, v) = (
            (back[0][0] * fx + back[0][1] * fy + back[0][2]) / w,
            (back[1][0] * fx + back[1][1] * fy + back[1][2]) / w,
        );
        let mut rgb = bilinear(check, u * cw - 0.5, v * ch - 0.5).unwrap_or_else(|| table(kind, x, y));
        if kind == Kind::Glare {
            let d2 = ((u - gx) * (cw / ch)).powi(2) + (v - gy).powi(2);
            let lift = 320.0 * (-d2 / (2.0 * gr * gr)).exp() as f32;
            rgb = rgb.map(|c| c + lift);
        }
        *px = Rgb(rgb.map(|c| c.round().clamp(0.0, 255.0) as u8));
    }
    if kind == Kind::Blurred {
        out = image::imageops::blur(&out, 1.6);
    }
    out
}

/// Reads a check image of `shared/data/checks/full` (or any picture) as RGB.
pub fn check_image(path: &Path) -> RgbImage {
    image::open(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display())).to_rgb8()
}

/// Writes the video of the check image at `check` seen as `kind` to `out`, and returns `out`.
pub fn video(check: &Path, kind: Kind, out: &Path) -> PathBuf {
    let rgb = frame(&check_image(check), kind, Shake::default());
    let clamp = |v: f32| v.round().clamp(0.0, 255.0) as u8;
    let px = |x: u32, y: u32| rgb.get_pixel(x, y).0.map(f32::from);
    // Y4M is studio range (BT.601: luma 16–235, chroma 16–240), as Chromium reads it: full
    // range would turn the check's light paper into a washed-out 255.
    let luma: Vec<u8> = rgb
        .pixels()
        .map(|p| p.0.map(f32::from))
        .map(|p| clamp(16.0 + 219.0 / 255.0 * (0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2])))
        .collect();
    let (cw, ch) = (WIDTH / 2, HEIGHT / 2);
    let mut cb = Vec::with_capacity((cw * ch) as usize);
    let mut cr = Vec::with_capacity((cw * ch) as usize);
    for y in 0..ch {
        for x in 0..cw {
            let mut sum = [0.0f32; 3];
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                sum.iter_mut().zip(px(2 * x + dx, 2 * y + dy)).for_each(|(s, c)| *s += c / 4.0);
            }
            let k = 224.0 / 255.0;
            cb.push(clamp(128.0 + k * (-0.168_736 * sum[0] - 0.331_264 * sum[1] + 0.5 * sum[2])));
            cr.push(clamp(128.0 + k * (0.5 * sum[0] - 0.418_688 * sum[1] - 0.081_312 * sum[2])));
        }
    }
    let mut file = std::io::BufWriter::new(std::fs::File::create(out).expect("creating the fake camera's video"));
    let header = format!("YUV4MPEG2 W{WIDTH} H{HEIGHT} F30:1 Ip A1:1 C420jpeg\n");
    file.write_all(header.as_bytes()).expect("writing the video");
    for _ in 0..3 {
        for part in [&b"FRAME\n"[..], &luma, &cb, &cr] {
            file.write_all(part).expect("writing the video");
        }
    }
    file.flush().expect("writing the video");
    out.to_path_buf()
}

/// The easy case's video (the check on a dark table), as the first camera test films it.
pub fn check_on_a_table(check: &Path, out: &Path) -> PathBuf {
    video(check, Kind::DarkTable, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_square_goes_to_the_corners_and_back() {
        let q = corners(Kind::Perspective, 2.2, Shake::default());
        let m = square_to(&q);
        let at = |m: &[[f64; 3]; 3], x: f64, y: f64| {
            let w = m[2][0] * x + m[2][1] * y + m[2][2];
            [(m[0][0] * x + m[0][1] * y + m[0][2]) / w, (m[1][0] * x + m[1][1] * y + m[1][2]) / w]
        };
        for (i, (u, v)) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].into_iter().enumerate() {
            let p = at(&m, u, v);
            assert!((p[0] - f64::from(q[i][0])).abs() < 1e-3 && (p[1] - f64::from(q[i][1])).abs() < 1e-3, "{i}: {p:?}");
            let back = at(&adjugate(&m), p[0], p[1]);
            assert!((back[0] - u).abs() < 1e-6 && (back[1] - v).abs() < 1e-6, "{i}: {back:?}");
        }
        let top = q[1][0] - q[0][0];
        let bottom = q[2][0] - q[3][0];
        assert!(top < 0.9 * bottom, "the far side is shorter: {top} vs {bottom}");
    }

    #[test]
    fn a_check_off_the_edge_starts_left_of_the_frame() {
        let q = corners(Kind::OffLeft, 2.2, Shake::default());
        assert!(q[0][0] < 0.0 && q[3][0] < 0.0 && q[1][0] < WIDTH as f32, "{q:?}");
        let q = corners(Kind::OffRight, 2.2, Shake::default());
        assert!(q[0][0] > 0.0 && q[1][0] > WIDTH as f32 && q[2][0] > WIDTH as f32, "{q:?}");
        let q = corners(Kind::FillsFrame, 2.2, Shake::default());
        assert!(q[0][0] < 0.0 && q[1][0] > WIDTH as f32, "{q:?}");
    }
}
