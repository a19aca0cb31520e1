//! Accessibility: axe-core 4 (from npm, installed by scripts/setup) checks every page of the
//! portal in the light and the dark theme against WCAG 2.2 AA, axe's best practices and its
//! experimental rules (which include `label-content-name-mismatch`), and the test fails on any
//! violation, listing its rule, impact, help text and the elements. A new page joins by a line
//! in `PAGES`.

use std::path::PathBuf;

use moneydesk_e2e::{Harness, Scope};
use serde_json::{json, Value};

/// Each page: its path (from the base) and what shows once it is ready to be checked.
const PAGES: &[(&str, &str)] = &[
    // The home page once the day's figures are read (its last card for an admin).
    ("/", "main [data-testid=day-ledger]"),
    ("/fees", "[data-testid=fee-schedule]"),
    ("/routing", "[data-testid=routing-directory]"),
    ("/deposits?new=1", "[data-testid=deposit-chart] .muted, [data-testid=deposit-chart] svg"),
    ("/deposits?new=pull", "#pull-form"),
    ("/deposits?new=cash", "#cash-form"),
    ("/deposits?new=scan", "#scan-sleeve"),
    ("/cash_letters", "#cash-letters-none"),
    ("/accounts", "tbody tr[data-id]"),
    ("/ledger?view=returns", "[data-testid=return-items] .pager"),
    ("/ledger?view=reconciliation", "[data-testid=clearing-chart]"),
    ("/permissions", "tbody tr[data-id]"),
    ("/activity", "[data-testid=audit-chain] .chain-banner"),
    ("/vault", "#vault-table"),
    ("/email", "#email-send"),
    ("/email?tab=outbox", "#email-outbox-empty"),
    ("/email?tab=templates", ".email-template-list .muted"),
    ("/email?tab=verify&address=support@gmial.com", "#verification .badge.verdict-risky"),
    ("/email?tab=domains", "#domains-empty"),
    ("/email?tab=inbound", "#inbound-routes-empty"),
    ("/email?tab=suppressions", "#suppressions-empty"),
    ("/email?tab=deliverability", "#deliverability-none"),
    ("/webhooks", "#webhook-endpoints-empty"),
    ("/tokens", "#links-table"),
    ("/no-such-page", "[data-testid=not-found]"),
];

pub(crate) fn axe_source() -> String {
    let cache = std::env::var_os("MONEYDESK_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME is set")).join(".cache/moneydesk"));
    let path = cache.join("tools/node_modules/axe-core/axe.min.js");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("axe-core is not at {} ({e}): run scripts/setup", path.display()))
}

/// Runs axe on the page once its transitions have ended (a drawer fading in has washed-out
/// colours until then) and returns its violations, one line each.
pub(crate) async fn violations(h: &Harness, axe: &str) -> Vec<String> {
    h.js_async(
        "const done = arguments[arguments.length - 1];
         Promise.all(document.getAnimations().map(a => a.finished.catch(() => null))).then(() => done(true));",
        vec![],
    )
    .await;
    if h.js("return typeof window.axe", vec![]).await != json!("object") {
        h.js(&format!("{axe}\n;return true;"), vec![]).await;
    }
    let found = h
        .js_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'tag', values:
                 ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice', 'experimental'] } })
               .then(r => done(r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
                   nodes: v.nodes.slice(0, 6).map(n => n.target.join(' ') + ' — ' + (n.failureSummary || '').replace(/\\s+/g, ' ')) }))))
               .catch(e => done([{ id: 'axe-error', impact: 'error', help: String(e), nodes: [] }]));",
            vec![],
        )
        .await;
    found
        .as_array()
        .expect("axe answers a list")
        .iter()
        .map(|v: &Value| format!("{} ({}): {} at {}", v["id"], v["impact"], v["help"], v["nodes"]))
        .collect()
}

pub(crate) async fn set_theme(h: &Harness, theme: &str) {
    h.js("localStorage.setItem('moneydesk.theme', arguments[0])", vec![json!(theme)]).await;
}

#[tokio::test]
async fn every_page_has_no_accessibility_violations_in_either_theme() {
    // Address verification's answers (pass, warn) come from the tests' DNS server.
    let dns = moneydesk_e2e::dns::DnsServer::start().await;
    dns.mx("gmial.com", 10, "mx.gmial.com");
    let h = Harness::start_with(|c| {
        c.seed_demo = true;
        c.email.verify.dns_server = Some(dns.addr);
    })
    .await;
    let axe = axe_source();
    let parts = moneydesk_model::email::NewTemplateVersion {
        subject: "Statement for {{first_name}}".into(),
        text: Some("Dear {{first_name}}".into()),
        html: Some("<p>Dear {{first_name}}</p>".into()),
    };
    let template = h
        .server()
        .state
        .stores
        .templates
        .create("tmpl_a11ystatement0000000000", "Statement", &parts, "a11y")
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("clients.csv");
    std::fs::write(&csv, "email,name,first_name\nada@client.example,Ada Lovelace,Ada\ncy@client.example\n").unwrap();
    // The flagged row's render is a 400 the browser logs.
    h.allow_console_error("status of 400");
    let mut problems = Vec::new();
    for theme in ["light", "dark"] {
        // Signed out: the sign-in page.
        h.goto("/signin").await;
        set_theme(&h, theme).await;
        h.goto("/signin").await;
        h.wait_for(&format!("div.moneydesk[data-theme={theme}]")).await;
        h.wait_for("textarea#signin-token").await;
        problems.extend(violations(&h, &axe).await.into_iter().map(|v| format!("/signin, {theme}: {v}")));

        let token = h.token(&[Scope::Admin]).await;
        h.sign_in(&token).await;
        for (path, ready) in PAGES {
            h.goto(path).await;
            h.wait_for(&format!("div.moneydesk[data-theme={theme}]")).await;
            h.wait_for(ready).await;
            problems.extend(violations(&h, &axe).await.into_iter().map(|v| format!("{path}, {theme}: {v}")));
        }
        // A bulk send's preview: a template's messages rendered, one row flagged as refused.
        h.goto("/email").await;
        h.wait_for(&format!("div.moneydesk[data-theme={theme}]")).await;
        h.click("#email-mode-template").await;
        h.wait_for(&format!("#email-template option[value={}]", template.id)).await;
        h.select("#email-template", &template.id).await;
        h.wait_for("#email-var-first_name").await;
        h.upload("#email-csv", &csv).await;
        h.wait_for("li[data-row='0'] iframe").await;
        h.wait_for("li[data-row='1'] .email-bulk-refused").await;
        problems.extend(violations(&h, &axe).await.into_iter().map(|v| format!("/email bulk preview, {theme}: {v}")));
        // A record's drawer over the table.
        h.goto("/accounts").await;
        h.click("tbody tr[data-id]").await;
        h.wait_for("dialog[open], [role=dialog]").await;
        problems.extend(violations(&h, &axe).await.into_iter().map(|v| format!("/accounts drawer, {theme}: {v}")));
        sign_out(&h).await;
    }
    finish(h, problems).await;
}

/// Every kind of drawer and dialog the portal opens, in both themes (issue 48): the global
/// search, the keyboard shortcuts' list, a token's drawer, a permission's drawer, a vault file's
/// drawer and the vault's delete question. The pages' own pass above sees none of them open.
#[tokio::test]
async fn every_drawer_and_dialog_has_no_accessibility_violations_in_either_theme() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let axe = axe_source();
    let token = h.token(&[Scope::Admin]).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("statement.txt");
    std::fs::write(&file, "March statement").unwrap();
    let mut problems = Vec::new();
    for theme in ["light", "dark"] {
        h.goto("/signin").await;
        set_theme(&h, theme).await;
        h.sign_in(&token).await;
        let mut check = async |what: &str| {
            h.wait_for(&format!("div.moneydesk[data-theme={theme}]")).await;
            problems.extend(violations(&h, &axe).await.into_iter().map(|v| format!("{what}, {theme}: {v}")));
        };

        h.goto("/accounts").await;
        h.wait_for("tbody tr[data-id]").await;
        h.click("#search-open").await;
        h.type_into("#global-search-input", "a").await;
        h.wait_for("#global-search-results").await;
        check("the global search").await;
        h.client().active_element().await.unwrap().send_keys("\u{E00C}").await.unwrap();
        h.wait_gone("#global-search-input").await;

        h.js("document.activeElement.blur()", vec![]).await;
        h.client().find(fantoccini::Locator::Css("body")).await.unwrap().send_keys("?").await.unwrap();
        h.wait_for("dialog.shortcuts-dialog[open]").await;
        check("/accounts shortcuts").await;
        h.client().active_element().await.unwrap().send_keys("\u{E00C}").await.unwrap();
        h.wait_gone("dialog.shortcuts-dialog[open]").await;

        for (path, what) in [("/tokens", "#tokens-table .token-open"), ("/permissions", "tbody tr[data-id]")] {
            h.goto(path).await;
            h.click(what).await;
            h.wait_for(".drawer[role=dialog]").await;
            check(&format!("{path} drawer")).await;
        }

        h.goto("/vault").await;
        h.wait_for("#vault-table, #vault-empty").await;
        if h.count(&crate::vault::row("statement.txt")).await == 0 {
            crate::vault::upload(&h, &file, 1).await;
        }
        h.click(&format!("{} .vault-name", crate::vault::row("statement.txt"))).await;
        h.wait_for("#vault-versions li[data-version=\"1\"]").await;
        check("/vault file drawer").await;
        h.click(".drawer-close").await;
        h.wait_gone(".drawer").await;
        h.click(&format!("{} input[type=checkbox]", crate::vault::row("statement.txt"))).await;
        h.click("#vault-delete").await;
        h.wait_for("#vault-delete-counts").await;
        check("/vault delete question").await;

        sign_out(&h).await;
    }
    finish(h, problems).await;
}

/// Back to the sign-in page, for the next theme's pass.
async fn sign_out(h: &Harness) {
    h.goto("/").await;
    h.click("button#signout").await;
    h.wait_for("textarea#signin-token").await;
}

/// Fails with every violation found, one a line, or finishes.
async fn finish(h: Harness, problems: Vec<String>) {
    if !problems.is_empty() {
        h.fail(format!("axe-core found {} violation(s):\n  {}", problems.len(), problems.join("\n  "))).await;
    }
    h.finish().await;
}
