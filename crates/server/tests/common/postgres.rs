//! A real PostgreSQL for the tests: Debian's server binaries (`scripts/setup` installs the
//! `postgresql` package), a cluster `initdb`'d into a temporary directory and started with
//! `pg_ctl` on a free loopback port — no system service. One cluster per test process,
//! started by the first test that asks; every test gets a database of its own. The cluster
//! stops when the process exits (an `atexit` hook), and a watchdog stops it should the
//! process die without exiting (killed).
//!
//! PostgreSQL refuses to run as root: as root, the cluster is owned by and run as `nobody`
//! (through `runuser`).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use sqlx::Connection;

struct Cluster {
    /// `postgres://postgres@127.0.0.1:PORT`
    base_url: String,
}

static CLUSTER: OnceLock<Cluster> = OnceLock::new();
/// What the exit hook needs to stop the cluster and remove its files.
static STOP: OnceLock<(PathBuf, PathBuf, Option<String>)> = OnceLock::new();

extern "C" {
    fn atexit(callback: extern "C" fn()) -> i32;
    fn geteuid() -> u32;
}

extern "C" fn stop_cluster() {
    if let Some((pg_ctl, root, user)) = STOP.get() {
        let data = root.join("data");
        let _ = as_user(user, pg_ctl, &["-D", path(&data), "-m", "immediate", "-w", "stop"]).output();
        let _ = std::fs::remove_dir_all(root);
    }
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

/// `program args`, run as `user` when one is given.
fn as_user(user: &Option<String>, program: &Path, args: &[&str]) -> Command {
    match user {
        Some(u) => {
            let mut c = Command::new("runuser");
            c.args(["-u", u, "--"]).arg(program).args(args);
            c
        }
        None => {
            let mut c = Command::new(program);
            c.args(args);
            c
        }
    }
}

/// The newest installed `/usr/lib/postgresql/<version>/bin` (or `$MONEYDESK_PG_BIN`).
fn bin_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("MONEYDESK_PG_BIN") {
        return PathBuf::from(dir);
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .filter(|(_, bin)| bin.join("initdb").exists() && bin.join("pg_ctl").exists())
        .collect();
    found.sort();
    found.pop().map(|(_, bin)| bin).unwrap_or_else(|| {
        panic!("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run `source scripts/setup`")
    })
}

fn run(mut c: Command, what: &str) {
    let out = c.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn start_cluster() -> Cluster {
    let bin = bin_dir();
    let user = (unsafe { geteuid() } == 0).then(|| "nobody".to_string());
    let root = tempfile::Builder::new().prefix("moneydesk-pg-").tempdir().expect("temp dir").keep();
    if let Some(u) = &user {
        run(
            {
                let mut c = Command::new("chown");
                c.args([u.as_str(), path(&root)]);
                c
            },
            "chown the cluster dir",
        );
    }
    let data = root.join("data");
    run(
        as_user(
            &user,
            &bin.join("initdb"),
            &["-D", path(&data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
        ),
        "initdb",
    );
    let port = TcpListener::bind("127.0.0.1:0").expect("free port").local_addr().unwrap().port();
    // Throwaway data: no fsync. The socket lives in the cluster dir, not /var/run/postgresql.
    let options = format!(
        "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
        path(&root)
    );
    let log = root.join("postgres.log");
    run(
        as_user(&user, &bin.join("pg_ctl"), &["-D", path(&data), "-o", &options, "-l", path(&log), "-w", "start"]),
        "pg_ctl start",
    );
    let pg_ctl = bin.join("pg_ctl");
    STOP.set((pg_ctl.clone(), root.clone(), user.clone())).ok();
    unsafe { atexit(stop_cluster) };
    // The watchdog: when this process is gone without running its exit hook, stop the cluster.
    let stop = as_user(&user, &pg_ctl, &["-D", path(&data), "-m", "immediate", "-w", "stop"]);
    let stop_line =
        format!("{:?} {}", stop.get_program(), stop.get_args().map(|a| format!("{a:?}")).collect::<Vec<_>>().join(" "));
    let _ = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 1; done; [ -d {root:?} ] && {{ {stop_line}; rm -rf {root:?}; }}",
            pid = std::process::id(),
            root = path(&root),
        ))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    Cluster { base_url: format!("postgres://postgres@127.0.0.1:{port}") }
}

static NEXT_DB: AtomicUsize = AtomicUsize::new(0);

/// A fresh, empty database on the test cluster (started on first use); its URL.
pub async fn fresh_database() -> String {
    let cluster = tokio::task::spawn_blocking(|| CLUSTER.get_or_init(start_cluster).base_url.clone())
        .await
        .expect("cluster start");
    let name = format!("t{}_{}", std::process::id(), NEXT_DB.fetch_add(1, Ordering::Relaxed));
    let mut admin =
        sqlx::PgConnection::connect(&format!("{cluster}/postgres")).await.expect("connect to the test cluster");
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut admin).await.expect("create database");
    admin.close().await.ok();
    format!("{cluster}/{name}")
}
