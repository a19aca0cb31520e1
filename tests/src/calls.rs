//! Which API operations the e2e suite calls. With `MONEYDESK_E2E_CALLS=<dir>` set, every
//! harness's server counts its answers (the server's request metrics, labelled with the
//! operation's path template), and before the server stops the harness writes the operations
//! answered so far to `<dir>/<test name>.txt`, one `METHOD /path/{template} STATUS` a line.
//! The metrics are one set per process, so a file holds its process's calls up to then; the
//! union of the files is every call of the run, whatever `--test-threads` is.
//! `tests/e2e/contract_calls.rs` compares that union with the OpenAPI document.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::PathBuf;

use moneydesk_server::{Config, Running};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The directory the calls are written to, when asked for.
pub fn dir() -> Option<PathBuf> {
    std::env::var_os("MONEYDESK_E2E_CALLS").filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// Turns the server's request counting on, when the calls are written down.
pub fn count(config: &mut Config) {
    if dir().is_some() && config.metrics_addr.is_none() {
        config.metrics_addr = Some(SocketAddr::from(([127, 0, 0, 1], 0)));
    }
}

/// Writes the operations answered so far in this process to the test's file.
pub async fn write(server: &Running, test: &str) {
    let (Some(dir), Some(addr)) = (dir(), server.metrics_addr()) else { return };
    let text = match scrape(addr).await {
        Ok(t) => t,
        Err(e) => panic!("reading the request counts at http://{addr}/metrics: {e}"),
    };
    let lines: BTreeSet<String> = answered(&text).into_iter().map(|(m, r, s)| format!("{m} {r} {s}")).collect();
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
    let file = dir.join(format!("{test}.txt"));
    let body: String = lines.into_iter().map(|l| l + "\n").collect();
    std::fs::write(&file, body).unwrap_or_else(|e| panic!("writing {}: {e}", file.display()));
}

/// `GET /metrics`, its body.
async fn scrape(addr: SocketAddr) -> std::io::Result<String> {
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    let request = format!("GET /metrics HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    if !head.starts_with("HTTP/1.1 200") {
        return Err(std::io::Error::other(format!("answered {}", head.lines().next().unwrap_or(""))));
    }
    Ok(body.to_string())
}

/// (method, operation path, status) of each `moneydesk_http_requests_total` series of an API
/// operation (the portal's files and unmatched paths left out).
pub fn answered(metrics: &str) -> Vec<(String, String, u16)> {
    metrics
        .lines()
        .filter_map(|l| l.strip_prefix("moneydesk_http_requests_total{"))
        .filter_map(|l| {
            // The last brace closes the labels: a route's template has braces of its own.
            let labels = &l[..l.rfind('}')?];
            let label = |name: &str| {
                let start = labels.find(&format!("{name}=\""))? + name.len() + 2;
                let len = labels[start..].find('"')?;
                Some(labels[start..start + len].to_string())
            };
            let route = label("route")?;
            route.starts_with("/api/").then_some(())?;
            Some((label("method")?, route, label("status")?.parse().ok()?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_the_operation_series_only() {
        let text = "# TYPE moneydesk_http_requests_total counter\n\
            moneydesk_http_requests_total{method=\"GET\",route=\"/api/v2/services/money-movements/deposits\",status=\"200\"} 3\n\
            moneydesk_http_requests_total{method=\"GET\",route=\"portal\",status=\"200\"} 9\n\
            moneydesk_http_requests_total{method=\"GET\",route=\"/api/a/{id}/b\",status=\"404\"} 1\n\
            moneydesk_http_request_duration_seconds_count{method=\"GET\",route=\"/api/x\"} 1\n";
        assert_eq!(
            super::answered(text),
            [
                ("GET".to_string(), "/api/v2/services/money-movements/deposits".to_string(), 200),
                ("GET".to_string(), "/api/a/{id}/b".to_string(), 404)
            ]
        );
    }
}
