//! Accounts paging over real HTTP: every page field, size clamping and aliases, pages past
//! the end, and no record lost or repeated when paging through everything under each sort.

use crate::collections_support;
use crate::common;

use collections_support::{fixture_on, reference, N};
use common::Backend;
use moneydesk_model::paths::ACCOUNTS;
use serde_json::json;

on_both_backends!(
    page_fields_for_sizes_1_10_500_and_501,
    a_page_past_the_end_is_empty_with_the_right_totals,
    paging_through_everything_loses_and_repeats_nothing_under_every_sort,
    sorted_values_come_out_in_order,
    the_demo_seed_fills_both_collections
);

async fn page_fields_for_sizes_1_10_500_and_501(backend: Backend) {
    let f = fixture_on(backend, N).await;
    // (query, number, size, numberOfElements, totalPages, first, last)
    let cases = [
        ("size=1", 0, 1, 1, N as u64, true, false),
        ("page=2&size=1", 1, 1, 1, N as u64, false, false),
        ("size=10", 0, 10, 10, 124, true, false),
        ("page=124&size=10", 123, 10, 4, 124, false, true),
        ("page=0&size=10", 0, 10, 10, 124, true, false),
        ("size=500", 0, 500, 500, 3, true, false),
        ("page=3&size=500", 2, 500, 234, 3, false, true),
        ("size=501", 0, 500, 500, 3, true, false),
        ("page=3&size=100000", 2, 500, 234, 3, false, true),
        ("", 0, 10, 10, 124, true, false),
        ("per=25&page=50", 49, 25, 9, 50, false, true),
        ("limit=7", 0, 7, 7, 177, true, false),
        ("limit=20&size=20", 0, 20, 20, 62, true, false),
    ];
    for (q, number, size, elements, pages, first, last) in cases {
        let (status, body) = f.get(ACCOUNTS, q).await;
        assert_eq!(status, 200, "{q}: {body}");
        assert_eq!(
            (body["code"].clone(), body["errorMessage"].clone(), body["error"].clone()),
            (json!(200), json!(null), json!(null))
        );
        let p = &body["data"];
        assert_eq!(p["number"], number, "{q}");
        assert_eq!(p["size"], size, "{q}");
        assert_eq!(p["numberOfElements"], elements, "{q}");
        assert_eq!(p["content"].as_array().unwrap().len(), elements as usize, "{q}");
        assert_eq!(p["totalElements"], N as u64, "{q}");
        assert_eq!(p["totalPages"], pages, "{q}");
        assert_eq!(
            (p["first"].as_bool(), p["last"].as_bool(), p["empty"].as_bool()),
            (Some(first), Some(last), Some(false)),
            "{q}"
        );
        let offset = number as u64 * size as u64;
        assert_eq!(
            p["pageable"],
            json!({"sort": {"empty": true, "sorted": false, "unsorted": true}, "offset": offset, "pageNumber": number, "pageSize": size, "paged": true, "unpaged": false}),
            "{q}"
        );
        assert_eq!(p["sort"], json!({"empty": true, "sorted": false, "unsorted": true}), "{q}");
        // The default order is insertion order: the page is that slice of the fixture.
        let ids: Vec<&str> = p["content"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
        let want: Vec<&str> =
            f.accounts.iter().skip(offset as usize).take(elements as usize).map(|a| a.id.as_str()).collect();
        assert_eq!(ids, want, "{q}");
    }
    f.server.running.stop().await;
}

async fn a_page_past_the_end_is_empty_with_the_right_totals(backend: Backend) {
    let f = fixture_on(backend, N).await;
    for (q, number, size) in
        [("page=125&size=10", 124u64, 10u64), ("page=999999&per=50", 999_998, 50), ("page=4&size=501", 3, 500)]
    {
        let (status, body) = f.get(ACCOUNTS, q).await;
        assert_eq!(status, 200, "{q}: {body}");
        let p = &body["data"];
        assert_eq!(p["content"], json!([]), "{q}");
        assert_eq!(
            (p["empty"].as_bool(), p["first"].as_bool(), p["last"].as_bool()),
            (Some(true), Some(false), Some(true)),
            "{q}"
        );
        assert_eq!(
            (p["number"].as_u64(), p["size"].as_u64(), p["numberOfElements"].as_u64()),
            (Some(number), Some(size), Some(0)),
            "{q}"
        );
        assert_eq!(
            (p["totalElements"].as_u64(), p["totalPages"].as_u64()),
            (Some(N as u64), Some((N as u64).div_ceil(size))),
            "{q}"
        );
        assert_eq!(p["pageable"]["offset"], number * size, "{q}");
    }
    // Also past the end of a filtered set, sorted descending.
    let (status, body) = f.get(ACCOUNTS, "accountStatus=Suspended&sort=marketValue,desc&page=500").await;
    assert_eq!(status, 200);
    let want = f.accounts.iter().filter(|a| a.account_status.as_str() == "Suspended").count() as u64;
    assert_eq!((body["data"]["totalElements"].as_u64(), body["data"]["empty"].as_bool()), (Some(want), Some(true)));
    assert_eq!(body["data"]["sort"], json!({"empty": false, "sorted": true, "unsorted": false}));
    f.server.running.stop().await;
}

async fn paging_through_everything_loses_and_repeats_nothing_under_every_sort(backend: Backend) {
    let f = fixture_on(backend, N).await;
    let all = |_: &_| true;
    assert_eq!(f.walk(ACCOUNTS, "", 97, "id").await, reference(&f.accounts, None, false, all));
    for field in ["createTime", "accountName", "accountStatus", "accountType", "marketValue", "id"] {
        for (dir, desc) in [("asc", false), ("desc", true)] {
            let got = f.walk(ACCOUNTS, &format!("sort={field},{dir}"), 97, "id").await;
            let want = reference(&f.accounts, Some(field), desc, all);
            assert_eq!(got.len(), N, "{field},{dir}");
            assert_eq!(got, want, "sort={field},{dir}");
        }
    }
    // The direction defaults to ascending.
    assert_eq!(
        f.walk(ACCOUNTS, "sort=accountName", 500, "id").await,
        reference(&f.accounts, Some("accountName"), false, all)
    );
    f.server.running.stop().await;
}

async fn sorted_values_come_out_in_order(backend: Backend) {
    let f = fixture_on(backend, N).await;
    let names = f.walk(ACCOUNTS, "sort=accountName,asc", 500, "accountName").await;
    let lower: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
    assert!(lower.windows(2).all(|w| w[0] <= w[1]));
    let times = f.walk(ACCOUNTS, "sort=createTime,desc", 500, "createTime").await;
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "ISO text sorts as time");
    assert!(times.iter().all(|t| t.len() == 23 && t.as_bytes()[10] == b'T' && t.as_bytes()[19] == b'.'));
    let (_, body) = f.get(ACCOUNTS, "sort=marketValue,desc&size=3").await;
    let top: Vec<&str> =
        body["data"]["content"].as_array().unwrap().iter().map(|r| r["marketValue"].as_str().unwrap()).collect();
    assert_eq!(top.len(), 3, "marketValue is a decimal string: {top:?}");
    f.server.running.stop().await;
}

async fn the_demo_seed_fills_both_collections(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let s = common::Server::start_with(|c| {
        c.seed_demo = true;
        c.database_url = url;
    })
    .await;
    let token = s.token(&[moneydesk_model::Scope::Admin]).await;
    let total = |path: &'static str, q: String| {
        let (s, token) = (&s, token.clone());
        async move { common::json(s.get_auth(&format!("{path}?{q}"), &token).await).await["data"]["totalElements"].clone() }
    };
    assert_eq!(total(ACCOUNTS, String::new()).await, 2_400);
    assert_eq!(total(moneydesk_model::paths::PERMISSIONS, String::new()).await, 300);
    for status in ["Active", "Pending", "Suspended", "Inactive", "Closed"] {
        let n = total(ACCOUNTS, format!("accountStatus={status}")).await;
        assert!(n.as_u64().unwrap() >= 20, "{status}: {n}");
    }
    s.running.stop().await;
}
