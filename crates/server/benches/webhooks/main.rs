//! Webhook delivery's drain (scripts/bench-webhooks): 10,000 events to 3 endpoints on loopback
//! — one fast receiver, one answering after 200 ms, one answering 500 always — delivered by a
//! real `moneydesk-server` process that is killed with SIGKILL mid-drain and started again.
//! At the end, from the receivers' own counts (they dedupe by event id) and the database's:
//! every event delivered to each healthy endpoint at least once (none lost), the repeats
//! (at-least-once: a few, from the kill), the order per object, and events/s from the first
//! delivery to the last. Figures are printed, never judged; on SQLite, then on PostgreSQL.
//!
//! Environment (the script sets the first three):
//!   WEBHOOK_BENCH_SERVER     the moneydesk-server binary (the same build)
//!   WEBHOOK_BENCH_DIR        a scratch directory (SQLite files, the instances' data dirs)
//!   MONEYDESK_BENCH_POSTGRES postgres://… of a cluster whose database `webhooks` is empty
//!                            (only for the `pg` part)
//!   WEBHOOK_BENCH_EVENTS (10000), WEBHOOK_BENCH_PER_OBJECT (4: events per deposit, in order),
//!   WEBHOOK_BENCH_SLOW_MS (200), WEBHOOK_BENCH_KILL_AT (50: % of the fast receiver's events),
//!   WEBHOOK_BENCH_PARTS (`sqlite,pg`), WEBHOOK_BENCH_TIMEOUT_S (1800: per part).

use std::path::PathBuf;
use std::time::{Duration, Instant};

mod drain;
mod receiver;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.replace(['_', ','], "").parse().ok()).unwrap_or(default)
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set: run scripts/bench-webhooks"))
}

/// A `moneydesk-server serve` process; killed (SIGKILL) when dropped.
pub struct Instance {
    child: std::process::Child,
    pub base: String,
    pub pid: u32,
}

impl Instance {
    /// Starts one on `url`, delivering webhooks or not, and waits until it is ready.
    pub async fn start(name: &str, url: &str, deliver: bool) -> anyhow::Result<Instance> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let dir = PathBuf::from(env("WEBHOOK_BENCH_DIR")).join(name);
        std::fs::create_dir_all(&dir)?;
        let log = std::fs::File::create(dir.join("server.log"))?;
        let child = server_command(&dir, url)
            .arg("serve")
            .env("MONEYDESK_ADDR", format!("127.0.0.1:{port}"))
            .env("MONEYDESK_WEBHOOK_WORKER", if deliver { "true" } else { "false" })
            .stderr(log)
            .stdout(std::process::Stdio::null())
            .spawn()?;
        let base = format!("http://127.0.0.1:{port}");
        let pid = child.id();
        let me = Instance { child, base, pid };
        let started = Instant::now();
        while reqwest::get(format!("{}/readyz", me.base)).await.map_or(true, |r| !r.status().is_success()) {
            anyhow::ensure!(started.elapsed() < Duration::from_secs(60), "{name} is not ready: see {}", dir.display());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(me)
    }

    /// SIGKILL: no graceful stop, claims and attempts left as they were.
    pub fn kill9(mut self) -> anyhow::Result<()> {
        self.child.kill()?;
        self.child.wait()?;
        Ok(())
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The server's settings for the run: 127.0.0.1 allowed (loopback is refused otherwise), and
/// short retries so the failing endpoint's deliveries give up within seconds (a 1 s receiver
/// timeout: the claim a killed process leaves lasts twice that plus 30 s).
fn server_command(dir: &std::path::Path, url: &str) -> std::process::Command {
    let mut c = std::process::Command::new(env("WEBHOOK_BENCH_SERVER"));
    c.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("MONEYDESK_DATA_DIR", dir)
        .env("MONEYDESK_DATABASE_URL", url)
        .env("MONEYDESK_SEED_DEMO", "false")
        .env("MONEYDESK_LOG", "warn")
        .env("MONEYDESK_DIST", dir.join("no-dist"))
        .env("MONEYDESK_ROUTING_REFRESH", "off")
        .env("MONEYDESK_EMAIL_WORKER", "off")
        .env("MONEYDESK_WEBHOOK_ALLOW", "127.0.0.1")
        .env("MONEYDESK_WEBHOOK_RETRY_BASE", "1s")
        .env("MONEYDESK_WEBHOOK_RETRY_MAX", "2s")
        .env("MONEYDESK_WEBHOOK_RETRY_FOR", "5s")
        .env("MONEYDESK_WEBHOOK_TIMEOUT", "1s");
    c
}

/// A `webhooks:write` token for `url`'s database, made by the server's own CLI.
pub fn token(url: &str) -> anyhow::Result<String> {
    let dir = PathBuf::from(env("WEBHOOK_BENCH_DIR")).join("cli");
    std::fs::create_dir_all(&dir)?;
    let out = server_command(&dir, url)
        .args(["token", "create", "--name", "bench-webhooks", "--scope", "webhooks:write"])
        .output()?;
    anyhow::ensure!(out.status.success(), "token create: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout)?;
    Ok(text.lines().last().unwrap_or_default().trim().to_string())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let parts = std::env::var("WEBHOOK_BENCH_PARTS").unwrap_or_else(|_| "sqlite,pg".into());
    let dir = PathBuf::from(env("WEBHOOK_BENCH_DIR"));
    if parts.contains("sqlite") {
        drain::run("SQLite", &format!("sqlite://{}", dir.join("webhooks.db").display())).await?;
    }
    if parts.contains("pg") {
        drain::run("PostgreSQL", &format!("{}/webhooks", env("MONEYDESK_BENCH_POSTGRES"))).await?;
    }
    Ok(())
}
