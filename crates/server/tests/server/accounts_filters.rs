//! Accounts filters (alone, combined, with sorts, deep pages) and the 400s that name the
//! parameter (the permissions list's too), and the document of both lists — over real HTTP.

use crate::collections_support;
use crate::common;

use collections_support::{assert_names, fixture, fixture_on, reference, N};
use common::Backend;
use moneydesk_model::accounts::Account;
use moneydesk_model::collections::LocalDateTime;
use moneydesk_model::paths::{ACCOUNTS, PERMISSIONS};
use serde_json::json;

on_both_backends!(
    filters_alone_and_combined_match_a_reference_under_sorts,
    a_deep_filtered_page_is_the_right_slice,
    changes_made_behind_the_servers_back_are_still_paged_right,
    bad_parameters_are_400s_naming_the_parameter
);

fn ms(s: &str) -> i64 {
    LocalDateTime::parse(s).unwrap().millis()
}

async fn filters_alone_and_combined_match_a_reference_under_sorts(backend: Backend) {
    let f = fixture_on(backend, N).await;
    type Keep = Box<dyn Fn(&Account) -> bool>;
    let cases: Vec<(&str, Keep)> = vec![
        ("accountStatus=Active", Box::new(|a| a.account_status.as_str() == "Active")),
        ("accountStatus=closed", Box::new(|a| a.account_status.as_str() == "Closed")),
        ("accountType=Individual_Client", Box::new(|a| a.account_type.as_str() == "Individual_Client")),
        (
            "accountStatus=Active&accountType=Corporate_Client",
            Box::new(|a| a.account_status.as_str() == "Active" && a.account_type.as_str() == "Corporate_Client"),
        ),
        ("name=HARBOR", Box::new(|a| a.account_name.to_lowercase().contains("harbor"))),
        ("name=o%27c", Box::new(|a| a.account_name.to_lowercase().contains("o'c"))),
        // Two characters: too short for the trigram index, scanned.
        ("name=Ar", Box::new(|a| a.account_name.to_lowercase().contains("ar"))),
        (
            "createTimeFrom=2023-01-01&createTimeTo=2023-06-30",
            Box::new(|a| (ms("2023-01-01T00:00")..ms("2023-07-01T00:00")).contains(&a.create_time.millis())),
        ),
        ("createTimeFrom=2024-02-10T12:30:00", Box::new(|a| a.create_time.millis() >= ms("2024-02-10T12:30"))),
        ("createTimeTo=2022-03-01", Box::new(|a| a.create_time.millis() < ms("2022-03-02T00:00"))),
        (
            "accountStatus=Active&createTimeFrom=2022-06-01&createTimeTo=2023-12-31",
            Box::new(|a| {
                a.account_status.as_str() == "Active"
                    && (ms("2022-06-01T00:00")..ms("2024-01-01T00:00")).contains(&a.create_time.millis())
            }),
        ),
        (
            "accountType=Household&name=family&createTimeFrom=2023-01-01",
            Box::new(|a| {
                a.account_type.as_str() == "Household"
                    && a.account_name.to_lowercase().contains("family")
                    && a.create_time.millis() >= ms("2023-01-01T00:00")
            }),
        ),
        ("accountStatus=&accountType=&name=", Box::new(|_| true)),
    ];
    // Wildcards and quotes are plain characters to the filter ("h_rbor" is not "harbor"),
    // whether the trigram index answers (three characters or more) or a scan.
    for (q, literal) in [
        ("name=%25", "%"),
        ("name=_", "_"),
        ("name=har%25", "har%"),
        ("name=h_rbor", "h_rbor"),
        ("name=%22", "\""),
        ("name=o%22c", "o\"c"),
        ("name=%22harbor%22", "\"harbor\""),
        ("name=harbor%20OR%20family", "harbor or family"),
        ("name=har*", "har*"),
    ] {
        let keep = |a: &Account| a.account_name.to_lowercase().contains(literal);
        assert_eq!(f.walk(ACCOUNTS, q, 41, "id").await, reference(&f.accounts, None, false, keep), "{q}");
    }
    for (q, keep) in &cases {
        let want_count = f.accounts.iter().filter(|a| keep(a)).count();
        assert!(want_count > 0, "{q} matches nothing in the fixture");
        for (sort, field, desc) in [
            ("", None, false),
            ("sort=createTime,desc", Some("createTime"), true),
            ("sort=accountName", Some("accountName"), false),
            ("sort=marketValue,desc", Some("marketValue"), true),
        ] {
            let got = f.walk(ACCOUNTS, &format!("{q}&{sort}"), 41, "id").await;
            assert_eq!(got, reference(&f.accounts, field, desc, keep), "{q}&{sort}");
        }
    }
    f.server.running.stop().await;
}

async fn a_deep_filtered_page_is_the_right_slice(backend: Backend) {
    let f = fixture_on(backend, N).await;
    let keep = |a: &Account| a.account_status.as_str() == "Active";
    let want = reference(&f.accounts, Some("accountName"), true, keep);
    for page in [1, 20, 29, 30] {
        let (status, body) =
            f.get(ACCOUNTS, &format!("accountStatus=Active&sort=accountName,desc&size=29&page={page}")).await;
        assert_eq!(status, 200);
        let ids: Vec<String> =
            body["data"]["content"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_string()).collect();
        let from = (page - 1) * 29;
        assert_eq!(ids, want.iter().skip(from).take(29).cloned().collect::<Vec<_>>(), "page {page}");
        assert_eq!(body["data"]["totalElements"], want.len());
    }
    f.server.running.stop().await;
}

async fn changes_made_behind_the_servers_back_are_still_paged_right(backend: Backend) {
    let f = fixture_on(backend, N).await;
    // Out-of-band edits leave the marks stale: the server must notice and still be right.
    let db = &f.server.running.state.stores.database;
    db.execute("UPDATE accounts SET status_code = 4 WHERE seq % 7 = 0").await.unwrap();
    db.execute("DELETE FROM accounts WHERE seq % 11 = 0").await.unwrap();
    let mut expected: Vec<Account> = Vec::new();
    for (i, a) in f.accounts.iter().enumerate() {
        let seq = i + 1;
        if seq % 11 == 0 {
            continue;
        }
        let mut a = a.clone();
        if seq % 7 == 0 {
            a.account_status = moneydesk_model::accounts::AccountStatus::Suspended;
        }
        expected.push(a);
    }
    let keep = |a: &Account| a.account_status.as_str() == "Suspended";
    let got = f.walk(ACCOUNTS, "accountStatus=Suspended&sort=createTime,desc", 33, "id").await;
    assert_eq!(got, reference(&expected, Some("createTime"), true, keep));
    assert_eq!(f.walk(ACCOUNTS, "sort=id", 250, "id").await, reference(&expected, Some("id"), false, |_| true));
    // After a rebuild the marks are used again, with the same answers.
    f.server.running.state.stores.accounts.rebuild_marks().await.unwrap();
    let got = f.walk(ACCOUNTS, "accountStatus=Suspended&sort=createTime,desc", 33, "id").await;
    assert_eq!(got, reference(&expected, Some("createTime"), true, keep));
    // The name index follows deletes and renames too.
    db.execute(
        "UPDATE accounts SET account_name = 'Zebra Quay ' || seq, name_key = 'zebra quay ' || seq WHERE seq % 13 = 0",
    )
    .await
    .unwrap();
    for (i, a) in f.accounts.iter().enumerate().filter(|(i, _)| (i + 1) % 11 != 0) {
        let e = expected.iter_mut().find(|e| e.id == a.id).unwrap();
        if (i + 1) % 13 == 0 {
            e.account_name = format!("Zebra Quay {}", i + 1);
        }
    }
    for term in ["zebra%20quay", "harbor", "family"] {
        let word = term.replace("%20", " ");
        let keep = |a: &Account| a.account_name.to_lowercase().contains(&word);
        let want = reference(&expected, None, false, keep);
        assert!(!want.is_empty(), "{term}");
        assert_eq!(f.walk(ACCOUNTS, &format!("name={term}"), 97, "id").await, want, "{term}");
    }
    f.server.running.stop().await;
}

async fn bad_parameters_are_400s_naming_the_parameter(backend: Backend) {
    let f = fixture_on(backend, 20).await;
    for (q, param) in [
        ("page=abc", "page"),
        ("page=-1", "page"),
        ("page=1.5", "page"),
        ("size=0", "size"),
        ("size=-5", "size"),
        ("size=ten", "size"),
        ("per=0", "per"),
        ("limit=1.5", "limit"),
        ("size=10&per=20", "size"),
        ("sort=balance", "sort"),
        ("sort=accountName,sideways", "sort"),
        ("sort=id&sort=accountName", "sort"),
        ("accountStatus=Open", "accountStatus"),
        ("accountType=Business", "accountType"),
        ("createTimeFrom=last+week", "createTimeFrom"),
        ("createTimeTo=2024-02-30", "createTimeTo"),
        ("createTimeFrom=2024-03-01&createTimeTo=2024-02-01", "createTimeTo"),
        ("accountStatus=Active&accountStatus=Closed", "accountStatus"),
        ("colour=blue", "colour"),
    ] {
        let (status, body) = f.get(ACCOUNTS, q).await;
        assert_names(status, &body, param);
    }
    let long = "x".repeat(101);
    let (status, body) = f.get(ACCOUNTS, &format!("name={long}")).await;
    assert_names(status, &body, "name");
    for (q, param) in [("scope=root", "scope"), ("sort=password", "sort"), ("role=admin", "role"), ("size=abc", "size")]
    {
        let (status, body) = f.get(PERMISSIONS, q).await;
        assert_names(status, &body, param);
    }
    f.server.running.stop().await;
}

#[tokio::test]
async fn openapi_documents_the_records_and_parameters() {
    let f = fixture(1).await;
    let body = collections_support_doc(&f).await;
    let schemas = &body["components"]["schemas"];
    for field in ["createTime", "marketValue", "billingZipcode", "mailingCountry", "tin", "recordTypeId"] {
        assert!(schemas["Account"]["properties"].get(field).is_some(), "Account.{field}");
    }
    for field in ["userId", "userName", "companyName", "scope", "grantedBy", "grantedAt"] {
        assert!(schemas["Permission"]["properties"].get(field).is_some(), "Permission.{field}");
    }
    let params = |path: &str| -> Vec<String> {
        body["paths"][path]["get"]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_string())
            .collect()
    };
    let a = params(ACCOUNTS);
    for p in [
        "page",
        "size",
        "per",
        "limit",
        "sort",
        "accountStatus",
        "accountType",
        "name",
        "createTimeFrom",
        "createTimeTo",
    ] {
        assert!(a.contains(&p.to_string()), "accounts param {p}: {a:?}");
    }
    let p = params(PERMISSIONS);
    for q in ["sort", "user", "scope", "companyId"] {
        assert!(p.contains(&q.to_string()), "permissions param {q}");
    }
    assert_eq!(body["paths"][ACCOUNTS]["get"]["security"], json!([{"bearer": ["accounts:read"]}]));
    assert_eq!(body["paths"][PERMISSIONS]["get"]["security"], json!([{"bearer": ["permissions:read"]}]));
    f.server.running.stop().await;
}

async fn collections_support_doc(f: &collections_support::Fixture) -> serde_json::Value {
    let resp = f.server.get(moneydesk_model::paths::OPENAPI).await;
    common::json(resp).await
}
