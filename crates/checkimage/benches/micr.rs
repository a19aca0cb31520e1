//! MICR reading benchmark (`scripts/bench-micr`): first issue 47's measure on the 398 labelled
//! crops of `micr-lines/` (`micr_support::lines`: the summary `bench/results/micr.md` keeps;
//! `MICR_LINES_ONLY=1` stops after it); then for every real check front and cropped line of
//! `shared/data/checks`, the expected line, the line read, character accuracy, whether the
//! routing, account and check number are exact, and the time to read natively (median of 5);
//! then synthetic lines, and a 12-megapixel JPEG photo of a check on a table, at an angle, taken
//! through the whole chain (decode, grayscale, find, straighten, quality, bitonal, G4, MICR).
//!
//! A plain timing `main` (harness = false). Run by `cargo bench` (which passes `--bench`); under
//! `cargo test --all-targets` it only says so and stops.

#[path = "../tests/micr_support/mod.rs"]
mod micr_support;

use std::time::{Duration, Instant};

use micr_support::lines::{corrected, micr_line, micr_lines, Score, CORRECTIONS};
use micr_support::photo::{corner_error, photograph, Shot};
use micr_support::{accuracy, crops, distance, draw, gray, outlines, random_line, Look, Rng, FRONTS};
use moneydesk_checkimage::find::{find_check, straighten};
use moneydesk_checkimage::micr::{self, parse, Field, MicrLine};
use moneydesk_checkimage::side::STRAIGHT_MAX_WIDTH;
use moneydesk_checkimage::{decode, g4, quality, Bitonal, Limits};

fn median(mut t: Vec<Duration>) -> Duration {
    t.sort();
    t[t.len() / 2]
}

fn timed<T>(runs: usize, mut f: impl FnMut() -> T) -> (T, Duration) {
    let mut times = Vec::new();
    let mut out = None;
    for _ in 0..runs {
        let t = Instant::now();
        out = Some(f());
        times.push(t.elapsed());
    }
    (out.unwrap(), median(times))
}

fn v(f: &Option<Field>) -> Option<&str> {
    f.as_ref().map(|f| f.value.as_str())
}

fn mark(expected: Option<&str>, read: Option<&str>) -> &'static str {
    match (expected, read) {
        (None, _) => "–",
        (Some(e), Some(r)) if e == r => "exact",
        _ => "WRONG",
    }
}

struct Totals {
    chars: usize,
    errors: usize,
    time: Duration,
    n: usize,
}

fn row(
    t: &mut Totals,
    name: &str,
    expected: &str,
    line: &Result<MicrLine, micr::MicrError>,
    time: Duration,
    fields: [Option<&str>; 3],
) {
    let read = line.as_ref().map(|l| l.raw.clone()).unwrap_or_else(|e| format!("({e})"));
    let acc = accuracy(expected, &read);
    t.chars += expected.chars().count();
    t.errors += distance(expected, &read);
    t.time += time;
    t.n += 1;
    let got = line.as_ref().ok();
    let routing_ok = match got {
        Some(l) => format!(
            "{}{}",
            mark(fields[0], v(&l.routing)),
            if fields[0].is_some() {
                if l.routing_valid {
                    " (ABA ok)"
                } else {
                    " (ABA fails: flagged)"
                }
            } else {
                ""
            }
        ),
        None => "WRONG".into(),
    };
    println!("{name}");
    println!("  expected {expected}");
    println!("  read     {read}");
    println!(
        "  characters {:.1} %   routing {routing_ok}   account {}   check number {}   {:.1} ms",
        acc * 100.0,
        mark(fields[1], got.and_then(|l| v(&l.account))),
        mark(fields[2], got.and_then(|l| v(&l.check_number))),
        time.as_secs_f64() * 1e3
    );
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("micr benchmark: run it with `cargo bench` (scripts/bench-micr)");
        return;
    }
    lines();
    // `MICR_LINES_ONLY=1`: the measure on `micr-lines/` alone (a quicker loop while tuning).
    if std::env::var_os("MICR_LINES_ONLY").is_some() {
        return;
    }
    println!("\n== Check fronts (shared/data/checks/full)");
    let mut t = Totals { chars: 0, errors: 0, time: Duration::ZERO, n: 0 };
    for f in &FRONTS {
        let g = gray(&format!("full/{}", f.file));
        let (line, time) = timed(5, || micr::read(&g));
        let note = if f.modern { "" } else { "  [not a modern US line: reported]" };
        row(
            &mut t,
            &format!("{} ({} × {}){note}", f.file, g.width(), g.height()),
            f.raw,
            &line,
            time,
            [f.routing, f.account, f.check],
        );
    }
    let fronts = (t.chars, t.errors);
    println!("\n== Cropped lines (shared/data/checks/crops)");
    for (name, expected) in crops() {
        let g = gray(&format!("crops/{name}.tif"));
        let truth = parse(&expected);
        let (line, time) = timed(5, || micr::read(&g));
        row(&mut t, &name, &expected, &line, time, [v(&truth.routing), None, None]);
    }
    let crops_only = (t.chars - fronts.0, t.errors - fronts.1);
    println!("\n== Synthetic lines (OFL outlines, 150–300 dpi, ±5°, blur, noise, JPEG)");
    let outlines = outlines();
    let mut rng = Rng(20_261_126);
    let (mut sc, mut se, mut st, mut routing_exact) = (0usize, 0usize, Duration::ZERO, 0usize);
    let n = 200;
    for i in 0..n {
        let text = random_line(&mut rng);
        let look = Look::random(&mut rng, i % 4 == 3);
        let picture = draw(&text, &outlines, look, &mut rng);
        let expected: String = text.chars().filter(|c| *c != ' ').collect();
        let (line, time) = timed(1, || micr::read(&picture));
        let read = line.map(|l| l.raw).unwrap_or_default();
        sc += expected.chars().count();
        se += distance(&expected, &read);
        st += time;
        routing_exact += usize::from(v(&parse(&read).routing) == v(&parse(&expected).routing));
    }
    println!(
        "  {n} lines, {sc} characters: {:.2} % characters, routing exact on {routing_exact}, {:.1} ms a line",
        100.0 * (1.0 - se as f64 / sc as f64),
        st.as_secs_f64() * 1e3 / n as f64
    );
    println!("\n== Total (real pictures)");
    println!("  fronts: {:.2} % of {} characters", 100.0 * (1.0 - fronts.1 as f64 / fronts.0 as f64), fronts.0);
    println!(
        "  crops:  {:.2} % of {} characters",
        100.0 * (1.0 - crops_only.1 as f64 / crops_only.0 as f64),
        crops_only.0
    );
    println!(
        "  all:    {:.2} % of {} characters, {:.1} ms a picture on average",
        100.0 * (1.0 - t.errors as f64 / t.chars as f64),
        t.chars,
        t.time.as_secs_f64() * 1e3 / t.n as f64
    );
    twelve_megapixels();
}

/// Issue 47's measure on the 398 labelled crops of `micr-lines/`: each line read 3 times (the
/// median time kept), the lines not read exactly listed, then the summary in Markdown (as
/// `bench/results/micr.md` keeps it).
fn lines() {
    println!("== Labelled MICR lines (shared/data/checks/micr-lines)");
    let (mut score, mut fixed) = (Score::default(), Score::default());
    let mut times = Vec::new();
    for (name, expected) in micr_lines() {
        let g = micr_line(&name);
        let (line, time) = timed(3, || micr::read(&g));
        times.push(time);
        score.add(&name, &expected, line.as_ref().ok());
        fixed.add(&name, corrected(&name, &expected), line.as_ref().ok());
    }
    for (name, expected, read) in &score.not_exact {
        println!("  {name}\n    expected {expected}\n    read     {read}");
    }
    for s in &score.routing_silently_wrong {
        println!("  ROUTING SILENTLY WRONG {s}");
    }
    let mean = times.iter().sum::<Duration>().as_secs_f64() * 1e3 / times.len() as f64;
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e3;
    println!(
        "\n{} lines: time a line {mean:.2} ms on average, median {:.2} ms, 90th percentile {:.2} ms, longest {:.2} ms\n",
        times.len(),
        at(0.5),
        at(0.9),
        at(1.0)
    );
    println!("{}", score.markdown());
    println!(
        "With the {} wrong labels corrected (micr_support::lines::CORRECTIONS):\n\n{}",
        CORRECTIONS.len(),
        fixed.markdown()
    );
}

/// A 4,000 × 3,000 JPEG photo: check 07 on a grainy, unevenly lit table, turned 12°, tilted
/// (its left side 12 % shorter than its right), covering 80 % of the frame's width; then the
/// server's whole chain on it: decode, grayscale, find the check, straighten it, quality,
/// bitonal, G4, MICR. And the finder alone on the same photo reduced to a 640 × 480 live frame.
fn twelve_megapixels() {
    println!("\n== A 12-megapixel JPEG photo of a check, natively");
    let check = gray("full/07_tmannherz_check1_deluxe_sample.jpg");
    let mut rng = Rng(5);
    let shot = Shot {
        width: 4000,
        height: 3000,
        rotation: 12.0,
        tilt: 0.12,
        tilt_side: 3,
        fill: 0.8,
        place: (0.4, 0.55),
        light: 0.2,
        noise: 4.0,
        blur: 0.8,
        jpeg_quality: 95,
        table: 90.0,
        grain: 15.0,
        business: false,
    };
    let photo = photograph(&check, &shot, &mut rng);
    // A phone's JPEG is in colour: a warm cast on the gray.
    let rgb = image::RgbImage::from_fn(shot.width, shot.height, |x, y| {
        let v = photo.image.get_pixel(x, y).0[0];
        image::Rgb([v, v, v.saturating_sub(6)])
    });
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 90).encode_image(&rgb).unwrap();
    println!(
        "  {} × {} JPEG, {:.1} MB, the check turned 12°, tilted 12 %, 80 % of the width",
        shot.width,
        shot.height,
        jpeg.len() as f64 / 1e6
    );
    let mut stages: Vec<(&str, Duration)> = Vec::new();
    let mut total = Vec::new();
    let mut result = String::new();
    for _ in 0..3 {
        let start = Instant::now();
        let (decoded, d) = timed(1, || decode(&jpeg, Limits::default()).unwrap());
        let (g, gt) = timed(1, || decoded.image.to_luma8());
        let (found, ft) = timed(1, || find_check(&g));
        let found = found.expect("the check is found");
        let (flat, st) = timed(1, || straighten(&g, &found.corners, STRAIGHT_MAX_WIDTH));
        let (_q, qt) = timed(1, || quality::check(&flat));
        let (b, bt) = timed(1, || Bitonal::otsu(&flat));
        let (tiff, tt) = timed(1, || g4::encode_tiff(&b, g4::DPI));
        let (line, mt) = timed(1, || micr::read(&flat));
        total.push(start.elapsed());
        stages = vec![
            ("decode", d),
            ("grayscale", gt),
            ("find", ft),
            ("straighten", st),
            ("quality", qt),
            ("bitonal", bt),
            ("G4", tt),
            ("MICR", mt),
        ];
        result = format!(
            "{} (corner error {:.2} % of the diagonal, straightened {} × {}, G4 {} kB)",
            line.map(|l| l.raw).unwrap_or_else(|e| e.to_string()),
            100.0 * corner_error(&found.corners, &photo.corners),
            flat.width(),
            flat.height(),
            tiff.len() / 1000
        );
    }
    for (name, d) in &stages {
        println!("  {name:<10} {:>7.1} ms", d.as_secs_f64() * 1e3);
    }
    println!("  total      {:>7.1} ms (median of 3)   read {result}", median(total).as_secs_f64() * 1e3);
    // A live frame: the same photo at 640 × 480.
    let frame = image::imageops::resize(&photo.image, 640, 480, image::imageops::FilterType::Triangle);
    let (found, t) = timed(21, || find_check(&frame));
    let truth = photo.corners.map(|[x, y]| [x * 0.16, y * 0.16]);
    println!(
        "  find on a 640 × 480 frame: {:.1} ms (median of 21), corner error {:.2} % of the diagonal",
        t.as_secs_f64() * 1e3,
        found.map_or(100.0, |f| 100.0 * corner_error(&f.corners, &truth))
    );
}
