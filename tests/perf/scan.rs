//! Native versus wasm (`scripts/bench-scan`): a 12-megapixel JPEG photo of a check on a table
//! taken through the scanning worker's whole side pipeline (decode, grayscale, find,
//! straighten, quality, MICR, the JPEG, and bitonal + G4 as the server makes them) natively,
//! and by the worker built for the browser (`cargo xtask worker`) in headless Chromium, runs
//! alternating in one process, so both see the same machine at the same moment. Prints the
//! median of each stage, both totals and their ratio (the issue's targets: < 400 ms native,
//! wasm ≤ 2.5 × native). It measures; it asserts nothing about time.
//!
//! A plain timing `main` (harness = false). Needs `MONEYDESK_SCAN_WORKER_DIR` (the worker's
//! files); `MONEYDESK_BENCH_RUNS` runs of each (default 7) after one warm-up of each.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fantoccini::wd::TimeoutConfiguration;
use fantoccini::Client;
use image::{GrayImage, RgbImage};
use moneydesk_e2e::{shared_data, Browser};
use moneydesk_model::deposits::{SideMillis, SideRead};
use serde_json::json;

/// The page: starts the worker as the portal's client does (waiting for its `ready`), keeps the
/// photo, and sends it as a `side` request (a copy, transferred, as the portal sends a file).
const PAGE: &str = r#"<!doctype html><meta charset="utf-8"><title>scan benchmark</title>
<script>
let worker, photo, rgba, next = 1;
const waiting = new Map();
function ask(message, transfer) {
  return new Promise((resolve, reject) => {
    waiting.set(message.id, [resolve, reject]);
    if (message.op) worker.postMessage(message, transfer);
  });
}
function start(loader) {
  worker = new Worker(loader);
  worker.onmessage = (e) => {
    const w = waiting.get(e.data.id || 0);
    waiting.delete(e.data.id || 0);
    if (w) e.data.error ? w[1](new Error(e.data.error)) : w[0](e.data);
  };
  worker.onerror = (e) => waiting.forEach((w) => w[1](new Error("the worker failed: " + e.message)));
  const read = (name) => fetch(name).then((r) => r.arrayBuffer());
  return Promise.all([ask({ id: 0 }), read("photo.jpg").then((b) => { photo = b; }), read("frame.rgba").then((b) => { rgba = b; })]);
}
async function frame() {
  const pixels = new Uint8ClampedArray(rgba.slice(0));
  const t = performance.now();
  const data = await ask({ id: next++, op: "frame", width: 640, height: 480, rgba: pixels, micr: true }, [pixels.buffer]);
  return { roundTrip: performance.now() - t, hint: JSON.parse(data.ok).hint };
}
async function side() {
  const bytes = new Uint8Array(photo.slice(0));
  const t = performance.now();
  const data = await ask({ id: next++, op: "side", bytes, micr: true, corners: null, g4: true }, [bytes.buffer]);
  return { roundTrip: performance.now() - t, read: data.ok, jpeg: data.jpeg.length, g4: data.g4.length };
}
</script>"#;

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("tests/perf/scan.rs: a benchmark, run by scripts/bench-scan");
        return;
    }
    let worker_dir = PathBuf::from(
        std::env::var("MONEYDESK_SCAN_WORKER_DIR")
            .expect("MONEYDESK_SCAN_WORKER_DIR: the worker built by `cargo xtask worker DIR`"),
    );
    let runs: usize = std::env::var("MONEYDESK_BENCH_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(7);

    let site = std::env::temp_dir().join(format!("moneydesk-bench-scan-{}", std::process::id()));
    std::fs::create_dir_all(&site).unwrap();
    let mut loader = None;
    for entry in std::fs::read_dir(&worker_dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.ends_with("_loader.js") {
            loader = Some(name.clone());
        }
        std::fs::copy(&path, site.join(&name)).unwrap();
    }
    let loader = loader.unwrap_or_else(|| panic!("no *_loader.js in {}", worker_dir.display()));
    let photo = photo();
    println!(
        "== A {} × {} JPEG photo of a check ({:.1} MB): side pipeline with MICR and G4",
        4000,
        3000,
        photo.len() as f64 / 1e6
    );
    std::fs::write(site.join("photo.jpg"), &photo).unwrap();
    let frame = image::load_from_memory(&photo)
        .unwrap()
        .resize_exact(640, 480, image::imageops::FilterType::Triangle)
        .to_rgba8()
        .into_raw();
    std::fs::write(site.join("frame.rgba"), &frame).unwrap();
    std::fs::write(site.join("index.html"), PAGE).unwrap();

    let runtime = tokio::runtime::Runtime::new().unwrap();
    let origin = runtime.block_on(serve(site.clone()));
    // The end-to-end tests' browser: TOOLCHAIN.md's flags, chromedriver in its own process group.
    let browser = runtime.block_on(Browser::start(&site, "bench-scan".into()));
    let client = browser.client().clone();
    runtime.block_on(async {
        let long = Some(Duration::from_secs(300)); // a slow machine's wasm run, with room to spare
        client.update_timeouts(TimeoutConfiguration::new(long, long, None)).await.unwrap();
        client.goto(&format!("{origin}/")).await.unwrap();
        client
            .execute_async(
                "start(arguments[0]).then(() => arguments[1](true), (e) => arguments[1](String(e)))",
                vec![json!(loader)],
            )
            .await
            .unwrap();
    });

    let (mut native, mut wasm, mut trips) = (Vec::new(), Vec::new(), Vec::new());
    // the worker keeps the last frame's corners (for HoldStill): so does the native side
    let (mut frames, mut previous) = ((Vec::new(), Vec::new(), String::new()), None);
    let mut reads = (String::new(), String::new());
    for run in 0..=runs {
        let (n, n_read) = native_run(&photo);
        let (w, w_read, trip) = runtime.block_on(wasm_run(&client));
        if run > 0 {
            // the first of each is a warm-up (caches, the allocator's first growth)
            native.push(n);
            wasm.push(w);
            trips.push(trip);
        }
        reads = (n_read, w_read);
        let start = Instant::now();
        let check = moneydesk_scan_worker::frame(frame.clone(), 640, 480, previous.as_ref(), true).unwrap();
        let native_frame = start.elapsed().as_secs_f64() * 1e3;
        let hint = check.hint;
        previous = check.corners;
        let out = runtime
            .block_on(
                client.execute_async("frame().then(arguments[0], (e) => arguments[0]({ error: String(e) }))", vec![]),
            )
            .unwrap();
        if run > 0 {
            frames.0.push(native_frame);
            frames.1.push(out["roundTrip"].as_f64().unwrap_or(f64::NAN));
        }
        frames.2 = format!("{} natively, {} in wasm", json!(hint), out["hint"]);
    }
    drop(browser);
    let _ = std::fs::remove_dir_all(&site);

    report(&native, &wasm, &trips, runs);
    let (n, w) = (median(frames.0), median(frames.1));
    println!("  a 640 × 480 frame (find, straighten, quality): {n:.1} ms native, {w:.1} ms in the worker (round trip), {:.2}×; hint {}", w / n, frames.2);
    println!("  read natively: {}\n  read in wasm:  {}", reads.0, reads.1);
}

fn native_run(photo: &[u8]) -> (SideMillis, String) {
    let start = Instant::now();
    let clock = move || start.elapsed().as_secs_f64() * 1e3;
    let side = moneydesk_scan_worker::side(photo, true, None, true, &clock).expect("the photo reads natively");
    let g4 = side.g4_tiff.as_ref().map_or(0, Vec::len);
    (side.read.millis, summary(&side.read, side.jpeg.len(), g4))
}

async fn wasm_run(client: &Client) -> (SideMillis, String, f64) {
    let script = "side().then(arguments[0], (e) => arguments[0]({ error: String(e) }))";
    let out = client.execute_async(script, vec![]).await.unwrap();
    if let Some(e) = out.get("error") {
        panic!("the worker failed: {e}");
    }
    let read: SideRead = serde_json::from_str(out["read"].as_str().unwrap()).unwrap();
    let size = |k: &str| out[k].as_u64().unwrap_or(0) as usize;
    let trip = out["roundTrip"].as_f64().unwrap_or(0.0);
    (read.millis, summary(&read, size("jpeg"), size("g4")), trip)
}

fn summary(read: &SideRead, jpeg: usize, g4: usize) -> String {
    let micr = read.micr.as_ref().map_or("(no MICR line)".to_string(), |m| m.line.clone());
    let found = if read.corners.is_some() { "check found" } else { "no check found" };
    format!(
        "{found}, straightened {} × {}, JPEG {} kB, G4 {} kB, MICR {micr}",
        read.straightened_width,
        read.straightened_height,
        jpeg / 1000,
        g4 / 1000
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn report(native: &[SideMillis], wasm: &[SideMillis], trips: &[f64], runs: usize) {
    type Stage = fn(&SideMillis) -> f64;
    let stages: [(&str, Stage); 6] = [
        ("decode + grayscale", |m| m.decode),
        ("find + straighten", |m| m.straighten),
        ("quality", |m| m.quality),
        ("MICR", |m| m.micr),
        ("JPEG + bitonal + G4", |m| m.total - m.decode - m.straighten - m.quality - m.micr),
        ("total", |m| m.total),
    ];
    println!(
        "  {:<22} {:>10} {:>10} {:>7}   (median of {runs}, alternating)",
        "stage", "native ms", "wasm ms", "ratio"
    );
    for (name, f) in stages {
        let (n, w) = (median(native.iter().map(f).collect()), median(wasm.iter().map(f).collect()));
        println!("  {name:<22} {n:>10.1} {w:>10.1} {:>6.2}×", w / n);
    }
    let (n, w) = (median(native.iter().map(|m| m.total).collect()), median(wasm.iter().map(|m| m.total).collect()));
    println!("  page round trip (wasm total + transfer + JSON): {:.1} ms", median(trips.to_vec()));
    println!(
        "  targets: native < 400 ms: {}; wasm ≤ 2.5 × native: {} ({:.2}×)",
        yes(n < 400.0),
        yes(w <= 2.5 * n),
        w / n
    );
}

fn yes(b: bool) -> &'static str {
    if b {
        "met"
    } else {
        "NOT met"
    }
}

/// A 4,000 × 3,000 photo: ../shared's check 07 at 3,000 pixels across, turned 4°, on a darker
/// grainy table lit from one side, as a phone's JPEG (quality 90).
fn photo() -> Vec<u8> {
    let source = shared_data("checks/full/07_tmannherz_check1_deluxe_sample.jpg");
    let check: GrayImage = image::open(&source).unwrap_or_else(|e| panic!("{}: {e}", source.display())).to_luma8();
    let (w, h) = (4000u32, 3000u32);
    let scale = 3000.0 / check.width() as f64;
    let (sin, cos) = 4f64.to_radians().sin_cos();
    let (cx, cy) = (f64::from(w) / 2.0, f64::from(h) / 2.0 + 60.0);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let photo = RgbImage::from_fn(w, h, |x, y| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let noise = (seed % 13) as f64 - 6.0;
        // the photo's pixel, turned back into the check's pixels
        let (dx, dy) = (f64::from(x) - cx, f64::from(y) - cy);
        let u = (cos * dx + sin * dy) / scale + f64::from(check.width()) / 2.0;
        let v = (-sin * dx + cos * dy) / scale + f64::from(check.height()) / 2.0;
        let inside = u >= 0.0 && v >= 0.0 && u < f64::from(check.width()) && v < f64::from(check.height());
        let base = if inside {
            f64::from(check.get_pixel(u as u32, v as u32).0[0])
        } else {
            70.0 + 10.0 * ((x / 40 + y / 55) % 3) as f64
        };
        let light = 0.85 + 0.15 * f64::from(x) / f64::from(w);
        let g = (base * light + noise).clamp(0.0, 255.0) as u8;
        image::Rgb([g.saturating_add(8), g, g.saturating_sub(10)])
    });
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 90).encode_image(&photo).unwrap();
    jpeg
}

/// The page, the worker and the photo on a free loopback port (tower-http's `ServeDir` gives
/// a worker the types it needs: `text/javascript`, `application/wasm`).
async fn serve(dir: PathBuf) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let app = axum::Router::new().fallback_service(tower_http::services::ServeDir::new(dir));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    origin
}
