//! The live camera on every check front of `shared/data/checks/full`, seen in the ways phones
//! see checks (`moneydesk_e2e::camera::Kind`: on a dark or light table, filling the frame,
//! running off the right or the left edge, at 22° of perspective, with a glare spot, slightly blurred), as the
//! scan wizard runs it (`scripts/bench-capture`): every 150 ms a frame, moved a little as a hand
//! moves, scaled to 640 pixels and judged by the scanning worker's own `frame`; the picture
//! taken by itself by the wizard's own rule (`Steadiness`), then read by the worker's own
//! `side` with its MICR line, and kept, as the wizard keeps it, only when that reading is the
//! line the frames read (otherwise let go, and the camera goes on). Per case: whether it was taken by itself, after how many frames
//! (the wizard's time is frames × 150 ms once the worker keeps up), and whether the MICR line
//! then read exactly (the fronts' truth, SOURCE.md); for a case not taken by itself, whether
//! pressing "Take the picture" at the end would have read it.
//!
//! It measures; it asserts nothing. A plain `main` (harness = false).

#[allow(dead_code)]
#[path = "../../crates/checkimage/tests/micr_support/fronts.rs"]
mod fronts;

use std::time::Instant;

use fronts::{Front, FRONTS};
use image::imageops::FilterType;
use image::{DynamicImage, RgbImage};
use moneydesk_e2e::camera::{self, Kind, Shake};
use moneydesk_e2e::shared_data;
use moneydesk_model::deposits::{CaptureHint, FrameCheck, Steadiness, FRAME_WIDTH};

/// The wizard's frames, every 150 ms: 20 are its first 3 seconds.
const TICK_MS: u32 = 150;
const FRAMES: u32 = 20;

/// A small deterministic generator for the hand's movement.
struct Rng(u64);
impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    }
}

struct Case {
    taken_at: Option<u32>,
    /// The hints said, in order, without repeats.
    said: Vec<CaptureHint>,
    read_exactly: Option<bool>,
    /// Pictures taken by itself and let go: their own reading said another line than the frames'.
    let_go: u32,
    /// Not taken by itself: would the last frame, taken by hand, have read exactly?
    by_hand: Option<bool>,
    frame_ms: f64,
}

fn jpeg(frame: &RgbImage) -> Vec<u8> {
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 92).encode_image(frame).unwrap();
    out
}

/// The worker's `side` on the picture: its MICR line, and whether it is the front's truth.
fn read(front: &Front, picture: &RgbImage) -> (Option<String>, bool) {
    let side = moneydesk_scan_worker::side(&jpeg(picture), true, None, false, &|| 0.0).unwrap();
    let Some(m) = side.read.micr else { return (None, false) };
    if std::env::var_os("MONEYDESK_BENCH_SHOW").is_some() {
        eprintln!("{}: read {} (expected {})", front.file, m.line, front.raw);
    }
    let v = |f: &Option<moneydesk_model::deposits::MicrField>| f.as_ref().map(|f| f.value.clone());
    let (routing, account, check) = (v(&m.routing_number), v(&m.account_number), v(&m.check_number));
    let exact = front.read_exactly(&m.line, routing.as_deref(), account.as_deref(), check.as_deref());
    (Some(m.line), exact)
}

fn run(front: &Front, check: &RgbImage, kind: Kind, n: usize) -> Case {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ n as u64);
    let mut steadiness = Steadiness::default();
    let mut previous = None;
    let mut case =
        Case { taken_at: None, said: Vec::new(), read_exactly: None, let_go: 0, by_hand: None, frame_ms: 0.0 };
    let mut last = None;
    for i in 1..=FRAMES {
        // A hand: within ±3 pixels and ±0.3° of where it was aimed.
        let shake = Shake { dx: 3.0 * rng.unit(), dy: 3.0 * rng.unit(), turn: 0.3 * rng.unit(), alternate: n % 2 == 1 };
        let full = camera::frame(check, kind, shake);
        let height = FRAME_WIDTH * camera::HEIGHT / camera::WIDTH;
        let small = DynamicImage::ImageRgb8(full.clone()).resize_exact(FRAME_WIDTH, height, FilterType::Triangle);
        let start = Instant::now();
        let answer: FrameCheck =
            moneydesk_scan_worker::frame(small.to_rgba8().into_raw(), FRAME_WIDTH, height, previous.as_ref(), true)
                .unwrap();
        case.frame_ms += start.elapsed().as_secs_f64() * 1e3;
        previous = answer.corners.or(answer.band);
        let (hint, now) = steadiness.judge(&answer);
        if case.said.last() != Some(&hint) {
            case.said.push(hint);
        }
        if now {
            // The wizard keeps it only when the picture's own reading is the frames' line.
            let (line, exact) = read(front, &full);
            if line.is_some() && line == answer.line {
                case.taken_at = Some(i);
                case.read_exactly = Some(exact);
                case.frame_ms /= f64::from(i);
                return case;
            }
            case.let_go += 1;
            steadiness = Steadiness::default();
        }
        last = Some(full);
    }
    case.frame_ms /= f64::from(FRAMES);
    case.by_hand = last.map(|f| read(front, &f).1);
    case
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("tests/perf/capture.rs: a benchmark, run by scripts/bench-capture");
        return;
    }
    let only: Option<String> = std::env::var("MONEYDESK_BENCH_ONLY").ok();
    println!("| check | kind | taken by itself | after | MICR read exactly | let go | hints said | frame ms |");
    println!("|---|---|---|---|---|---|---|---|");
    // Off the left edge the line is cut: the right answer is "move back", not a picture.
    let (mut cases, mut taken, mut in_time, mut wrong, mut by_hand) = (0, 0, 0, Vec::new(), 0);
    let (mut cut, mut moved_back) = (0, 0);
    for (f, front) in FRONTS.iter().enumerate() {
        if only.as_deref().is_some_and(|o| !front.file.contains(o)) {
            continue;
        }
        let check = camera::check_image(&shared_data(&format!("checks/full/{}", front.file)));
        for (k, kind) in Kind::ALL.into_iter().enumerate() {
            let case = run(front, &check, kind, f * Kind::ALL.len() + k);
            if kind == Kind::OffLeft {
                cut += 1;
                moved_back += usize::from(case.taken_at.is_none() && case.said.contains(&CaptureHint::MoveBack));
            } else {
                cases += 1;
            }
            let said: Vec<String> = case.said.iter().map(|h| format!("{h:?}")).collect();
            let (by_itself, after, exact) = match (case.taken_at, case.read_exactly, case.by_hand) {
                (Some(i), Some(exact), _) => {
                    if kind != Kind::OffLeft {
                        taken += 1;
                        in_time += usize::from(i * TICK_MS <= 3000);
                    }
                    if !exact {
                        wrong.push(format!("{} / {}", front.file, kind.name()));
                    }
                    (
                        "yes",
                        format!("{i} frames ({} ms)", i * TICK_MS),
                        if exact { "yes" } else { "**no**" }.to_string(),
                    )
                }
                (_, _, hand) => {
                    by_hand += usize::from(hand == Some(true) && kind != Kind::OffLeft);
                    ("**no**", "–".into(), format!("by hand: {}", if hand == Some(true) { "yes" } else { "no" }))
                }
            };
            println!(
                "| {} | {} | {by_itself} | {after} | {exact} | {} | {} | {:.1} |",
                &front.file[..2],
                kind.name(),
                case.let_go,
                said.join(" → "),
                case.frame_ms
            );
        }
    }
    println!();
    println!(
        "line whole in the frame: taken by itself {taken} of {cases} ({:.0} %), within 3 s {in_time}; not taken but readable by hand {by_hand}",
        100.0 * taken as f64 / cases.max(1) as f64,
    );
    println!("line cut off (off the left edge): \"move back\" said and nothing taken in {moved_back} of {cut}");
    println!("taken by itself but the MICR line not read exactly: {} {wrong:?}", wrong.len());
}
