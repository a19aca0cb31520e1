//! Cash letters on the Deposits page: two confirmed checks previewed as one cash letter, made
//! (the deposits go to Sent), listed, downloaded as an X9 file and opened in the viewer.

use moneydesk_e2e::{Harness, Scope};
use serde_json::json;

/// Deposits and confirms `n` checks through the API from the page (same origin, the signed-in
/// token), each with a drawn check-shaped PNG for both sides; resolves to their ids.
const DEPOSIT_CHECKS: &str = r#"
const [token, n, done] = arguments;
const api = (path, body) => fetch(path, { method: body ? 'POST' : 'GET',
    headers: { 'Authorization': 'Bearer ' + token, 'Content-Type': 'application/json' },
    body: body && JSON.stringify(body) }).then(r => r.json());
(async () => {
  const accounts = await api('/api/v1/cores/unifi/accounts?page=1&size=1');
  const payee = accounts.data.content[0].id;
  const canvas = document.createElement('canvas');
  canvas.width = 1200; canvas.height = 550;
  const ids = [];
  for (let i = 0; i < n; i++) {
    const g = canvas.getContext('2d');
    g.fillStyle = '#f4f4ef'; g.fillRect(0, 0, 1200, 550);
    g.fillStyle = '#111'; g.font = '40px serif'; g.fillText('Pay to the order of Moneydesk ' + i, 60, 200);
    g.fillText('0210900 28  4820001' + i + '  10' + i, 120, 500);
    const png = canvas.toDataURL('image/png');
    const record = await api('/api/v2/services/money-movements/deposits/check', {
      amount: (100 + i) + '.25', bankRoutingNumber: '021090028', bankAccountNumber: '4820001' + i,
      checkNumber: '10' + i, payeeAccountId: payee, payeeUserId: 'usr_0001', checkFrontImage: png, checkBackImage: png });
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
    h.goto("/deposits").await;
    h.wait_for("[data-testid=cash-letters]").await;
    h.wait_for_text("#cash-letters-none", "No cash letters yet").await;
    let ids = h.js_async(DEPOSIT_CHECKS, vec![json!(token), json!(2)]).await;
    assert_eq!(ids.as_array().map(Vec::len), Some(2), "two deposits confirmed: {ids}");

    h.click("#cash-letter-preview").await;
    h.wait_for_text("#cash-letter-preview-items", "2 checks in 1 bundle, $201.50 in all.").await;
    h.wait_for_text("#cash-letter-preview-items", "48200010/100").await;
    h.click("#cash-letter-make").await;
    h.wait_for_text(".toasts [role=status]", "was made: 2 checks, $201.50").await;
    h.wait_for("#cash-letters-list tbody tr").await;
    assert_eq!(h.count("#cash-letters-list tbody tr").await, 1);
    // The table follows: both deposits are sent.
    h.wait_for_text("tbody tr[data-id] td[data-key=status]", "Sent").await;

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
    h.wait_for_text("#x9-items tbody tr", "48200010/100").await;
    h.click("#x9-items tbody tr button.x9-show").await;
    h.wait_js(
        "[...document.querySelectorAll('#x9-items img.x9-image')].filter(i => i.complete && i.naturalWidth > 100).length === 2",
        "both sides of the first check are drawn",
    )
    .await;
    h.finish().await;
}
