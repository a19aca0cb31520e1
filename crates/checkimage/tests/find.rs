//! Finding a check in a photo and straightening it, on synthetic photos with a known truth (a
//! check front with a real E-13B line, put on a textured table through a known homography:
//! turned, tilted, small or large in the frame, unevenly lit, blurred, noised, JPEG-compressed)
//! and on the real scans of `shared/data/checks/full`, which must come through as they are.

mod micr_support;

use image::{GrayImage, Luma};
use micr_support::photo::{check_front, corner_error, photograph, Photo, Shot};
use micr_support::{gray, outlines, random_line, svg::Outline, Rng, FRONTS};
use moneydesk_checkimage::find::{find_check, find_front, straighten, Point, MICR_EVIDENCE};
use moneydesk_checkimage::micr;
use moneydesk_checkimage::side::{prepare_photo, straightened, straightened_front};

/// A photo of a check with a random MICR line, and the line without spaces.
fn shoot(shot: &Shot, outlines: &[(char, Outline)], rng: &mut Rng) -> (Photo, String) {
    let text = random_line(rng);
    // A line too long for a personal check (8 characters an inch, 5/16 in from the right edge,
    // room on the left) goes on a business check.
    let mut shot = *shot;
    shot.business |= text.chars().count() as f64 / 8.0 > 5.0;
    let shot = &shot;
    // Drawn at about the resolution it will have in the photo (at most 300 dpi).
    let width_in = if shot.business { 8.5 } else { 6.0 };
    let dpi = (shot.fill * f64::from(shot.width.max(shot.height)) * 1.2 / width_in).clamp(60.0, 300.0);
    let check = check_front(&text, outlines, dpi, shot.business, shot.blur * dpi / 200.0, rng);
    let photo = photograph(&check, shot, rng);
    (photo, text.chars().filter(|c| *c != ' ').collect())
}

/// The corners named from the opposite long side: the same quad upside down.
fn half_turn(c: &[Point; 4]) -> [Point; 4] {
    [c[2], c[3], c[0], c[1]]
}

struct Tally {
    n: usize,
    found: usize,
    /// Corner errors (share of the diagonal) as named, and up to a half turn.
    named: Vec<f64>,
    either_way: Vec<f64>,
}

impl Tally {
    fn worst(v: &[f64]) -> f64 {
        v.iter().copied().fold(0.0, f64::max)
    }
    fn right_way_up(&self) -> usize {
        self.named.iter().zip(&self.either_way).filter(|(a, b)| a <= b).count()
    }
    fn report(&self, what: &str) {
        let mut e = self.either_way.clone();
        e.sort_by(f64::total_cmp);
        eprintln!(
            "{what}: found {} of {}, corner error median {:.4}, worst {:.4} of the diagonal (up to a half turn); right way up {}",
            self.found,
            self.n,
            e[e.len() / 2],
            e[e.len() - 1],
            self.right_way_up()
        );
    }
}

/// Shoots `n` photos of `width` × `height` and finds the check in each.
fn survey(n: usize, width: u32, height: u32, seed: u64) -> Tally {
    let outlines = outlines();
    let mut rng = Rng(seed);
    let mut t = Tally { n, found: 0, named: Vec::new(), either_way: Vec::new() };
    for i in 0..n {
        let shot = Shot::random(&mut rng, width, height);
        let (photo, _) = shoot(&shot, &outlines, &mut rng);
        let found = find_check(&photo.image);
        let named = found.map_or(1.0, |f| corner_error(&f.corners, &photo.corners));
        let either = found.map_or(1.0, |f| named.min(corner_error(&half_turn(&f.corners), &photo.corners)));
        if named > 0.02 {
            eprintln!("#{i} {shot:?}\n  error {named:.4} found {found:?}\n  truth {:?}", photo.corners);
        }
        t.found += usize::from(found.is_some());
        t.named.push(named);
        t.either_way.push(either);
    }
    t.report(&format!("{width} × {height}"));
    t
}

/// Live frames: all of them in every build (the reader and these tests are optimised in the
/// debug profile too: root Cargo.toml).
const LIVE_FRAMES: usize = 200;

#[test]
fn a_check_photographed_at_an_angle_in_a_640_by_480_frame_is_found_within_two_percent() {
    // Measured over 200: all found, median error 0.01 %, worst 0.13 % of the diagonal.
    let t = survey(LIVE_FRAMES, 640, 480, 1);
    assert_eq!(t.found, t.n);
    assert!(Tally::worst(&t.named) <= 0.02, "{}", Tally::worst(&t.named));
}

#[test]
fn a_check_across_a_portrait_frame_is_found_within_two_percent_and_nearly_always_the_right_way_up() {
    // Which long side is the top is told by the MICR line alone when the check stands across a
    // portrait frame; in a 480 × 640 frame a check a third as long as the frame has characters
    // 4 pixels tall. Measured over 200: all found, worst error 0.13 % of the diagonal; 189 the
    // right way up (the 11 others had characters under 7 pixels tall in the frame).
    let t = survey(LIVE_FRAMES, 480, 640, 2);
    assert_eq!(t.found, t.n);
    assert!(Tally::worst(&t.either_way) <= 0.02, "{}", Tally::worst(&t.either_way));
    assert!(t.right_way_up() * 100 >= t.n * 90, "{} of {}", t.right_way_up(), t.n);
}

/// 12-megapixel photos: all of them in every build, as the live frames.
const PHOTOS: usize = 60;

#[test]
fn a_12_megapixel_photo_is_straightened_into_a_check_whose_micr_line_reads_exactly() {
    let outlines = outlines();
    let mut rng = Rng(3);
    let (mut exact, mut worst, mut n) = (0usize, 0f64, 0usize);
    for i in 0..PHOTOS {
        // Landscape and portrait in turn.
        let (w, h) = if i % 2 == 0 { (4000, 3000) } else { (3000, 4000) };
        let shot = Shot::random(&mut rng, w, h);
        let (photo, line) = shoot(&shot, &outlines, &mut rng);
        let (check, found) = straightened(&photo.image);
        let found = found.unwrap_or_else(|| panic!("#{i} {shot:?}: not found"));
        let err = corner_error(&found.corners, &photo.corners);
        let read = micr::read(&check).map(|l| l.raw).unwrap_or_default();
        if err > 0.005 || read != line {
            eprintln!("#{i} {shot:?}\n  error {err:.4}\n  expected {line}\n  read     {read}");
        }
        worst = worst.max(err);
        exact += usize::from(read == line);
        n += 1;
    }
    eprintln!("12 MP: {n} photos, worst corner error {worst:.4} of the diagonal, MICR line exact on {exact}");
    assert!(worst <= 0.02, "{worst}");
    // Measured: 58 of 60 (the two others have a star where the reader saw ink between two
    // characters), corner error at most 0.43 % of the diagonal.
    assert!(exact * 100 >= n * 93, "{exact} of {n}");
}

#[test]
fn a_check_upside_down_in_the_photo_is_turned_the_right_way_by_its_micr_line() {
    let outlines = outlines();
    let mut rng = Rng(4);
    for i in 0..12 {
        let mut shot = Shot::random(&mut rng, 2000, 1500);
        shot.rotation = 180.0 + rng.range(-25.0, 25.0);
        shot.fill = rng.range(0.5, 0.9);
        let (photo, _) = shoot(&shot, &outlines, &mut rng);
        let found = find_check(&photo.image).unwrap_or_else(|| panic!("#{i}: not found"));
        let err = corner_error(&found.corners, &photo.corners);
        assert!(err <= 0.02, "#{i} {shot:?}: {err} {found:?} {:?}", photo.corners);
    }
}

#[test]
fn a_check_the_frame_cuts_off_is_found_but_not_whole() {
    let outlines = outlines();
    let mut rng = Rng(6);
    let mut shot = Shot::random(&mut rng, 800, 480);
    (shot.rotation, shot.fill, shot.place, shot.tilt) = (4.0, 0.7, (1.0, 0.5), 0.05);
    let (photo, _) = shoot(&shot, &outlines, &mut rng);
    // The right 160 pixels cut away: the check runs out of the picture on the right.
    let cut = image::imageops::crop_imm(&photo.image, 0, 0, 640, 480).to_image();
    let found = find_check(&cut).expect("found");
    assert!(!found.whole, "{found:?}");
    // Its left corners, which are in the picture, are where they are.
    let diag = 0.7 * 800.0;
    for k in [0, 3] {
        let d = ((f64::from(found.corners[k][0]) - photo.corners[k][0]).powi(2)
            + (f64::from(found.corners[k][1]) - photo.corners[k][1]).powi(2))
        .sqrt();
        assert!(d <= 0.02 * diag, "corner {k}: {found:?} {:?}", photo.corners);
    }
    // Wholly in the frame, the same check is whole.
    assert!(find_check(&photo.image).unwrap().whole);
}

#[test]
fn of_a_check_and_a_brighter_window_behind_it_the_front_is_the_outline_holding_the_micr_line() {
    let outlines = outlines();
    let mut rng = Rng(17);
    let (n, mut window_first) = (6, 0);
    for i in 0..n {
        let mut shot = Shot::random(&mut rng, 1280, 720);
        (shot.rotation, shot.fill, shot.place, shot.tilt, shot.business) =
            (rng.range(-6.0, 6.0), 0.45, (0.03, 0.5), 0.04, false);
        let (mut photo, _) = shoot(&shot, &outlines, &mut rng);
        // A window right of the check: a 2.4:1 pane, larger and whiter than the check (the
        // outline of most contrast: `find_check` takes it every time).
        for y in 240..480 {
            for x in 680..1260 {
                photo.image.put_pixel(x, y, Luma([252]));
            }
        }
        let check = find_front(&photo.image).expect("an outline");
        let error = corner_error(&check.corners, &photo.corners);
        assert!(
            error < 0.02,
            "#{i}: the front's outline is the check's ({error:.4}): {check:?}, truth {:?}",
            photo.corners
        );
        assert!(check.micr >= MICR_EVIDENCE, "#{i}: it holds the MICR line: {check:?}");
        let best = find_check(&photo.image).expect("an outline");
        window_first += usize::from(corner_error(&best.corners, &photo.corners) > 0.02);
    }
    eprintln!("the brightest outline was the window in {window_first} of {n}");
}

#[test]
fn a_front_running_off_an_edge_is_straightened_as_far_as_it_shows_when_its_micr_line_does() {
    let outlines = outlines();
    let mut rng = Rng(6);
    let mut shot = Shot::random(&mut rng, 800, 480);
    (shot.rotation, shot.fill, shot.place, shot.tilt) = (4.0, 0.9, (1.0, 0.5), 0.05);
    let (photo, _) = shoot(&shot, &outlines, &mut rng);
    // The right 100 pixels cut away (no amount is encoded: the line ends well left of them).
    let cut = image::imageops::crop_imm(&photo.image, 0, 0, 700, 480).to_image();
    let (check, found) = straightened_front(&cut);
    let found = found.expect("straightened");
    assert!(!found.whole && found.micr >= MICR_EVIDENCE, "{found:?}");
    assert!(check.width() > 2 * check.height() && check.width() < 700, "{:?}", check.dimensions());
    // The back (no MICR line) is left as it is.
    assert!(straightened(&cut).1.is_none());
}

#[test]
fn fill_is_the_share_of_the_frame_the_check_spans() {
    let outlines = outlines();
    let mut rng = Rng(8);
    for fill in [0.4, 0.6, 0.9] {
        let mut shot = Shot::random(&mut rng, 640, 480);
        // Tilt makes one side longer than the fill it was drawn for.
        (shot.rotation, shot.fill, shot.tilt) = (3.0, fill, 0.0);
        let (photo, _) = shoot(&shot, &outlines, &mut rng);
        let found = find_check(&photo.image).unwrap();
        assert!((f64::from(found.fill) - fill).abs() < 0.02, "{fill}: {found:?}");
    }
}

#[test]
fn straightening_a_photo_through_the_true_corners_gives_back_the_check() {
    let outlines = outlines();
    let mut rng = Rng(9);
    let mut shot = Shot::random(&mut rng, 1600, 1200);
    (shot.fill, shot.noise, shot.light, shot.business, shot.tilt) = (0.8, 1.0, 0.0, false, 0.12);
    let check = check_front("⑆122000661⑆ 12345678⑈ 0101", &outlines, 200.0, false, 0.5, &mut rng);
    let photo = photograph(&check, &shot, &mut rng);
    let corners = photo.corners.map(|[x, y]| [x as f32, y as f32]);
    let flat = straighten(&photo.image, &corners, check.width());
    // 1200 × 550: the check's own size (the mean of the top and bottom lengths, which the
    // tilt changes a little), its aspect kept within 3 %.
    assert!(flat.width().abs_diff(check.width()) <= 12, "{}", flat.width());
    assert!((f64::from(flat.height()) / f64::from(check.height()) - 1.0).abs() < 0.03, "{}", flat.height());
    let flat = straighten(&photo.image, &corners, 2000);
    let same = image::imageops::resize(&flat, check.width(), check.height(), image::imageops::FilterType::Triangle);
    let diff = |a: &GrayImage, b: &GrayImage| {
        a.pixels().zip(b.pixels()).map(|(p, q)| (f64::from(p.0[0]) - f64::from(q.0[0])).abs()).sum::<f64>()
            / a.len() as f64
    };
    let d = diff(&same, &check);
    // Against the same check turned over, the difference is several times larger.
    let turned = image::imageops::rotate180(&check);
    eprintln!("mean difference {d:.1} gray levels, {:.1} turned over", diff(&same, &turned));
    assert!(d < 6.0, "{d}");
    assert!(diff(&same, &turned) > 3.0 * d);
    assert_eq!(micr::read(&flat).unwrap().raw, "⑆122000661⑆12345678⑈0101");
}

#[test]
fn the_corner_error_measure_notices_corners_named_in_the_wrong_order() {
    let truth = [[100.0, 100.0], [540.0, 120.0], [530.0, 320.0], [110.0, 300.0]];
    let exact = truth.map(|[x, y]: [f64; 2]| [x as f32, y as f32]);
    assert!(corner_error(&exact, &truth) < 1e-6);
    assert!(corner_error(&half_turn(&exact), &truth) > 0.5);
    let mut swapped = exact;
    swapped.swap(0, 1);
    assert!(corner_error(&swapped, &truth) > 0.5);
    // A 2 % miss on one corner is measured as such.
    let diag = ((430.0f64).powi(2) + 220.0f64.powi(2)).sqrt();
    let mut off = exact;
    off[2][0] += (0.02 * diag) as f32;
    assert!((corner_error(&off, &truth) - 0.02).abs() < 1e-4);
}

#[test]
fn the_real_scans_come_through_as_they_are_and_read_the_same_micr_line() {
    for front in &FRONTS {
        let g = gray(&format!("full/{}", front.file));
        let before = micr::read(&g).map(|l| l.raw).unwrap_or_default();
        let (out, found) = straightened(&g);
        eprintln!("{}: {found:?}", front.file);
        if found.is_none() {
            assert_eq!(out, g, "{}", front.file);
        } else {
            let after = micr::read(&out).map(|l| l.raw).unwrap_or_default();
            assert_eq!(after, before, "{}", front.file);
        }
    }
}

#[test]
fn a_blank_picture_noise_and_tiny_pictures_show_no_check() {
    assert_eq!(find_check(&GrayImage::from_pixel(640, 480, Luma([128]))), None);
    assert_eq!(find_check(&GrayImage::from_pixel(4000, 3000, Luma([240]))), None);
    let mut rng = Rng(10);
    let noise = GrayImage::from_fn(640, 480, |_, _| Luma([rng.below(256) as u8]));
    assert_eq!(find_check(&noise), None);
    let blotches = GrayImage::from_fn(640, 480, |x, y| {
        Luma([(128.0 + 60.0 * ((x as f64 / 37.0).sin() * (y as f64 / 23.0).cos())) as u8])
    });
    assert_eq!(find_check(&blotches), None);
    for (w, h) in [(1, 1), (2, 1), (1, 300), (31, 31), (40, 32), (0, 0), (40, 9000), (9000, 33)] {
        let g = GrayImage::from_pixel(w, h, Luma([200]));
        assert_eq!(find_check(&g), None, "{w} × {h}");
        assert_eq!(straightened(&g), (g.clone(), None));
    }
    // Straightening a degenerate quad gives a picture, not a panic.
    let g = GrayImage::from_pixel(64, 48, Luma([90]));
    assert_eq!(straighten(&g, &[[5.0, 5.0]; 4], 100).dimensions(), (1, 1));
    assert_eq!(
        straighten(&GrayImage::new(0, 0), &[[0.0, 0.0], [9.0, 0.0], [9.0, 4.0], [0.0, 4.0]], 100).dimensions(),
        (9, 4)
    );
}

#[test]
fn a_photo_is_prepared_at_200_dpi_of_the_check_it_shows() {
    let outlines = outlines();
    let mut rng = Rng(12);
    let mut shot = Shot::random(&mut rng, 3000, 2250);
    (shot.fill, shot.business, shot.rotation) = (0.8, false, -12.0);
    let check = check_front("⑆000067894⑆ 12345678⑈ 0101", &outlines, 300.0, false, 0.5, &mut rng);
    let photo = photograph(&check, &shot, &mut rng);
    let (side, found) = prepare_photo(&image::DynamicImage::ImageLuma8(photo.image));
    assert!(found.is_some_and(|f| f.whole));
    // A personal check, 6 in at 200 dpi.
    assert_eq!((side.gray.width(), side.dpi), (1200, 200));
    assert!((f64::from(side.gray.height()) - 550.0).abs() < 17.0, "{}", side.gray.height());
    assert!(side.findings.iter().all(|f| f.code() != "not_check_shaped"), "{:?}", side.findings);
    assert_eq!(micr::read(&side.gray).unwrap().raw, "⑆000067894⑆12345678⑈0101");
}
