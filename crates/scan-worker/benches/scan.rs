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

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::wd::TimeoutConfiguration;
use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use image::{GrayImage, RgbImage};
use moneydesk_model::deposits::{SideMillis, SideRead};
use serde_json::{json, Value};

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
  const data = await ask({ id: next++, op: "frame", width: 640, height: 480, rgba: pixels }, [pixels.buffer]);
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
        println!("benches/scan.rs: a benchmark, run by scripts/bench-scan");
        return;
    }
    let worker_dir = PathBuf::from(std::env::var("MONEYDESK_SCAN_WORKER_DIR").expect("MONEYDESK_SCAN_WORKER_DIR: the worker built by `cargo xtask worker DIR`"));
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
    println!("== A {} × {} JPEG photo of a check ({:.1} MB): side pipeline with MICR and G4", 4000, 3000, photo.len() as f64 / 1e6);
    std::fs::write(site.join("photo.jpg"), &photo).unwrap();
    let frame = image::load_from_memory(&photo).unwrap().resize_exact(640, 480, image::imageops::FilterType::Triangle).to_rgba8().into_raw();
    std::fs::write(site.join("frame.rgba"), &frame).unwrap();
    std::fs::write(site.join("index.html"), PAGE).unwrap();
    let port = serve(site.clone());

    let runtime = tokio::runtime::Runtime::new().unwrap();
    let driver = ChromeDriver::start(&site);
    let client = runtime.block_on(browser(&driver.url, &site));
    runtime.block_on(async {
        client.goto(&format!("http://127.0.0.1:{port}/")).await.unwrap();
        client.execute_async("start(arguments[0]).then(() => arguments[1](true), (e) => arguments[1](String(e)))", vec![json!(loader)]).await.unwrap();
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
        let check = moneydesk_scan_worker::frame(frame.clone(), 640, 480, previous.as_ref()).unwrap();
        let native_frame = start.elapsed().as_secs_f64() * 1e3;
        let hint = check.hint;
        previous = check.corners;
        let out = runtime.block_on(client.execute_async("frame().then(arguments[0], (e) => arguments[0]({ error: String(e) }))", vec![])).unwrap();
        if run > 0 {
            frames.0.push(native_frame);
            frames.1.push(out["roundTrip"].as_f64().unwrap_or(f64::NAN));
        }
        frames.2 = format!("{} natively, {} in wasm", json!(hint), out["hint"]);
    }
    runtime.block_on(client.close()).ok();
    drop(driver);
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
    format!("{found}, straightened {} × {}, JPEG {} kB, G4 {} kB, MICR {micr}", read.straightened_width, read.straightened_height, jpeg / 1000, g4 / 1000)
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
    println!("  {:<22} {:>10} {:>10} {:>7}   (median of {runs}, alternating)", "stage", "native ms", "wasm ms", "ratio");
    for (name, f) in stages {
        let (n, w) = (median(native.iter().map(f).collect()), median(wasm.iter().map(f).collect()));
        println!("  {name:<22} {n:>10.1} {w:>10.1} {:>6.2}×", w / n);
    }
    let (n, w) = (median(native.iter().map(|m| m.total).collect()), median(wasm.iter().map(|m| m.total).collect()));
    println!("  page round trip (wasm total + transfer + JSON): {:.1} ms", median(trips.to_vec()));
    println!("  targets: native < 400 ms: {}; wasm ≤ 2.5 × native: {} ({:.2}×)", yes(n < 400.0), yes(w <= 2.5 * n), w / n);
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
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/checks/full/07_tmannherz_check1_deluxe_sample.jpg");
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
        let base = if inside { f64::from(check.get_pixel(u as u32, v as u32).0[0]) } else { 70.0 + 10.0 * ((x / 40 + y / 55) % 3) as f64 };
        let light = 0.85 + 0.15 * f64::from(x) / f64::from(w);
        let g = (base * light + noise).clamp(0.0, 255.0) as u8;
        image::Rgb([g.saturating_add(8), g, g.saturating_sub(10)])
    });
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 90).encode_image(&photo).unwrap();
    jpeg
}

/// A static file server for the page, the worker and the photo (with the types a worker
/// needs: `text/javascript`, `application/wasm`), on a free loopback port.
fn serve(dir: PathBuf) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let dir = dir.clone();
            std::thread::spawn(move || answer(stream, &dir));
        }
    });
    port
}

fn answer(mut stream: TcpStream, dir: &Path) {
    let mut line = String::new();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    if reader.read_line(&mut line).is_err() {
        return;
    }
    while let Ok(n) = reader.read_line(&mut String::new()) {
        if n <= 2 {
            break; // the blank line after the headers
        }
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/").trim_start_matches('/');
    let name = if path.is_empty() { "index.html" } else { path };
    let kind = match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript",
        Some("wasm") => "application/wasm",
        _ => "image/jpeg",
    };
    let response = match std::fs::read(dir.join(name)).ok().filter(|_| !name.contains("..")) {
        Some(body) => [format!("HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len()).into_bytes(), body].concat(),
        None => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(),
    };
    let _ = stream.write_all(&response);
}

/// chromedriver on a free port, in its own process group, so that dropping it ends the
/// browser it started too.
struct ChromeDriver {
    child: Child,
    url: String,
}

impl ChromeDriver {
    fn start(dir: &Path) -> ChromeDriver {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let bin = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
        let log = std::fs::File::create(dir.join("chromedriver.log")).unwrap();
        let child = Command::new(&bin)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("starting {bin}: {e}"));
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen within 30 s");
            std::thread::sleep(Duration::from_millis(50));
        }
        ChromeDriver { child, url: format!("http://127.0.0.1:{port}") }
    }
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        unsafe { libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

/// Headless Chromium with TOOLCHAIN.md's flags (as root, offline).
async fn browser(driver: &str, dir: &Path) -> Client {
    let profile = dir.join("chromium-profile");
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ];
    let mut args: Vec<Value> = args.iter().map(|a| json!(a)).collect();
    args.push(json!(format!("--user-data-dir={}", profile.display())));
    let binary = std::env::var("MONEYDESK_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let caps = json!({ "browserName": "chrome", "goog:chromeOptions": { "args": args, "binary": binary } });
    let client = ClientBuilder::new(HttpConnector::new())
        .capabilities(caps.as_object().cloned().unwrap())
        .connect(driver)
        .await
        .expect("starting Chromium through chromedriver");
    let long = Some(Duration::from_secs(300)); // a slow machine's wasm run, with room to spare
    client.update_timeouts(TimeoutConfiguration::new(long, long, None)).await.unwrap();
    client
}
