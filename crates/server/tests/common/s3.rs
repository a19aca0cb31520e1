//! A real S3-compatible server for the tests: `s3s-fs` (crates.io; `scripts/setup` installs
//! it), serving a temporary directory on a free loopback port, with an access key so every
//! request is SigV4-signed and checked. One server per test process, started by the first
//! test that asks; every test gets a bucket of its own (s3s-fs keeps a bucket as a folder of
//! its root). The server stops when the process exits (an `atexit` hook), and a watchdog
//! stops it should the process die without exiting.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use moneydesk_server::storage::blobs::S3Config;

const ACCESS_KEY: &str = "moneydesk-tests";
const SECRET_KEY: &str = "moneydesk-tests-secret";

struct S3Server {
    endpoint: String,
    root: PathBuf,
}

static SERVER: OnceLock<S3Server> = OnceLock::new();
static CHILD: Mutex<Option<(Child, PathBuf)>> = Mutex::new(None);
static NEXT_BUCKET: AtomicUsize = AtomicUsize::new(0);

extern "C" {
    fn atexit(callback: extern "C" fn()) -> i32;
}

extern "C" fn stop_server() {
    if let Ok(mut guard) = CHILD.lock() {
        if let Some((mut child, root)) = guard.take() {
            let _ = child.kill();
            let _ = child.wait();
            let _ = std::fs::remove_dir_all(root);
        }
    }
}

fn binary() -> PathBuf {
    if let Ok(p) = std::env::var("MONEYDESK_S3S_FS") {
        return PathBuf::from(p);
    }
    let home = std::env::var("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cargo"));
    let installed = home.join("bin/s3s-fs");
    if installed.exists() {
        return installed;
    }
    PathBuf::from("s3s-fs")
}

fn start() -> S3Server {
    let root = tempfile::Builder::new().prefix("moneydesk-s3-").tempdir().expect("temp dir").keep();
    let port = TcpListener::bind("127.0.0.1:0").expect("free port").local_addr().unwrap().port();
    let child = Command::new(binary())
        .args([
            "--host",
            "127.0.0.1",
            "--port",
            &port.to_string(),
            "--access-key",
            ACCESS_KEY,
            "--secret-key",
            SECRET_KEY,
        ])
        .arg(&root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("s3s-fs could not start ({e}): run `source scripts/setup`, which installs it"));
    let pid = child.id();
    *CHILD.lock().unwrap() = Some((child, root.clone()));
    unsafe { atexit(stop_server) };
    let _ = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "while kill -0 {me} 2>/dev/null; do sleep 1; done; kill {pid} 2>/dev/null; rm -rf {root:?}",
            me = std::process::id(),
            root = root.to_str().unwrap()
        ))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let until = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < until, "s3s-fs did not listen on port {port} within 20 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    S3Server { endpoint: format!("http://127.0.0.1:{port}"), root }
}

/// A fresh, empty bucket on the tests' S3 server (started on first use), as the server's
/// settings name it.
pub fn fresh_bucket() -> S3Config {
    let server = SERVER.get_or_init(start);
    let bucket = format!("b{}-{}", std::process::id(), NEXT_BUCKET.fetch_add(1, Ordering::SeqCst));
    std::fs::create_dir_all(server.root.join(&bucket)).expect("the bucket's folder");
    S3Config {
        bucket,
        prefix: Some("moneydesk".into()),
        endpoint: Some(server.endpoint.clone()),
        region: "us-east-1".into(),
        path_style: true,
        access_key: Some((ACCESS_KEY.into(), SECRET_KEY.into())),
    }
}

/// Where s3s-fs keeps a bucket's objects (a test looks an object up as a file).
pub fn bucket_dir(c: &S3Config) -> PathBuf {
    SERVER.get().expect("the S3 server runs").root.join(&c.bucket)
}

/// Whether a multipart upload has parts on the server now (s3s-fs keeps them at its root as
/// `.upload_id-<id>.part-<n>`, whatever the bucket).
pub fn multipart_parts() -> usize {
    let Some(server) = SERVER.get() else { return 0 };
    std::fs::read_dir(&server.root)
        .map(|d| {
            d.filter_map(Result::ok).filter(|e| e.file_name().to_string_lossy().starts_with(".upload_id-")).count()
        })
        .unwrap_or(0)
}
