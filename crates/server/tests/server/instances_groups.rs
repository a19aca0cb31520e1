//! The remaining groups with requests alternating between two instances on one PostgreSQL
//! database and one S3 bucket (the scale-out arrangement of `instances.rs`): fees (the same
//! quote from both, a schedule loaded through one in force on the other, the rate limit each
//! instance's own share, as the README documents), routing (the same answers from both, each
//! saying by its digest which directory it serves, a refresh through one not changing the
//! other), collections (accounts and permissions written through one instance and paged
//! through both by turns, a change made behind both servers' backs seen by both).

use crate::collections_support;
use crate::common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use collections_support::reference;
use common::{json, s3, Server};
use moneydesk_model::accounts::{Account, AccountStatus};
use moneydesk_model::routing::{ROUTING_DIRECTORY, ROUTING_DIRECTORY_REFRESH};
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::import::import_accounts;
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::collections::records::Format;
use moneydesk_server::permissions::import::import_permissions;
use moneydesk_server::rate_limit::Quota;
use moneydesk_server::storage::blobs::{BlobConfig, S3Config};
use moneydesk_server::Config;
use serde_json::Value;

/// Two instances on one fresh database and one fresh bucket, both adjusted by `tweak`,
/// started at once (as a rolling deploy may: both migrate the same empty database).
async fn pair(tweak: impl Fn(&mut Config) + Clone) -> (Server, Server) {
    let url = common::postgres::fresh_database().await;
    let bucket = s3::fresh_bucket();
    tokio::join!(instance(url.clone(), bucket.clone(), tweak.clone()), instance(url, bucket, tweak))
}

async fn instance(url: String, bucket: S3Config, tweak: impl Fn(&mut Config)) -> Server {
    Server::start_with(move |c| {
        c.database_url = url;
        c.blobs = BlobConfig::S3(bucket);
        // No scheduled directory refresh during a test: each instance's refreshes are the test's.
        c.routing_refresh = None;
        tweak(c);
    })
    .await
}

#[tokio::test]
async fn both_instances_on_postgresql_and_s3_say_they_are_ready_to_a_load_balancer() {
    // What a load balancer's health check asks, without a token.
    let (a, b) = pair(|_| {}).await;
    for s in [&a, &b] {
        let r = s.get("/readyz").await;
        let status = r.status().as_u16();
        let ready = json(r).await;
        assert_eq!(status, 200, "{ready}");
        for check in ["database", "blobs", "routing"] {
            assert_eq!(ready["checks"][check]["ok"], true, "{check}: {ready}");
        }
        assert!(ready["checks"]["blobs"]["detail"].as_str().unwrap().starts_with("s3://"), "{ready}");
    }
}

/// The status and the body's text (a `Value` would read a fee of `2.00` as 2.0).
async fn get_text(s: &Server, token: &str, path: &str) -> (u16, String) {
    let r = s.get_auth(path, token).await;
    (r.status().as_u16(), r.text().await.unwrap())
}

async fn get(s: &Server, token: &str, path: &str) -> (u16, Value) {
    let r = s.get_auth(path, token).await;
    (r.status().as_u16(), json(r).await)
}

/// The `standard` fee of a quote's text, exactly as written.
fn standard_fee(text: &str) -> String {
    let at = text.find(r#""fee_type":"standard","fee_amount":"#).unwrap_or_else(|| panic!("no standard fee: {text}"));
    let rest = &text[at + r#""fee_type":"standard","fee_amount":"#.len()..];
    rest[..rest.find(',').unwrap()].to_string()
}

const EFT_10: &str = "/api/v1/cores/money-movements/fee-schedules/fees/ach?transferType=EFT&amount=10";

#[tokio::test]
async fn both_instances_quote_alike_and_a_schedule_loaded_through_one_is_in_force_on_the_other() {
    let (a, b) = pair(|_| {}).await;
    assert_eq!(EFT_10.split('?').next(), Some(paths::FEES_ACH));
    let admin = a.token(&[Scope::Admin]).await;
    // Started at once on an empty database, they stored the default schedule once between them.
    for s in [&a, &b] {
        let (_, listed) = get(s, &admin, paths::FEE_SCHEDULE_VERSIONS).await;
        assert_eq!(listed["data"].as_array().unwrap().len(), 1, "{listed}");
    }
    for query in ["transferType=EFT&amount=5000", "transferType=SAME_DAY_ACH&amount=1030.00", "transferType=EFT"] {
        let (sa, ta) = get_text(&a, &admin, &format!("{}?{query}", paths::FEES_ACH)).await;
        let (sb, tb) = get_text(&b, &admin, &format!("{}?{query}", paths::FEES_ACH)).await;
        assert_eq!((sa, sb), (200, 200), "{ta}");
        assert_eq!(ta, tb, "the same answer, byte for byte, from either instance");
    }
    let (_, ta) =
        get_text(&a, &admin, &format!("{}?transferType=INTERNATIONAL_WIRE&amount=200000", paths::FEES_WIRE)).await;
    let (_, tb) =
        get_text(&b, &admin, &format!("{}?transferType=INTERNATIONAL_WIRE&amount=200000", paths::FEES_WIRE)).await;
    assert_eq!(ta, tb);

    // A version loaded through A, in force three seconds from now; B learns of it from the
    // database alone (the README: within 5 seconds) and never prices by it before its time.
    let at_text =
        (chrono::Utc::now() + chrono::Duration::seconds(3)).to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let at = chrono::DateTime::parse_from_rfc3339(&at_text).unwrap();
    let r = a
        .client
        .post(a.url(paths::FEE_SCHEDULE_VERSIONS))
        .bearer_auth(&admin)
        .header("content-type", "application/toml");
    let r = r.body(common::schedule_toml(&at_text, "7.77")).send().await.unwrap();
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, text) = get_text(&b, &admin, EFT_10).await;
        let answered = chrono::Utc::now();
        assert_eq!(status, 200, "{text}");
        if standard_fee(&text) == "7.77" {
            assert!(answered >= at, "B priced by the new version before its time ({answered} < {at})");
            break;
        }
        assert_eq!(standard_fee(&text), "0.25", "the default price until then: {text}");
        assert!(Instant::now() < deadline, "B never put the version loaded through A in force");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(standard_fee(&get_text(&a, &admin, EFT_10).await.1), "7.77", "and A, which loaded it");
    let (_, listed) = get(&b, &admin, paths::FEE_SCHEDULE_VERSIONS).await;
    let by = &listed["data"].as_array().unwrap()[0];
    assert_eq!((by["in_force"].as_bool(), by["loaded_by"].as_str()), (Some(true), Some("test")), "{listed}");
}

#[tokio::test]
async fn the_fee_rate_limit_is_each_instances_own_share_of_the_total() {
    // The README: the buckets live in each process; N instances are given 1/N of the rate.
    let (a, b) = pair(|c| c.fees_rate = Quota { per_second: 1, burst: 3 }).await;
    let token = a.token(&[Scope::FeesRead]).await;
    let mut allowed_by_a = 0;
    let refused = loop {
        let r = a.get_auth(EFT_10, &token).await;
        if r.status() == 429 {
            break r;
        }
        assert_eq!(r.status(), 200);
        allowed_by_a += 1;
        assert!(allowed_by_a < 20, "A never refused");
    };
    assert!(refused.headers().contains_key("retry-after"));
    assert!(allowed_by_a >= 3, "A allowed its burst first: {allowed_by_a}");
    // B has not seen this token: its bucket is full whatever the time, and says so.
    let r = b.get_auth(EFT_10, &token).await;
    assert_eq!(r.status(), 200, "B's share is its own");
    assert_eq!(
        (r.headers()["ratelimit-limit"].to_str().unwrap(), r.headers()["ratelimit-remaining"].to_str().unwrap()),
        ("3", "2")
    );
}

fn routing_data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/routing").join(name)
}

#[tokio::test]
async fn both_instances_answer_lookups_alike_and_each_says_which_directory_it_serves() {
    // Both read the directory from the same files (a shared mount), as the README describes.
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("FedACHdir.txt");
    let full = std::fs::read_to_string(routing_data("FedACHdir.txt")).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    std::fs::write(&file, lines[..200].join("\n") + "\n").unwrap();
    let shared = file.clone();
    let (a, b) = pair(move |c| {
        c.fedach_file = Some(shared.clone());
        c.fedwire_file = Some(routing_data("fpddir.txt"));
    })
    .await;
    let admin = a.token(&[Scope::Admin]).await;
    let first = digests(&a, &admin).await;
    assert_eq!(first, digests(&b, &admin).await, "the same files, the same digests");
    for (i, line) in lines[..200].iter().enumerate().step_by(13) {
        let path = format!("{}?routingNumber={}", paths::ROUTING_ACH_VALIDATE, &line[..9]);
        let (x, y) = if i % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let (sx, tx) = get_text(x, &admin, &path).await;
        assert_eq!((sx, get_text(y, &admin, &path).await), (200, (200, tx.clone())), "{path}");
    }
    let search = format!("{}?state=NY&directory=wire&size=7", moneydesk_model::routing::ROUTING_SEARCH);
    let (_, sa) = get_text(&a, &admin, &format!("{search}&page=2")).await;
    assert_eq!(get_text(&b, &admin, &format!("{search}&page=2")).await.1, sa);

    // A new file, refreshed through A only: A serves it and B the previous one, and their
    // digests tell them apart until B is refreshed too.
    let added = &lines[250][..9];
    let lookup = format!("{}?routingNumber={added}", paths::ROUTING_ACH_VALIDATE);
    std::fs::write(&file, lines[..300].join("\n") + "\n").unwrap();
    let refresh = |s: &Server| s.client.post(s.url(ROUTING_DIRECTORY_REFRESH)).bearer_auth(&admin).send();
    assert_eq!(refresh(&a).await.unwrap().status(), 200);
    let (on_a, on_b) = (digests(&a, &admin).await, digests(&b, &admin).await);
    assert_ne!(on_a.0, on_b.0, "A says it serves another ACH directory than B");
    assert_eq!(
        (on_a.1.as_str(), on_b.0.as_str()),
        (first.1.as_str(), first.0.as_str()),
        "the wire part and B unchanged"
    );
    assert_eq!((get(&a, &admin, &lookup).await.0, get(&b, &admin, &lookup).await.0), (200, 404));
    assert_eq!(refresh(&b).await.unwrap().status(), 200);
    assert_eq!(digests(&b, &admin).await, on_a, "both serve the new directory, and say so");
    assert_eq!(get(&b, &admin, &lookup).await.0, 200);
}

/// The digests of the ACH and wire directories the instance says it serves.
async fn digests(s: &Server, token: &str) -> (String, String) {
    let (status, body) = get(s, token, ROUTING_DIRECTORY).await;
    assert_eq!(status, 200, "{body}");
    let part = |p: &str| body["data"][p]["sha256"].as_str().unwrap_or_else(|| panic!("{body}")).to_string();
    (part("ach"), part("wire"))
}

const N: usize = 1_234;

/// Every record's `key` over all pages of `query`, the pages asked of A and B by turns.
async fn walk_alternating(
    servers: [&Server; 2],
    token: &str,
    path: &str,
    query: &str,
    size: u32,
    key: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    for page in 1.. {
        let s = servers[page % 2];
        let (status, body) = get(s, token, &format!("{path}?{query}&page={page}&size={size}")).await;
        assert_eq!(status, 200, "{query} page {page}: {body}");
        let data = &body["data"];
        out.extend(
            data["content"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r[key].as_str().map_or(r[key].to_string(), str::to_string)),
        );
        if data["last"].as_bool().unwrap() {
            assert_eq!(out.len() as u64, data["totalElements"].as_u64().unwrap(), "{query}");
            return out;
        }
    }
    unreachable!()
}

#[tokio::test]
async fn accounts_written_through_one_instance_are_paged_through_both_by_turns() {
    let (a, b) = pair(|_| {}).await;
    let token = a.token(&[Scope::AccountsRead, Scope::PermissionsRead]).await;
    let mut accounts: Vec<Account> = Accounts::new(N, 42).collect();
    let mut w = a.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let both = [&a, &b];
    // Page positions come from the marks in the database: page k from one instance and page
    // k + 1 from the other neither repeat nor skip a record, under any order.
    for (query, field, desc) in [("sort=createTime,desc", "createTime", true), ("sort=id", "id", false)] {
        let got = walk_alternating(both, &token, paths::ACCOUNTS, query, 97, "id").await;
        assert_eq!(got, reference(&accounts, Some(field), desc, |_| true), "{query}");
    }

    // A CSV import through B is on A's pages at once (same transaction as the counts and marks).
    let csv = "id,accountName,accountType,accountStatus,marketValue,createTime\n\
               imp001,Quay Street Bakery,Corporate_Client,Active,1284350.27,2023-09-22T03:16:48.936\n\
               imp002,Rosa Delgado,Individual_Client,Pending,,2023-09-23T08:00:00\n";
    assert_eq!(import_accounts(&b.running.state.stores.accounts, csv, Format::Csv).await.unwrap(), 2);
    let (_, found) = get(&a, &token, &format!("{}?name=quay%20street", paths::ACCOUNTS)).await;
    assert_eq!(found["data"]["content"][0]["id"], "imp001", "{found}");
    let mut ids: Vec<String> =
        accounts.iter().map(|x| x.id.clone()).chain(["imp001".into(), "imp002".into()]).collect();
    ids.sort();
    assert_eq!(walk_alternating(both, &token, paths::ACCOUNTS, "sort=id", 250, "id").await, ids);

    // A change made behind both servers' backs (SQL through B's pool): both notice their marks
    // are stale, answer by scanning meanwhile, and both start rebuilding them at once.
    let db = &b.running.state.stores.database;
    db.execute("UPDATE accounts SET status_code = 4 WHERE seq % 7 = 0").await.unwrap();
    db.execute("DELETE FROM accounts WHERE id LIKE 'imp%'").await.unwrap();
    for (i, x) in accounts.iter_mut().enumerate() {
        if (i + 1) % 7 == 0 {
            x.account_status = AccountStatus::Suspended;
        }
    }
    let suspended = |x: &Account| x.account_status == AccountStatus::Suspended;
    let want = reference(&accounts, Some("createTime"), true, suspended);
    let query = "accountStatus=Suspended&sort=createTime,desc";
    let (x, y) = tokio::join!(
        walk_alternating([&a, &b], &token, paths::ACCOUNTS, query, 33, "id"),
        walk_alternating([&b, &a], &token, paths::ACCOUNTS, query, 33, "id")
    );
    assert_eq!((x, y), (want.clone(), want.clone()));
    // The rebuilds end with valid marks (one of the two may lose the race; the other lands).
    let deadline = Instant::now() + Duration::from_secs(30);
    while marks_behind(&a).await != 0 {
        assert!(Instant::now() < deadline, "the marks were never rebuilt");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        walk_alternating(both, &token, paths::ACCOUNTS, query, 33, "id").await,
        want,
        "the same through the marks"
    );
    let (_, total) = get(&a, &token, paths::ACCOUNTS).await;
    assert_eq!(total["data"]["totalElements"], N, "{total}");
}

/// How many changes to the accounts the marks have not seen yet.
async fn marks_behind(s: &Server) -> i64 {
    let moneydesk_server::storage::Database::Postgres(pool) = &s.running.state.stores.database else {
        panic!("PostgreSQL")
    };
    sqlx::query_scalar("SELECT version - marks_version FROM collection_versions WHERE name = 'accounts'")
        .fetch_one(pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn permissions_imported_through_one_instance_are_paged_and_filtered_through_the_other() {
    let (a, b) = pair(|_| {}).await;
    let token = a.token(&[Scope::PermissionsRead]).await;
    let mut csv = String::from("userId,userName,userEmail,companyId,companyName,scope,grantedBy,grantedAt\n");
    for u in 0..60 {
        for scope in ["deposits:write", "fees:read"] {
            csv.push_str(&format!(
                "usr_{u:04},User {u},u{u}@acme.example,cmp_{},Company {},{scope},Morgan Lee,2024-03-{:02}T14:02:55.120\n",
                u % 3,
                u % 3,
                u % 28 + 1
            ));
        }
    }
    assert_eq!(import_permissions(&a.running.state.stores.permissions, &csv, Format::Csv).await.unwrap(), 120);
    let all = walk_alternating([&b, &a], &token, paths::PERMISSIONS, "sort=userId", 17, "userId").await;
    let mut want: Vec<String> = (0..60).flat_map(|u| [format!("usr_{u:04}"), format!("usr_{u:04}")]).collect();
    want.sort();
    assert_eq!(all, want);
    let (_, company) = get(&b, &token, &format!("{}?companyId=cmp_1&size=500", paths::PERMISSIONS)).await;
    assert_eq!(company["data"]["totalElements"], 40, "{company}");
    // The same rows again through B are refused: B sees what A imported.
    let again: String = csv.lines().take(2).map(|l| format!("{l}\n")).collect();
    assert!(
        import_permissions(&b.running.state.stores.permissions, &again, Format::Csv).await.is_err(),
        "already held"
    );
}
