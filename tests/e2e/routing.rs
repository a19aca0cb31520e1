//! The Routing page against the server's embedded demo directory (fictional institutions):
//! the number checked as it is typed, both records in words, the calm "not in the directory",
//! a name search in the shared table, and a bulk check with its CSV export.

use moneydesk_e2e::{Harness, Scope};
use serde_json::json;

/// ACME COMMUNITY BANK, N.A.: in both directories, main office.
const ACME: &str = "021090028";
/// ACME's first eight digits with a wrong check digit (8 is right).
const ACME_BAD_CHECKSUM: &str = "021090027";
/// Prairie State's old number: ACH record type 2 pointing at PRAIRIE.
const REPLACED: &str = "073090995";
const PRAIRIE: &str = "073090063";
/// Ironwood Trust: wire only.
const WIRE_ONLY: &str = "043090093";
/// A valid checksum the demo directory does not list (the real FRB Boston).
const UNLISTED: &str = "011000015";

async fn signed_in_at(path: &str) -> Harness {
    let h = Harness::start().await;
    let token = h.token(&[Scope::RoutingRead]).await;
    h.sign_in(&token).await;
    h.goto(path).await;
    h.wait_for_text("main h1", "routing").await;
    // A 404 from a lookup is an answer the page shows calmly, but Chromium logs it.
    h.allow_console_error("404 (Not Found)");
    h
}

/// How many lookup requests the page has sent so far (the browser's resource timing).
async fn lookups_sent(h: &Harness) -> u64 {
    h.requests_to("/validate").await.len() as u64
}

#[tokio::test]
async fn a_number_is_checked_as_typed_then_both_records_are_shown_in_words() {
    let h = signed_in_at("/routing").await;
    h.wait_for_text("[data-testid=routing-directory]", "institutions").await;
    h.wait_for_text("[data-testid=routing-directory]", "demo").await;

    // Wrong: the message names the expected check digit, and nothing is sent.
    h.type_into("#routing-number", ACME_BAD_CHECKSUM).await;
    let msg = h.wait_for_text("#routing-number-message", "should be 8, not 7").await;
    assert!(msg.contains("Checksum"), "{msg}");
    assert_eq!(h.wait_for("#routing-number").await.attr("aria-invalid").await.unwrap().as_deref(), Some("true"));
    h.type_into("#routing-number", "02109x").await;
    h.wait_for_text("#routing-number-message", "position 6 is not a digit").await;
    assert_eq!(lookups_sent(&h).await, 0, "no request for a number that cannot be valid");

    // Right: both records side by side, each field labelled in words.
    h.type_into("#routing-number", ACME).await;
    h.wait_for_text("#routing-number-message", "Valid checksum").await;
    let ach = h.wait_for_text("[data-testid=ach-fields]", "ACME COMMUNITY BANK, N.A.").await;
    for needle in [
        "Office",
        "Main office",
        "Record type",
        "send entries to this routing number",
        "Phone",
        "(212) 555-",
        "10001-0001",
        "Last changed",
        "2025",
    ] {
        assert!(ach.contains(needle), "ACH record lacks {needle:?}: {ach}");
    }
    let wire = h.wait_for_text("[data-testid=wire-fields]", "ACME COMMUNITY BANK, N.A.").await;
    for needle in [
        "Telegraphic name",
        "ACME COMM NY",
        "Funds transfers",
        "Eligible",
        "Settlement-only",
        "No: takes all funds transfers",
        "Securities transfers",
    ] {
        assert!(wire.contains(needle), "wire record lacks {needle:?}: {wire}");
    }
    assert!(h.url().await.query().unwrap_or_default().contains(&format!("number={ACME}")));

    // The URL restores the view on reload.
    h.reload().await;
    h.wait_for_text("[data-testid=ach-fields]", "ACME COMMUNITY BANK").await;
    let typed = h.js("return document.querySelector('#routing-number').value", vec![]).await;
    assert_eq!(typed, json!(ACME));

    // Record type 2 explains itself and links to the new number.
    h.type_into("#routing-number", REPLACED).await;
    h.wait_for_text("[data-testid=ach-fields]", "send entries to the new routing number").await;
    h.click("a.routing-new-number").await;
    h.wait_for_text("[data-testid=ach-fields]", PRAIRIE).await;
    h.wait_for_text("[data-testid=ach-fields]", "PRAIRIE STATE BANK & TRUST").await;
    assert!(h.url().await.query().unwrap_or_default().contains(&format!("number={PRAIRIE}")));
    // Back returns to the replaced number.
    h.client().back().await.unwrap();
    h.wait_for_text("[data-testid=ach-fields]", "new routing number").await;

    // Not listed is a calm state, per directory.
    h.type_into("#routing-number", WIRE_ONLY).await;
    h.wait_for_text("[data-testid=ach-not-listed]", "Not in the ACH directory").await;
    h.wait_for_text("[data-testid=wire-fields]", "IRONWOOD TRUST COMPANY").await;
    h.type_into("#routing-number", UNLISTED).await;
    h.wait_for_text("[data-testid=ach-not-listed]", "Not in the ACH directory").await;
    h.wait_for_text("[data-testid=wire-not-listed]", "Not in the wire directory").await;
    assert_eq!(h.count("[role=alert]").await, 0, "not listed is not an error");
    assert_eq!(h.count("h1").await, 1);

    h.finish().await;
}

#[tokio::test]
async fn a_name_search_lists_rows_and_the_url_keeps_it() {
    let h = signed_in_at("/routing").await;
    // The tabs follow the ARIA pattern: arrow keys move the selection and the focus.
    h.click("#routing-tab-lookup").await;
    let tab = h.wait_for("#routing-tab-lookup").await;
    tab.send_keys("\u{E014}").await.unwrap(); // ArrowRight
    h.wait_for("#routing-tab-search[aria-selected=true]").await;
    let focused = h.js("return document.activeElement.id", vec![]).await;
    assert_eq!(focused, json!("routing-tab-search"));
    h.wait_for("[data-testid=table-idle]").await;
    // Typo-tolerant: "comunity".
    h.type_into("#routing-search-filter-name", "acme comunity bank").await;
    h.wait_for(&format!("table#routing-search-table tbody tr[data-id=\"{ACME}\"]")).await;
    let query = h.url().await.query().unwrap_or_default().to_string();
    assert!(query.contains("tab=search") && query.contains("name=acme"), "{query}");

    // A state filter alone lists that state's institutions.
    h.goto("/routing?tab=search&state=AZ").await;
    let rows = h.wait_for_text("table#routing-search-table tbody", "RED ROCK").await;
    assert!(rows.contains("CANYON RIDGE"), "{rows}");
    assert!(!rows.contains("ACME"), "{rows}");

    // A bad prefix is refused before sending, naming the field.
    h.goto("/routing?tab=search&prefix=0").await;
    h.wait_for_text("[data-testid=table-error]", "prefix").await;

    h.finish().await;
}

#[tokio::test]
async fn a_bulk_check_of_a_pasted_list_and_its_csv() {
    let h = signed_in_at("/routing?tab=bulk").await;
    // Capture the exported file's text instead of downloading it.
    h.js(
        "const make = URL.createObjectURL; window.__csv = null;
         URL.createObjectURL = b => { b.text().then(t => { window.__csv = t; }); return make.call(URL, b); };",
        vec![],
    )
    .await;
    let list = format!("{ACME}\n{ACME_BAD_CHECKSUM}\n{UNLISTED}\n=cmd\n");
    h.type_into("#routing-bulk-input", &list).await;
    h.click("#routing-bulk-check").await;

    h.wait_for_text(
        "[data-testid=routing-bulk-summary]",
        "4 rows: 2 valid, 2 invalid; 1 in ACH, 1 in wire, 1 in neither",
    )
    .await;
    let listed = h.text("[data-testid=routing-bulk-results] tr[data-status=listed]").await;
    assert!(listed.contains(ACME) && listed.contains("ACME COMMUNITY BANK, N.A."), "{listed}");
    let invalid = h.text("[data-testid=routing-bulk-results] tr[data-status=invalid]").await;
    assert!(invalid.contains("should be 8, not 7"), "{invalid}");
    let unlisted = h.text("[data-testid=routing-bulk-results] tr[data-status=not-listed]").await;
    assert!(unlisted.contains("Not in either directory"), "{unlisted}");
    h.wait_for_text("#routing-bulk-progress", "2 of 2").await;

    h.click("#routing-bulk-export").await;
    let mut csv = serde_json::Value::Null;
    for _ in 0..50 {
        csv = h.js("return window.__csv", vec![]).await;
        if csv.is_string() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let csv = csv.as_str().expect("the export produced a file").to_string();
    let lines: Vec<&str> = csv.split("\r\n").collect();
    assert_eq!(lines[0], "row,routingNumber,valid,problem,inAch,inWire,institution,error");
    assert_eq!(lines[1], format!("1,{ACME},yes,,Yes,Yes,\"ACME COMMUNITY BANK, N.A.\","));
    assert!(lines[2].starts_with(&format!("2,{ACME_BAD_CHECKSUM},no,\"Checksum fails")), "{}", lines[2]);
    assert_eq!(lines[3], format!("3,{UNLISTED},yes,,No,No,,"));
    assert!(lines[4].starts_with("4,'=cmd,no,"), "a formula is defused: {}", lines[4]);

    // The results stay while another tab is open.
    h.click("#routing-tab-lookup").await;
    h.wait_for("#routing-number").await;
    h.click("#routing-tab-bulk").await;
    h.wait_for("[data-testid=routing-bulk-results] tr[data-status=listed]").await;

    // An uploaded CSV: the "Routing Number" column is used, and a number a spreadsheet
    // shortened gets a hint.
    let csv_path = std::env::temp_dir().join(format!("routing-upload-{}.csv", std::process::id()));
    std::fs::write(
        &csv_path,
        "Name,Routing Number,City\r\n\"ACME COMMUNITY BANK, N.A.\",021090028,New York\r\nShortened,21090028,\r\n",
    )
    .unwrap();
    let input = h.wait_for("#routing-bulk-file").await;
    input.send_keys(&csv_path.display().to_string()).await.unwrap();
    h.wait_for_text(
        "[data-testid=routing-bulk-summary]",
        "2 rows: 1 valid, 1 invalid; 1 in ACH, 1 in wire, 0 in neither",
    )
    .await;
    let hint = h.text("[data-testid=routing-bulk-results] tr[data-status=invalid]").await;
    assert!(hint.contains("leading zero: 021090028 is valid"), "{hint}");
    let _ = std::fs::remove_file(&csv_path);

    h.finish().await;
}

/// The page fits a phone's width (no sideways scrolling of the page itself) and a desktop's;
/// the snapshots land in the artifacts directory for a look.
#[tokio::test]
async fn the_page_fits_a_phone_and_a_desktop() {
    let h = signed_in_at(&format!("/routing?number={ACME}")).await;
    for (width, name) in [(1280, "desktop"), (360, "phone")] {
        h.client().set_window_size(width, 900).await.unwrap();
        h.goto(&format!("/routing?number={ACME}")).await;
        h.wait_for_text("[data-testid=wire-fields]", "ACME").await;
        h.wait_for_text("[data-testid=routing-directory]", "institutions").await;
        let overflow =
            h.js("return document.documentElement.scrollWidth - document.documentElement.clientWidth", vec![]).await;
        assert_eq!(overflow, json!(0), "the lookup scrolls sideways at {width} px");
        h.snapshot(&format!("lookup-{name}")).await;
        h.js("document.querySelector('[data-testid=ach-record]').scrollIntoView()", vec![]).await;
        h.snapshot(&format!("lookup-records-{name}")).await;

        h.goto("/routing?tab=bulk").await;
        h.type_into("#routing-bulk-input", &format!("{ACME}\n{ACME_BAD_CHECKSUM}\n{UNLISTED}")).await;
        h.click("#routing-bulk-check").await;
        h.wait_for("[data-testid=routing-bulk-results] tr[data-status=not-listed]").await;
        let overflow =
            h.js("return document.documentElement.scrollWidth - document.documentElement.clientWidth", vec![]).await;
        assert_eq!(overflow, json!(0), "the bulk check scrolls sideways at {width} px");
        h.js("document.querySelector('#routing-bulk-check').scrollIntoView()", vec![]).await;
        h.snapshot(&format!("bulk-{name}")).await;

        h.goto("/routing?tab=search&name=bank&state=AZ").await;
        h.wait_for("table#routing-search-table tbody tr[data-id]").await;
        h.snapshot(&format!("search-{name}")).await;
    }
    h.finish().await;
}

/// With the Fed's real files (../shared/data/routing, never copied into the repo): a Federal
/// Reserve Bank (ACH record type 0) and a replaced number (type 2) explained in words.
#[tokio::test]
async fn the_real_fed_directory_explains_record_types_0_and_2() {
    let dir = moneydesk_e2e::workspace_root().join("../shared/data/routing");
    let h = Harness::start_with(|c| {
        c.fedach_file = Some(dir.join("FedACHdir.txt"));
        c.fedwire_file = Some(dir.join("fpddir.txt"));
    })
    .await;
    h.allow_console_error("404 (Not Found)"); // Cathay's old number is not in Fedwire
    let token = h.token(&[Scope::RoutingRead]).await;
    h.sign_in(&token).await;
    h.goto("/routing?number=011000015").await;
    let status = h.wait_for_text("[data-testid=routing-directory]", "FedACHdir.txt").await;
    assert!(status.contains("18,198 records") && status.contains("7,693 records"), "{status}");
    let ach = h.wait_for_text("[data-testid=ach-fields]", "0: a Federal Reserve Bank").await;
    assert!(ach.contains("ATLANTA, GA 30309-4470") && ach.contains("(877) 372-2457"), "{ach}");
    assert!(ach.contains("Dec 24, 2015"), "{ach}");
    let wire = h.wait_for_text("[data-testid=wire-fields]", "FEDERAL RESERVE BANK OF BOSTON").await;
    assert!(wire.contains("FRB-BOS") && wire.contains("Sep 10, 2004"), "{wire}");

    // Cathay Bank's old number: type 2, with a link to the new one.
    h.type_into("#routing-number", "011001962").await;
    h.wait_for_text("[data-testid=ach-fields]", "send entries to the new routing number").await;
    h.wait_for_text("a.routing-new-number", "122203950").await;
    h.finish().await;
}
