//! The accounts page over the seeded demo data: paging, page size, sort, filters, the view
//! restored from the URL on reload and Back, the detail drawer by mouse and keyboard, the CSV
//! export checked against the API, and the page on wide and phone screens.

use moneydesk_e2e::{Harness, Scope};
use serde_json::{json, Value};

use crate::tables::{api, column, csv_rows, group, ids, query, settled, NO_ANIMATION};

#[tokio::test]
async fn the_date_filters_are_date_inputs_once_the_rows_are_shown_and_keep_the_urls_dates() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::AccountsRead]).await;
    h.sign_in(&token).await;
    // In the first frame a text input (a date input costs the first rows 2–3 ms each), a date
    // input right after it, with the date the URL holds.
    h.goto("/accounts?createTimeFrom=2020-01-01").await;
    h.wait_for("tbody tr[data-id]").await;
    h.wait_for("input[type=date]#accounts-filter-createTimeFrom").await;
    let value = "return document.querySelector('#accounts-filter-createTimeFrom').value";
    assert_eq!(h.js(value, vec![]).await, json!("2020-01-01"));
    assert_eq!(
        h.js("return document.querySelectorAll('.table-filters input[type=date]').length", vec![]).await,
        json!(2)
    );
    assert_eq!(
        h.js("return document.querySelector('#accounts-filter-createTimeTo').placeholder", vec![]).await,
        json!(""),
        "a date input shows the browser's own format"
    );

    // A date chosen filters the rows through the URL.
    h.js(
        "const to = document.querySelector('#accounts-filter-createTimeTo');
        to.value = '2020-01-02';
        to.dispatchEvent(new Event('change', { bubbles: true }));",
        vec![],
    )
    .await;
    h.wait_js("location.search.includes('createTimeTo=2020-01-02')", "the date filter in the URL").await;
    h.finish().await;
}

#[tokio::test]
async fn accounts_page_sort_filter_reload_drawer_and_export() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::AccountsRead]).await;
    h.sign_in(&token).await;
    h.click("nav a[href$=\"/accounts\"]").await;
    h.wait_for_text("main h1", "Accounts").await;

    // Page 1: ten rows and the total the API reports.
    let total = api(&h, &token, "/api/v1/cores/unifi/accounts?size=1").await["data"]["totalElements"].as_u64().unwrap();
    assert!(total >= 2000, "the demo seed has at least 2,000 accounts, got {total}");
    h.wait_for_text(".table-total", &format!("1–10 of {} accounts", group(total))).await;
    settled(&h).await;
    let first = ids(&h).await;
    assert_eq!(first.len(), 10);

    // Next page: other records, page=2 in the URL.
    h.click(".pager button[data-page=next]").await;
    h.wait_for_text(".table-total", "11–20 of").await;
    settled(&h).await;
    let second = ids(&h).await;
    assert_eq!(second.len(), 10);
    assert!(second.iter().all(|id| !first.contains(id)), "no record on two pages");
    assert_eq!(query(&h.url().await, "page").as_deref(), Some("2"));

    // Page size 50: the first row shown stays on the page (rows 11-20 are on page 1 of 50).
    h.select("#accounts-size", "50").await;
    h.wait_for_text(".table-total", "1–50 of").await;
    settled(&h).await;
    assert_eq!(ids(&h).await.len(), 50);
    assert_eq!(query(&h.url().await, "size").as_deref(), Some("50"));

    // Jump to page 3.
    h.type_into("#accounts-jump", "3").await;
    h.click(".pager .jump button[type=submit]").await;
    h.wait_for_text(".table-total", "101–150 of").await;

    // Sort by name: ascending, then descending (case-insensitive, as the API sorts).
    h.click("th[data-key=accountName] button").await;
    h.wait_js(
        "document.querySelector('th[data-key=accountName]').getAttribute('aria-sort') === 'ascending'",
        "aria-sort ascending",
    )
    .await;
    h.wait_for_text(".table-total", "1–50 of").await;
    settled(&h).await;
    let names = column(&h, "accountName").await;
    let mut sorted = names.clone();
    sorted.sort_by_key(|n| n.to_lowercase());
    assert_eq!(names, sorted, "ascending by name");
    h.click("th[data-key=accountName] button").await;
    h.wait_js(
        "document.querySelector('th[data-key=accountName]').getAttribute('aria-sort') === 'descending'",
        "aria-sort descending",
    )
    .await;
    settled(&h).await;
    let names = column(&h, "accountName").await;
    let mut sorted = names.clone();
    sorted.sort_by_key(|n| std::cmp::Reverse(n.to_lowercase()));
    assert_eq!(names, sorted, "descending by name");
    assert_eq!(query(&h.url().await, "sort").as_deref(), Some("accountName,desc"));

    // Filter by status: every row is Suspended, the total is the API's.
    h.select("#accounts-filter-accountStatus", "Suspended").await;
    h.wait_js("location.search.includes('accountStatus=Suspended')", "the status filter in the URL").await;
    settled(&h).await;
    let suspended = api(&h, &token, "/api/v1/cores/unifi/accounts?size=1&accountStatus=Suspended").await["data"]
        ["totalElements"]
        .as_u64()
        .unwrap();
    assert!(suspended > 0 && suspended < total);
    h.wait_for_text(".table-total", &format!("of {} accounts", group(suspended))).await;
    assert!(column(&h, "accountStatus").await.iter().all(|s| s == "Suspended"));

    // And by part of a name (typed; applied when typing pauses).
    let word: String = column(&h, "accountName").await[0].split_whitespace().next().unwrap().chars().take(4).collect();
    h.type_into("#accounts-filter-name", &word).await;
    h.wait_js(
        &format!("new URLSearchParams(location.search).get('name') === {}", json!(word)),
        "the name filter in the URL",
    )
    .await;
    settled(&h).await;
    let names = column(&h, "accountName").await;
    assert!(
        !names.is_empty() && names.iter().all(|n| n.to_lowercase().contains(&word.to_lowercase())),
        "{word}: {names:?}"
    );
    let filtered_ids = ids(&h).await;
    let filtered_total = h.text(".table-total").await;

    // Reload: the same view from the URL alone.
    let url = h.url().await;
    h.reload().await;
    h.wait_for_text(".table-total", &filtered_total).await;
    settled(&h).await;
    assert_eq!(h.url().await, url);
    assert_eq!(ids(&h).await, filtered_ids);
    assert_eq!(
        h.js("return document.querySelector('#accounts-filter-accountStatus').value", vec![]).await,
        json!("Suspended")
    );
    assert_eq!(h.js("return document.querySelector('#accounts-filter-name').value", vec![]).await, json!(word));
    assert_eq!(
        h.wait_for("th[data-key=accountName]").await.attr("aria-sort").await.unwrap().as_deref(),
        Some("descending")
    );

    // Back: the view before the name filter.
    h.client().back().await.unwrap();
    h.wait_js(
        "!new URLSearchParams(location.search).has('name') && location.search.includes('accountStatus=Suspended')",
        "Back drops the name filter",
    )
    .await;
    h.wait_for_text(".table-total", &format!("of {} accounts", group(suspended))).await;
    h.client().forward().await.unwrap();
    h.wait_for_text(".table-total", &filtered_total).await;
    settled(&h).await;

    // A row opens the drawer with every field; Escape closes it and focus returns to the row.
    let id = ids(&h).await[0].clone();
    let row = format!("tbody tr[data-id='{id}']");
    h.click(&format!("{row} td[data-key=accountName]")).await;
    h.wait_for(".drawer[role=dialog]").await;
    let record =
        api(&h, &token, &format!("/api/v1/cores/unifi/accounts?size=500&accountStatus=Suspended&name={word}")).await;
    let record = record["data"]["content"].as_array().unwrap().iter().find(|r| r["id"] == json!(id)).unwrap().clone();
    // Read once the drawer shows its heading (WebDriver reads no text while it slides in).
    let name = record["accountName"].as_str().unwrap();
    assert_eq!(h.wait_for_text(".drawer h2", name).await, name);
    for (field, value) in record.as_object().unwrap() {
        let dd = h.text(&format!(".drawer dd[data-key={field}]")).await;
        match value {
            Value::Null => assert_eq!(dd, "—", "{field}"),
            Value::String(s) if field == "marketValue" => assert!(dd.starts_with('$'), "{field}: {dd} for {s}"),
            Value::String(s) if field == "createTime" => assert!(dd.contains(s.as_str()), "{field}: {dd}"),
            Value::String(s) if field == "accountType" => assert!(!dd.is_empty(), "{field}: {dd} for {s}"),
            Value::String(s) => assert_eq!(&dd, s, "{field}"),
            other => panic!("unexpected {field}: {other}"),
        }
    }
    h.client().active_element().await.unwrap().send_keys("\u{E00C}").await.unwrap(); // Escape
    h.wait_gone(".drawer").await;
    assert_eq!(h.js("return document.activeElement.dataset.id", vec![]).await, json!(id), "focus back on the row");

    // Keyboard, on the view with every suspended account: ArrowDown moves to the next row,
    // Enter opens it.
    h.client().back().await.unwrap();
    h.wait_for_text(".table-total", &format!("of {} accounts", group(suspended))).await;
    settled(&h).await;
    let shown = ids(&h).await;
    assert!(shown.len() > 1, "the keyboard check needs two rows: {shown:?}");
    h.js("document.querySelector('tbody tr[data-id]').focus()", vec![]).await;
    assert_eq!(h.js("return document.activeElement.dataset.id", vec![]).await, json!(shown[0]));
    h.client().active_element().await.unwrap().send_keys("\u{E015}").await.unwrap(); // ArrowDown
    assert_eq!(h.js("return document.activeElement.dataset.id", vec![]).await, json!(shown[1]));
    h.client().active_element().await.unwrap().send_keys("\u{E007}").await.unwrap(); // Enter
    h.wait_for(".drawer[role=dialog]").await;
    h.click(".drawer-close").await;
    h.wait_gone(".drawer").await;

    // Export: every Active account, sorted by name descending, fetched 500 at a time.
    h.click(".table-filters .clear-filters").await;
    h.select("#accounts-filter-accountStatus", "Active").await;
    h.wait_js("location.search.includes('accountStatus=Active') && !location.search.includes('name=')", "Active only")
        .await;
    settled(&h).await;
    let active = api(&h, &token, "/api/v1/cores/unifi/accounts?size=1&accountStatus=Active").await["data"]
        ["totalElements"]
        .as_u64()
        .unwrap();
    assert!(active > 500, "the export spans several pages ({active} active accounts)");
    h.js(
        "window.__csv = null; const create = URL.createObjectURL; \
         URL.createObjectURL = b => { window.__csv = b; return create.call(URL, b); }",
        vec![],
    )
    .await;
    h.click("#accounts-export").await;
    h.wait_for_text(".toasts [role=status]", "Exported").await;
    let text = h.js("return window.__csv.text()", vec![]).await;
    let rows = csv_rows(text.as_str().unwrap());
    let header = &rows[0];
    assert_eq!(header.len(), 26, "every field and the two balance columns: {header:?}");
    assert_eq!(&header[..3], ["id", "accountName", "accountNumber"]);
    assert_eq!(rows.len() as u64 - 1, active, "one line per Active account");
    let status = header.iter().position(|h| h == "accountStatus").unwrap();
    assert!(rows[1..].iter().all(|r| r[status] == "Active"));
    let mut unique: Vec<&String> = rows[1..].iter().map(|r| &r[0]).collect();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len() as u64, active, "no record twice");
    assert_eq!(rows[1][0], ids(&h).await[0], "the table's sort: the first row first");
    assert!(text.as_str().unwrap().lines().all(|l| !l.starts_with('=') && !l.contains(",=")), "no formula cells");

    h.finish().await;
}

/// A 500-row page renders only the rows near the viewport (windowing); `aria-rowcount` and
/// each row's `aria-rowindex` say where the rendered rows are. Scrolling and the keyboard
/// reach every row, in the API's order, and the drawer opens on a row far down the page.
#[tokio::test]
async fn accounts_500_row_page_renders_a_window_of_rows() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::AccountsRead]).await;
    h.sign_in(&token).await;
    h.goto("/accounts?size=500").await;
    h.wait_for_text(".table-total", "1–500 of").await;
    settled(&h).await;
    let page = api(&h, &token, "/api/v1/cores/unifi/accounts?size=500").await;
    let records = page["data"]["content"].as_array().unwrap().clone();
    let all: Vec<String> = records.iter().map(|r| r["id"].as_str().unwrap().to_string()).collect();
    assert_eq!(all.len(), 500);
    assert_eq!(
        h.js("return document.querySelector('#accounts-table').getAttribute('aria-rowcount')", vec![]).await,
        json!("501")
    );
    let shown = ids(&h).await;
    assert!(!shown.is_empty() && shown.len() < 100, "a window of the page, not every row: {}", shown.len());
    assert_eq!(shown[..], all[..shown.len()], "the first rows, in the API's order");

    // Scrolled to the bottom of the table: its last rows, in order, with their positions.
    h.js(
        "const b = document.querySelector('#accounts-table tbody').getBoundingClientRect(); \
         window.scrollTo(0, b.bottom + scrollY - innerHeight)",
        vec![],
    )
    .await;
    h.wait_js("document.querySelector('tbody tr[data-row=\"499\"]')", "the last row rendered after scrolling").await;
    let shown = ids(&h).await;
    assert!(shown.len() < 100 && !shown.contains(&all[0]), "the window moved: {}", shown.len());
    assert_eq!(shown[..], all[500 - shown.len()..], "the last rows, in the API's order");
    assert_eq!(
        h.js("return document.querySelector('tbody tr[data-row=\"499\"]').getAttribute('aria-rowindex')", vec![]).await,
        json!("501")
    );

    // The keyboard crosses the window: Home to the first row, End back to the last.
    let active = "return [document.activeElement.dataset.row, document.activeElement.dataset.id]";
    h.js("document.querySelector('tbody tr[data-row=\"499\"]').focus()", vec![]).await;
    h.client().active_element().await.unwrap().send_keys("\u{E011}").await.unwrap(); // Home
    assert_eq!(h.js(active, vec![]).await, json!(["0", all[0]]));
    h.client().active_element().await.unwrap().send_keys("\u{E010}").await.unwrap(); // End
    assert_eq!(h.js(active, vec![]).await, json!(["499", all[499]]));
    h.client().active_element().await.unwrap().send_keys("\u{E013}").await.unwrap(); // ArrowUp
    assert_eq!(h.js(active, vec![]).await, json!(["498", all[498]]));

    // Enter opens that record; Escape gives focus back to its row.
    h.client().active_element().await.unwrap().send_keys("\u{E007}").await.unwrap(); // Enter
    h.wait_for(".drawer[role=dialog]").await;
    // Read once the drawer shows its heading (WebDriver reads no text while it slides in).
    let name = records[498]["accountName"].as_str().unwrap();
    assert_eq!(h.wait_for_text(".drawer h2", name).await, name);
    h.client().active_element().await.unwrap().send_keys("\u{E00C}").await.unwrap(); // Escape
    h.wait_gone(".drawer").await;
    assert_eq!(h.js(active, vec![]).await, json!(["498", all[498]]), "focus back on the row");
    h.finish().await;
}

/// Wide and phone-sized screens: the page itself never scrolls sideways (the table scrolls in
/// its own box), the drawer fits. Screenshots land in the e2e artifacts directory.
#[tokio::test]
async fn accounts_page_fits_wide_and_phone_screens() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::AccountsRead]).await;
    h.sign_in(&token).await;
    h.goto("/accounts?sort=marketValue,desc").await;
    settled(&h).await;
    let no_sideways_scroll = "document.documentElement.scrollWidth <= document.documentElement.clientWidth";
    for (width, height) in [(1280, 900), (360, 780)] {
        h.client().set_window_size(width, height).await.unwrap();
        h.wait_js(&format!("innerWidth <= {width} && innerWidth > {width} - 40"), "the window's new width").await;
        assert_eq!(
            h.js(&format!("return {no_sideways_scroll}"), vec![]).await,
            json!(true),
            "{width} px: the page scrolls sideways"
        );
        h.snapshot(&format!("accounts-{width}")).await;
        h.click("tbody tr[data-row='0'] td[data-key=accountName]").await;
        h.wait_for(".drawer[role=dialog]").await;
        h.wait_js(NO_ANIMATION, "the drawer's slide-in to end").await;
        let fits = h.js("const r = document.querySelector('.drawer').getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth + 1", vec![]).await;
        assert_eq!(fits, json!(true), "{width} px: the drawer fits");
        h.snapshot(&format!("accounts-drawer-{width}")).await;
        h.click(".drawer-close").await;
        h.wait_gone(".drawer").await;
    }
    // Dark, wide, with the column chooser open: themed, open, and still no sideways scroll.
    let before = h.wait_for("div.moneydesk[data-theme]").await.attr("data-theme").await.unwrap();
    h.click("button#theme-toggle").await;
    let after = if before.as_deref() == Some("dark") { "light" } else { "dark" };
    h.wait_for(&format!("div.moneydesk[data-theme={after}]")).await;
    h.client().set_window_size(1280, 900).await.unwrap();
    h.wait_js("innerWidth > 1200", "the window's new width").await;
    h.click(".column-chooser summary").await;
    h.wait_for(".column-chooser[open] [data-column]").await;
    assert_eq!(
        h.js(&format!("return {no_sideways_scroll}"), vec![]).await,
        json!(true),
        "1280 px with the chooser open"
    );
    h.snapshot(&format!("accounts-{after}-1280")).await;
    h.finish().await;
}
