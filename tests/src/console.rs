//! The browser's console, read through chromedriver's log endpoint (the session asks for
//! `goog:loggingPrefs: {browser: ALL}`). Each read returns the entries since the last one.

use fantoccini::wd::WebDriverCompatibleCommand;
use serde_json::Value;

#[derive(Debug)]
pub struct GetBrowserLog;

impl WebDriverCompatibleCommand for GetBrowserLog {
    fn endpoint(&self, base_url: &url::Url, session_id: Option<&str>) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!("session/{}/se/log", session_id.unwrap_or_default()))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(r#"{"type":"browser"}"#.to_string()))
    }
}

/// chromedriver's `POST /session/{id}/chromium/network_conditions`.
#[derive(Debug)]
pub struct NetworkConditions {
    pub latency_ms: u32,
    pub down_bytes_per_s: u32,
    pub up_bytes_per_s: u32,
}

impl WebDriverCompatibleCommand for NetworkConditions {
    fn endpoint(&self, base_url: &url::Url, session_id: Option<&str>) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!("session/{}/chromium/network_conditions", session_id.unwrap_or_default()))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        let body = serde_json::json!({ "network_conditions": {
            "offline": false,
            "latency": self.latency_ms,
            "download_throughput": self.down_bytes_per_s,
            "upload_throughput": self.up_bytes_per_s,
        }});
        (http::Method::POST, Some(body.to_string()))
    }
}

/// chromedriver's `POST /session/{id}/goog/cdp/execute`: one DevTools protocol command.
#[derive(Debug)]
pub struct Cdp {
    pub cmd: &'static str,
    pub params: Value,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(&self, base_url: &url::Url, session_id: Option<&str>) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!("session/{}/goog/cdp/execute", session_id.unwrap_or_default()))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(serde_json::json!({ "cmd": self.cmd, "params": self.params }).to_string()))
    }
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub level: String,
    pub source: String,
    pub message: String,
}

impl std::fmt::Display for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{} {}] {}", self.level, self.source, self.message)
    }
}

pub fn parse(value: &Value) -> Vec<Entry> {
    let text = |e: &Value, k: &str| e.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    value
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .map(|e| Entry { level: text(e, "level"), source: text(e, "source"), message: text(e, "message") })
                .collect()
        })
        .unwrap_or_default()
}
