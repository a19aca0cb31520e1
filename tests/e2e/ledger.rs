//! The ledger in the portal: a check deposited and confirmed shows its postings and hold in the
//! deposit's drawer and its pending balance in the account's drawer; the hold released (the
//! release job run with the books' clock two weeks ahead) raises the available balance; a
//! return file built with our own X9 writer, uploaded on the Ledger page, is matched to the
//! deposit, takes the balance back and charges the returned-item fee. Returns that match no
//! deposit are matched by hand or dismissed with a note, and the day's books still balance.

use moneydesk_e2e::{Config, Harness, Scope};
use moneydesk_model::paths;
use moneydesk_x9::*;
use serde_json::json;

use crate::tables::{api, check_deposit, post};

/// `-$1,234.50` (or `1234.5`) in cents.
fn cents(text: &str) -> i64 {
    let digits: String = text.chars().filter(|c| c.is_ascii_digit() || *c == '.' || *c == '-').collect();
    (digits.parse::<f64>().unwrap_or_else(|_| panic!("not an amount: {text}")) * 100.0).round() as i64
}

/// The text of one of the account drawer's balances.
async fn balance(h: &Harness, which: &str) -> String {
    h.text(&format!("[data-testid=account-books] [data-balance={which}] dd")).await
}

/// The account's row opened on the accounts page, its drawer showing its balances.
async fn open_account(h: &Harness, id: &str, name: &str) {
    // The name's first word finds the row (the filter is "contains").
    let word: String =
        name.split_whitespace().next().unwrap_or_default().chars().filter(char::is_ascii_alphanumeric).collect();
    h.goto(&format!("/accounts?name={word}")).await;
    h.click(&format!("tbody tr[data-id='{id}'] td[data-key=accountName]")).await;
    h.wait_for("[data-testid=account-books] [data-balance=available] dd").await;
    h.wait_for("[data-testid=entries] tbody tr").await;
}

/// An X9.100-187 return file of one returned check: `cents`, our cash letter's sequence
/// number for it (the deposit's id) in the return addendum A.
fn return_file(cents: u64, ours: &str) -> Vec<u8> {
    let (us, them, day) = ("021090028", "011000015", "20260106");
    let mut detail = ReturnRecord {
        on_us: "48200001/1001".into(),
        item_amount: cents,
        return_reason: 'A',
        forward_bundle_date: day.into(),
        ece_institution_item_sequence_number: format!("{:015}", 1),
        ..ReturnRecord::default()
    };
    detail.set_payor_bank_routing(us);
    let a = ReturnAddendumA {
        bofd_routing_number: us.into(),
        bofd_business_date: day.into(),
        bofd_item_sequence_number: format!("{ours:0>15}"),
        payee_name: "SLEEVE".into(),
        ..ReturnAddendumA::default()
    };
    let item = ReturnItem { detail, addenda_a: vec![a], ..ReturnItem::default() };
    let header = FileHeader {
        immediate_destination_routing_number: us.into(),
        immediate_origin_routing_number: them.into(),
        file_creation_date: day.into(),
        file_creation_time: "0930".into(),
        ..FileHeader::default()
    };
    let mut w = Writer::new(Vec::new(), Encoding::Ascii, &header).unwrap();
    w.start_cash_letter(&CashLetterHeader {
        collection_type_indicator: "03".into(),
        destination_routing_number: us.into(),
        ece_institution_routing_number: them.into(),
        cash_letter_business_date: day.into(),
        cash_letter_creation_date: day.into(),
        cash_letter_creation_time: "0930".into(),
        cash_letter_id: "RET1".into(),
        ..CashLetterHeader::default()
    })
    .unwrap();
    w.start_bundle(&BundleHeader {
        collection_type_indicator: "03".into(),
        destination_routing_number: us.into(),
        ece_institution_routing_number: them.into(),
        bundle_business_date: day.into(),
        bundle_creation_date: day.into(),
        bundle_id: "R1".into(),
        ..BundleHeader::default()
    })
    .unwrap();
    w.add_return(&item).unwrap();
    w.finish_bundle().unwrap();
    w.finish_cash_letter(CashLetterControl::default()).unwrap();
    w.finish(FileControl::default()).unwrap()
}

#[tokio::test]
async fn a_deposit_posts_is_released_and_comes_back_returned_with_its_fee() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    let first = api(&h, &token, &format!("{}?size=1", paths::ACCOUNTS)).await["data"]["content"][0].clone();
    let (account, name) =
        (first["id"].as_str().unwrap().to_string(), first["accountName"].as_str().unwrap().to_string());

    // The account before: the drawer's balances, and the row's available balance.
    open_account(&h, &account, &name).await;
    let before = balance(&h, "pending").await;
    let row_available = h.text(&format!("tbody tr[data-id='{account}'] td[data-key=availableBalance]")).await;
    assert_eq!(row_available, balance(&h, "available").await, "the row's available balance is the drawer's");

    // A $500.00 check, made through the API and confirmed in the deposit's drawer.
    let body = check_deposit(&account, "500.00", "1042");
    let (status, made) = post(&h, &token, paths::DEPOSITS_CHECK, body).await;
    assert_eq!(status, 201, "{made}");
    let deposit = made["id"].as_i64().unwrap();
    h.goto("/deposits").await;
    h.click(&format!("tbody tr[data-id='{deposit}']")).await;
    h.wait_for_text("[data-testid=deposit-postings]", "Nothing posted yet").await;
    h.click("[data-move=confirm]").await;
    h.wait_for_text("[data-testid=deposit-postings] .posting[data-kind=deposit_confirmed]", "Deposit confirmed").await;
    h.wait_for_text("[data-testid=deposit-postings] .posting", &format!("sma:{account}:pending")).await;
    h.wait_for_text("[data-testid=deposit-holds]", "On hold").await;
    assert!(h.count("[data-testid=deposit-holds] li[data-state=held]").await >= 1, "the hold's tranches");

    // Pending rose by the check less its fee; available did not (all of it is on hold).
    open_account(&h, &account, &name).await;
    let pending = balance(&h, "pending").await;
    assert_ne!(pending, before, "pending rose");
    let held = balance(&h, "held").await;
    assert_ne!(held, "$0.00", "the check is on hold");
    h.wait_for("[data-testid=holds] tr[data-state=held]").await;
    let available_held = balance(&h, "available").await;

    // Two weeks later by the books' clock, the release job frees the hold.
    let tmp = tempfile::tempdir().unwrap();
    let mut later = Config::for_tests(tmp.path());
    later.ledger.clock_offset_seconds = 14 * 86_400;
    let books = moneydesk_server::ledger::Books::new(&later);
    let released = moneydesk_server::ledger::jobs::release_due(&h.server().state.stores.ledger, &books).await.unwrap();
    assert!(released >= 1, "the hold's tranches are released");
    open_account(&h, &account, &name).await;
    assert_eq!(balance(&h, "held").await, "$0.00");
    assert_eq!(balance(&h, "available").await, pending, "available rose to pending");
    assert_ne!(balance(&h, "available").await, available_held);
    h.wait_for("[data-testid=entries] tbody tr[data-kind=hold_released]").await;

    // Sent in a cash letter (its item sequence number is the deposit's id), then returned.
    let (status, letter) = post(&h, &token, paths::CASH_LETTERS, json!({"depositIds": [deposit]})).await;
    assert_eq!(status, 201, "{letter}");
    let file = tmp.path().join("returns-1.x937");
    std::fs::write(&file, return_file(50_000, &deposit.to_string())).unwrap();
    h.goto("/ledger?view=returns").await;
    h.upload("#returns-file", &file).await;
    h.click("#returns-submit").await;
    h.wait_for_text("[data-testid=returns-result] [data-count=matched]", "1 matched").await;
    h.wait_for("[data-testid=return-items] .return-item[data-state=matched]").await;

    // The balance is back below where it started (the fees stay charged), and the entries
    // show the return with the $15.00 returned-item fee.
    open_account(&h, &account, &name).await;
    h.wait_for("[data-testid=entries] tbody tr[data-kind=deposit_returned]").await;
    let fees = h
        .js(
            "return [...document.querySelectorAll('[data-testid=entries] tr[data-kind=deposit_returned] td')].map(t => t.textContent)",
            vec![],
        )
        .await;
    assert!(fees.as_array().unwrap().iter().any(|t| t == "$15.00"), "the returned-item fee: {fees}");
    let fee = cents(&made["feeApplied"].as_str().map_or_else(|| made["feeApplied"].to_string(), str::to_string));
    assert_eq!(cents(&balance(&h, "pending").await), cents(&before) - fee - 1_500, "pending went back, less the fees");
    h.finish().await;
}

/// Two returned items no deposit of ours matched (their sequence numbers are not our ids):
/// on the Ledger page, one is matched by hand to the deposit it was (the deposit becomes
/// returned) and the other dismissed with a note saying why; the reconciliation view then
/// reads the day's books balanced.
#[tokio::test]
async fn an_unmatched_return_is_matched_by_hand_and_another_dismissed_with_a_note() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    let account = api(&h, &token, &format!("{}?size=1", paths::ACCOUNTS)).await["data"]["content"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let body = check_deposit(&account, "250.00", "1043");
    let (status, made) = post(&h, &token, paths::DEPOSITS_CHECK, body).await;
    assert_eq!(status, 201, "{made}");
    let deposit = made["id"].as_i64().unwrap();
    let actions = paths::DEPOSIT_ACTIONS.replace("{id}", &deposit.to_string());
    let (status, b) = post(&h, &token, &actions, json!({"action": "confirm"})).await;
    assert_eq!(status, 200, "{b}");
    let (status, letter) = post(&h, &token, paths::CASH_LETTERS, json!({"depositIds": [deposit]})).await;
    assert_eq!(status, 201, "{letter}");

    let tmp = tempfile::tempdir().unwrap();
    h.goto("/ledger?view=returns").await;
    for (n, (cents, ours)) in [(25_000, "99999998"), (7_500, "99999999")].into_iter().enumerate() {
        let file = tmp.path().join(format!("returns-{n}.x937"));
        std::fs::write(&file, return_file(cents, ours)).unwrap();
        h.upload("#returns-file", &file).await;
        h.click("#returns-submit").await;
        h.wait_for_text("[data-testid=returns-result] [data-count=unmatched]", "1 unmatched").await;
    }
    h.wait_js(
        "document.querySelectorAll('[data-testid=return-items] .return-item[data-state=unmatched]').length === 2",
        "two unmatched items",
    )
    .await;
    let ids = h
        .js(
            "return [...document.querySelectorAll('.return-item[data-state=unmatched]')].map(a => [a.dataset.id, a.textContent])",
            vec![],
        )
        .await;
    let id_of = |amount: &str| {
        let all = ids.as_array().unwrap();
        let item = all.iter().find(|i| i[1].as_str().unwrap().contains(amount)).unwrap_or_else(|| panic!("{ids}"));
        item[0].as_str().unwrap().to_string()
    };
    let (ours, not_ours) = (id_of("$250.00"), id_of("$75.00"));

    // Matched by hand: the item resolved, the deposit returned.
    h.type_into(&format!("#return-deposit-{ours}"), &deposit.to_string()).await;
    h.click(&format!(".return-item[data-id='{ours}'] button[type=submit]")).await;
    h.wait_for(&format!(".return-item[data-id='{ours}'][data-state=resolved]")).await;
    let record = api(&h, &token, &paths::DEPOSIT.replace("{id}", &deposit.to_string())).await;
    let status = record["data"]["record"]["status"].as_str().unwrap_or_default();
    assert!(status.starts_with("Returned"), "the deposit is returned: {record}");

    // Dismissed: the button says so once only a note is given; the note stays on the item.
    h.type_into(&format!("#return-note-{not_ours}"), "Not ours: presented twice by the payor bank").await;
    h.wait_for_text(&format!(".return-item[data-id='{not_ours}'] button[type=submit]"), "Dismiss").await;
    h.click(&format!(".return-item[data-id='{not_ours}'] button[type=submit]")).await;
    h.wait_for(&format!(".return-item[data-id='{not_ours}'][data-state=dismissed]")).await;
    h.wait_for_text(&format!(".return-item[data-id='{not_ours}']"), "presented twice").await;

    // The day's books, read again: balanced (no "unbalanced" notice), the lines shown.
    h.goto("/ledger?view=reconciliation").await;
    h.wait_for("[data-testid=recon-lines] tbody tr[data-code]").await;
    assert_eq!(h.count(".reconciliation .notice").await, 0, "the books balance");
    h.finish().await;
}
