//! The server binary as its own process, for the `kill -9` tests: started on a data dir and a
//! free loopback port with the given variables, ready when it answers; killed with SIGKILL, so
//! no shutdown code runs, as in a power cut.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use moneydesk_model::paths;

pub struct Process {
    pub child: Child,
    pub base: String,
}

/// The server on `data_dir` (SQLite there unless `env` names a database), demo data off, with
/// `env` set last (so it can override those defaults).
pub async fn start(data_dir: &Path, env: &[(&str, String)]) -> Process {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(env!("CARGO_BIN_EXE_moneydesk-server"))
        .env_clear()
        .env("MONEYDESK_DATA_DIR", data_dir)
        .env("MONEYDESK_ADDR", format!("127.0.0.1:{port}"))
        .env("MONEYDESK_SEED_DEMO", "false")
        .env("MONEYDESK_LOG", "warn")
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .stdout(Stdio::null())
        .spawn()
        .expect("start moneydesk-server");
    let base = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(30);
    while reqwest::get(format!("{base}{}", paths::OPENAPI)).await.is_err() {
        assert!(Instant::now() < deadline, "the server did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Process { child, base }
}

impl Process {
    /// SIGKILL, and the process reaped.
    pub fn kill_9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}
