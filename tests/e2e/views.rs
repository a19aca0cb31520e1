//! Saved views in the portal: a user filters and sorts the accounts table, saves the view by
//! name from the table's Views menu, and a second browser signed in with the same token finds
//! it there (the views live on the server), opens it and sees the same filter and sort, then
//! deletes it. The columns shown are part of a view too: in its URL (`cols=`), saved with it,
//! and shown by its link in another browser.

use moneydesk_e2e::{Browser, Harness, Scope};
use moneydesk_model::paths;
use serde_json::json;

use crate::tables::{api, column, settled};

const MENU: &str = "[data-testid=saved-views]";
/// The column chooser (the Views menu is a chooser-shaped menu too).
const CHOOSER: &str = "details.column-chooser:not(.saved-views)";

/// A second browser signed in with `token`; dropped with its profile directory.
async fn second_browser(h: &Harness, token: &str, name: &str) -> (Browser, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let other = Browser::start(dir.path(), name.into()).await;
    other.open(&h.page_url("/signin")).await;
    other.wait_for("select#signin-environment option[value=local]").await;
    other.select("select#signin-environment", "local").await;
    other.type_into("textarea#signin-token", token).await;
    other.click("button#signin-submit").await;
    other.wait_for("button#signout").await;
    (other, dir)
}

/// The keys of the table's column headers, in order.
async fn headers(b: &Browser) -> Vec<String> {
    let v = b.js("return [...document.querySelectorAll('thead th[data-key]')].map(th => th.dataset.key)", vec![]).await;
    serde_json::from_value(v).unwrap()
}

/// The URL's `cols=`, split.
async fn url_columns(b: &Browser) -> Vec<String> {
    let v = b
        .js("return (new URLSearchParams(location.search).get('cols') || '').split(',').filter(Boolean)", vec![])
        .await;
    serde_json::from_value(v).unwrap()
}

#[tokio::test]
async fn a_view_saved_on_the_accounts_page_opens_the_same_filter_in_another_browser() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::AccountsRead]).await;
    h.sign_in(&token).await;
    h.goto("/accounts").await;
    h.wait_for("tbody tr[data-id]").await;

    // Suspended accounts by name, on page 2: the view saved is the filter and the sort.
    h.select("#accounts-filter-accountStatus", "Suspended").await;
    h.wait_js("location.search.includes('accountStatus=Suspended')", "the filter in the URL").await;
    h.click("th[data-key=accountName] button").await;
    h.wait_js("location.search.includes('sort=accountName')", "the sort in the URL").await;
    settled(&h).await;
    h.click(&format!("{MENU} summary")).await;
    h.wait_for_text(MENU, "No saved views of this table yet").await;
    h.type_into("#accounts-view-name", "Suspended by name").await;
    h.click(&format!("{MENU} form button[type=submit]")).await;
    h.wait_for_text(&format!("{MENU} [role=status]"), "Saved the view “Suspended by name”").await;
    h.wait_for(&format!("{MENU} a[data-view='Suspended by name']")).await;
    let found = crate::a11y::violations(&h, &crate::a11y::axe_source()).await;
    assert!(found.is_empty(), "the open menu has no accessibility violations:\n{}", found.join("\n"));

    // On the server, for this user and table.
    let saved = api(&h, &token, &format!("{}?table=accounts", paths::SAVED_VIEWS)).await;
    let views = saved["data"].as_array().cloned().unwrap_or_default();
    assert_eq!(views.len(), 1, "{saved}");
    let query = views[0]["query"].as_str().unwrap().to_string();
    assert!(query.contains("accountStatus=Suspended") && query.contains("sort=accountName"), "{query}");
    assert!(!query.contains("page="), "a view opens on its first page: {query}");

    // A fresh browser with the same token: no filter until the view is opened from the menu.
    let (other, _dir) = second_browser(&h, &token, "views-second-browser").await;
    other.open(&h.page_url("/accounts")).await;
    other.wait_for("tbody tr[data-id]").await;
    assert_eq!(other.js("return location.search", vec![]).await, json!(""));
    other.click(&format!("{MENU} summary")).await;
    other.click(&format!("{MENU} a[data-view='Suspended by name']")).await;
    other.wait_js(&format!("location.search === '?{query}'"), "the view's query in the URL").await;
    let shown = "(t => t && t.getAttribute('aria-busy') === 'false' && t.dataset.shown === location.search.slice(1))(document.querySelector('table.data-table'))";
    other.wait_js(shown, "the table shows the view").await;
    let status = other.js("return document.querySelector('#accounts-filter-accountStatus').value", vec![]).await;
    assert_eq!(status, json!("Suspended"), "the same filter");
    let sort = "return document.querySelector('th[data-key=accountName]').getAttribute('aria-sort')";
    assert_eq!(other.js(sort, vec![]).await, json!("ascending"), "the same sort");
    let statuses = other
        .js(
            "return [...document.querySelectorAll(`tbody td[data-key='accountStatus']`)].map(td => td.textContent)",
            vec![],
        )
        .await;
    let statuses: Vec<String> = serde_json::from_value(statuses).unwrap();
    assert!(!statuses.is_empty() && statuses.iter().all(|s| s == "Suspended"), "{statuses:?}");

    // Deleted there: gone from the server, and from the first browser's menu once it reloads.
    other.click(&format!("{MENU} summary")).await;
    other.click(&format!("{MENU} button[aria-label='Delete Suspended by name']")).await;
    other.wait_for_text(&format!("{MENU} [role=status]"), "Deleted the view").await;
    other.check_console().await;
    other.close().await;
    h.goto("/accounts").await;
    h.wait_for("tbody tr[data-id]").await;
    assert!(!column(&h, "accountStatus").await.is_empty());
    h.click(&format!("{MENU} summary")).await;
    h.wait_for_text(MENU, "No saved views of this table yet").await;
    h.finish().await;
}

#[tokio::test]
async fn a_view_keeps_the_columns_it_was_saved_with_and_its_link_shows_them_in_another_browser() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::AccountsRead]).await;
    h.sign_in(&token).await;
    h.goto("/accounts").await;
    h.wait_for("tbody tr[data-id]").await;
    let defaults = headers(&h).await;
    assert!(!defaults.contains(&"tin".to_string()) && defaults.contains(&"marketValue".to_string()), "{defaults:?}");
    assert!(url_columns(&h).await.is_empty(), "no columns in the URL until the user picks some");

    // The TIN shown and the market value hidden: the table and its URL say the same columns.
    h.click(&format!("{CHOOSER} summary")).await;
    h.click(&format!("{CHOOSER} input[data-column=tin]")).await;
    h.wait_for("th[data-key=tin]").await;
    h.click(&format!("{CHOOSER} input[data-column=marketValue]")).await;
    h.wait_gone("th[data-key=marketValue]").await;
    let chosen = headers(&h).await;
    assert_eq!(url_columns(&h).await, chosen, "the URL names the columns shown");
    assert!(chosen.contains(&"tin".to_string()) && !chosen.contains(&"marketValue".to_string()), "{chosen:?}");
    assert!(!column(&h, "tin").await.is_empty(), "the TIN column has its cells");
    settled(&h).await;

    // Saved with the columns: the server keeps them in the view's query.
    h.click(&format!("{MENU} summary")).await;
    h.type_into("#accounts-view-name", "With TIN").await;
    h.click(&format!("{MENU} form button[type=submit]")).await;
    h.wait_for_text(&format!("{MENU} [role=status]"), "Saved the view “With TIN”").await;
    let saved = api(&h, &token, &format!("{}?table=accounts", paths::SAVED_VIEWS)).await;
    let query = saved["data"][0]["query"].as_str().unwrap_or_default().to_string();
    assert!(query.contains(&format!("cols={}", chosen.join(","))), "{query}");

    // Another browser: its own accounts page shows the default columns; the view's link shows
    // the view's, and leaves that browser's own choice as it was.
    let (other, _dir) = second_browser(&h, &token, "views-columns-browser").await;
    other.open(&h.page_url("/accounts")).await;
    other.wait_for("tbody tr[data-id]").await;
    assert_eq!(headers(&other).await, defaults, "a browser without a link shows its own columns");
    other.open(&h.page_url(&format!("/accounts?{query}"))).await;
    other.wait_for("th[data-key=tin]").await;
    assert_eq!(headers(&other).await, chosen, "the link shows the view's columns");
    let tins = other.js("return [...document.querySelectorAll(`tbody td[data-key='tin']`)].length", vec![]).await;
    assert!(tins.as_u64().is_some_and(|n| n > 0), "with their cells: {tins}");
    other.open(&h.page_url("/accounts")).await;
    other.wait_for("tbody tr[data-id]").await;
    assert_eq!(headers(&other).await, defaults, "the link did not change that browser's own columns");
    other.check_console().await;
    other.close().await;
    h.finish().await;
}
