//! A real SMTP server for the email tests: aiosmtpd (Debian's `python3-aiosmtpd`, installed by
//! `scripts/setup`) running `tests/smtp/sink.py` on a loopback port. It keeps every message it
//! accepts as a file, and can refuse or defer recipients and be stopped and started again on
//! the same port (a relay that is down, then back).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub struct SmtpSink {
    pub port: u16,
    pub dir: tempfile::TempDir,
    child: Option<Child>,
    /// The certificate chain and key it speaks implicit TLS with (`smtps://`), if any.
    tls: Option<(PathBuf, PathBuf)>,
}

/// A message as the sink received it: its bytes and its envelope's recipients.
#[derive(Debug, Clone)]
pub struct Received {
    pub raw: Vec<u8>,
    pub mail_from: String,
    pub rcpt_tos: Vec<String>,
    /// What its 250 said it was queued as (`<pid>-<n>`, its own in every reply).
    pub queued_as: String,
}

impl Received {
    pub fn parsed(&self) -> mail_parser::Message<'_> {
        mail_parser::MessageParser::default().parse(&self.raw).expect("the sink's message parses as MIME")
    }
}

fn script() -> PathBuf {
    PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("run by cargo")).join("tests/smtp/sink.py")
}

/// Debian's python3, which has `python3-aiosmtpd` (a python3 earlier on PATH, such as a
/// pyenv one, does not).
fn python() -> &'static str {
    if std::path::Path::new("/usr/bin/python3").exists() {
        "/usr/bin/python3"
    } else {
        "python3"
    }
}

impl SmtpSink {
    pub fn start() -> SmtpSink {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut sink = SmtpSink { port, dir: tempfile::tempdir().unwrap(), child: None, tls: None };
        sink.resume();
        sink
    }

    /// A relay speaking implicit TLS (SMTPS) with the PEM certificate chain `cert` and `key`.
    pub fn start_tls(cert: PathBuf, key: PathBuf) -> SmtpSink {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut sink = SmtpSink { port, dir: tempfile::tempdir().unwrap(), child: None, tls: Some((cert, key)) };
        sink.resume();
        sink
    }

    /// `smtp://127.0.0.1:PORT` (`smtps://` for a TLS one): what `MONEYDESK_SMTP_URL` is set to.
    pub fn url(&self) -> String {
        format!("{}://127.0.0.1:{}", if self.tls.is_some() { "smtps" } else { "smtp" }, self.port)
    }

    /// Stops it (a relay that is down: connections are refused).
    pub fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Starts it (again) on its port; returns once it listens.
    pub fn resume(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let mut child = Command::new(python())
                .arg(script())
                .arg(self.port.to_string())
                .arg(self.dir.path())
                .args(self.tls.iter().flat_map(|(cert, key)| [cert, key]))
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
                .expect("python3 runs the SMTP sink (scripts/setup installs python3-aiosmtpd)");
            let mut line = String::new();
            let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
            let _ = std::io::BufRead::read_line(&mut out, &mut line);
            if line.trim() == "ready" {
                // Keep the pipe open: a closed stdout would end the sink at its next print.
                std::mem::forget(out);
                self.child = Some(child);
                return;
            }
            // The port may still be held by the previous sink for a moment.
            let _ = child.kill();
            let _ = child.wait();
            assert!(Instant::now() < deadline, "the SMTP sink did not start on port {}", self.port);
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Sets its behaviour (see sink.py): `{"reject": {"a@x": 550}, "defer": {...}, "delay_ms": n}`.
    pub fn control(&self, v: Value) {
        std::fs::write(self.dir.path().join("control.json"), v.to_string()).unwrap();
    }

    /// Every message received so far, in the order received.
    pub fn received(&self) -> Vec<Received> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .collect();
        names.sort();
        names
            .into_iter()
            .map(|p| {
                let envelope: Value =
                    serde_json::from_str(&std::fs::read_to_string(p.with_extension("json")).unwrap()).unwrap();
                // Files are `<pid>-<n, six digits>.eml`; the reply said `queued as <pid>-<n>`.
                let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
                let (pid, n) = stem.split_once('-').unwrap();
                Received {
                    queued_as: format!("{pid}-{}", n.parse::<u64>().unwrap()),
                    raw: std::fs::read(&p).unwrap(),
                    mail_from: envelope["mail_from"].as_str().unwrap_or("").to_string(),
                    rcpt_tos: envelope["rcpt_tos"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_str().unwrap().to_string())
                        .collect(),
                }
            })
            .collect()
    }

    /// Waits until at least `n` messages arrived (at most `secs` seconds).
    pub async fn wait_for(&self, n: usize, secs: u64) -> Vec<Received> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let got = self.received();
            if got.len() >= n || Instant::now() > deadline {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.stop();
    }
}
