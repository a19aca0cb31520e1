//! A video for Chromium's fake camera (`--use-fake-device-for-media-stream
//! --use-file-for-fake-video-capture=<file>`): a picture of a check lying on a dark table,
//! turned a few degrees, filling most of a 1280×720 frame, as a phone held over it would see
//! it. Written as Y4M 4:2:0, studio range (Chromium loops the file), from a real check image.

use std::io::Write;
use std::path::{Path, PathBuf};

use image::RgbImage;

const WIDTH: u32 = 1280;
const HEIGHT: u32 = 720;
/// The check's width in the frame, and its turn.
const CHECK_WIDTH: f32 = 1060.0;
const TURN_DEGREES: f32 = 3.0;

/// The table: dark, with a faint grain so it is not a flat colour.
fn table(x: u32, y: u32) -> [f32; 3] {
    let grain = ((x.wrapping_mul(7919) ^ y.wrapping_mul(104_729)) % 17) as f32;
    [48.0 + grain, 40.0 + grain, 36.0 + grain]
}

fn bilinear(img: &RgbImage, x: f32, y: f32) -> Option<[f32; 3]> {
    let (w, h) = img.dimensions();
    if x < 0.0 || y < 0.0 || x > (w - 1) as f32 || y > (h - 1) as f32 {
        return None;
    }
    let (x0, y0) = (x.floor() as u32, y.floor() as u32);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let p = |x, y| img.get_pixel(x, y).0.map(f32::from);
    let (a, b, c, d) = (p(x0, y0), p(x1, y0), p(x0, y1), p(x1, y1));
    Some(std::array::from_fn(|i| (a[i] * (1.0 - fx) + b[i] * fx) * (1.0 - fy) + (c[i] * (1.0 - fx) + d[i] * fx) * fy))
}

/// The frame: the check turned by `TURN_DEGREES` about the frame's centre.
fn frame(check: &RgbImage) -> Vec<[f32; 3]> {
    let scale = check.width() as f32 / CHECK_WIDTH;
    let (sin, cos) = TURN_DEGREES.to_radians().sin_cos();
    let (cx, cy) = (WIDTH as f32 / 2.0, HEIGHT as f32 / 2.0);
    let (ccx, ccy) = (check.width() as f32 / 2.0, check.height() as f32 / 2.0);
    let mut out = Vec::with_capacity((WIDTH * HEIGHT) as usize);
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            let (dx, dy) = (x as f32 - cx, y as f32 - cy);
            // Back from the frame to the check: the inverse turn, then the inverse scale.
            let (u, v) = ((dx * cos + dy * sin) * scale + ccx, (-dx * sin + dy * cos) * scale + ccy);
            out.push(bilinear(check, u, v).unwrap_or_else(|| table(x, y)));
        }
    }
    out
}

/// Writes the video of the check image at `check` to `out` and returns `out`.
pub fn check_on_a_table(check: &Path, out: &Path) -> PathBuf {
    let picture = image::open(check).unwrap_or_else(|e| panic!("reading {}: {e}", check.display())).to_rgb8();
    let rgb = frame(&picture);
    let clamp = |v: f32| v.round().clamp(0.0, 255.0) as u8;
    // Y4M is studio range (BT.601: luma 16–235, chroma 16–240), as Chromium reads it: full
    // range would turn the check's light paper into a washed-out 255.
    let luma: Vec<u8> =
        rgb.iter().map(|p| clamp(16.0 + 219.0 / 255.0 * (0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]))).collect();
    let (cw, ch) = (WIDTH / 2, HEIGHT / 2);
    let mut cb = Vec::with_capacity((cw * ch) as usize);
    let mut cr = Vec::with_capacity((cw * ch) as usize);
    for y in 0..ch {
        for x in 0..cw {
            let mut sum = [0.0f32; 3];
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let p = rgb[((2 * y + dy) * WIDTH + 2 * x + dx) as usize];
                sum.iter_mut().zip(p).for_each(|(s, c)| *s += c / 4.0);
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
