//! The Fees page: quotes for ACH and wire as the amount is typed, the amount's tier
//! highlighted in the schedule, the chart's marker following the amount, the state in the URL.

use moneydesk_e2e::{Harness, Scope};

async fn signed_in_at(path: &str) -> Harness {
    let h = Harness::start().await;
    let token = h.token(&[Scope::FeesRead]).await;
    h.sign_in(&token).await;
    h.goto(path).await;
    h.wait_for_text("main h1", "Fee schedules").await;
    h
}

/// The chart marker's x position, as the page drew it.
async fn marker_x(h: &Harness) -> f64 {
    let el = h.wait_for("[data-testid=fee-chart-marker]").await;
    let x = el.attr("data-x").await.unwrap().expect("the marker has data-x");
    x.parse().unwrap_or_else(|e| panic!("data-x {x:?}: {e}"))
}

#[tokio::test]
async fn an_ach_fee_is_quoted_as_the_amount_is_typed_with_its_tier_and_marker() {
    let h = signed_in_at("/fees").await;
    h.wait_for_text("[data-testid=fee-schedule] caption", "Standard ACH (EFT)").await;
    // Letters are refused on the spot; digits are grouped as money.
    h.type_into("#fee-amount", "5000x").await;
    h.wait_for_text("#fee-amount-refused", "Only digits").await;
    assert_eq!(h.wait_for("#fee-amount").await.prop("value").await.unwrap().as_deref(), Some("5,000"));
    h.wait_for_text("[data-testid=fee-amount-parsed]", "$5,000.00").await;
    let quote = h.wait_for_text("[data-testid=fee-quote]", "5.25").await;
    assert!(quote.contains("$5,005.25"), "the total to pay: {quote}");
    assert!(quote.contains("ACH standard, 1,000.00 to 9,999.99: 0.25 + 0.10 %, max 25.00"), "{quote}");
    let current = h.text("[data-testid=fee-tier].current").await;
    assert!(current.contains("1,000.00 to 9,999.99"), "the highlighted tier: {current}");
    let at_5000 = marker_x(&h).await;
    assert!(h.url().await.query().unwrap_or("").contains("amount=5000"), "the amount is in the URL");

    // A bigger amount: another tier (0.05 % of 250,000 = 125.00, capped at 50.00), and the
    // marker moves right.
    h.type_into("#fee-amount", "250000").await;
    let quote = h.wait_for_text("[data-testid=fee-quote]", "$50.00").await;
    assert!(quote.contains("$250,050.00"), "{quote}");
    let current = h.text("[data-testid=fee-tier].current").await;
    assert!(current.contains("10,000.00 and above"), "{current}");
    let at_250000 = marker_x(&h).await;
    assert!(at_250000 > at_5000 + 50.0, "the marker moved from {at_5000} to {at_250000}");

    // A tier edge reads out by keyboard focus.
    h.js("document.querySelector('.tier-edge').focus()", vec![]).await;
    h.wait_for_text("[data-testid=fee-chart-readout]", "From $1,000.00").await;
    h.finish().await;
}

#[tokio::test]
async fn a_wire_fee_is_quoted_and_the_choice_survives_a_reload() {
    let h = signed_in_at("/fees").await;
    h.click("#fees-rail-wire").await;
    h.wait_for_text("[data-testid=fee-schedule] caption", "Domestic wire").await;
    h.select("#fee-transfer-type", "INTERNATIONAL_WIRE").await;
    h.wait_for_text("[data-testid=fee-schedule] caption", "International wire").await;
    h.type_into("#fee-amount", "20000").await;
    let quote = h.wait_for_text("[data-testid=fee-quote]", "$65.00").await;
    assert!(quote.contains("$85.00"), "standard: 45 + 0.10 % of 20,000 = 65; express 65 + 20 = 85: {quote}");
    let url = h.url().await;
    assert_eq!(url.query(), Some("rail=wire&type=INTERNATIONAL_WIRE&amount=20000"));
    h.reload().await;
    h.wait_for_text("[data-testid=fee-quote]", "$65.00").await;
    assert_eq!(h.wait_for("#fee-amount").await.prop("value").await.unwrap().as_deref(), Some("20,000"));
    h.finish().await;
}

/// Puts a schedule version in force: the default with `acme-payroll`'s own EFT tier and a
/// waiver for `city-food-bank`, stored as `fees load` stores one (effective from a day after
/// the default, long past: in force at once).
async fn with_payers(h: &Harness) {
    use moneydesk_server::fees::{parse_schedule_text, Format};
    const FROM: &str = "2026-01-02T00:00:00Z";
    let text = moneydesk_model::fees::DEFAULT_SCHEDULE_TOML.replace("2026-01-01T00:00:00Z", FROM)
        + "[[payer_schedules]]\npayer_id = \"acme-payroll\"\n[[payer_schedules.fees]]\nrail = \"ach\"\n\
           transfer_type = \"EFT\"\nfee_type = \"standard\"\nfrom = \"0.00\"\nflat = \"0.10\"\n\
           [[waivers]]\npayer_id = \"city-food-bank\"\nreason = \"Non-profit\"\n";
    let schedule = parse_schedule_text(&text, Format::Toml).expect("the schedule is valid");
    let fees = &h.server().state.fees;
    fees.store.put(&schedule, "e2e", FROM).await.expect("stored").expect("a new version");
    fees.versions.reload(&fees.store).await.expect("reloaded");
}

#[tokio::test]
async fn a_payer_is_sent_with_the_quote_and_its_waiver_or_own_schedule_is_shown() {
    let h = Harness::start().await;
    with_payers(&h).await;
    let token = h.token(&[Scope::FeesRead]).await;
    h.sign_in(&token).await;
    h.goto("/fees").await;
    h.wait_for_text("main h1", "Fee schedules").await;
    h.type_into("#fee-amount", "5000").await;
    h.wait_for_text("[data-testid=fee-quote]", "$5.25").await;

    // A waived payer: every fee 0.00, and the page says why.
    h.type_into("#fee-payer", "city-food-bank").await;
    h.wait_for_text("[data-testid=fee-pricing]", "Fees waived for payer city-food-bank: Non-profit.").await;
    let quote = h.text("[data-testid=fee-quote]").await;
    assert!(quote.contains("$0.00") && !quote.contains("$5.25"), "{quote}");
    assert!(h.url().await.query().unwrap_or("").contains("payer=city-food-bank"), "the payer is in the URL");

    // A payer with its own schedule: its tier, in the quote and in the schedule table.
    h.type_into("#fee-payer", "acme-payroll").await;
    h.wait_for_text("[data-testid=fee-pricing]", "Priced by payer acme-payroll's own fee schedule.").await;
    h.wait_for_text("[data-testid=fee-quote]", "$0.10").await;
    h.wait_for_text("[data-testid=fee-schedule] caption", "of payer acme-payroll").await;

    // Anybody else: the schedule's own price, and no note.
    h.type_into("#fee-payer", "somebody-else").await;
    h.wait_for_text("[data-testid=fee-quote]", "$5.25").await;
    assert_eq!(h.count("[data-testid=fee-pricing]").await, 0, "no note for the schedule's own price");
    h.finish().await;
}
