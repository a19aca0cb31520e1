//! The permissions list over real HTTP (sort, filters, its last page) and its import (scopes
//! checked, a scope already held refused), on both backends.

use crate::collections_support;
use crate::common;

use collections_support::fixture_on;
use common::Backend;
use moneydesk_model::paths::PERMISSIONS;
use moneydesk_server::collections::records::{Format, ImportError, ImportFailure};
use moneydesk_server::permissions::import::import_permissions;
use serde_json::json;

on_both_backends!(permissions_page_sort_and_filter, permissions_import_checks_scopes_and_duplicates);

fn lines(e: &[ImportError]) -> Vec<(usize, Option<&str>)> {
    e.iter().map(|e| (e.line, e.field.as_deref())).collect()
}

fn invalid(r: Result<usize, ImportFailure>) -> Vec<ImportError> {
    match r {
        Err(ImportFailure::Invalid(e)) => e,
        other => panic!("expected errors, got {other:?}"),
    }
}

async fn permissions_page_sort_and_filter(backend: Backend) {
    let f = fixture_on(backend, 10).await;
    let (status, body) = f.get(PERMISSIONS, "").await;
    assert_eq!(status, 200, "{body}");
    let p = &body["data"];
    assert_eq!(
        (p["totalElements"].as_u64(), p["totalPages"].as_u64(), p["size"].as_u64()),
        (Some(300), Some(30), Some(10))
    );
    let first = &p["content"][0];
    for k in ["id", "userId", "userName", "userEmail", "companyId", "companyName", "scope", "grantedBy", "grantedAt"] {
        assert!(!first[k].is_null(), "{k}: {first}");
    }
    assert_eq!(first["scope"], "admin");
    assert_eq!(first["grantedBy"], "System bootstrap");

    let ids = f.walk(PERMISSIONS, "", 7, "id").await;
    assert_eq!(ids.len(), 300);
    assert!(ids.windows(2).all(|w| w[0].parse::<i64>().unwrap() < w[1].parse::<i64>().unwrap()));
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(unique.len(), 300);

    for (sort, key) in [
        ("userName", "userName"),
        ("grantedAt", "grantedAt"),
        ("companyName", "companyName"),
        ("scope", "scope"),
        ("grantedBy", "grantedBy"),
        ("userId", "userId"),
    ] {
        for dir in ["asc", "desc"] {
            let vals = f.walk(PERMISSIONS, &format!("sort={sort},{dir}"), 45, key).await;
            assert_eq!(vals.len(), 300, "{sort}");
            let lower: Vec<String> = vals.iter().map(|v| v.to_lowercase()).collect();
            let ordered = if dir == "asc" {
                lower.windows(2).all(|w| w[0] <= w[1])
            } else {
                lower.windows(2).all(|w| w[0] >= w[1])
            };
            assert!(ordered, "sort={sort},{dir}");
            let ids = f.walk(PERMISSIONS, &format!("sort={sort},{dir}"), 45, "id").await;
            let mut sorted = ids.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), 300, "no repeats under sort={sort},{dir}");
        }
    }

    let (_, body) = f.get(PERMISSIONS, "scope=deposits:write&size=500").await;
    let rows = body["data"]["content"].as_array().unwrap();
    assert!(!rows.is_empty() && rows.iter().all(|r| r["scope"] == "deposits:write"));
    assert_eq!(body["data"]["totalElements"], rows.len());

    let (_, body) = f.get(PERMISSIONS, "user=usr_0012&size=500").await;
    let rows = body["data"]["content"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    assert!(rows.iter().all(|r| r["userId"] == "usr_0012"));
    let name = rows[0]["userName"].as_str().unwrap().to_string();
    let part = name.split(' ').next_back().unwrap().to_uppercase();
    let (_, body) = f.get(PERMISSIONS, &format!("user={part}&companyId=cmp_002&size=500")).await;
    let rows = body["data"]["content"].as_array().unwrap();
    assert!(rows.iter().any(|r| r["userId"] == "usr_0012"));
    assert!(rows
        .iter()
        .all(|r| r["companyId"] == "cmp_002" && r["userName"].as_str().unwrap().to_uppercase().contains(&part)));

    let (_, body) = f.get(PERMISSIONS, "page=31").await;
    assert_eq!((body["data"]["content"].clone(), body["data"]["totalElements"].clone()), (json!([]), json!(300)));
    f.server.running.stop().await;
}

async fn permissions_import_checks_scopes_and_duplicates(backend: Backend) {
    let f = fixture_on(backend, 0).await;
    let db = &f.server.running.state.stores;
    let csv = "userId,userName,userEmail,companyId,companyName,scope,grantedBy,grantedAt\n\
               usr_9001,Ana Lima,ana@acme.example,cmp_900,Acme Treasury,deposits:write,Morgan Lee,2024-03-11T14:02:55.120\n\
               usr_9001,Ana Lima,ana@acme.example,cmp_900,Acme Treasury,root,Morgan Lee,\n\
               usr_9001,Ana Lima,ana@acme.example,cmp_900,Acme Treasury,deposits:write,Morgan Lee,\n\
               usr_9002,,bad,cmp_900,Acme Treasury,fees:read,Morgan Lee,\n";
    let e = invalid(import_permissions(&db.permissions, csv, Format::Csv).await);
    assert_eq!(
        lines(&e),
        vec![(3, Some("scope")), (4, Some("scope")), (5, Some("userName")), (5, Some("userEmail"))],
        "{e:?}"
    );
    let good: String = csv.lines().take(2).map(|l| format!("{l}\n")).collect();
    assert_eq!(import_permissions(&db.permissions, &good, Format::Csv).await.unwrap(), 1);
    let e = invalid(import_permissions(&db.permissions, &good, Format::Csv).await);
    assert_eq!(lines(&e), vec![(2, Some("scope"))], "already held");
    let (_, body) = f.get(PERMISSIONS, "").await;
    assert_eq!(body["data"]["totalElements"], 301);
    let (_, body) = f.get(PERMISSIONS, "companyId=cmp_900").await;
    assert_eq!(body["data"]["content"][0]["grantedAt"], "2024-03-11T14:02:55.120");
    f.server.running.stop().await;
}
