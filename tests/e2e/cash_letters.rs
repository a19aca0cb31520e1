//! The Cash letters page: two scanned checks, confirmed, previewed as one cash letter, made
//! (the deposits go to Sent), listed, downloaded as an X9 file and opened in the viewer.

use base64::Engine;
use moneydesk_e2e::{shared_data, Harness, Scope};
use serde_json::json;

/// Scans the check picture `check` (base64) `n` times through the API from the page (same
/// origin, the signed-in token), deposits each scan (check numbers 101, 102, …) and confirms
/// it; resolves to their ids. A scanned deposit's cash letter item carries the scan's G4 sides.
const SCAN_CHECKS: &str = r#"
const [token, n, check, done] = arguments;
const api = (path, body) => fetch(path, { method: body ? 'POST' : 'GET',
    headers: { 'Authorization': 'Bearer ' + token, 'Content-Type': 'application/json' },
    body: body && JSON.stringify(body) }).then(r => r.json());
(async () => {
  const accounts = await api('/api/v1/cores/unifi/accounts?page=1&size=1');
  const sleeve = accounts.data.content[0].id;
  const ids = [];
  for (let i = 0; i < n; i++) {
    const amount = (100 + i) + '.25';
    const scan = await api('/api/v2/services/money-movements/deposits/check/smas/' + sleeve + '/scan',
      { amount, frontimage: check, rearimage: check });
    const micr = scan.data.micr;
    const record = await api('/api/v2/services/money-movements/deposits/check', {
      // The sample's routing number (000067894) is in no directory: a demo bank's instead.
      amount, scanId: scan.data.scanId, payerId: sleeve, bankRoutingNumber: '021090028',
      bankAccountNumber: micr.accountNumber.value, checkNumber: String(101 + i),
      payeeAccountId: sleeve, payeeUserId: 'usr_0001' });
    await api('/api/v2/services/money-movements/deposits/' + record.id + '/actions', { action: 'confirm' });
    ids.push(record.id);
  }
  done(ids);
})().catch(e => done('failed: ' + e));
"#;

#[tokio::test]
async fn confirmed_checks_are_previewed_made_into_a_cash_letter_downloaded_and_viewed() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    h.goto("/cash_letters").await;
    h.wait_for_text("main h1", "Cash letters").await;
    h.wait_for("[data-testid=cash-letters]").await;
    h.wait_for_text("#cash-letters-none", "No cash letters yet").await;
    let check =
        std::fs::read(shared_data("checks/full/07_tmannherz_check1_deluxe_sample.jpg")).expect("the sample check");
    let check = base64::engine::general_purpose::STANDARD.encode(check);
    let ids = h.js_async(SCAN_CHECKS, vec![json!(token), json!(2), json!(check)]).await;
    assert_eq!(ids.as_array().map(Vec::len), Some(2), "two scanned deposits confirmed: {ids}");

    h.click("#cash-letter-preview").await;
    h.wait_for_text("#cash-letter-preview-items", "2 checks in 1 bundle, $201.50 in all.").await;
    h.wait_for_text("#cash-letter-preview-items", "12345678/101").await;
    h.click("#cash-letter-make").await;
    h.wait_for_text(".toasts [role=status]", "was made: 2 checks, $201.50").await;
    h.wait_for("#cash-letters-list tbody tr").await;
    assert_eq!(h.count("#cash-letters-list tbody tr").await, 1);

    // The download hands the browser the file (an X9 file starts with its 4-byte length and "01").
    h.js(
        "window.__saved = []; const make = URL.createObjectURL; \
         URL.createObjectURL = b => { b.arrayBuffer().then(a => window.__saved.push([...new Uint8Array(a.slice(0, 6))])); return make(b); };",
        vec![],
    )
    .await;
    h.click("#cash-letters-list tbody tr button.x9-download").await;
    h.wait_js("window.__saved.length === 1", "the cash letter is saved").await;
    let head = h.js("return window.__saved[0]", vec![]).await;
    assert_eq!(head, json!([0, 0, 0, 80, 48, 49]), "a record of 80 bytes, type 01: {head}");

    // The viewer reads the same file in the browser: both checks, no problem, the G4 sides drawn.
    h.click("#cash-letters-list tbody tr button.x9-view").await;
    h.wait_for_text("#x9-report", "1 cash letter, 1 bundle, 2 checks, $201.50 in all").await;
    h.wait_for_text("#x9-report", "No problems found.").await;
    assert_eq!(h.count("#x9-items tbody tr").await, 2);
    h.wait_for_text("#x9-items tbody tr", "12345678/101").await;
    h.click("#x9-items tbody tr button.x9-show").await;
    h.wait_js(
        "[...document.querySelectorAll('#x9-items img.x9-image')].filter(i => i.complete && i.naturalWidth > 100).length === 2",
        "both sides of the first check are drawn",
    )
    .await;
    // The deposits page shows both deposits sent.
    h.click("nav a[href$=\"/deposits\"]").await;
    h.wait_for_text("tbody tr[data-id] td[data-key=status]", "Sent").await;
    h.finish().await;
}
