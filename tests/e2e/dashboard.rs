//! The home page, the operator's morning view: today's deposits counted and drawn by rail,
//! what waits for an operator, each figure a link that opens its filtered list; only what the
//! token's scopes open; a stale routing directory in red.

use moneydesk_e2e::{Harness, Scope};
use serde_json::json;

/// Makes cash deposits of the given amounts for the first account, through the API from the
/// page (same origin, the signed-in token), confirming those marked; resolves to their ids.
const CASH: &str = r#"
const [token, deposits, done] = arguments;
const api = (path, body) => fetch(path, { method: body ? 'POST' : 'GET',
    headers: { 'Authorization': 'Bearer ' + token, 'Content-Type': 'application/json' },
    body: body && JSON.stringify(body) }).then(r => r.json());
(async () => {
  const accounts = await api('/api/v1/cores/unifi/accounts?page=1&size=1');
  const payee = accounts.data.content[0].id;
  const ids = [];
  for (const [amount, confirm] of deposits) {
    const record = await api('/api/v2/services/money-movements/deposits/cash',
      { amount, payeeAccountId: payee, payeeUserId: 'usr_0001', memo: 'Till' });
    if (confirm) await api('/api/v2/services/money-movements/deposits/' + record.id + '/actions', { action: 'confirm' });
    ids.push(record.id);
  }
  done(ids);
})().catch(e => done('failed: ' + e));
"#;

#[tokio::test]
async fn the_days_deposits_are_counted_drawn_and_each_figure_opens_its_filtered_list() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    let deposits = json!([["100.00", true], ["20.25", false], ["5.00", false]]);
    let ids = h.js_async(CASH, vec![json!(token), deposits]).await;
    assert_eq!(ids.as_array().map(Vec::len), Some(3), "three cash deposits: {ids}");

    h.goto("/").await;
    h.wait_for_text("main h1", "Dashboard").await;
    // Signing in read the day before the deposits, and the answer is kept a few seconds:
    // Refresh asks past it.
    h.wait_for_text(".day-asof", "Figures as of").await;
    h.click("#overview-refresh").await;
    let today = h.wait_for_text("[data-testid=day-deposits] a[data-figure=depositsToday]", "3 deposits").await;
    assert!(today.contains("$125.25"), "{today}");
    // One bar (cash), cut into its two states.
    assert_eq!(h.count("[data-testid=rail-chart] rect").await, 2);
    let legend = h.text("[data-testid=day-deposits] .day-legend").await;
    assert!(legend.contains("To confirm") && legend.contains("Confirmed"), "{legend}");
    h.wait_for_text("a[data-figure=toConfirm]", "2 deposits").await;
    h.wait_for_text("[data-testid=day-routing]", "Current").await;
    // The groups this token opens are still there, below the day.
    assert!(h.count("main .cards .card").await > 5);
    // The page with its chart passes axe (a11y.rs checks it without deposits, in both themes).
    let found = crate::a11y::violations(&h, &crate::a11y::axe_source()).await;
    assert!(found.is_empty(), "{found:#?}");

    h.click("a[data-figure=toConfirm]").await;
    let url = h.wait_for_path("/deposits").await;
    assert_eq!(url.query(), Some("status=In_Progress_1"), "{url}");
    h.wait_js("document.querySelectorAll('tbody tr[data-id]').length === 2", "the two deposits to confirm").await;

    h.goto("/").await;
    h.click("a[data-figure=unmatched]").await;
    let url = h.wait_for_path("/ledger").await;
    assert_eq!(url.query(), Some("view=returns&state=unmatched"), "{url}");
    h.wait_for("[data-testid=return-items]").await;
    h.finish().await;
}

#[tokio::test]
async fn a_token_sees_only_the_figures_its_scopes_open() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let fees = h.token(&[Scope::FeesRead]).await;
    h.sign_in(&fees).await;
    h.wait_for_text("main h1", "Dashboard").await;
    h.wait_for_text("[data-testid=overview]", "opens none of the groups").await;
    assert_eq!(h.count("[data-testid=overview] .day-card").await, 0);
    assert_eq!(h.count("main .cards .card").await, 2, "the fee schedules and Tokens");
    h.finish().await;
}

#[tokio::test]
async fn a_stale_routing_directory_is_red() {
    // A drill three days ahead: the directory loaded at start is 72 hours old by the books.
    let h = Harness::start_with(|c| c.ledger.clock_offset_seconds = 3 * 86_400).await;
    let token = h.token(&[Scope::RoutingRead]).await;
    h.sign_in(&token).await;
    h.wait_for_text("a[data-figure=routingDirectory].day-stale", "Stale").await;
    assert_eq!(h.count("[data-testid=overview] .day-card").await, 1, "routing:read opens the directory's card alone");
    let red = h
        .js(
            "const probe = document.createElement('span'); probe.style.color = 'var(--danger)';
             document.querySelector('.moneydesk').appendChild(probe);
             const danger = getComputedStyle(probe).color; probe.remove();
             return getComputedStyle(document.querySelector('a.day-stale')).color === danger;",
            vec![],
        )
        .await;
    assert_eq!(red, json!(true), "the stale directory's figure is in the danger colour");
    h.finish().await;
}
