//! The Deposits page's forms field by field: the check deposit form's every field (the
//! description's table) kept in the deposit's record, the fee said before submitting; and
//! cash recorded, listed, filtered, sorted and shown without check images.

use moneydesk_e2e::{shared_data, Harness, Scope};
use serde_json::json;

use super::deposits::{an_account, first_row};

/// Sets a date field (typing into one depends on the browser's locale) as a person would.
async fn set_date(h: &Harness, css: &str, day: &str) {
    h.js(
        "const el = document.querySelector(arguments[0]); el.value = arguments[1]; \
         el.dispatchEvent(new Event('input', { bubbles: true }));",
        vec![json!(css), json!(day)],
    )
    .await;
}

/// The drawer's text for a field of the open deposit.
async fn drawn(h: &Harness, key: &str) -> String {
    h.wait_for_text(&format!(".drawer dd[data-key={key}]"), "").await
}

/// `YYYY-MM-DD`, `days` from today in New York (the tests' business time zone; the callers
/// leave days of margin: a schedule date 5 days ahead, a check date 3 days back).
fn day(days: i64) -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = (secs - 5 * 3600) / 86_400 + days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[tokio::test]
async fn the_deposit_form_with_every_field_makes_a_deposit_whose_record_shows_them() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    let (account, _) = an_account(&h).await;

    h.goto("/deposits?new=1").await;
    h.wait_for("#deposit-form").await;
    h.type_into("#deposit-payee-account", &account).await;
    h.type_into("#deposit-payee-user", "usr_0001").await;
    h.type_into("#deposit-amount", "310.25").await;
    h.type_into("#deposit-check-number", "2044").await;
    h.type_into("#deposit-account", "4820001234").await;
    h.type_into("#deposit-sleeve", &account).await;
    // The routing number names the bank, which fills in the bank name.
    h.type_into("#deposit-routing", "021090028").await;
    h.wait_js(
        "document.querySelector('#deposit-bank-name').value === 'ACME COMMUNITY BANK, N.A.'",
        "the bank name from the directory",
    )
    .await;
    let (schedule, check_date) = (day(5), day(-3));
    set_date(&h, "#deposit-schedule-date", &schedule).await;
    set_date(&h, "#deposit-check-date", &check_date).await;
    h.type_into("#deposit-memo", "Rent, unit 4").await;
    h.type_into("#deposit-payer-type", "Individual").await;
    h.type_into("#deposit-payment-type", "Personal check").await;
    h.type_into("#deposit-source", "front desk").await;
    h.upload("#deposit-front", &shared_data("checks/full/02_finos_sample_check.png")).await;
    h.upload("#deposit-back", &shared_data("checks/full/04_wikimedia_check1005_calfed.jpg")).await;
    // The fee is said before submitting: the schedule's, then the one an admin sets.
    h.wait_for_text("#deposit-fee-charged", "standard fee for this amount").await;
    h.type_into("#deposit-fee", "0.75").await;
    h.wait_for_text("#deposit-fee-charged", "Fee to be charged: $0.75 (set here)").await;
    h.click("#deposit-submit").await;
    h.wait_for_text(".toasts [role=status]", "was created").await;
    h.wait_gone("#deposit-form").await;

    h.wait_for("tbody tr[data-id]").await;
    h.click("tbody tr[data-id]").await;
    h.wait_for("[data-testid=deposit-detail] img[data-side=front]").await;
    for (key, shown) in [
        ("amount", "$310.25"),
        ("feeApplied", "$0.75"),
        ("checkNumber", "2044"),
        ("bankName", "ACME COMMUNITY BANK, N.A."),
        ("bankRoutingNumber", "021090028"),
        ("memo", "Rent, unit 4"),
        ("payerType", "Individual"),
        ("paymentType", "Personal check"),
        ("source", "front desk"),
        ("serviceType", "Check"),
    ] {
        assert_eq!(drawn(&h, key).await, shown, "{key}");
    }
    assert!(!drawn(&h, "scheduleDate").await.is_empty() && !drawn(&h, "checkDate").await.is_empty());
    // The record as the API keeps it: the dates as given.
    let list = super::tables::api(
        &h,
        &token,
        "/api/v2/services/money-movements/deposits?fields=scheduleDate,checkDate,sleeveAccountId",
    )
    .await;
    let item = &list["data"]["content"][0];
    assert_eq!(
        (item["scheduleDate"].as_str(), item["checkDate"].as_str()),
        (Some(schedule.as_str()), Some(check_date.as_str())),
        "{item}"
    );
    assert_eq!(item["sleeveAccountId"], json!(account));
    h.finish().await;
}

#[tokio::test]
async fn cash_is_recorded_listed_filtered_and_shown_without_check_images() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    let (account, name) = an_account(&h).await;

    h.goto("/deposits").await;
    h.click("#cash-new").await;
    assert!(h.url().await.query().unwrap_or("").contains("new=cash"), "the open form is in the URL");
    h.type_into("#cash-sleeve", &name).await;
    h.wait_for("#cash-sleeve-options option").await;
    h.type_into("#cash-sleeve", &account).await;
    h.type_into("#cash-user", "usr_0001").await;
    h.type_into("#cash-amount", "200.00").await;
    h.wait_for_text("#cash-amount-note", "Fee: $").await;
    h.type_into("#cash-memo", "Till 3").await;
    h.click("#cash-submit").await;
    h.wait_for_text(".toasts [role=status]", "was recorded").await;
    h.wait_gone("#cash-form").await;
    h.wait_for_text("tbody tr[data-id] td[data-key=serviceType]", "Cash").await;
    assert_eq!(first_row(&h, "amount").await, "$200.00");

    // A check beside it: the kind filter finds the cash alone.
    h.goto("/deposits?new=1").await;
    h.wait_for("#deposit-form").await;
    h.type_into("#deposit-payee-account", &account).await;
    h.type_into("#deposit-payee-user", "usr_0001").await;
    h.type_into("#deposit-amount", "90.00").await;
    h.type_into("#deposit-check-number", "3001").await;
    h.type_into("#deposit-routing", "021090028").await;
    h.type_into("#deposit-account", "4820001234").await;
    h.upload("#deposit-front", &shared_data("checks/full/02_finos_sample_check.png")).await;
    h.upload("#deposit-back", &shared_data("checks/full/04_wikimedia_check1005_calfed.jpg")).await;
    h.click("#deposit-submit").await;
    h.wait_for_text(".toasts [role=status]", "was created").await;
    h.wait_gone("#deposit-form").await;
    h.goto("/deposits?sort=amount,asc&serviceType=Cash").await;
    super::tables::settled(&h).await;
    assert_eq!(super::tables::column(&h, "serviceType").await, ["Cash"]);
    h.goto("/deposits?sort=amount,asc").await;
    super::tables::settled(&h).await;
    assert_eq!(super::tables::column(&h, "amount").await, ["$90.00", "$200.00"], "sorted by amount");

    h.goto("/deposits?serviceType=Cash").await;
    super::tables::settled(&h).await;
    h.click("tbody tr[data-id]").await;
    h.wait_for_text("[data-testid=deposit-status]", "Cash · $200.00").await;
    assert_eq!(drawn(&h, "memo").await, "Till 3");
    assert_eq!(h.count(".check-images").await, 0, "cash has no check images");
    h.finish().await;
}
