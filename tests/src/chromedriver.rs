//! A chromedriver process of our own, on a free port, in its own process group so that
//! dropping it also ends the Chromium it started (even when a test panics).

use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct ChromeDriver {
    child: Child,
    pub url: String,
}

fn chromedriver_bin() -> PathBuf {
    let bin = std::env::var_os("CHROMEDRIVER").filter(|v| !v.is_empty()).map(PathBuf::from);
    let bin = bin.unwrap_or_else(|| PathBuf::from("/usr/bin/chromedriver"));
    if !bin.is_file() {
        panic!(
            "no chromedriver at {}: install chromium and chromium-driver (scripts/setup does) or set CHROMEDRIVER",
            bin.display()
        );
    }
    bin
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("binding 127.0.0.1:0").port()
}

impl ChromeDriver {
    /// Starts chromedriver, logging to `log`, and waits until it accepts connections.
    pub fn start(log: &Path) -> ChromeDriver {
        let port = free_port();
        let log_file = std::fs::File::create(log).expect("creating the chromedriver log");
        let child = Command::new(chromedriver_bin())
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdin(Stdio::null())
            .stdout(log_file.try_clone().expect("log file"))
            .stderr(log_file)
            .process_group(0)
            .spawn()
            .expect("starting chromedriver");
        let driver = ChromeDriver { child, url: format!("http://127.0.0.1:{port}") };
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline {
                panic!("chromedriver did not listen on port {port} within 30 s; see {}", log.display());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        driver
    }
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        // The whole group: chromedriver and the browser processes it started.
        let pgid = self.child.id() as libc::pid_t;
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
        let _ = self.child.wait();
    }
}
