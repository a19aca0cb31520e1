//! A headless Chromium session with bounded waits. Every helper polls until its condition
//! holds or the timeout passes; a failure saves a screenshot and the page's HTML and panics
//! with a message naming the selector, the URL and any console errors.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fantoccini::error::{CmdError, ErrorStatus};
use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};

use crate::chromedriver::ChromeDriver;
use crate::console::{self, Entry, GetBrowserLog};
use crate::paths;

mod elements;

/// TOOLCHAIN.md's flags for Chromium as root and offline, plus the test window size.
pub const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
];

const POLL: Duration = Duration::from_millis(100);

pub struct Browser {
    client: Client,
    name: String,
    timeout: Duration,
    /// Every console entry read so far (a read drains chromedriver's buffer).
    console: Mutex<Vec<Entry>>,
    /// Substrings of SEVERE console messages a test expects (e.g. a 401 it provokes).
    allowed: Mutex<Vec<String>>,
    reports: AtomicUsize,
    // Last: dropping it kills chromedriver and the browser.
    _driver: ChromeDriver,
}

fn timeout() -> Duration {
    let secs = std::env::var("MONEYDESK_E2E_TIMEOUT_SECS").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    Duration::from_secs(secs)
}

/// Errors worth another try while the page is still rendering.
fn transient(e: &CmdError) -> bool {
    e.is_no_such_element()
        || e.is_stale_element_reference()
        || e.is_element_not_interactable()
        || intercepted(e)
        || e.is_invalid_element_state()
}

/// Another element (an overlay, a sticky header) would receive the click.
fn intercepted(e: &CmdError) -> bool {
    matches!(e, CmdError::Standard(w) if w.error == ErrorStatus::ElementClickIntercepted)
}

impl Browser {
    /// Starts chromedriver and a fresh headless Chromium (its profile in `dir`).
    pub async fn start(dir: &Path, name: String) -> Browser {
        Self::start_with_flags(dir, name, &[]).await
    }

    /// Like [`Browser::start`], with Chromium flags added (e.g. a fake camera).
    pub async fn start_with_flags(dir: &Path, name: String, flags: &[String]) -> Browser {
        let profile = dir.join("chromium-profile");
        std::fs::create_dir_all(&profile).expect("creating the browser profile dir");
        let log = dir.join("chromedriver.log");
        let driver = ChromeDriver::start(&log);

        let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|s| s.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        args.extend(flags.iter().cloned());
        let mut chrome = json!({ "args": args });
        let binary =
            std::env::var_os("MONEYDESK_CHROMIUM").map(PathBuf::from).unwrap_or_else(|| "/usr/bin/chromium".into());
        if binary.is_file() {
            chrome["binary"] = json!(binary);
        }
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": chrome,
            "goog:loggingPrefs": { "browser": "ALL" },
        });
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(caps.as_object().cloned().unwrap_or_default())
            .connect(&driver.url)
            .await
            .unwrap_or_else(|e| panic!("starting Chromium through chromedriver failed: {e}; see {}", log.display()));
        Browser {
            client,
            name,
            timeout: timeout(),
            console: Mutex::new(Vec::new()),
            allowed: Mutex::new(Vec::new()),
            reports: AtomicUsize::new(0),
            _driver: driver,
        }
    }

    /// Emulates a network (`latency_ms` added to each round trip, throughputs in bytes/s) for
    /// the rest of the session, through chromedriver's network conditions (benchmarks).
    pub async fn emulate_network(&self, latency_ms: u32, down_bytes_per_s: u32, up_bytes_per_s: u32) {
        let cmd = crate::console::NetworkConditions { latency_ms, down_bytes_per_s, up_bytes_per_s };
        if let Err(e) = self.client.issue_cmd(cmd).await {
            self.fail(format!("emulating a slow network: {e}")).await;
        }
    }

    /// Runs `script` in every document the session opens from now on, before the document's
    /// own scripts (DevTools' `Page.addScriptToEvaluateOnNewDocument`): benchmarks watch a
    /// page from its first moment instead of from when the navigation returned.
    pub async fn on_new_document(&self, script: &str) {
        let cmd =
            crate::console::Cdp { cmd: "Page.addScriptToEvaluateOnNewDocument", params: json!({ "source": script }) };
        if let Err(e) = self.client.issue_cmd(cmd).await {
            self.fail(format!("adding a script to new documents: {e}")).await;
        }
    }

    /// The underlying fantoccini client, for what the helpers do not cover.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Navigates to an absolute URL (a full page load).
    pub async fn open(&self, url: &str) {
        if let Err(e) = self.client.goto(url).await {
            self.fail(format!("opening {url}: {e}")).await;
        }
    }

    pub async fn reload(&self) {
        if let Err(e) = self.client.refresh().await {
            self.fail(format!("reloading: {e}")).await;
        }
    }

    /// Runs asynchronous JavaScript: the script ends by calling its last argument (the callback
    /// WebDriver appends) with the result.
    pub async fn js_async(&self, script: &str, args: Vec<Value>) -> Value {
        match self.client.execute_async(script, args).await {
            Ok(v) => v,
            Err(e) => self.fail(format!("running async script: {e}")).await,
        }
    }

    /// Runs JavaScript in the page (`arguments[i]` are `args`) and returns its result.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Value {
        match self.client.execute(script, args).await {
            Ok(v) => v,
            Err(e) => self.fail(format!("running script {script:?}: {e}")).await,
        }
    }

    /// The requests this page load made whose URL contains `part`, in the order they started
    /// (the browser's resource timing).
    pub async fn requests_to(&self, part: &str) -> Vec<Fetched> {
        let found = self
            .js(
                "return performance.getEntriesByType('resource').filter(e => e.name.includes(arguments[0]))
                    .map(e => [e.name, e.startTime, e.responseEnd])",
                vec![serde_json::json!(part)],
            )
            .await;
        // A list, or the script broke: never read a broken script as "none sent".
        let Some(list) = found.as_array() else { panic!("the resource timing is not a list: {found}") };
        list.iter()
            .map(|e| Fetched {
                url: e[0].as_str().unwrap_or_default().to_string(),
                start: e[1].as_f64().unwrap_or(f64::NAN),
                end: e[2].as_f64().unwrap_or(f64::NAN),
            })
            .collect()
    }

    /// Lets SEVERE console messages containing `substring` pass (a test that provokes a 401
    /// or a refused connection expects the browser to log it).
    pub fn allow_console_error(&self, substring: &str) {
        self.allowed.lock().unwrap().push(substring.to_string());
    }

    /// Reads the console entries logged since the last read; returns the unexpected SEVERE ones
    /// seen so far.
    pub async fn console_errors(&self) -> Vec<Entry> {
        if let Ok(v) = self.client.issue_cmd(GetBrowserLog).await {
            self.console.lock().unwrap().extend(console::parse(&v));
        }
        let allowed = self.allowed.lock().unwrap().clone();
        self.console
            .lock()
            .unwrap()
            .iter()
            .filter(|e| e.level == "SEVERE" && !allowed.iter().any(|a| e.message.contains(a.as_str())))
            .cloned()
            .collect()
    }

    /// Fails the test if the browser logged an unexpected error so far.
    pub async fn check_console(&self) {
        let errors = self.console_errors().await;
        if !errors.is_empty() {
            let list: Vec<String> = errors.iter().map(|e| format!("  {e}")).collect();
            self.fail(format!("the browser console has errors:\n{}", list.join("\n"))).await;
        }
    }

    /// Saves a screenshot and the page's HTML as `<artifacts>/<test>-<label>.{png,html}`.
    pub async fn snapshot(&self, label: &str) -> PathBuf {
        let dir = paths::artifacts_dir();
        let _ = std::fs::create_dir_all(&dir);
        let base = dir.join(format!("{}-{label}", self.name));
        if let Ok(png) = self.client.screenshot().await {
            let _ = std::fs::write(base.with_extension("png"), png);
        }
        if let Ok(html) = self.client.source().await {
            let _ = std::fs::write(base.with_extension("html"), html);
        }
        base.with_extension("png")
    }

    /// Ends the browser session cleanly.
    pub async fn close(self) {
        let _ = self.client.clone().close().await;
    }

    /// Saves the evidence and panics with `what` (plus the URL and console errors).
    pub async fn fail(&self, what: String) -> ! {
        let n = self.reports.fetch_add(1, Ordering::SeqCst);
        let shot = self.snapshot(&format!("failure-{n}")).await;
        let url = self.client.current_url().await.map(|u| u.to_string()).unwrap_or_else(|e| format!("(unknown: {e})"));
        let console: Vec<String> = self.console_errors().await.iter().map(|e| format!("\n  {e}")).collect();
        panic!(
            "{what}\n  at {url}\n  screenshot: {} (and .html beside it){}",
            shot.display(),
            if console.is_empty() { String::new() } else { format!("\n  console errors:{}", console.concat()) }
        );
    }

    /// Runs `op` until it succeeds, retrying transient WebDriver errors until the timeout.
    async fn retry<T, F, Fut>(&self, what: &str, mut op: F) -> T
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = Result<T, CmdError>>,
    {
        let deadline = Instant::now() + self.timeout;
        loop {
            match op().await {
                Ok(v) => return v,
                Err(e) if transient(&e) && Instant::now() <= deadline => tokio::time::sleep(POLL).await,
                Err(e) if transient(&e) => self.fail(format!("timed out after {:?} {what}: {e}", self.timeout)).await,
                Err(e) => self.fail(format!("{what}: {e}")).await,
            }
        }
    }
}

/// A request the page made: its URL, and when it started and its answer ended (ms from
/// navigation start).
#[derive(Debug, Clone, PartialEq)]
pub struct Fetched {
    pub url: String,
    pub start: f64,
    pub end: f64,
}
