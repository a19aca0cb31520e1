//! Routing endpoints over real HTTP: lookups (400 / 404 / 200), status, refresh, search.

use crate::common;

use std::path::PathBuf;

use common::{json, Server};
use moneydesk_model::paths;
use moneydesk_model::routing::{ROUTING_DIRECTORY, ROUTING_DIRECTORY_REFRESH, ROUTING_SEARCH};
use moneydesk_model::Scope;
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into()))
        .join("../../../shared/data/routing")
        .join(name)
}

async fn real_files() -> Server {
    Server::start_with(|c| {
        c.fedach_file = Some(data("FedACHdir.txt"));
        c.fedwire_file = Some(data("fpddir.txt"));
    })
    .await
}

async fn get(s: &Server, token: &str, path: &str) -> (u16, Value) {
    let resp = s.get_auth(path, token).await;
    let status = resp.status().as_u16();
    (status, json(resp).await)
}

fn ach(q: &str) -> String {
    format!("{}?routingNumber={q}", paths::ROUTING_ACH_VALIDATE)
}

fn wire(q: &str) -> String {
    format!("{}?routingNumber={q}", paths::ROUTING_WIRE_VALIDATE)
}

#[tokio::test]
async fn bad_numbers_are_400_naming_the_problem() {
    let s = Server::start().await;
    let t = s.token(&[Scope::RoutingRead]).await;
    for (path, needle) in [
        (ach("12345678"), "must be 9 digits, got 8"),
        (wire("1234567890"), "must be 9 digits, got 10"),
        (ach("02109001x"), "'x' at position 9 is not a digit"),
        (wire("021090016"), "checksum digit should be 5, got 6"),
        (ach("000000000"), "000000000 is not a valid"),
        (paths::ROUTING_ACH_VALIDATE.to_string(), "is required"),
    ] {
        let (status, body) = get(&s, &t, &path).await;
        assert_eq!(status, 400, "{path}: {body}");
        assert_eq!(body["code"], 400);
        assert!(body["data"].is_null());
        assert_eq!(body["errors"][0]["field"], "routingNumber", "{body}");
        let msg = body["errors"][0]["problem"].as_str().unwrap();
        assert!(msg.contains(needle), "{path}: {msg}");
        assert!(body["errorMessage"].as_str().unwrap().contains(needle));
    }
}

#[tokio::test]
async fn demo_directory_lookups() {
    let s = Server::start().await;
    let t = s.token(&[Scope::RoutingRead]).await;
    // Both directories: the bare record with the contract's field names.
    let (status, a) = get(&s, &t, &ach("021090028")).await;
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["customerName"], "ACME COMMUNITY BANK, N.A.");
    assert_eq!(a["servicingFRBNumber"], "021090015");
    assert!(a.get("code").is_none(), "bare record, not an envelope");
    let (status, w) = get(&s, &t, &wire("021090028")).await;
    assert_eq!(status, 200);
    assert_eq!((w["settlementOnly"].as_str(), w["changeDate"].as_str()), (Some(" "), Some("        ")));
    // Record type 0 and 2 facts.
    assert_eq!(get(&s, &t, &ach("021090015")).await.1["recordTypeCode"], "0");
    let (_, replaced) = get(&s, &t, &ach("073090995")).await;
    assert_eq!(
        (replaced["recordTypeCode"].as_str(), replaced["newRoutingNumber"].as_str()),
        (Some("2"), Some("073090063"))
    );
    assert_eq!(get(&s, &t, &wire("026090269")).await.1["settlementOnly"], "S");
    // A valid number the directory does not hold: 404 envelope, per directory.
    let (status, body) = get(&s, &t, &ach("043090093")).await;
    assert_eq!((status, body["code"].as_u64()), (404, Some(404)));
    assert!(body["errorMessage"].as_str().unwrap().contains("not in the FedACH directory"));
    assert_eq!(get(&s, &t, &wire("043090093")).await.0, 200);
    let (status, body) = get(&s, &t, &wire("091090045")).await;
    assert_eq!(status, 404);
    assert_eq!(body["reason"], "not_found");
}

#[tokio::test]
async fn real_files_over_http() {
    let s = real_files().await;
    let t = s.token(&[Scope::RoutingRead]).await;
    let (status, a) = get(&s, &t, &ach("011000015")).await;
    assert_eq!(status, 200);
    assert_eq!(a["customerAddress"], "1000 PEACHTREE ST N.E.");
    assert_eq!(a["institutionStatusCode"], "1");
    let (_, st) = get(&s, &t, ROUTING_DIRECTORY).await;
    let d = &st["data"];
    assert_eq!(
        (d["source"].as_str(), d["asOf"].as_str(), d["asOfSource"].as_str()),
        (Some("files"), Some("2018-12-04"), Some("newestChangeDate"))
    );
    assert_eq!(
        (d["ach"]["records"].as_u64(), d["wire"]["records"].as_u64(), d["institutions"].as_u64()),
        (Some(18_198), Some(7_693), Some(19_010))
    );
    // Which directory this instance serves: the file's SHA-256, its first 16 hex digits.
    use sha2::Digest;
    let file_digest = |name: &str| hex::encode(&sha2::Sha256::digest(std::fs::read(data(name)).unwrap())[..8]);
    assert_eq!(d["ach"]["sha256"], file_digest("FedACHdir.txt"));
    assert_eq!(d["wire"]["sha256"], file_digest("fpddir.txt"));
    assert_eq!((d["ach"]["file"].as_str(), d["ach"]["format"].as_str()), (Some("FedACHdir.txt"), Some("fixedWidth")));
    assert_eq!(d["stale"], false);
    assert_eq!(d["refreshSchedule"], "06:30 America/New_York");
    // Name search, typo-tolerant: "bank of amercia na" finds Bank of America first.
    let (status, page) = get(&s, &t, &format!("{ROUTING_SEARCH}?name=bank%20of%20amercia%20n.a.&size=5")).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["data"]["content"][0]["customerName"], "BANK OF AMERICA, N.A.");
    assert!(page["data"]["totalElements"].as_u64().unwrap() > 5);
}

#[tokio::test]
async fn status_and_refresh_need_their_scopes() {
    let s = Server::start().await;
    let reader = s.token(&[Scope::RoutingRead]).await;
    let admin = s.token(&[Scope::Admin]).await;
    let (status, body) = get(&s, &reader, ROUTING_DIRECTORY).await;
    assert_eq!(status, 200);
    let d = &body["data"];
    assert_eq!(
        (d["source"].as_str(), d["ach"]["format"].as_str(), d["ach"]["file"].as_str()),
        (Some("demo"), Some("demo"), None)
    );
    assert_eq!((d["ach"]["records"].as_u64(), d["wire"]["records"].as_u64()), (Some(27), Some(19)));
    assert_eq!((d["stale"].as_bool(), d["staleAfterHours"].as_u64()), (Some(false), Some(48)));
    let resp = s.client.post(s.url(ROUTING_DIRECTORY_REFRESH)).bearer_auth(&reader).send().await.unwrap();
    assert_eq!(resp.status(), 403);
    let resp = s.client.post(s.url(ROUTING_DIRECTORY_REFRESH)).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let after = json(resp).await;
    // The directory in service was replaced: its load time (nanosecond precision) is later.
    let loaded = |v: &Value| chrono::DateTime::parse_from_rfc3339(v["loadedAt"].as_str().unwrap()).unwrap();
    assert!(loaded(&after["data"]) > loaded(d), "{} then {}", d["loadedAt"], after["data"]["loadedAt"]);
    assert_eq!(s.get(ROUTING_DIRECTORY).await.status(), 401);
}

#[tokio::test]
async fn refresh_with_a_bad_file_is_422_and_keeps_serving() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("FedACHdir.txt");
    std::fs::copy(data("FedACHdir.txt"), &file).unwrap();
    let f2 = file.clone();
    let s = Server::start_with(move |c| c.fedach_file = Some(f2)).await;
    let admin = s.token(&[Scope::Admin]).await;
    std::fs::write(&file, "{\"fedACHParticipants\": [").unwrap();
    let resp = s.client.post(s.url(ROUTING_DIRECTORY_REFRESH)).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(resp.status(), 422);
    let body = json(resp).await;
    assert!(body["errorMessage"].as_str().unwrap().starts_with("FedACH file FedACHdir.txt line 1:"), "{body}");
    assert_eq!(get(&s, &admin, &ach("011000015")).await.0, 200);
    let (_, st) = get(&s, &admin, ROUTING_DIRECTORY).await;
    assert!(st["data"]["lastError"]["message"].as_str().unwrap().contains("FedACHdir.txt"));
    assert_eq!(st["data"]["ach"]["records"], 18_198);
    assert_eq!(st["data"]["wire"]["format"], "none");
}

async fn search(s: &Server, t: &str, q: &str) -> (u16, Value) {
    get(s, t, &format!("{ROUTING_SEARCH}?{q}")).await
}

fn numbers(page: &Value) -> Vec<String> {
    page["data"]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["routingNumber"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn search_combinations_over_real_files() {
    let s = real_files().await;
    let t = s.token(&[Scope::RoutingRead]).await;
    // Prefix is a true prefix, ordered by routing number, paged.
    let (status, p) = search(&s, &t, "prefix=0210&size=500").await;
    assert_eq!(status, 200);
    let all = numbers(&p);
    assert!(!all.is_empty() && all.iter().all(|n| n.starts_with("0210")));
    assert!(all.windows(2).all(|w| w[0] < w[1]));
    let (_, p2) = search(&s, &t, "prefix=0210&size=10&page=2").await;
    assert_eq!(numbers(&p2), all[10..20.min(all.len())].to_vec());
    assert_eq!(p2["data"]["number"], 1);
    // State and city without a name (moov-io/fed answers nothing here).
    let (_, p) = search(&s, &t, "state=ma&city=boston&size=500").await;
    let hits = p["data"]["content"].as_array().unwrap();
    assert!(hits.len() > 5);
    assert!(hits.iter().all(|h| h["customerState"] == "MA" && h["customerCity"] == "BOSTON"));
    // Zip (ACH only) with a name and a directory.
    let (_, p) = search(&s, &t, "zip=23228&name=bank%20america&directory=ach&size=50").await;
    let first = &p["data"]["content"][0];
    // The exact, complete name ranks first (score 100), the longer "..., N.A." names after it.
    assert_eq!((first["customerName"].as_str(), first["score"].as_f64()), (Some("BANK OF AMERICA"), Some(100.0)));
    assert!(numbers(&p).contains(&"011000138".to_string()));
    for h in p["data"]["content"].as_array().unwrap() {
        assert!(h["wire"].is_null() && h["ach"]["customerZip"] == "23228", "{h}");
    }
    // Wire-only search finds telegraphic names too.
    let (_, p) = search(&s, &t, "name=state%20st%20bos&directory=wire").await;
    assert_eq!(p["data"]["content"][0]["routingNumber"], "011000028");
    assert!(p["data"]["content"][0]["ach"].is_null());
    // "&" and "AND" are the same word.
    let (_, a) = search(&s, &t, "name=state%20street%20bank%20%26%20trust&size=3").await;
    let (_, b) = search(&s, &t, "name=state%20street%20bank%20and%20trust&size=3").await;
    assert_eq!(numbers(&a), numbers(&b));
    assert!(!numbers(&a).is_empty());
}

#[tokio::test]
async fn search_rejects_bad_parameters_by_name() {
    let s = Server::start().await;
    let t = s.token(&[Scope::RoutingRead]).await;
    for (q, field) in [
        ("prefix=1", "prefix"),
        ("prefix=123456789", "prefix"),
        ("prefix=12ab", "prefix"),
        ("state=New%20York", "state"),
        ("zip=1234x", "zip"),
        ("zip=10001&directory=wire", "zip"),
        ("directory=fed", "directory"),
        ("nmae=acme", "nmae"),
        ("name=a%20b%20c%20d%20e%20f%20g%20h%20i%20j%20k", "name"),
        ("name=acme&size=0", "size"),
        ("", "name"),
    ] {
        let (status, body) = search(&s, &t, q).await;
        assert_eq!(status, 400, "{q}: {body}");
        assert_eq!(body["errors"][0]["field"], field, "{q}: {body}");
    }
}

#[tokio::test]
async fn search_in_the_demo_directory() {
    let s = Server::start().await;
    let t = s.token(&[Scope::RoutingRead]).await;
    let (_, p) = search(&s, &t, "name=acme%20comunity").await;
    let hit = &p["data"]["content"][0];
    assert_eq!(
        (hit["routingNumber"].as_str(), hit["inAch"].as_bool(), hit["inWire"].as_bool()),
        (Some("021090028"), Some(true), Some(true))
    );
    assert_eq!(hit["ach"]["officeCode"], "O");
    assert!(hit["score"].as_f64().unwrap() > 80.0);
    let (_, p) = search(&s, &t, "city=chicago").await;
    assert_eq!(numbers(&p), ["071090272", "071090285"]);
    assert!(p["data"]["content"][0]["score"].is_null());
}

#[tokio::test]
async fn extensions_are_marked_in_openapi() {
    let s = Server::start().await;
    let doc = json(s.get(paths::OPENAPI).await).await;
    for (path, method) in [(ROUTING_DIRECTORY, "get"), (ROUTING_DIRECTORY_REFRESH, "post"), (ROUTING_SEARCH, "get")] {
        assert_eq!(doc["paths"][path][method]["x-extension"], true, "{path}");
    }
    assert_eq!(doc["paths"][ROUTING_DIRECTORY_REFRESH]["post"]["security"][0]["bearer"][0], "admin");
    assert!(doc["paths"][paths::ROUTING_ACH_VALIDATE]["get"].get("x-extension").is_none());
}

/// Lookups serve answers rendered once per loaded directory: after a refresh they come from
/// the new file, never from what was rendered for the old one.
#[tokio::test]
async fn lookups_after_a_refresh_answer_from_the_new_file() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("FedACHdir.txt");
    let original = std::fs::read_to_string(data("FedACHdir.txt")).unwrap();
    std::fs::write(&file, &original).unwrap();
    let f2 = file.clone();
    let s = Server::start_with(move |c| c.fedach_file = Some(f2)).await;
    let admin = s.token(&[Scope::Admin]).await;
    for _ in 0..2 {
        assert_eq!(get(&s, &admin, &ach("011000015")).await.1["customerName"], "FEDERAL RESERVE BANK");
    }
    // Columns 36-71 of a FedACH record hold the customer name.
    let renamed = original.replacen("FEDERAL RESERVE BANK                ", "FEDERAL RESERVE BANK OF ATLANTA     ", 1);
    assert_ne!(renamed, original);
    std::fs::write(&file, renamed).unwrap();
    let resp = s.client.post(s.url(ROUTING_DIRECTORY_REFRESH)).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let (status, record) = get(&s, &admin, &ach("011000015")).await;
    assert_eq!(status, 200);
    assert_eq!(record["customerName"], "FEDERAL RESERVE BANK OF ATLANTA");
    assert_eq!(record["customerAddress"], "1000 PEACHTREE ST N.E.");
}

#[tokio::test]
async fn a_refresh_serves_what_the_file_now_holds() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("FedACHdir.txt");
    let full = std::fs::read_to_string(data("FedACHdir.txt")).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    std::fs::write(&file, lines[..100].join("\n") + "\n").unwrap();
    let f2 = file.clone();
    let s = Server::start_with(move |c| c.fedach_file = Some(f2)).await;
    let admin = s.token(&[Scope::Admin]).await;
    let added = &lines[150][..9];
    assert_eq!(get(&s, &admin, &ach(added)).await.0, 404, "not in the first file");
    assert_eq!(get(&s, &admin, ROUTING_DIRECTORY).await.1["data"]["ach"]["records"], 100);

    std::fs::write(&file, lines[..200].join("\n") + "\n").unwrap();
    let resp = s.client.post(s.url(ROUTING_DIRECTORY_REFRESH)).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(json(resp).await["data"]["ach"]["records"], 200);
    let (status, record) = get(&s, &admin, &ach(added)).await;
    assert_eq!((status, record["routingNumber"].as_str()), (200, Some(added)), "{record}");
    s.running.stop().await;
}
