//! `kill -9` of the server binary while it makes a cash letter, at several moments, then a
//! restart on the same data: a letter is all or nothing — either it is listed with every
//! deposit asked for, each `Sent_3`, and its file reads back whole, or there is no letter and
//! every deposit is still `Confirmed_2`, and the next request sends them all.

use crate::common;

use std::path::Path;

use common::process::{start, Process};
use common::{check_png, json};
use moneydesk_model::paths;
use serde_json::{json, Value};

/// Deposits asked for in each letter (each side converted to G4 while the letter is made).
const CHECKS: u32 = 8;

async fn admin_token(data_dir: &Path) -> String {
    let out = common::cli(data_dir, &["token", "create", "--name", "ops", "--scope", "admin"]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

async fn call(p: &Process, token: &str, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
    let mut r = reqwest::Client::new().request(method, format!("{}{path}", p.base)).bearer_auth(token);
    if let Some(b) = body {
        r = r.json(&b);
    }
    let r = r.send().await.unwrap();
    (r.status().as_u16(), json(r).await)
}

/// `CHECKS` confirmed check deposits to the first account; their ids.
async fn confirmed(p: &Process, token: &str, round: u32) -> Vec<i64> {
    let (_, accounts) = call(p, token, reqwest::Method::GET, &format!("{}?size=1", paths::ACCOUNTS), None).await;
    let payee = accounts["data"]["content"][0]["id"].as_str().expect("a demo account").to_string();
    let mut ids = Vec::new();
    for n in 0..CHECKS {
        let n = round * 1000 + n;
        let body = json!({
            "amount": format!("{}.25", 10 + n), "bankRoutingNumber": "021090028", "bankAccountNumber": format!("77{n:06}"),
            "checkNumber": format!("{}", 5000 + n), "payeeAccountId": payee, "payeeUserId": "usr-1",
            "checkFrontImage": check_png(n), "checkBackImage": check_png(n + 7),
        });
        let (status, record) = call(p, token, reqwest::Method::POST, paths::DEPOSITS_CHECK, Some(body)).await;
        assert_eq!(status, 201, "{record}");
        let id = record["id"].as_i64().unwrap();
        let path = paths::DEPOSIT_ACTIONS.replace("{id}", &id.to_string());
        let (status, moved) = call(p, token, reqwest::Method::POST, &path, Some(json!({"action": "confirm"}))).await;
        assert_eq!(status, 200, "{moved}");
        ids.push(id);
    }
    ids
}

async fn statuses(p: &Process, token: &str, ids: &[i64]) -> Vec<String> {
    let mut out = Vec::new();
    for id in ids {
        let (_, d) = call(p, token, reqwest::Method::GET, &paths::DEPOSIT.replace("{id}", &id.to_string()), None).await;
        out.push(d["data"]["record"]["status"].as_str().unwrap_or("?").to_string());
    }
    out
}

/// The letters holding any of `ids`: (letter id, its deposit ids).
async fn letters_with(p: &Process, token: &str, ids: &[i64]) -> Vec<(i64, Vec<i64>)> {
    let (_, list) = call(p, token, reqwest::Method::GET, &format!("{}?size=100", paths::CASH_LETTERS), None).await;
    let mut out = Vec::new();
    for l in list["data"]["content"].as_array().unwrap() {
        let id = l["id"].as_i64().unwrap();
        let (_, one) =
            call(p, token, reqwest::Method::GET, &paths::CASH_LETTER.replace("{id}", &id.to_string()), None).await;
        let items: Vec<i64> =
            one["data"]["items"].as_array().unwrap().iter().map(|i| i["depositId"].as_i64().unwrap()).collect();
        if items.iter().any(|i| ids.contains(i)) {
            out.push((id, items));
        }
    }
    out
}

/// Asks for a letter of `ids` without waiting for the answer.
fn ask(p: &Process, token: &str, ids: &[i64]) -> tokio::task::JoinHandle<reqwest::Result<reqwest::Response>> {
    let request = reqwest::Client::new()
        .post(format!("{}{}", p.base, paths::CASH_LETTERS))
        .bearer_auth(token)
        .json(&json!({"depositIds": ids}));
    tokio::spawn(request.send())
}

#[tokio::test]
async fn a_kill_while_a_cash_letter_is_made_leaves_all_of_it_or_none_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let token = admin_token(dir.path()).await;
    let demo = [("MONEYDESK_SEED_DEMO", "true".to_string())];
    // How long a letter takes here, uninterrupted: the kills are timed from it, so they land
    // before, during and after the making whatever the machine's speed.
    let server = start(dir.path(), &demo).await;
    let ids = confirmed(&server, &token, 0).await;
    let started = std::time::Instant::now();
    let answer = ask(&server, &token, &ids).await.unwrap().unwrap();
    assert_eq!(answer.status(), 201);
    let took = started.elapsed();
    server.kill_9();

    let (mut made, mut not_made) = (0, 0);
    for (round, share) in [0.02, 0.3, 0.6, 0.85, 1.1, 3.0].into_iter().enumerate() {
        let server = start(dir.path(), &demo).await;
        let ids = confirmed(&server, &token, round as u32 + 1).await;
        let request = ask(&server, &token, &ids);
        tokio::time::sleep(took.mul_f64(share)).await;
        server.kill_9();
        let _ = request.await;

        let server = start(dir.path(), &demo).await;
        let letters = letters_with(&server, &token, &ids).await;
        let now = statuses(&server, &token, &ids).await;
        match letters.as_slice() {
            [] => {
                not_made += 1;
                assert!(
                    now.iter().all(|s| s == "Confirmed_2"),
                    "no letter, so nothing sent (killed at {share} of {took:?}): {now:?}"
                );
                // Nothing was lost: the deposits go out in the next letter.
                let (status, letter) =
                    call(&server, &token, reqwest::Method::POST, paths::CASH_LETTERS, Some(json!({"depositIds": ids})))
                        .await;
                assert_eq!((status, letter["data"]["itemCount"].as_u64()), (201, Some(u64::from(CHECKS))), "{letter}");
            }
            [(id, items)] => {
                made += 1;
                assert_eq!(items, &ids, "the letter holds every deposit asked for (killed at {share} of {took:?})");
                let path = paths::CASH_LETTER_FILE.replace("{id}", &id.to_string());
                let bytes = reqwest::Client::new()
                    .get(format!("{}{path}", server.base))
                    .bearer_auth(&token)
                    .send()
                    .await
                    .unwrap()
                    .bytes()
                    .await
                    .unwrap();
                let (file, problems) = moneydesk_x9::read_file(&bytes);
                assert!(problems.iter().all(|p| p.severity != moneydesk_x9::Severity::Error), "{problems:#?}");
                assert_eq!(file.items().count(), CHECKS as usize, "the file is whole");
            }
            more => panic!("one request made {} letters: {more:?}", more.len()),
        }
        assert!(
            statuses(&server, &token, &ids).await.iter().all(|s| s == "Sent_3"),
            "every deposit sent once, in one letter"
        );
        server.kill_9();
    }
    // A kill at 2 % of the time is before the commit, one at 3 times it after: both outcomes
    // are checked whatever the machine's speed.
    eprintln!("a letter took {took:?}: {made} rounds made it, {not_made} did not");
    assert!(made > 0 && not_made > 0, "kills landed on both sides of the commit: {made} made, {not_made} not made");
}
