//! `import accounts|permissions FILE`: CSV and JSON, errors with line numbers and fields,
//! all or nothing — through the library and through the real binary, checked over HTTP.

use crate::collections_support;
use crate::common;

use collections_support::fixture_on;
use common::cli;
use common::Backend;
use moneydesk_model::paths::{ACCOUNTS, PERMISSIONS};
use moneydesk_model::Scope;
use moneydesk_server::accounts::import::import_accounts;
use moneydesk_server::collections::records::{Format, ImportError, ImportFailure};
use moneydesk_server::{start, Config};

on_both_backends!(
    csv_accounts_import_exactly_and_read_back,
    errors_name_lines_and_fields_and_nothing_is_written,
    json_arrays_and_json_lines_report_the_records_lines,
    the_old_zipcode_names_load_on_import_only
);

/// `billingZipcode` in the description's name (2.6), `mailingPostalCode` in the name files
/// exported before it: both load.
const GOOD_CSV: &str = "\
id,accountName,accountType,accountStatus,marketValue,createTime,tin,billingStreet,billingCity,billingState,billingZipcode,billingCountry,mailingPostalCode,accountEmail,subRoutingNumber
imp001,\"Quay Street Bakery, LLC\",Corporate_Client,Active,1284350.27,2023-09-22T03:16:48.936,12-3454821,12 Quay St,Portland,ME,04101,US,04112,ap@quay.example,021000021
imp002,Rosa Delgado,individual_client,pending,,2023-09-23 08:00,,,,,,,,,
imp003,=HYPERLINK(\"x\"),API_Customer,Closed,0.0001,2024-01-01T00:00:00Z,*****9876,,,,,,,,
";

fn lines(e: &[ImportError]) -> Vec<(usize, Option<&str>)> {
    e.iter().map(|e| (e.line, e.field.as_deref())).collect()
}

fn invalid(r: Result<usize, ImportFailure>) -> Vec<ImportError> {
    match r {
        Err(ImportFailure::Invalid(e)) => e,
        other => panic!("expected errors, got {other:?}"),
    }
}

async fn csv_accounts_import_exactly_and_read_back(backend: Backend) {
    let f = fixture_on(backend, 0).await;
    let db = &f.server.running.state.stores;
    assert_eq!(import_accounts(&db.accounts, GOOD_CSV, Format::Csv).await.unwrap(), 3);
    let (status, body) = f.get(ACCOUNTS, "sort=id").await;
    assert_eq!(status, 200);
    let rows = body["data"]["content"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let a = &rows[0];
    assert_eq!(a["accountName"], "Quay Street Bakery, LLC");
    assert_eq!(a["accountType"], "Corporate_Client");
    assert_eq!(a["marketValue"], "1284350.27");
    assert_eq!(a["createTime"], "2023-09-22T03:16:48.936");
    assert_eq!(a["tin"], "*****4821", "the TIN is masked on the way in");
    assert_eq!(
        (a["billingZipcode"].as_str(), a["mailingZipcode"].as_str(), a["mailingCity"].as_str()),
        (Some("04101"), Some("04112"), None)
    );
    let a = a.as_object().unwrap();
    assert!(!a.contains_key("billingPostalCode") && !a.contains_key("mailingPostalCode"), "read only on import: {a:?}");
    let b = &rows[1];
    assert_eq!((b["accountType"].as_str(), b["accountStatus"].as_str()), (Some("Individual_Client"), Some("Pending")));
    assert!(b["marketValue"].is_null() && b["tin"].is_null());
    assert_eq!(b["createTime"], "2023-09-23T08:00:00.000");
    let c = &rows[2];
    assert_eq!(
        (c["marketValue"].as_str(), c["createTime"].as_str(), c["tin"].as_str()),
        (Some("0.0001"), Some("2024-01-01T00:00:00.000"), Some("*****9876"))
    );
    assert_eq!(c["accountName"], "=HYPERLINK(\"x\")", "stored as given; the portal's CSV export guards cells");
    // Filters and counts see the imported rows.
    let (_, body) = f.get(ACCOUNTS, "accountStatus=Pending").await;
    assert_eq!(body["data"]["totalElements"], 1);
    f.server.running.stop().await;
}

async fn errors_name_lines_and_fields_and_nothing_is_written(backend: Backend) {
    let f = fixture_on(backend, 5).await;
    let db = &f.server.running.state.stores;
    let existing = f.accounts[2].id.clone();
    let csv = format!(
        "id,accountName,accountType,accountStatus,marketValue,createTime,accountEmail,subRoutingNumber\n\
         ok001,Fine Account,Household,Active,10.00,2023-01-01T00:00:00,,\n\
         bad002,,Household,Open,12.5.1,yesterday,not-an-email,123456789\n\
         ok001,Dup In File,Household,Active,,,,\n\
         {existing},Dup In Db,Household,Active,,,,\n\
         \"multi\nline\",Name,Household,Active,1.23456,,,\n"
    );
    let e = invalid(import_accounts(&db.accounts, &csv, Format::Csv).await);
    assert_eq!(
        lines(&e),
        vec![
            (3, Some("accountName")),
            (3, Some("accountStatus")),
            (3, Some("accountEmail")),
            (3, Some("subRoutingNumber")),
            (3, Some("marketValue")),
            (3, Some("createTime")),
            (4, Some("id")),
            (5, Some("id")),
            (6, Some("id")),
            (6, Some("marketValue")),
        ],
        "{e:?}"
    );
    assert!(e[0].to_string().starts_with("line 3: accountName: is required"), "{}", e[0]);
    assert!(e[6].message.contains("line 2"), "{}", e[6]);
    assert_eq!(db.accounts.total().await.unwrap(), 5, "all or nothing");
    let (_, body) = f.get(ACCOUNTS, "").await;
    assert_eq!(body["data"]["totalElements"], 5);

    // A ragged row and an unknown column.
    let e = invalid(
        import_accounts(
            &db.accounts,
            "accountName,accountType,accountStatus\nA,Household,Active\nB,Household\n",
            Format::Csv,
        )
        .await,
    );
    assert_eq!(lines(&e), vec![(3, None)]);
    let e = invalid(import_accounts(&db.accounts, "accountName,balance\nA,1\n", Format::Csv).await);
    assert_eq!(lines(&e), vec![(1, Some("balance"))]);
    assert_eq!(db.accounts.total().await.unwrap(), 5);
    f.server.running.stop().await;
}

async fn json_arrays_and_json_lines_report_the_records_lines(backend: Backend) {
    let f = fixture_on(backend, 0).await;
    let db = &f.server.running.state.stores;
    let json = r#"[
  {"accountName": "One", "accountType": "Household", "accountStatus": "Active", "marketValue": 12345678901234.5678},
  {
    "accountName": "Two",
    "accountType": "Household",
    "accountStatus": true
  },
  {"accountName": "Three", "accountType": "Nope", "accountStatus": "Active", "colour": "red"}
]"#;
    let e = invalid(import_accounts(&db.accounts, json, Format::Json).await);
    assert_eq!(lines(&e), vec![(3, Some("accountStatus")), (8, Some("colour")), (8, Some("accountType"))], "{e:?}");
    let e = invalid(import_accounts(&db.accounts, "[\n {\"accountName\": \"x\",}\n]", Format::Json).await);
    assert_eq!(e[0].line, 2, "{e:?}");
    assert_eq!(db.accounts.total().await.unwrap(), 0);

    let ok = "[{\"accountName\":\"One\",\"accountType\":\"Household\",\"accountStatus\":\"Active\",\"marketValue\":12345678901234.5678}]";
    assert_eq!(import_accounts(&db.accounts, ok, Format::Json).await.unwrap(), 1);
    let (_, body) = f.get(ACCOUNTS, "").await;
    let row = &body["data"]["content"][0];
    assert_eq!(row["marketValue"], "12345678901234.5678", "a JSON number is read from its text, exactly");
    assert!(row["id"].as_str().unwrap().len() == 18, "a generated id like the description's: {}", row["id"]);

    let jsonl = "{\"accountName\":\"A\",\"accountType\":\"Household\",\"accountStatus\":\"Active\"}\n\n{\"accountName\":\"B\",\"accountType\":\"Household\"}\n";
    let e = invalid(import_accounts(&db.accounts, jsonl, Format::Json).await);
    assert_eq!(lines(&e), vec![(3, Some("accountStatus"))]);
    f.server.running.stop().await;
}

/// Files written before the record took the description's names (`billingPostalCode`,
/// `mailingPostalCode`) still load, as `billingZipcode`/`mailingZipcode`; an error about such a
/// column names it as the file does; both names of one field in one record is an error.
async fn the_old_zipcode_names_load_on_import_only(backend: Backend) {
    let f = fixture_on(backend, 0).await;
    let db = &f.server.running.state.stores;
    let long = "9".repeat(21);
    let bad = format!(
        "[{{\"accountName\":\"A\",\"accountType\":\"Household\",\"accountStatus\":\"Active\",\"billingPostalCode\":\"{long}\"}},\n\
         {{\"accountName\":\"B\",\"accountType\":\"Household\",\"accountStatus\":\"Active\",\"mailingPostalCode\":\"1\",\"mailingZipcode\":\"2\"}}]"
    );
    let e = invalid(import_accounts(&db.accounts, &bad, Format::Json).await);
    assert_eq!(lines(&e), vec![(1, Some("billingPostalCode")), (2, Some("mailingPostalCode"))], "{e:?}");
    assert_eq!(db.accounts.total().await.unwrap(), 0);

    let ok = r#"[{"id":"old1","accountName":"Old Export","accountType":"Household","accountStatus":"Active",
 "billingPostalCode":"04101","mailingPostalCode":"04112"}]"#;
    assert_eq!(import_accounts(&db.accounts, ok, Format::Json).await.unwrap(), 1);
    let (_, body) = f.get(ACCOUNTS, "").await;
    let row = body["data"]["content"][0].as_object().unwrap().clone();
    assert_eq!((row["billingZipcode"].as_str(), row["mailingZipcode"].as_str()), (Some("04101"), Some("04112")));
    assert!(!row.contains_key("billingPostalCode") && !row.contains_key("mailingPostalCode"), "{row:?}");
    f.server.running.stop().await;
}

#[tokio::test]
async fn the_cli_imports_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "accountName,accountType,accountStatus\nGood,Household,Active\nBad,Household,Gone\n").unwrap();
    let out = cli(dir.path(), &["import", "accounts", bad.to_str().unwrap()]).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("bad.csv:3: accountStatus: unknown account status \"Gone\""), "{stderr}");
    assert!(stderr.contains("nothing was imported"), "{stderr}");

    let good = dir.path().join("accounts.data");
    std::fs::write(
        &good,
        "[{\"id\":\"cli1\",\"accountName\":\"Good\",\"accountType\":\"Household\",\"accountStatus\":\"Active\"}]",
    )
    .unwrap();
    let out = cli(dir.path(), &["import", "accounts", good.to_str().unwrap()]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Imported 1 accounts"));
    let perms = dir.path().join("p.csv");
    std::fs::write(&perms, "userId,userName,companyId,companyName,scope,grantedBy\nu1,Ann,c1,Acme,admin,Root\n")
        .unwrap();
    let out = cli(dir.path(), &["import", "permissions", perms.to_str().unwrap()]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let server = start(Config::for_tests(dir.path())).await.unwrap();
    let token = server.create_token("t", &[Scope::Admin]).await.unwrap();
    let get = |p: &'static str| {
        let url = format!("{}{p}", server.base_url());
        let token = token.clone();
        async move {
            reqwest::Client::new()
                .get(url)
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .json::<serde_json::Value>()
                .await
                .unwrap()
        }
    };
    let body = get(ACCOUNTS).await;
    assert_eq!(body["data"]["totalElements"], 1);
    assert_eq!(body["data"]["content"][0]["id"], "cli1");
    assert_eq!(get(PERMISSIONS).await["data"]["content"][0]["scope"], "admin");
    server.stop().await;
}
