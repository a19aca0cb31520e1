//! Check deposits over real HTTP on both backends: the record of description 2.5, every
//! validation rule, idempotency (retry, another body, concurrent retries), duplicate
//! presentment and its override, the state machine, the list's filters and order.

use crate::common;

use std::io::Cursor;

use base64::Engine;
use common::{json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use serde_json::{json, Value};

struct Bank {
    server: Server,
    writer: String,
    admin: String,
    payee: Account,
    png: String,
}

/// A server with a few accounts, a `deposits:read deposits:write` token and an admin token.
async fn bank(backend: Backend) -> Bank {
    let server = Server::start_on(backend).await;
    let accounts: Vec<Account> = Accounts::new(5, 7).collect();
    let mut w = server.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let writer = server.token(&[Scope::DepositsRead, Scope::DepositsWrite]).await;
    let admin = server.token(&[Scope::Admin]).await;
    Bank { server, writer, admin, payee: accounts[0].clone(), png: check_png(0) }
}

/// A 600 × 250 grayscale PNG (a check-shaped image); `seed` makes different bytes.
fn check_png(seed: u8) -> String {
    let img = image::GrayImage::from_fn(600, 250, |x, y| image::Luma([((x + y) as u8).wrapping_add(seed) | 0x80]));
    let mut bytes = Vec::new();
    img.write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png).unwrap();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn body(b: &Bank, check_number: &str) -> Value {
    let today = chrono::Utc::now().with_timezone(&chrono_tz::America::New_York).date_naive();
    json!({
        "amount": "125.50",
        "bankAccountNumber": "000123456789",
        "bankRoutingNumber": "021090028",
        "checkFrontImage": format!("data:image/png;base64,{}", b.png),
        "checkBackImage": b.png,
        "checkNumber": check_number,
        "payeeAccountId": b.payee.id,
        "payeeUserId": "usr-1",
        "checkDate": (today - chrono::Duration::days(3)).to_string(),
        "memo": "Invoice 4711",
    })
}

async fn post(b: &Bank, token: &str, path: &str, body: &Value, key: Option<&str>) -> (u16, Value) {
    let mut req = b.server.client.post(b.server.url(path)).bearer_auth(token).json(body);
    if let Some(k) = key {
        req = req.header("Idempotency-Key", k);
    }
    let r = req.send().await.unwrap();
    (r.status().as_u16(), json(r).await)
}

async fn get(b: &Bank, path: &str) -> (u16, Value) {
    let r = b.server.get_auth(path, &b.writer).await;
    (r.status().as_u16(), json(r).await)
}

on_both_backends!(
    a_check_deposit_answers_the_full_record_with_the_directory_name_and_the_quoted_fee,
    a_retry_with_the_same_key_returns_the_same_deposit_and_another_body_is_refused,
    concurrent_retries_with_one_key_make_exactly_one_deposit,
    the_same_check_twice_is_a_duplicate_until_an_admin_overrides_with_a_reason,
    the_state_machine_allows_its_moves_and_names_the_allowed_ones_otherwise,
    the_list_filters_sorts_and_pages_the_deposits,
    the_list_items_carry_the_members_fields_asks_for_and_only_those,
);

async fn a_check_deposit_answers_the_full_record_with_the_directory_name_and_the_quoted_fee(backend: Backend) {
    let b = bank(backend).await;
    let r = b
        .server
        .client
        .post(b.server.url(paths::DEPOSITS_CHECK))
        .bearer_auth(&b.writer)
        .json(&body(&b, "1001"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let text = r.text().await.unwrap();
    assert!(text.contains(r#""amount":125.50"#) && text.contains(r#""feeApplied":0.25"#), "{text}");
    let rec: Value = serde_json::from_str(&text).unwrap();
    assert!(rec["id"].is_i64());
    assert_eq!(rec["status"], "In_Progress_1");
    assert_eq!(rec["step"], "Process_2");
    assert_eq!(rec["isConfirmed"], false);
    assert_eq!(rec["bankName"], "ACME COMMUNITY BANK, N.A.", "filled from the directory");
    assert_eq!(rec["name"], b.payee.account_name.as_str());
    assert_eq!(rec["submitterId"], "test");
    assert!(rec["swiftCode"].is_null() && rec.as_object().unwrap().contains_key("achBatchId"));
    let created = rec["createdDate"].as_str().unwrap();
    assert!(chrono::NaiveDateTime::parse_from_str(created, "%b %d,%Y %I:%M %p").is_ok(), "{created}");
    assert_eq!(rec["scheduleDate"].as_str().unwrap().len(), 10);

    // Its images come back as stored, and the detail has the history.
    let id = rec["id"].as_i64().unwrap();
    let img =
        b.server.get_auth(&format!("/api/v2/services/money-movements/deposits/{id}/images/front"), &b.writer).await;
    assert_eq!(img.headers()["content-type"], "image/png");
    let bytes = img.bytes().await.unwrap();
    assert_eq!(base64::engine::general_purpose::STANDARD.encode(&bytes), b.png);
    let (status, detail) = get(&b, &format!("/api/v2/services/money-movements/deposits/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(detail["data"]["history"][0]["action"], "create");
    assert_eq!(detail["data"]["allowedActions"], json!(["confirm", "reject", "cancel"]));
}

async fn a_retry_with_the_same_key_returns_the_same_deposit_and_another_body_is_refused(backend: Backend) {
    let b = bank(backend).await;
    let first = post(&b, &b.writer, paths::DEPOSITS_CHECK, &body(&b, "2001"), Some("key-1")).await;
    let again = post(&b, &b.writer, paths::DEPOSITS_CHECK, &body(&b, "2001"), Some("key-1")).await;
    assert_eq!((first.0, again.0), (201, 200));
    assert_eq!(first.1["id"], again.1["id"]);
    let other = post(&b, &b.writer, paths::DEPOSITS_CHECK, &body(&b, "2002"), Some("key-1")).await;
    assert_eq!(other.0, 422, "{}", other.1);
    assert!(other.1["errorMessage"].as_str().unwrap().contains("different request"));
    let (_, list) = get(&b, paths::DEPOSITS).await;
    assert_eq!(list["data"]["totalElements"], 1);
    // Past its 24 hours the key is forgotten: the same key makes a new deposit.
    let db = &b.server.running.state.stores.database;
    db.execute("UPDATE deposit_idempotency SET created_at = '2000-01-01T00:00:00Z'").await.unwrap();
    let later = post(&b, &b.writer, paths::DEPOSITS_CHECK, &body(&b, "2002"), Some("key-1")).await;
    assert_eq!(later.0, 201, "{}", later.1);
    assert_ne!(later.1["id"], first.1["id"]);
}

async fn concurrent_retries_with_one_key_make_exactly_one_deposit(backend: Backend) {
    let b = bank(backend).await;
    let same = body(&b, "3001");
    let tries = (0..6).map(|_| post(&b, &b.writer, paths::DEPOSITS_CHECK, &same, Some("double-click")));
    let answers = futures_util::future::join_all(tries).await;
    let ids: Vec<&Value> = answers.iter().map(|(_, v)| &v["id"]).collect();
    assert!(ids.iter().all(|id| *id == ids[0]), "{answers:?}");
    assert_eq!(answers.iter().filter(|(s, _)| *s == 201).count(), 1, "{answers:?}");
    let (_, list) = get(&b, paths::DEPOSITS).await;
    assert_eq!(list["data"]["totalElements"], 1);
}

async fn the_same_check_twice_is_a_duplicate_until_an_admin_overrides_with_a_reason(backend: Backend) {
    let b = bank(backend).await;
    let (s1, first) = post(&b, &b.writer, paths::DEPOSITS_CHECK, &body(&b, "4001"), None).await;
    assert_eq!(s1, 201);
    let (s2, dup) = post(&b, &b.writer, paths::DEPOSITS_CHECK, &body(&b, "4001"), None).await;
    assert_eq!(s2, 409, "{dup}");
    let msg = dup["errorMessage"].as_str().unwrap();
    assert!(msg.contains(&format!("deposit {}", first["id"])), "{msg}");
    let override_path =
        format!("{}?overrideDuplicate=true&overrideReason=Re-presented%20after%20NSF", paths::DEPOSITS_CHECK);
    let (s3, _) = post(&b, &b.writer, &override_path, &body(&b, "4001"), None).await;
    assert_eq!(s3, 403, "only an admin overrides");
    let (s4, second) = post(&b, &b.admin, &override_path, &body(&b, "4001"), None).await;
    assert_eq!(s4, 201, "{second}");
    let (_, detail) = get(&b, &format!("/api/v2/services/money-movements/deposits/{}", second["id"])).await;
    assert_eq!(detail["data"]["overrideReason"], "Re-presented after NSF");
    // A cancelled deposit frees its check.
    let cancel = json!({"action": "cancel"});
    let (s5, _) = post(
        &b,
        &b.writer,
        &format!("/api/v2/services/money-movements/deposits/{}/actions", first["id"]),
        &cancel,
        None,
    )
    .await;
    assert_eq!(s5, 200);
    let (s6, _) = post(&b, &b.writer, paths::DEPOSITS_CHECK, &body(&b, "4001"), None).await;
    assert_eq!(s6, 201);
}

async fn the_state_machine_allows_its_moves_and_names_the_allowed_ones_otherwise(backend: Backend) {
    let b = bank(backend).await;
    let (_, rec) = post(&b, &b.writer, paths::DEPOSITS_CHECK, &body(&b, "5001"), None).await;
    let actions = format!("/api/v2/services/money-movements/deposits/{}/actions", rec["id"]);
    let (s, bad) = post(&b, &b.writer, &actions, &json!({"action": "settle"}), None).await;
    assert_eq!(s, 403, "settle is the settlement job's (admin): {bad}");
    let (s, bad) = post(&b, &b.admin, &actions, &json!({"action": "settle"}), None).await;
    assert_eq!(s, 409);
    assert_eq!(bad["errorMessage"], "a deposit in In_Progress_1 cannot be settled; allowed: confirm, reject, cancel");
    let (s, bad) = post(&b, &b.writer, &actions, &json!({"action": "reject"}), None).await;
    assert_eq!((s, bad["errors"][0]["field"].as_str()), (400, Some("reason")));
    let (s, ok) = post(&b, &b.writer, &actions, &json!({"action": "confirm"}), None).await;
    assert_eq!(s, 200);
    assert_eq!(
        (ok["data"]["record"]["status"].as_str(), ok["data"]["record"]["isConfirmed"].as_bool()),
        (Some("Confirmed_2"), Some(true))
    );
    assert_eq!(ok["data"]["record"]["step"], "Process_3");
    for (who, action, status) in [(&b.admin, "send", "Sent_3"), (&b.admin, "settle", "Settled_4")] {
        let (s, ok) = post(&b, who, &actions, &json!({"action": action}), None).await;
        assert_eq!((s, ok["data"]["record"]["status"].as_str()), (200, Some(status)), "{action}: {ok}");
    }
    let (_, ok) = post(&b, &b.writer, &actions, &json!({"action": "return", "reason": "NSF"}), None).await;
    assert_eq!(ok["data"]["record"]["status"], "Returned_5");
    assert!(ok["data"]["record"]["completedDate"].is_string());
    let history: Vec<&str> =
        ok["data"]["history"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(history, ["create", "confirm", "send", "settle", "return"]);
    assert_eq!(ok["data"]["history"][4]["reason"], "NSF");
    let (s, fin) = post(&b, &b.writer, &actions, &json!({"action": "cancel"}), None).await;
    assert_eq!(s, 409);
    assert!(fin["errorMessage"].as_str().unwrap().ends_with("allowed: none (it is final)"));
}

async fn the_list_filters_sorts_and_pages_the_deposits(backend: Backend) {
    let b = bank(backend).await;
    for (n, amount) in [("6001", "10.00"), ("6002", "250.00"), ("6003", "99.99")] {
        let mut v = body(&b, n);
        v["amount"] = json!(amount);
        assert_eq!(post(&b, &b.writer, paths::DEPOSITS_CHECK, &v, None).await.0, 201);
    }
    let (_, all) = get(&b, &format!("{}?sort=amount,asc", paths::DEPOSITS)).await;
    let page = &all["data"];
    assert_eq!((page["totalElements"].as_i64(), page["number"].as_i64()), (Some(3), Some(0)));
    assert_eq!(page["content"][0]["serviceType"], "Check");
    assert_eq!(page["content"][0]["acId"], b.payee.id.as_str());
    let (_, mid) = get(&b, &format!("{}?amountMin=50&amountMax=100", paths::DEPOSITS)).await;
    assert_eq!(mid["data"]["totalElements"], 1);
    let (_, paged) = get(&b, &format!("{}?size=2&page=2", paths::DEPOSITS)).await;
    assert_eq!((paged["data"]["numberOfElements"].as_i64(), paged["data"]["last"].as_bool()), (Some(1), Some(true)));
    let (_, none) = get(&b, &format!("{}?status=Settled_4", paths::DEPOSITS)).await;
    assert_eq!(none["data"]["totalElements"], 0);
    for bad in
        ["status=Done", "serviceType=Bank%20Wire", "createdFrom=yesterday", "sort=name", "amountMin=1e3", "status="]
    {
        let (s, body) = get(&b, &format!("{}?{bad}", paths::DEPOSITS)).await;
        assert_eq!(s, 400, "{bad}: {body}");
    }

    // The records extension pages the same deposits, each as its whole record.
    let r = b.server.get_auth(&format!("{}?sort=amount,desc&amountMin=50", paths::DEPOSIT_RECORDS), &b.writer).await;
    assert_eq!(r.status(), 200);
    // Amounts read as written (JSON numbers with cents), in the asked order.
    let text = r.text().await.unwrap();
    let (high, low) = (text.find("\"amount\":250.00,"), text.find("\"amount\":99.99,"));
    assert!(high.is_some() && low.is_some() && high < low, "{text}");
    assert!(!text.contains("\"amount\":10.00,"), "amountMin applies: {text}");
    let records: Value = serde_json::from_str(&text).unwrap();
    let content = records["data"]["content"].as_array().unwrap();
    assert_eq!(content.len(), 2);
    assert!(content.iter().all(|r| r["id"].as_i64().is_some() && r["status"] == "In_Progress_1"), "{records}");
    assert_eq!(get(&b, &format!("{}?status=Done", paths::DEPOSIT_RECORDS)).await.0, 400);

    // The daily totals: today (the business day), one status, the three deposits summed exactly.
    let r = b.server.get_auth(paths::DEPOSIT_DAILY_TOTALS, &b.writer).await;
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    assert!(text.contains("\"count\":3,\"amount\":359.99}"), "10.00 + 250.00 + 99.99: {text}");
    let totals: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(totals["data"].as_array().unwrap().len(), 1, "{totals}");
    assert_eq!(totals["data"][0]["status"], "In_Progress_1");
    let (_, high) = get(&b, &format!("{}?amountMin=100", paths::DEPOSIT_DAILY_TOTALS)).await;
    assert_eq!(high["data"][0]["count"], 1, "the list's filters apply: {high}");
    let (_, none) = get(&b, &format!("{}?status=Settled_4", paths::DEPOSIT_DAILY_TOTALS)).await;
    assert_eq!(none["data"], json!([]));
    assert_eq!(get(&b, &format!("{}?createdFrom=yesterday", paths::DEPOSIT_DAILY_TOTALS)).await.0, 400);
}

#[tokio::test]
async fn every_rule_of_the_request_is_a_400_naming_the_field() {
    let b = bank(Backend::Sqlite).await;
    let cases: Vec<(&str, Value, &str)> = vec![
        // An unknown payee or sleeve account is a 404 (deposits_description.rs).
        ("bankRoutingNumber", json!("021090027"), "checksum"),
        ("checkFrontImage", json!("not base64!"), "not valid base64"),
        ("checkFrontImage", json!("aGVsbG8gd29ybGQ="), "not a JPEG, PNG or TIFF"),
        ("checkBackImage", json!("data:text/plain;base64,aGk="), "data URL"),
        ("amount", json!("0.001"), "3 decimal places"),
    ];
    for (field, value, why) in cases {
        let mut v = body(&b, "7001");
        v[field] = value.clone();
        let (s, e) = post(&b, &b.writer, paths::DEPOSITS_CHECK, &v, None).await;
        assert_eq!(s, 400, "{field} = {value}: {e}");
        assert_eq!(e["errors"][0]["field"], field, "{e}");
        assert!(e["errors"][0]["problem"].as_str().unwrap().contains(why), "{field}: {e}");
    }
    // A tiny image, and a decompression bomb's header, are refused before any work.
    let tiny = {
        let img = image::GrayImage::new(1, 1);
        let mut bytes = Vec::new();
        img.write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png).unwrap();
        base64::engine::general_purpose::STANDARD.encode(bytes)
    };
    let mut v = body(&b, "7002");
    v["checkBackImage"] = json!(tiny);
    let (s, e) = post(&b, &b.writer, paths::DEPOSITS_CHECK, &v, None).await;
    assert_eq!((s, e["errors"][0]["field"].as_str()), (400, Some("checkBackImage")));
    assert!(e["errorMessage"].as_str().unwrap().contains("too small"), "{e}");
    let (_, list) = get(&b, paths::DEPOSITS).await;
    assert_eq!(list["data"]["totalElements"], 0, "nothing was stored");
}

/// The description's list item (2.4), field by field: without `fields`, nothing else.
const LIST_ITEM: [&str; 7] =
    ["name", "serviceType", "accountNumber", "unifiedAccountId", "createdDate", "recordTypeId", "acId"];

async fn the_list_items_carry_the_members_fields_asks_for_and_only_those(backend: Backend) {
    let b = bank(backend).await;
    let mut v = body(&b, "7001");
    v["paymentType"] = json!("Personal_Check");
    v["payerType"] = json!("Individual");
    v["bankName"] = json!("Acme Community Bank");
    v["source"] = json!("portal");
    let (s, made) = post(&b, &b.writer, paths::DEPOSITS_CHECK, &v, None).await;
    assert_eq!(s, 201, "{made}");

    let keys = |item: &Value| {
        let mut k: Vec<String> = item.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let mut described: Vec<String> = LIST_ITEM.iter().map(|k| k.to_string()).collect();
    described.sort();
    let (_, plain) = get(&b, paths::DEPOSITS).await;
    assert_eq!(keys(&plain["data"]["content"][0]), described, "exactly the list item: {plain}");

    let asked =
        "id,amount,feeApplied,status,checkNumber,scheduleDate,checkDate,paymentType,bankName,memo,payerType,source";
    let (s, list) = get(&b, &format!("{}?fields={asked}&sort=amount,desc", paths::DEPOSITS)).await;
    assert_eq!(s, 200, "{list}");
    let item = &list["data"]["content"][0];
    let mut expected = described.clone();
    expected.extend(asked.split(',').map(str::to_string));
    expected.sort();
    assert_eq!(keys(item), expected, "{item}");
    for k in LIST_ITEM {
        assert_eq!(item[k], plain["data"]["content"][0][k], "{k} keeps the list item's value");
    }
    assert_eq!(item["id"], made["id"]);
    assert_eq!(item["amount"], json!(125.5));
    assert_eq!(item["feeApplied"], made["feeApplied"]);
    assert_eq!(item["status"], "In_Progress_1");
    assert_eq!(item["checkNumber"], "7001");
    assert_eq!(item["scheduleDate"], made["scheduleDate"]);
    assert_eq!(item["checkDate"], made["checkDate"]);
    assert_eq!(item["paymentType"], "Personal_Check");
    assert_eq!(item["bankName"], "Acme Community Bank");
    assert_eq!(item["memo"], "Invoice 4711");
    assert_eq!(item["payerType"], "Individual");
    assert_eq!(item["source"], "portal");

    // Every member of the record that a list item lacks can be asked for.
    let record = made.as_object().unwrap();
    let all: Vec<&str> = record.keys().map(String::as_str).filter(|k| !LIST_ITEM.contains(k)).collect();
    let (s, list) = get(&b, &format!("{}?fields={}", paths::DEPOSITS, all.join(","))).await;
    assert_eq!(s, 200, "{list}");
    for k in &all {
        assert!(list["data"]["content"][0].get(*k).is_some(), "{k}: {list}");
    }

    for bad in ["fields=", "fields=amount,colour", "fields=createdDate", "fields=name"] {
        let (s, body) = get(&b, &format!("{}?{bad}", paths::DEPOSITS)).await;
        assert_eq!(s, 400, "{bad}: {body}");
        assert!(
            body["errorMessage"].as_str().unwrap_or_default().contains("fields")
                || body.to_string().contains("\"fields\""),
            "{bad}: {body}"
        );
    }
}
