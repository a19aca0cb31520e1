//! What the portal's scanning worker computes, as plain functions over bytes and pixels: the
//! worker's message loop (src/main.rs, wasm32 only) calls them, and the benchmark
//! (tests/perf/scan.rs) calls the very same ones natively, so "native versus wasm" compares one
//! pipeline compiled twice.
//!
//! - [`frame`]: one downscaled frame of the live camera → where the check is and what to tell
//!   the person holding it ([`FrameCheck`]).
//! - [`side`]: an encoded picture of one side (a file, or a full-resolution capture) → decoded
//!   within the server's limits, the check found and straightened, its quality, its MICR line
//!   when asked, and the straightened side as a grayscale JPEG ([`SideRead`]).

use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use image::{DynamicImage, GrayImage, RgbaImage};
use moneydesk_checkimage::answer::{self, micr_read, quality_findings};
use moneydesk_checkimage::quality::{self, Finding};
use moneydesk_checkimage::{decode, find, g4, micr, side, Bitonal, Limits};
use moneydesk_model::deposits::{CaptureHint, Corners, FrameCheck, Place, SideMillis, SideRead};

/// A check covering less of the frame's width than this is too far to read at 200 dpi once
/// captured (a 6-inch check at 1,200 pixels needs ~60 % of a 2,000-pixel-wide photo).
pub const TOO_FAR_BELOW: f32 = 0.6;
/// A corner that moved more than this share of the frame's width since the last frame: the
/// check is not held still.
pub const MOVED_OVER: f32 = 0.02;
/// Widest straightened side kept: 8.5 inches at about 280 dpi, more than the 200 dpi the scan
/// endpoint and the cash letters need.
pub const MAX_WIDTH: u32 = 2400;
/// JPEG quality of the straightened side sent to the scan endpoint (read again there).
pub const JPEG_QUALITY: u8 = 90;

/// One frame of the live camera, RGBA `width` × `height`. `previous` is the check's corners in
/// the frame before (the worker keeps them): with none, or when they moved, the answer is at
/// best [`CaptureHint::HoldStill`], so `Ready` always means two steady frames in a row.
pub fn frame(
    rgba: Vec<u8>,
    width: u32,
    height: u32,
    previous: Option<&Corners>,
    micr: bool,
) -> Result<FrameCheck, String> {
    let pixels = RgbaImage::from_raw(width, height, rgba)
        .ok_or_else(|| format!("The frame's pixels are not {width} × {height} × 4 bytes."))?;
    Ok(frame_check(&DynamicImage::ImageRgba8(pixels).to_luma8(), previous, micr))
}

/// [`frame`] on a grayscale frame. The front (`micr`) is judged by its MICR line: the strongest
/// sign of a check, and what the picture is for. The picture is ready only once the line reads
/// whole (`LineSeen::sure`) and none of it near the frame's edge, whether or not the check's
/// outline shows (a check filling the frame, running off an edge, on a light table); an
/// outline that does not hold the line (a window behind the check) is not drawn. The back is
/// judged by its outline alone.
pub fn frame_check(gray: &GrayImage, previous: Option<&Corners>, micr: bool) -> FrameCheck {
    if micr {
        return front(gray, find::find_front(gray), previous);
    }
    let Some(found) = find::find_check(gray) else { return FrameCheck::nothing() };
    // Judged on the check alone: the table around it would count as dark or sharp.
    let check = find::straighten(gray, &found.corners, gray.width());
    let (measures, findings) = quality::check(&check);
    let has = |wanted: fn(&Finding) -> bool| findings.iter().any(wanted);
    let steady = previous.is_some_and(|p| moved(p, &found.corners) <= MOVED_OVER * gray.width() as f32);
    let spot = quality::glare(&check);
    let hint = if !found.whole {
        CaptureHint::NotWhole
    } else if found.fill < TOO_FAR_BELOW {
        CaptureHint::TooFar
    } else if has(|f| matches!(f, Finding::TooDark { .. })) {
        CaptureHint::TooDark
    } else if has(|f| matches!(f, Finding::Glare { .. })) {
        CaptureHint::Glare
    } else if has(|f| matches!(f, Finding::Blurred { .. })) {
        CaptureHint::Blurred
    } else if !steady {
        CaptureHint::HoldStill
    } else {
        CaptureHint::Ready
    };
    FrameCheck {
        corners: Some(found.corners),
        fill: found.fill,
        sharpness: measures.sharpness as f32,
        hint,
        glare_at: spot.map(|g| Place::at(g.centre.0, g.centre.1)),
        ..FrameCheck::nothing()
    }
}

/// The front's MICR line in a frame.
struct LineSeen {
    /// Its box in the frame: top-left, top-right, bottom-right, bottom-left.
    band: Corners,
    /// None of it within 1.6 characters' height of the frame's left or right edge: a line that
    /// goes on beyond the edge shows its last character within one pitch of it (1/8 in, 1.07
    /// heights).
    whole: bool,
    /// Read whole: no character unreadable or uncertain (each read with a confidence the form
    /// would not ask to check), and a routing field (between the transit symbols). Measured by
    /// scripts/bench-capture while the rules settled: asking only the routing field whole, 4
    /// pictures taken by themselves misread in the full picture; every character readable
    /// with a confidence bar of 0.45, 36 of 56 taken and 1 misread (a blurred 6 read as 1 in
    /// every frame and in the full picture, the wrong routing number passing the ABA check);
    /// with the form's 0.6, 29 of 56 and none misread.
    sure: bool,
    raw: String,
}

/// Characters read in a line before it counts as the MICR line (a routing field and its
/// symbols are 11).
const MIN_LINE_CHARS: usize = 8;

/// The line in `gray`; with `outline` (the check's, holding a MICR line) only its characters
/// inside it: at 640 pixels a table's texture beside the check reads as characters too (the
/// scanning benchmark's patterned table gave `*4*4**4*` before the line and `****⑇********`
/// after it, and a "move back" for a check wholly in the frame).
fn line_seen(gray: &GrayImage, outline: Option<&Corners>) -> Option<LineSeen> {
    let read = micr::read(gray).ok()?;
    // Wholly inside: the check's own edge (a dark line on some tables) reads as a character too.
    let on_check = |c: &micr::MicrChar| {
        let (b, x, y) = (c.bbox, c.bbox.x as f32, c.bbox.y as f32);
        let (x1, y1) = (x + b.width as f32, y + b.height as f32);
        outline.is_none_or(|q| [[x, y], [x1, y], [x1, y1], [x, y1]].into_iter().all(|p| inside_quad(q, p)))
    };
    let line = micr::MicrLine {
        char_height: read.char_height,
        ..micr::fields::from_chars(read.chars.into_iter().filter(on_check).collect())
    };
    if line.chars.len() < MIN_LINE_CHARS {
        return None;
    }
    let boxes = line.chars.iter().map(|c| c.bbox);
    let x0 = boxes.clone().map(|b| b.x).min()? as f32;
    let x1 = boxes.clone().map(|b| b.x + b.width).max()? as f32;
    let y0 = boxes.clone().map(|b| b.y).min()? as f32;
    let y1 = boxes.map(|b| b.y + b.height).max()? as f32;
    let margin = 1.6 * line.char_height.max(4.0);
    let whole = x0 >= margin && x1 + margin <= gray.width() as f32;
    let sure = !line.raw.contains('*')
        && line.confidence >= answer::UNCERTAIN_BELOW
        && line.routing.as_ref().is_some_and(|f| !f.uncertain);
    Some(LineSeen { band: [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], whole, sure, raw: line.raw })
}

/// Whether `p` is inside the convex quadrilateral `q` (corners in turn, either way round).
fn inside_quad(q: &Corners, p: [f32; 2]) -> bool {
    let side = |i: usize| {
        let (a, b) = (q[i], q[(i + 1) % 4]);
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    };
    let s: [f32; 4] = std::array::from_fn(side);
    s.iter().all(|v| *v >= 0.0) || s.iter().all(|v| *v <= 0.0)
}

/// The front: see [`frame_check`].
fn front(gray: &GrayImage, found: Option<find::Found>, previous: Option<&Corners>) -> FrameCheck {
    let holding = found.filter(|f| f.micr >= find::MICR_EVIDENCE).map(|f| f.corners);
    let line = line_seen(gray, holding.as_ref());
    let centre = line.as_ref().map(|l| [(l.band[0][0] + l.band[2][0]) / 2.0, (l.band[0][1] + l.band[2][1]) / 2.0]);
    // An outline is the check's only when it holds the line (or no line is seen yet).
    let found = found.filter(|f| centre.is_none_or(|c| inside_quad(&f.corners, c)));
    // Judged on the check as far as its outline shows it (whole, or cut off but holding the
    // line), otherwise on the frame (the check fills it), where a glare spot cannot be told
    // from the table around.
    let outlined = found.filter(|f| f.whole || f.micr >= find::MICR_EVIDENCE);
    let check = match outlined {
        Some(f) => find::straighten(gray, &f.corners, gray.width()),
        None => gray.clone(),
    };
    let (measures, findings) = quality::check(&check);
    let dark = findings.iter().any(|f| matches!(f, Finding::TooDark { .. }));
    let spot = outlined.and_then(|_| quality::glare(&check));
    // The check's left edge outside the frame, and more than a sliver of it: the line starts
    // about 5 % in from that edge, so what is read may have lost its first field whole. What
    // shows is narrower than any check (a personal check is 2.18:1, a business one 2.43:1).
    let cut_left = found.is_some_and(|f| {
        let (wide, high) = find::quad_size(&f.corners);
        !f.whole && f.corners[0][0].min(f.corners[3][0]) <= 0.01 * gray.width() as f32 && wide < 2.1 * high
    });
    let mut answer = FrameCheck {
        corners: found.map(|f| f.corners),
        fill: found.map_or(0.0, |f| f.fill),
        sharpness: measures.sharpness as f32,
        hint: CaptureHint::NoCheck,
        glare_at: spot.map(|g| Place::at(g.centre.0, g.centre.1)),
        ..FrameCheck::nothing()
    };
    answer.hint = match (&line, found) {
        (Some(l), _) if !l.whole || cut_left => CaptureHint::MoveBack,
        (Some(l), _) if l.sure => {
            answer.band = Some(l.band);
            answer.line = Some(l.raw.clone());
            // Held still as the worker keeps it: the outline, or the line where there is none.
            let now = answer.corners.unwrap_or(l.band);
            let steady = previous.is_some_and(|p| moved(p, &now) <= MOVED_OVER * gray.width() as f32);
            if dark {
                CaptureHint::TooDark
            } else if spot.is_some_and(|g| g.on_amount()) {
                CaptureHint::Glare
            } else if !steady {
                CaptureHint::HoldStill
            } else {
                CaptureHint::Ready
            }
        }
        // No line read whole yet: what the outline says, never "ready".
        (_, None) => CaptureHint::NoCheck,
        (_, Some(f)) if !f.whole => CaptureHint::NotWhole,
        (_, Some(f)) if f.fill < TOO_FAR_BELOW => CaptureHint::TooFar,
        _ if dark => CaptureHint::TooDark,
        _ if spot.is_some_and(|g| g.share > 0.25) => CaptureHint::Glare,
        _ => CaptureHint::Blurred,
    };
    answer
}

/// The farthest any corner moved, in pixels.
fn moved(a: &Corners, b: &Corners) -> f32 {
    a.iter().zip(b).map(|(p, q)| (p[0] - q[0]).hypot(p[1] - q[1])).fold(0.0, f32::max)
}

/// What [`side`] gives: the answer, the straightened side as a grayscale JPEG and, when asked
/// (the benchmark, which times the server's whole chain), its bitonal G4 TIFF at 200 dpi.
pub struct Side {
    pub read: SideRead,
    pub jpeg: Vec<u8>,
    pub g4_tiff: Option<Vec<u8>>,
}

/// One side from its encoded picture. `corners` (in the picture's pixels, e.g. the live
/// frame's scaled up) say where the check is; without them it is looked for. `now` is a clock
/// in milliseconds (`performance.now()` in the worker).
pub fn side(
    bytes: &[u8],
    want_micr: bool,
    corners: Option<&Corners>,
    want_g4: bool,
    now: &dyn Fn() -> f64,
) -> Result<Side, String> {
    let start = now();
    let decoded = decode(bytes, Limits::DEPOSIT).map_err(|e| format!("The picture {e}."))?;
    let gray = decoded.image.to_luma8();
    drop(decoded); // a 12-megapixel RGB picture is 36 MB the rest does not need
    let (width, height) = gray.dimensions();
    let decoded_at = now();

    let (straight, corners) = match corners {
        Some(c) => {
            let c = inside(c, width, height)?;
            (find::straighten(&gray, &c, MAX_WIDTH), Some(c))
        }
        None => {
            let (s, found) = if want_micr { side::straightened_front(&gray) } else { side::straightened(&gray) };
            (s, found.map(|f| f.corners))
        }
    };
    drop(gray);
    let straight = at_most(straight, MAX_WIDTH);
    let straightened_at = now();

    let (_, findings) = quality::check(&straight);
    let measured_at = now();
    let micr = if want_micr { micr::read(&straight).ok().map(|line| micr_read(&line)) } else { None };
    let read_at = now();

    let mut jpeg = Vec::new();
    JpegEncoder::new_with_quality(&mut jpeg, JPEG_QUALITY)
        .encode_image(&straight)
        .map_err(|e| format!("The straightened side could not be encoded as JPEG: {e}."))?;
    let g4_tiff = want_g4.then(|| g4_tiff(&straight));
    let millis = SideMillis {
        decode: decoded_at - start,
        straighten: straightened_at - decoded_at,
        quality: measured_at - straightened_at,
        micr: read_at - measured_at,
        total: now() - start,
    };
    let read = SideRead {
        width,
        height,
        corners,
        straightened_width: straight.width(),
        straightened_height: straight.height(),
        findings: quality_findings(&findings),
        micr,
        millis,
    };
    Ok(Side { read, jpeg, g4_tiff })
}

/// Corners given by the page, checked: finite, and pulled into the picture (the frame's corners
/// scaled up can land a pixel outside it).
fn inside(c: &Corners, width: u32, height: u32) -> Result<Corners, String> {
    if c.iter().flatten().any(|v| !v.is_finite()) {
        return Err("The corners given are not numbers.".into());
    }
    let (w, h) = ((width - 1) as f32, (height - 1) as f32);
    Ok(c.map(|[x, y]| [x.clamp(0.0, w), y.clamp(0.0, h)]))
}

fn at_most(gray: GrayImage, max_width: u32) -> GrayImage {
    let (w, h) = gray.dimensions();
    if w <= max_width {
        return gray;
    }
    let height = (u64::from(h) * u64::from(max_width) / u64::from(w)).max(1) as u32;
    image::imageops::resize(&gray, max_width, height, FilterType::Triangle)
}

/// The side as cash letters carry it: 200 dpi of the check's width, Otsu's threshold, G4 (as
/// `side::prepare` on the server).
fn g4_tiff(gray: &GrayImage) -> Vec<u8> {
    let (w, h) = gray.dimensions();
    let inches = side::check_width_inches(w, h);
    let target = (inches * f64::from(g4::DPI)).round() as u32;
    let (scaled, dpi) = if w > target {
        (at_most(gray.clone(), target), g4::DPI)
    } else {
        (gray.clone(), (f64::from(w) / inches).round().max(1.0) as u32)
    };
    g4::encode_tiff(&Bitonal::otsu(&scaled), dpi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock() -> f64 {
        0.0
    }

    fn png(gray: &GrayImage) -> Vec<u8> {
        let mut out = Vec::new();
        gray.write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png).unwrap();
        out
    }

    #[test]
    fn a_frame_of_the_wrong_size_is_refused_in_words() {
        let e = frame(vec![0; 10], 4, 4, None, false).unwrap_err();
        assert_eq!(e, "The frame's pixels are not 4 × 4 × 4 bytes.");
    }

    #[test]
    fn an_empty_frame_shows_no_check() {
        let answer = frame(vec![40; 64 * 48 * 4], 64, 48, None, false).unwrap();
        assert_eq!((answer.corners, answer.hint), (None, CaptureHint::NoCheck));
    }

    /// A 640 × 480 frame: a light card of a check's proportions on a dark table.
    fn card(fill: f32) -> Vec<u8> {
        let (w, h) = (640.0, 480.0);
        let (cw, ch) = (w * fill, w * fill / 2.4);
        let (x0, y0) = ((w - cw) / 2.0, (h - ch) / 2.0);
        let frame = RgbaImage::from_fn(640, 480, |x, y| {
            let (x, y) = (x as f32, y as f32);
            let on = x >= x0 && x < x0 + cw && y >= y0 && y < y0 + ch;
            let ink = on && (y - y0 - 20.0).abs() < 2.0 && x > x0 + 30.0 && x < x0 + cw - 30.0;
            let g = if ink {
                30
            } else if on {
                225
            } else {
                50
            };
            image::Rgba([g, g, g, 255])
        });
        frame.into_raw()
    }

    #[test]
    fn a_check_held_still_is_ready_on_the_second_frame_and_a_far_one_is_too_far() {
        let first = frame(card(0.8), 640, 480, None, false).unwrap();
        let corners = first.corners.expect("the card is found");
        assert_eq!(first.hint, CaptureHint::HoldStill, "one frame cannot tell steady: {first:?}");
        let second = frame(card(0.8), 640, 480, Some(&corners), false).unwrap();
        assert_eq!(second.hint, CaptureHint::Ready, "{second:?}");
        assert!((second.fill - 0.8).abs() < 0.05, "{second:?}");
        let far = frame(card(0.4), 640, 480, None, false).unwrap();
        assert_eq!(far.hint, CaptureHint::TooFar, "{far:?}");
    }

    #[test]
    fn bytes_that_are_no_picture_say_so() {
        let e = side(b"hello", true, None, false, &clock).err().unwrap();
        assert_eq!(e, "The picture is not a JPEG, PNG or TIFF image.");
    }

    #[test]
    fn a_scan_of_a_side_comes_back_straightened_as_a_jpeg_with_its_findings() {
        let blank = GrayImage::from_pixel(1200, 540, image::Luma([230]));
        let out = side(&png(&blank), true, None, true, &clock).unwrap();
        assert_eq!((out.read.width, out.read.height), (1200, 540));
        assert_eq!(&out.jpeg[..2], [0xFF, 0xD8]);
        assert!(out.read.findings.iter().any(|f| f.code == "blank"), "{:?}", out.read.findings);
        assert_eq!(out.read.micr, None, "a blank side has no MICR line");
        assert_eq!(&out.g4_tiff.unwrap()[..4], b"II*\0");
    }

    #[test]
    fn corners_from_the_page_are_kept_inside_the_picture_and_nan_is_refused() {
        let c = [[-3.0, 0.0], [1210.0, 2.0], [1199.0, 541.0], [0.0, 539.0]];
        assert_eq!(inside(&c, 1200, 540).unwrap(), [[0.0, 0.0], [1199.0, 2.0], [1199.0, 539.0], [0.0, 539.0]]);
        let nan = [[f32::NAN, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        assert_eq!(inside(&nan, 10, 10).unwrap_err(), "The corners given are not numbers.");
    }

    #[test]
    fn a_side_wider_than_the_limit_is_scaled_down_to_it() {
        let wide = at_most(GrayImage::new(4800, 2000), MAX_WIDTH);
        assert_eq!(wide.dimensions(), (2400, 1000));
    }

    #[test]
    fn a_check_is_steady_only_when_no_corner_moved_more_than_two_percent() {
        let a: Corners = [[10.0, 10.0], [600.0, 10.0], [600.0, 280.0], [10.0, 280.0]];
        let mut b = a;
        b[2] = [603.0, 284.0];
        assert_eq!(moved(&a, &b), 5.0);
    }

    /// A 640 × 360 frame of the real check 07 (its line `⑆000067894⑆12345678⑈0101`), 530
    /// pixels wide on a dark table, moved `dx` pixels (negative: off the left edge).
    fn real_frame(dx: i64) -> GrayImage {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/data/checks/full/07_tmannherz_check1_deluxe_sample.jpg"
        );
        let check = image::open(path).expect("../shared/data/checks").to_luma8();
        let height = 530 * check.height() / check.width();
        let check = image::imageops::resize(&check, 530, height, FilterType::Triangle);
        let mut frame = GrayImage::from_pixel(640, 360, image::Luma([45]));
        image::imageops::overlay(&mut frame, &check, 55 + dx, i64::from((360 - height) / 2));
        frame
    }

    #[test]
    fn a_front_is_ready_once_its_micr_line_reads_whole_and_is_held_still() {
        let frame = real_frame(0);
        let first = frame_check(&frame, None, true);
        assert_eq!(first.hint, CaptureHint::HoldStill, "one frame cannot tell steady: {first:?}");
        assert_eq!(first.line.as_deref(), Some("⑆000067894⑆12345678⑈0101"));
        let band = first.band.expect("the line's box");
        assert!(band[0][1] > 180.0 && band[2][0] < 585.0, "along the check's bottom: {band:?}");
        let second = frame_check(&frame, first.corners.or(first.band).as_ref(), true);
        assert_eq!(second.hint, CaptureHint::Ready, "{second:?}");
        // The back of the same picture is judged by its outline alone: no line looked for.
        assert_eq!(frame_check(&frame, None, false).line, None);
    }

    #[test]
    fn a_front_whose_micr_line_runs_off_the_frame_asks_to_move_back_and_is_never_ready() {
        let frame = real_frame(-120);
        let answer = frame_check(&frame, None, true);
        assert_eq!((answer.hint, answer.line.as_deref()), (CaptureHint::MoveBack, None), "{answer:?}");
        let again = frame_check(&frame, answer.corners.as_ref(), true);
        assert_eq!(again.hint, CaptureHint::MoveBack);
    }

    #[test]
    fn a_front_on_a_patterned_table_is_not_asked_to_move_back_for_the_pattern() {
        // The scanning benchmark's photo (tests/perf/scan.rs) at 640 × 480: the check turned 4°
        // on a table of blocks, which read as characters on either side of the line.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/data/checks/full/07_tmannherz_check1_deluxe_sample.jpg"
        );
        let check = image::open(path).expect("../shared/data/checks").to_luma8();
        let (scale, (sin, cos)) = (480.0 / check.width() as f32, 4f32.to_radians().sin_cos());
        let frame = GrayImage::from_fn(640, 480, |x, y| {
            let (dx, dy) = (x as f32 - 320.0, y as f32 - 250.0);
            let u = (cos * dx + sin * dy) / scale + check.width() as f32 / 2.0;
            let v = (-sin * dx + cos * dy) / scale + check.height() as f32 / 2.0;
            let on = u >= 0.0 && v >= 0.0 && u < check.width() as f32 && v < check.height() as f32;
            let g = if on {
                f32::from(check.get_pixel(u as u32, v as u32).0[0])
            } else {
                70.0 + 10.0 * ((x * 10 / 64 + y * 10 / 88) % 3) as f32
            };
            image::Luma([(g * (0.85 + 0.15 * x as f32 / 640.0)) as u8])
        });
        let answer = frame_check(&frame, None, true);
        assert_eq!(answer.line.as_deref(), Some("⑆000067894⑆12345678⑈0101"), "{answer:?}");
        assert_eq!(answer.hint, CaptureHint::HoldStill);
    }
}
