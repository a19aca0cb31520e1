//! What the table pages' tests (accounts, permissions) read of a data table: its rows, a
//! column's cells, whether it shows the page in the URL, and the API beside it.

use moneydesk_e2e::Harness;
use serde_json::{json, Value};

/// The `data-id`s of the table's rows, in order.
pub(crate) async fn ids(h: &Harness) -> Vec<String> {
    let v = h.js("return [...document.querySelectorAll('tbody tr[data-id]')].map(tr => tr.dataset.id)", vec![]).await;
    serde_json::from_value(v).unwrap()
}

/// The texts of one column's cells.
pub(crate) async fn column(h: &Harness, key: &str) -> Vec<String> {
    let v = h
        .js(
            "return [...document.querySelectorAll(`tbody td[data-key='${arguments[0]}']`)].map(td => td.textContent)",
            vec![json!(key)],
        )
        .await;
    serde_json::from_value(v).unwrap()
}

/// True once no CSS transition or animation is running (a drawer has slid in).
pub(crate) const NO_ANIMATION: &str = "document.getAnimations().every(a => a.playState !== 'running')";

/// Waits until the table shows the page the URL asks for (`data-shown` is the view of the
/// rows on screen, in the table's own URL form) with no request in flight.
pub(crate) async fn settled(h: &Harness) {
    let shown = "(t => t && t.getAttribute('aria-busy') === 'false' && t.dataset.shown === location.search.slice(1))(document.querySelector('table.data-table'))";
    h.wait_js(shown, "the table shows the page in the URL").await;
}

/// GET an API path with the token, in the page (same origin), returning the JSON body.
pub(crate) async fn api(h: &Harness, token: &str, path: &str) -> Value {
    h.js(
        "return fetch(arguments[0], { headers: { Authorization: 'Bearer ' + arguments[1] } }).then(r => r.json())",
        vec![json!(path), json!(token)],
    )
    .await
}

/// `2400` → `2,400`, as the table writes totals.
pub(crate) fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

pub(crate) fn query(url: &url::Url, key: &str) -> Option<String> {
    url.query_pairs().find(|(k, _)| k == key).map(|(_, v)| v.into_owned())
}

/// Parses the CSV the export produced (no quoted newlines in the demo data).
pub(crate) fn csv_rows(text: &str) -> Vec<Vec<String>> {
    text.split("\r\n").filter(|l| !l.is_empty()).map(|l| l.split(',').map(str::to_string).collect()).collect()
}
