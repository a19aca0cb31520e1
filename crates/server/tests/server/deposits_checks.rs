//! Every modern US check front of ../shared/data/checks/full goes through scan → deposit with
//! exactly the fields the scan answered (issue 44, point 5), on both backends, the server
//! reading the Fed's FedACH sample. Modern US fronts, from that folder's SOURCE.md: 01 (moov),
//! 02 (finos), 04 (Citibank West check 1005), 07 (Deluxe sample) and 08 (blank template).
//! Left out: 03 is a Canadian cheque (transit 00005-123, not an ABA number), 05 a 1958 check
//! (four-square transit symbol, no routing number) and 06 a 1975 check (pre-9-digit transit
//! 0540-0004). Each modern front is either deposited, or refused with the honest error the test
//! names and explains. The moov check's account, printed `1211-1234-56789`, is kept as printed
//! in the record, in the cash letter's on-us field (as moov's own X9 file has it) and in an ACH
//! file, and duplicate presentment compares its digits only.

use crate::common;

use std::path::PathBuf;

use base64::Engine;
use common::{json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use serde_json::{json, Map, Value};

/// What depositing a front as scanned answers.
enum Expect {
    /// 201 with this account and check number in the record.
    Created { account: &'static str, check_number: Option<&'static str> },
    /// A 400 naming `field`, its problem containing `says`, for the reason `because`.
    Refused { field: &'static str, says: &'static str, because: &'static str },
}

/// The fronts, each scanned for `amount` (its MICR amount when it has one; moov's X9 item
/// amount for 01).
const FRONTS: [(&str, &str, Expect); 5] = [
    ("01_moov_x9_check_front.tif", "100.00", Expect::Created { account: "1211-1234-56789", check_number: None }),
    (
        "02_finos_sample_check.png",
        "100.00",
        Expect::Refused {
            field: "bankRoutingNumber",
            says: "checksum",
            because: "its printed routing number 011234567 fails the ABA checksum (the scan says routingValid false)",
        },
    ),
    (
        "04_wikimedia_check1005_calfed.jpg",
        "4.19",
        Expect::Refused {
            field: "bankAccountNumber",
            says: "as printed",
            because: "its account is blacked out in the source picture: the scan reads *4192580, marked uncertain",
        },
    ),
    (
        "07_tmannherz_check1_deluxe_sample.jpg",
        "100.00",
        Expect::Refused {
            field: "bankRoutingNumber",
            says: "not in the FedACH directory",
            because: "it is a marketing sample: 000067894 passes the checksum but is no bank",
        },
    ),
    (
        "08_tmannherz_check2_blank.jpg",
        "100.00",
        Expect::Refused {
            field: "bankRoutingNumber",
            says: "checksum",
            because: "its printed routing number 000000186 fails the ABA checksum",
        },
    ),
];

fn shared(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data").join(path)
}

struct Desk {
    server: Server,
    writer: String,
    admin: String,
    sleeve: Account,
}

async fn desk(backend: Backend) -> Desk {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let server = Server::start_in_dir(dir, move |c| {
        c.database_url = url;
        c.fedach_file = Some(shared("routing/FedACHdir.txt"));
    })
    .await;
    let accounts: Vec<Account> = Accounts::new(1, 23).collect();
    let mut w = server.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let writer = server.token(&[Scope::DepositsRead, Scope::DepositsWrite]).await;
    let admin = server.token(&[Scope::Admin]).await;
    Desk { server, writer, admin, sleeve: accounts[0].clone() }
}

async fn post(d: &Desk, token: &str, path: &str, body: &Value) -> (u16, Value) {
    let r = d.server.client.post(d.server.url(path)).bearer_auth(token).json(body).send().await.unwrap();
    (r.status().as_u16(), json(r).await)
}

/// The deposit a client makes from a scan's answer: its id and amount, and the routing
/// number, account and check number the MICR line gave (each only when it gave one).
fn deposit_from(scan: &Value, payee: &str) -> Value {
    let micr = &scan["micr"];
    let mut body = Map::new();
    body.insert("scanId".into(), scan["scanId"].clone());
    body.insert("amount".into(), scan["amount"].clone());
    for (field, read) in
        [("bankRoutingNumber", "routingNumber"), ("bankAccountNumber", "accountNumber"), ("checkNumber", "checkNumber")]
    {
        if let Some(value) = micr[read]["value"].as_str() {
            body.insert(field.into(), json!(value));
        }
    }
    body.insert("payeeAccountId".into(), json!(payee));
    body.insert("payeeUserId".into(), json!("usr_0001"));
    Value::Object(body)
}

on_both_backends!(every_modern_us_front_is_deposited_as_scanned_or_refused_for_its_stated_reason);

async fn every_modern_us_front_is_deposited_as_scanned_or_refused_for_its_stated_reason(backend: Backend) {
    let d = desk(backend).await;
    let scan_path = paths::DEPOSITS_CHECK_SCAN.replace("{smaSfid}", &d.sleeve.id);
    let mut moov = None;
    for (file, amount, expect) in &FRONTS {
        let front = base64::engine::general_purpose::STANDARD
            .encode(std::fs::read(shared(&format!("checks/full/{file}"))).unwrap());
        let (status, scanned) =
            post(&d, &d.writer, &scan_path, &json!({"amount": amount, "frontimage": front, "rearimage": front})).await;
        assert_eq!(status, 200, "{file}: {scanned}");
        let scan = &scanned["data"];
        assert!(scan["micr"].is_object(), "{file}: a MICR line was read: {scan}");
        let body = deposit_from(scan, &d.sleeve.id);
        let (status, answer) = post(&d, &d.writer, paths::DEPOSITS_CHECK, &body).await;
        match expect {
            Expect::Created { account, check_number } => {
                assert_eq!(status, 201, "{file} is deposited as scanned: {body} → {answer}");
                assert_eq!(answer["fullBankAccountNumber"], *account, "{file}: kept as printed");
                assert_eq!(answer["checkNumber"].as_str(), *check_number, "{file}");
                assert_eq!(answer["sleeveAccountId"], d.sleeve.id);
                moov = Some((answer["id"].as_i64().unwrap(), body));
            }
            Expect::Refused { field, says, because } => {
                assert_eq!(status, 400, "{file} is refused because {because}: {answer}");
                assert_eq!(answer["errors"][0]["field"], *field, "{file}: {because}: {answer}");
                let problem = answer["errors"][0]["problem"].as_str().unwrap();
                assert!(problem.contains(says), "{file}: {because}: {problem}");
            }
        }
    }
    let (id, body) = moov.expect("the moov check was deposited");
    the_printed_account_is_compared_by_its_digits(&d, &body).await;
    the_cash_letter_keeps_the_account_as_printed(&d, id).await;
}

/// The same check with its account written with spaces instead of dashes is a second
/// presentment of it.
async fn the_printed_account_is_compared_by_its_digits(d: &Desk, moov: &Value) {
    let mut again = json!({
        "amount": moov["amount"], "bankRoutingNumber": "122000661", "bankAccountNumber": "1211 1234 56789",
        "payeeAccountId": d.sleeve.id, "payeeUserId": "usr_0001",
        "checkFrontImage": common::check_png(3), "checkBackImage": common::check_png(4),
    });
    // Without a scan the check number is required; the moov check's is 1211, printed, not in
    // its MICR line, so the first deposit has none: this one is compared with a second, below.
    again["checkNumber"] = json!("1211");
    let (status, first) = post(d, &d.writer, paths::DEPOSITS_CHECK, &again).await;
    assert_eq!(status, 201, "a check number makes it another item: {first}");
    again["bankAccountNumber"] = json!("121112-3456789");
    let (status, e) = post(d, &d.writer, paths::DEPOSITS_CHECK, &again).await;
    assert_eq!(status, 409, "{e}");
    assert_eq!(e["reason"], "duplicate_presentment", "{e}");
    assert!(e["errorMessage"].as_str().unwrap().contains(&format!("deposit {}", first["id"])), "{e}");
}

/// The deposit confirmed and sent in a cash letter: its on-us field is the account as
/// printed and the on-us symbol, exactly what moov's own X9 file of this check holds; and an
/// ACH entry takes the account as printed too.
async fn the_cash_letter_keeps_the_account_as_printed(d: &Desk, id: i64) {
    let actions = paths::DEPOSIT_ACTIONS.replace("{id}", &id.to_string());
    let (status, moved) = post(d, &d.writer, &actions, &json!({"action": "confirm"})).await;
    assert_eq!(status, 200, "{moved}");
    let today = chrono::Utc::now().with_timezone(&chrono_tz::America::New_York).date_naive().to_string();
    let (status, made) = post(d, &d.admin, paths::CASH_LETTERS, &json!({"businessDate": today})).await;
    assert_eq!(status, 201, "{made}");
    let letter = made["data"]["id"].as_i64().unwrap();
    let r = d.server.get_auth(&paths::CASH_LETTER_FILE.replace("{id}", &letter.to_string()), &d.writer).await;
    let (ours, problems) = moneydesk_x9::read_file(&r.bytes().await.unwrap());
    assert!(problems.iter().all(|p| p.severity != moneydesk_x9::Severity::Error), "{problems:#?}");
    let moovs = std::fs::read(shared("checks/full/01_moov_valid-ascii.x937")).unwrap();
    let (theirs, _) = moneydesk_x9::read_file(&moovs);
    let ours = ours.items().find(|i| i.detail.payor_bank_routing() == "122000661").expect("the moov check");
    let theirs = theirs.items().next().expect("moov's item");
    assert_eq!(ours.detail.on_us.trim(), "1211-1234-56789/");
    assert_eq!(ours.detail.on_us.trim(), theirs.detail.on_us.trim(), "as moov's own file has it");

    let date = moneydesk_nacha::Date::from_ymd(2026, 11, 30).unwrap();
    let mut builder = moneydesk_nacha::FileBuilder::new(moneydesk_nacha::FileInfo::new("122000661", "021000021", date));
    let batch = moneydesk_nacha::BatchInfo::new(
        moneydesk_nacha::Sec::Ccd,
        "MONEYDESK",
        "1234567890",
        "DEPOSIT",
        date,
        "021000021",
    );
    let entry = moneydesk_nacha::EntryInfo::new(
        moneydesk_nacha::TransactionCode::CheckingDebit,
        "122000661",
        "1211-1234-56789",
        10_000,
        "MOOV SAMPLE",
    );
    builder.batch(batch, vec![entry]);
    let text = moneydesk_nacha::write(&builder.build().unwrap()).unwrap();
    let parsed = moneydesk_nacha::parse_bytes(text.as_bytes());
    assert!(parsed.is_valid(), "{:?}", parsed.problems);
    let file = parsed.file.unwrap();
    let (_, entry) = file.entries().next().unwrap();
    assert_eq!(entry.detail.dfi_account_number.trim_end(), "1211-1234-56789", "the ACH file keeps it as printed");
}
