//! The Check deposits page: a check deposited through the form with real check images (the
//! fee and the bank known as typed, a wrong field named on the field, a double click making
//! one deposit), the deposit in the table, its images and history in the drawer, and a reject
//! with its reason; a check read by the scan; an electronic deposit (deposit_fields.rs: the
//! form's every field, and cash).

use moneydesk_e2e::{shared_data, Harness, Scope};
use serde_json::{json, Value};

/// The first account of the accounts page (the demo data's): its id and name.
pub(crate) async fn an_account(h: &Harness) -> (String, String) {
    h.goto("/accounts").await;
    h.wait_for("tbody tr[data-id]").await;
    let id: Value = h.js("return document.querySelector('tbody tr[data-id]').dataset.id", vec![]).await;
    (id.as_str().expect("a row id").to_string(), first_row(h, "accountName").await)
}

/// The text of the first row's cell for `key`.
pub(crate) async fn first_row(h: &Harness, key: &str) -> String {
    let v = h
        .js(
            "return document.querySelector(`tbody tr[data-id] td[data-key='${arguments[0]}']`)?.textContent ?? ''",
            vec![json!(key)],
        )
        .await;
    v.as_str().unwrap_or_default().to_string()
}

#[tokio::test]
async fn a_check_is_deposited_shown_with_its_images_and_history_then_rejected_with_a_reason() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    let (account, name) = an_account(&h).await;

    h.goto("/deposits").await;
    h.wait_for_text("main h1", "Check deposits").await;
    h.wait_for_text("[data-testid=table-empty]", "no deposits yet").await;
    h.click("#deposit-new").await;
    assert!(h.url().await.query().unwrap_or("").contains("new=1"), "the open form is in the URL");

    // A routing number with a wrong checksum: the server names the field, nothing is made.
    h.allow_console_error("deposits/check - Failed to load resource: the server responded with a status of 400");
    // The payee is found by name as it is typed.
    h.type_into("#deposit-payee-account", &name).await;
    h.wait_for("#deposit-payee-options option").await;
    let found =
        h.js("return [...document.querySelectorAll('#deposit-payee-options option')].map(o => o.value)", vec![]).await;
    assert!(found.as_array().unwrap().contains(&json!(account)), "{name:?} finds {account}: {found}");
    h.type_into("#deposit-payee-account", &account).await;
    h.type_into("#deposit-payee-user", "usr_0001").await;
    h.type_into("#deposit-amount", "1,250.75").await;
    h.type_into("#deposit-check-number", "1042").await;
    h.type_into("#deposit-routing", "021090027").await;
    h.type_into("#deposit-account", "4820001234").await;
    h.upload("#deposit-front", &shared_data("checks/full/02_finos_sample_check.png")).await;
    h.upload("#deposit-back", &shared_data("checks/full/04_wikimedia_check1005_calfed.jpg")).await;
    // The fee is known before submitting; a wrong checksum is said as it is typed.
    h.wait_for_text("#deposit-amount-note", "Fee: $1.50").await;
    h.wait_for_text("#deposit-routing-note", "checksum").await;
    assert_eq!(h.count(".image-preview").await, 2, "both images are previewed");
    h.click("#deposit-submit").await;
    h.wait_for_text("#deposit-form-error", "bankRoutingNumber").await;
    // The complaint is on its field too, and the field says it is invalid.
    h.wait_for_text("#deposit-routing-error", "checksum digit should be 8").await;
    let invalid = h.wait_for("#deposit-routing").await.attr("aria-invalid").await.unwrap();
    assert_eq!(invalid.as_deref(), Some("true"));

    // Fixed: the directory names the bank; a double click deposits once.
    h.type_into("#deposit-routing", "021090028").await;
    h.wait_for_text("#deposit-routing-note", "Bank: ACME COMMUNITY BANK").await;
    h.js("const b = document.querySelector('#deposit-submit'); b.click(); b.click();", vec![]).await;
    h.wait_for_text(".toasts [role=status]", "was created").await;
    h.wait_gone("#deposit-form").await;
    h.wait_for("tbody tr[data-id]").await;
    assert_eq!(h.count("tbody tr[data-id]").await, 1, "one deposit for a double click");
    // The chart has today's bar; focusing it reads its total out.
    h.wait_for("[data-testid=deposit-chart] g.day").await;
    h.js("document.querySelector('[data-testid=deposit-chart] g.day').focus()", vec![]).await;
    h.wait_for_text("[data-testid=deposit-chart-readout]", "$1,250.75 in 1 deposit — 1 to confirm ($1,250.75)").await;
    assert_eq!(first_row(&h, "amount").await, "$1,250.75");
    assert_eq!(first_row(&h, "status").await, "To confirm");

    // The drawer: both images decoded by the browser, the history, the moves allowed now.
    h.click("tbody tr[data-id]").await;
    h.wait_for("[data-testid=deposit-detail] img[data-side=front]").await;
    let loaded = h
        .js(
            "return [...document.querySelectorAll('.check-images img')].map(i => i.complete && i.naturalWidth > 0)",
            vec![],
        )
        .await;
    assert_eq!(loaded, json!([true, true]), "both sides are real pictures");
    // The front zooms to twice its width and back.
    let width = "return document.querySelector('.check-images img[data-side=front]').getBoundingClientRect().width";
    let fitted = h.js(width, vec![]).await.as_f64().unwrap();
    h.click(".check-image:has(img[data-side=front])").await;
    h.wait_for(".check-image.zoomed[aria-pressed=true]").await;
    let zoomed = h.js(width, vec![]).await.as_f64().unwrap();
    // Twice the frame's width (less the scroll bar the zoomed picture brings).
    assert!(zoomed > 1.8 * fitted && zoomed <= 2.0 * fitted + 1.0, "zoomed {zoomed} px, fitted {fitted} px");
    h.click(".check-image.zoomed").await;
    h.wait_gone(".check-image.zoomed").await;
    h.wait_for_text(".deposit-history", "To confirm by").await;
    let moves: Value =
        h.js("return [...document.querySelectorAll('[data-move]')].map(b => b.dataset.move)", vec![]).await;
    assert_eq!(moves, json!(["confirm", "reject", "cancel"]));

    // Reject asks why; the reason is kept in the history and the table follows.
    h.click("[data-move=reject]").await;
    h.type_into("#deposit-reason", "Signature missing").await;
    h.click(".deposit-reason button[type=submit]").await;
    h.wait_for_text("[data-testid=deposit-status]", "Rejected").await;
    h.wait_for_text(".deposit-history", "Signature missing").await;
    assert_eq!(h.count("[data-move]").await, 0, "a rejected deposit has no moves left");
    h.wait_for_text("tbody tr[data-id] td[data-key=status]", "Rejected").await;
    // The chart follows the move.
    h.wait_for("[data-testid=deposit-chart] rect.status-6").await;
    h.finish().await;
}

#[tokio::test]
async fn a_check_read_by_the_scan_fills_its_micr_fields_and_is_deposited_from_the_scan() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    let (account, _) = an_account(&h).await;

    h.goto("/deposits?new=1").await;
    h.wait_for("#deposit-form").await;
    h.type_into("#deposit-payee-account", &account).await;
    h.type_into("#deposit-payee-user", "usr_0001").await;
    h.type_into("#deposit-amount", "42.00").await;
    // The Deluxe sample check: ⑆000067894⑆12345678⑈0101 on its MICR line. Its routing number
    // passes the checksum but names no bank, so the form's directory lookup is a 404.
    h.allow_console_error("routing/ach/validate?routingNumber=000067894 - Failed to load resource: the server responded with a status of 404");
    let check = shared_data("checks/full/07_tmannherz_check1_deluxe_sample.jpg");
    h.upload("#deposit-front", &check).await;
    h.upload("#deposit-back", &check).await;
    h.type_into("#deposit-sleeve", &account).await;
    h.wait_js("!document.querySelector('#deposit-scan').disabled", "the scan can start").await;
    h.click("#deposit-scan").await;
    h.wait_for_text("#deposit-scan-result", "MICR line").await;
    let values = h
        .js("return ['#deposit-routing', '#deposit-account', '#deposit-check-number'].map(s => document.querySelector(s).value)", vec![])
        .await;
    assert_eq!(
        values,
        json!(["000067894", "12345678", "0101"]),
        "routing, account and check number read from the MICR line"
    );
    h.wait_for_text("#deposit-scan-result", "Routing number").await;
    // The sample's routing number names no bank, and a deposit must name a bank of the FedACH
    // directory: the operator puts the payer's bank's number in (the deposit still names the scan).
    h.type_into("#deposit-routing", "021090028").await;
    h.wait_for_text("#deposit-routing-note", "Bank: ACME COMMUNITY BANK").await;

    h.click("#deposit-submit").await;
    h.wait_for_text(".toasts [role=status]", "was created").await;
    h.wait_gone("#deposit-form").await;
    h.wait_for("tbody tr[data-id]").await;
    h.click("tbody tr[data-id]").await;
    // The drawer shows the scan's grayscale images.
    h.wait_for("[data-testid=deposit-detail] img[data-side=front]").await;
    h.wait_for_text("[data-testid=deposit-detail]", "Check scan").await;
    h.finish().await;
}

#[tokio::test]
async fn an_electronic_deposit_is_recorded_and_found_in_the_days_ach_file() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    let (account, _) = an_account(&h).await;

    h.goto("/deposits").await;
    h.click("#pull-new").await;
    assert!(h.url().await.query().unwrap_or("").contains("new=pull"), "the open form is in the URL");
    h.type_into("#pull-sleeve", &account).await;
    h.type_into("#pull-user", "usr_0001").await;
    h.type_into("#pull-routing", "021090028").await;
    h.wait_for_text("#pull-routing-note", "Bank: ACME COMMUNITY BANK").await;
    h.type_into("#pull-account", "744567899").await;
    h.select("#pull-account-type", "savings").await;
    h.type_into("#pull-vendor", "Acme Supplies").await;
    h.type_into("#pull-amount", "2,500.00").await;
    h.click("#pull-submit").await;
    h.wait_for_text(".toasts [role=status]", "was recorded").await;
    h.wait_gone("#pull-form").await;
    h.wait_for_text("tbody tr[data-id] td[data-key=amount]", "$2,500.00").await;

    // The day's file (the form's default effective day is tomorrow, as is the file's).
    h.click("#ach-file-show").await;
    h.wait_for_text(".ach-file", "1 pull in NACHA format.").await;
    let file = h.text("#ach-file-text").await;
    let entry = file.lines().find(|l| l.starts_with('6')).expect("an entry detail record");
    assert_eq!(&entry[1..3], "37", "a savings debit: {entry}");
    assert_eq!(&entry[3..12], "021090028", "the vendor's bank and its check digit: {entry}");
    assert_eq!(&entry[29..39], "0000250000", "the amount in cents: {entry}");
    assert!(entry.contains("ACME SUPPLIES"), "{entry}");
    h.finish().await;
}

/// Chromium flags for a fake camera filming `video`, its permission granted.
pub(crate) fn fake_camera(video: &std::path::Path) -> Vec<String> {
    vec![
        "--use-fake-device-for-media-stream".into(),
        "--use-fake-ui-for-media-stream".into(),
        format!("--use-file-for-fake-video-capture={}", video.display()),
    ]
}

/// The wizard's first step filled with the first account, then Next.
async fn scan_for(h: &Harness, account: &str) {
    h.goto("/deposits").await;
    h.click("#scan-new").await;
    assert!(h.url().await.query().unwrap_or("").contains("new=scan"), "the open wizard is in the URL");
    h.type_into("#scan-sleeve", account).await;
    h.type_into("#scan-payee-account", account).await;
    h.type_into("#scan-payee-user", "usr_0001").await;
    h.click("#scan-next").await;
}

/// The review step's MICR fields as prefilled.
async fn micr_fields(h: &Harness) -> Value {
    h.wait_for("#scan-review").await;
    h.js(
        "return ['#scan-routing', '#scan-account', '#scan-check-number'].map(s => document.querySelector(s).value)",
        vec![],
    )
    .await
}

#[tokio::test]
async fn a_check_held_to_the_camera_is_taken_by_itself_read_in_the_browser_and_deposited() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let check = shared_data("checks/full/07_tmannherz_check1_deluxe_sample.jpg");
    let video = moneydesk_e2e::camera::check_on_a_table(&check, &dir.path().join("check.y4m"));
    let h = Harness::start_with_flags(&fake_camera(&video), |c| c.seed_demo = true).await;
    // The sample check's routing number names no bank: the directory lookups answer 404.
    h.allow_console_error("routing/ach/validate?routingNumber=000067894 - Failed to load resource: the server responded with a status of 404");
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    let (account, _) = an_account(&h).await;
    scan_for(&h, &account).await;

    // The front: the camera films the check on the table; the worker finds it, and once it is
    // still for a few frames the picture is taken without a click.
    h.wait_for("video[aria-label='Camera: the front of the check']").await;
    h.wait_for("#scan-front-found img.straightened").await;
    assert_eq!(h.count("#camera-take").await, 0, "the camera is closed once the picture is taken");
    let corners: Value = h.js("return [...document.querySelectorAll('.corner-handle')].map(c => [+c.getAttribute('cx'), +c.getAttribute('cy')])", vec![]).await;
    let corners = corners.as_array().expect("four corners").clone();
    assert_eq!(corners.len(), 4, "{corners:?}");
    // The check is turned 3° in the frame: its top-left corner is not the frame's.
    assert!(
        corners[0][0].as_f64().unwrap() > 60.0 && corners[0][1].as_f64().unwrap() > 60.0,
        "corners found on the check: {corners:?}"
    );
    h.click("#scan-next").await;

    // The back, from the camera too (the same video).
    h.wait_for("#scan-back-found img.straightened").await;
    h.click("#scan-next").await;

    assert_eq!(
        micr_fields(&h).await,
        json!(["000067894", "12345678", "0101"]),
        "routing, account and check number read in the browser"
    );
    h.wait_for_text("#scan-micr-line", "⑆000067894⑆").await;
    h.type_into("#scan-amount", "42.00").await;
    // A deposit must name a bank of the FedACH directory, which the sample's number is not.
    h.type_into("#scan-routing", "021090028").await;
    h.click("#scan-submit").await;
    h.wait_for_text("#scan-made", "was created").await;
    h.click("#scan-finish").await;
    h.wait_gone("#scan-wizard").await;
    h.click("tbody tr[data-id]").await;
    h.wait_for_text("[data-testid=deposit-detail]", "Check scan").await;
    h.wait_for("[data-testid=deposit-detail] img[data-side=front]").await;
    h.finish().await;
}

#[tokio::test]
async fn without_a_camera_the_wizard_says_so_and_reads_files_with_corners_moved_by_keyboard() {
    // Permission prompts refused: getUserMedia fails as when a person says no.
    let h = Harness::start_with_flags(&["--deny-permission-prompts".to_string()], |c| c.seed_demo = true).await;
    h.allow_console_error("routing/ach/validate?routingNumber=000067894 - Failed to load resource: the server responded with a status of 404");
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    let (account, _) = an_account(&h).await;
    scan_for(&h, &account).await;

    h.wait_for_text(".scan-side .notice", "Choose a picture of the check instead").await;
    let check = shared_data("checks/full/07_tmannherz_check1_deluxe_sample.jpg");
    h.upload("#scan-front-file", &check).await;
    h.wait_for("#scan-front-found img.straightened").await;
    // A corner moved with the arrow keys: the side is straightened again from it.
    let before = h.js("return document.querySelector('.corner-handle').getAttribute('aria-valuetext')", vec![]).await;
    let handle = h.client().find(fantoccini::Locator::Css(".corner-handle")).await.expect("a corner handle");
    handle.send_keys("\u{E014}\u{E015}").await.expect("arrow keys on the corner"); // right, down
    let after = h.js("return document.querySelector('.corner-handle').getAttribute('aria-valuetext')", vec![]).await;
    assert_ne!(before, after, "the arrow keys move the corner");
    h.wait_for("#scan-front-found img.straightened").await;
    h.click("#scan-next").await;

    h.upload("#scan-back-file", &check).await;
    h.wait_for("#scan-back-found").await;
    h.click("#scan-next").await;
    assert_eq!(micr_fields(&h).await, json!(["000067894", "12345678", "0101"]), "read from the file");
    // Back goes to the previous step, kept in the URL.
    h.click("#scan-back").await;
    assert!(h.url().await.query().unwrap_or("").contains("step=back"), "the step is in the URL");
    h.wait_for("#scan-back-found").await;
    h.finish().await;
}
