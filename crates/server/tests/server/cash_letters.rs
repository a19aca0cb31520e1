//! Image cash letters over real HTTP on both backends: confirmed check deposits become one
//! X9.100-187 file that our own reader (moneydesk-x9) reads back without a problem, with both
//! G4 sides of every check; the deposits are sent in the same step; two requests at once never
//! put a deposit in two letters; a client hanging up mid-letter leaves the letter whole or
//! absent, never a file alone; and every refusal names what was wrong.

use crate::common;

use common::{check_png, json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use serde_json::{json, Value};

struct Desk {
    server: Server,
    writer: String,
    admin: String,
    payee: Account,
}

async fn desk(backend: Backend) -> Desk {
    desk_on(Server::start_on(backend).await).await
}

async fn desk_on(server: Server) -> Desk {
    let accounts: Vec<Account> = Accounts::new(2, 5).collect();
    let mut w = server.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let writer = server.token(&[Scope::DepositsRead, Scope::DepositsWrite]).await;
    let admin = server.token(&[Scope::Admin]).await;
    Desk { server, writer, admin, payee: accounts[0].clone() }
}

async fn post(d: &Desk, token: &str, path: &str, body: &Value) -> (u16, Value) {
    let r = d.server.client.post(d.server.url(path)).bearer_auth(token).json(body).send().await.unwrap();
    (r.status().as_u16(), json(r).await)
}

/// A check deposit of `cents`, confirmed (unless `confirm` is false); its id.
async fn deposit(d: &Desk, n: u32, cents: u32, confirm: bool) -> i64 {
    let body = json!({
        "amount": format!("{}.{:02}", cents / 100, cents % 100),
        "bankRoutingNumber": "021090028", "bankAccountNumber": format!("4820{n:04}"), "checkNumber": format!("{}", 1000 + n),
        "payeeAccountId": d.payee.id, "payeeUserId": "usr-1",
        "checkFrontImage": check_png(n), "checkBackImage": check_png(n + 100),
    });
    let (status, record) = post(d, &d.writer, paths::DEPOSITS_CHECK, &body).await;
    assert_eq!(status, 201, "{record}");
    let id = record["id"].as_i64().unwrap();
    if confirm {
        let (status, moved) =
            post(d, &d.writer, &paths::DEPOSIT_ACTIONS.replace("{id}", &id.to_string()), &json!({"action": "confirm"}))
                .await;
        assert_eq!(status, 200, "{moved}");
    }
    id
}

fn today() -> String {
    chrono::Utc::now().with_timezone(&chrono_tz::America::New_York).date_naive().to_string()
}

async fn status_of(d: &Desk, id: i64) -> String {
    let detail = json(d.server.get_auth(&paths::DEPOSIT.replace("{id}", &id.to_string()), &d.writer).await).await;
    detail["data"]["record"]["status"].as_str().unwrap().to_string()
}

on_both_backends!(
    confirmed_checks_become_one_file_that_reads_back_with_both_sides_of_each,
    two_requests_at_once_never_put_a_deposit_in_two_letters,
    a_cash_letter_refuses_what_it_cannot_send_and_names_it,
    a_letter_of_more_checks_than_a_bundle_streams_into_bundles_and_is_stored_whole,
    a_check_that_cannot_be_written_mid_letter_stops_it_and_leaves_no_file_and_no_letter,
    an_unfinished_letter_file_left_by_a_crash_is_swept,
    a_client_hanging_up_at_any_moment_leaves_a_whole_letter_or_none_and_no_file_alone,
);

/// The objects the blob store holds under `prefix`.
async fn objects(d: &Desk, prefix: &str) -> Vec<String> {
    use futures_util::TryStreamExt;
    let blobs = &d.server.running.state.blobs;
    let listed: Vec<_> = blobs.list(Some(&object_store::path::Path::from(prefix))).try_collect().await.unwrap();
    listed.into_iter().map(|m| m.location.to_string()).collect()
}

async fn confirmed_checks_become_one_file_that_reads_back_with_both_sides_of_each(backend: Backend) {
    let d = desk(backend).await;
    let first = deposit(&d, 1, 12_550, true).await;
    let second = deposit(&d, 2, 99_999_999, true).await;
    let waiting = deposit(&d, 3, 700, false).await;

    let (status, preview) =
        post(&d, &d.admin, paths::CASH_LETTERS, &json!({"businessDate": today(), "preview": true})).await;
    assert_eq!(status, 200, "{preview}");
    assert_eq!(preview["data"]["id"], 0, "a preview makes nothing");
    assert_eq!(preview["data"]["itemCount"], 2, "only the confirmed deposits: {preview}");
    assert_eq!(status_of(&d, first).await, "Confirmed_2", "a preview sends nothing");

    let (status, made) = post(&d, &d.admin, paths::CASH_LETTERS, &json!({"businessDate": today()})).await;
    assert_eq!(status, 201, "{made}");
    let letter = &made["data"];
    assert_eq!((letter["itemCount"].as_u64(), letter["bundleCount"].as_u64()), (Some(2), Some(1)));
    assert_eq!(letter["totalAmount"].to_string(), "1000125.49");
    let items: Vec<i64> =
        letter["items"].as_array().unwrap().iter().map(|i| i["depositId"].as_i64().unwrap()).collect();
    assert_eq!(items, vec![first, second]);
    assert_eq!(letter["items"][0]["onUs"], "48200001/1001", "account, the on-us symbol, the check number");
    assert_eq!(status_of(&d, first).await, "Sent_3");
    assert_eq!(status_of(&d, second).await, "Sent_3");
    assert_eq!(status_of(&d, waiting).await, "In_Progress_1", "not confirmed: not sent");

    let id = letter["id"].as_i64().unwrap();
    let r = d.server.get_auth(&paths::CASH_LETTER_FILE.replace("{id}", &id.to_string()), &d.writer).await;
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-disposition"].to_str().unwrap().ends_with(".x937\""));
    let bytes = r.bytes().await.unwrap();
    let (file, problems) = moneydesk_x9::read_file(&bytes);
    let errors: Vec<_> = problems.iter().filter(|p| p.severity == moneydesk_x9::Severity::Error).collect();
    assert!(errors.is_empty(), "our file reads back without a problem: {errors:#?}");
    let read: Vec<_> = file.items().collect();
    assert_eq!(read.len(), 2);
    assert_eq!(read[0].detail.item_amount, 12_550);
    assert_eq!(read[1].detail.item_amount, 99_999_999);
    assert_eq!(read[0].detail.payor_bank_routing(), "021090028");
    for item in &read {
        assert_eq!(item.images.len(), 2, "front and back");
        for image in &item.images {
            let tiff = image.bytes().unwrap();
            assert_eq!(&tiff[..4], b"II*\0", "a little-endian TIFF");
        }
        assert!(item.images[1].is_back());
    }

    let listed = json(d.server.get_auth(paths::CASH_LETTERS, &d.writer).await).await;
    assert_eq!(listed["data"]["totalElements"], 1, "{listed}");
    let one = json(d.server.get_auth(&paths::CASH_LETTER.replace("{id}", &id.to_string()), &d.writer).await).await;
    assert_eq!(one["data"]["items"].as_array().unwrap().len(), 2);
}

async fn two_requests_at_once_never_put_a_deposit_in_two_letters(backend: Backend) {
    let d = desk(backend).await;
    let mut ids = Vec::new();
    for n in 0..4 {
        ids.push(deposit(&d, n, 1_000 + n, true).await);
    }
    let body = json!({"businessDate": today()});
    let (a, b) =
        tokio::join!(post(&d, &d.admin, paths::CASH_LETTERS, &body), post(&d, &d.admin, paths::CASH_LETTERS, &body));
    let made: Vec<&Value> = [&a, &b].into_iter().filter(|(s, _)| *s == 201).map(|(_, v)| v).collect();
    let refused: Vec<&Value> = [&a, &b].into_iter().filter(|(s, _)| *s == 409).map(|(_, v)| v).collect();
    assert_eq!((made.len(), refused.len()), (1, 1), "one letter, one refusal: {a:?} {b:?}");
    let mut sent: Vec<i64> =
        made[0]["data"]["items"].as_array().unwrap().iter().map(|i| i["depositId"].as_i64().unwrap()).collect();
    sent.sort();
    assert_eq!(sent, ids, "every deposit in the one letter");
    let listed = json(d.server.get_auth(paths::CASH_LETTERS, &d.writer).await).await;
    assert_eq!(listed["data"]["totalElements"], 1, "{listed}");
    // The refused request may have written its file before it lost the race to record it
    // (then its 409 says deposits_changed): that file is removed, not left unreferenced.
    let files: Vec<String> =
        objects(&d, "cash-letters").await.into_iter().filter(|o| !o.starts_with("cash-letters/incoming")).collect();
    assert_eq!(files, vec![made[0]["data"]["fileSha256"].as_str().map(|h| format!("cash-letters/{h}.x937")).unwrap()]);
}

async fn a_cash_letter_refuses_what_it_cannot_send_and_names_it(backend: Backend) {
    let d = desk(backend).await;
    let (status, body) = post(&d, &d.admin, paths::CASH_LETTERS, &json!({"businessDate": today()})).await;
    assert_eq!(status, 409, "{body}");
    assert!(body.to_string().contains("nothing to send"), "{body}");

    let waiting = deposit(&d, 7, 500, false).await;
    let (status, body) = post(&d, &d.admin, paths::CASH_LETTERS, &json!({"depositIds": [waiting]})).await;
    assert_eq!(status, 409, "{body}");
    assert!(body.to_string().contains(&format!("deposit {waiting} is In_Progress_1, not Confirmed_2")), "{body}");

    let (status, body) = post(&d, &d.admin, paths::CASH_LETTERS, &json!({"depositIds": [987654]})).await;
    assert_eq!(status, 404, "{body}");
    assert!(body.to_string().contains("987654"), "{body}");

    let (status, body) =
        post(&d, &d.admin, paths::CASH_LETTERS, &json!({"depositIds": [waiting], "businessDate": today()})).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = post(&d, &d.admin, paths::CASH_LETTERS, &json!({"businessDate": "2026-02-30"})).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.to_string().contains("businessDate"), "{body}");

    let (status, _) = post(&d, &d.writer, paths::CASH_LETTERS, &json!({"businessDate": today()})).await;
    assert_eq!(status, 403, "making a cash letter sends deposits: admin only");
}

#[tokio::test]
async fn a_bank_asking_for_ebcdic_gets_the_letter_in_code_page_037() {
    let d = desk_on(Server::start_with(|c| c.cash_letters.encoding = moneydesk_x9::Encoding::Ebcdic).await).await;
    let first = deposit(&d, 1, 4_200, true).await;
    let (status, made) = post(&d, &d.admin, paths::CASH_LETTERS, &json!({"depositIds": [first]})).await;
    assert_eq!(status, 201, "{made}");
    let id = made["data"]["id"].as_i64().unwrap();
    let bytes = d
        .server
        .get_auth(&paths::CASH_LETTER_FILE.replace("{id}", &id.to_string()), &d.writer)
        .await
        .bytes()
        .await
        .unwrap();
    // Each record starts with its 4-byte length, then the type: "01" is F0 F1 in EBCDIC.
    assert_eq!(&bytes[4..6], &[0xF0, 0xF1], "the file header's type in EBCDIC");
    let (file, problems) = moneydesk_x9::read_file(&bytes);
    assert!(problems.iter().all(|p| p.severity != moneydesk_x9::Severity::Error), "{problems:#?}");
    assert_eq!(file.encoding, Some(moneydesk_x9::Encoding::Ebcdic));
    let items: Vec<_> = file.items().collect();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].detail.item_amount, 4_200);
    assert_eq!(items[0].detail.payor_bank_routing(), "021090028", "fields read back from EBCDIC");
    assert_eq!(items[0].images.len(), 2);
}

async fn a_letter_of_more_checks_than_a_bundle_streams_into_bundles_and_is_stored_whole(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let d = desk_on(
        Server::start_in_dir(dir, |c| {
            c.database_url = url;
            c.cash_letters.bundle_items = 2;
        })
        .await,
    )
    .await;
    let mut ids = Vec::new();
    for n in 0..5 {
        ids.push(deposit(&d, n, 100 + n, true).await);
    }
    let (status, made) = post(&d, &d.admin, paths::CASH_LETTERS, &json!({"businessDate": today()})).await;
    assert_eq!(status, 201, "{made}");
    let letter = &made["data"];
    assert_eq!((letter["itemCount"].as_u64(), letter["bundleCount"].as_u64()), (Some(5), Some(3)), "{letter}");
    let bundles: Vec<u64> = letter["items"].as_array().unwrap().iter().map(|i| i["bundle"].as_u64().unwrap()).collect();
    assert_eq!(bundles, vec![1, 1, 2, 2, 3], "two checks a bundle, the last one short");

    let id = letter["id"].as_i64().unwrap();
    let r = d.server.get_auth(&paths::CASH_LETTER_FILE.replace("{id}", &id.to_string()), &d.writer).await;
    assert_eq!(r.status(), 200);
    let bytes = r.bytes().await.unwrap();
    assert_eq!(letter["fileBytes"].as_u64(), Some(bytes.len() as u64), "the size counted as it streamed");
    assert_eq!(
        letter["fileSha256"].as_str().unwrap(),
        hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&bytes)),
        "the hash taken as it streamed is the stored file's"
    );
    let (file, problems) = moneydesk_x9::read_file(&bytes);
    let errors: Vec<_> = problems.iter().filter(|p| p.severity == moneydesk_x9::Severity::Error).collect();
    assert!(errors.is_empty(), "every bundle's and the letter's controls add up: {errors:#?}");
    let amounts: Vec<u64> = file.items().map(|i| i.detail.item_amount).collect();
    assert_eq!(amounts, vec![100, 101, 102, 103, 104], "every check, in order");
    assert_eq!(objects(&d, "cash-letters/incoming").await, Vec::<String>::new(), "nothing left incoming");
}

async fn a_check_that_cannot_be_written_mid_letter_stops_it_and_leaves_no_file_and_no_letter(backend: Backend) {
    use base64::Engine;
    let d = desk(backend).await;
    // Seeds whose pictures no other side shares (`check_png` draws nine patterns, by seed mod 9).
    let ids = [deposit(&d, 0, 100, true).await, deposit(&d, 4, 200, true).await, deposit(&d, 6, 300, true).await];
    // The second deposit's stored front picture is damaged after it was taken: the first check
    // is already in the file when the second is found not to decode.
    let png = base64::engine::general_purpose::STANDARD.decode(check_png(4)).unwrap();
    let path = format!("deposits/images/{}.png", hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&png)));
    let blobs = &d.server.running.state.blobs;
    let damaged = object_store::PutPayload::from(b"not a picture any more".to_vec());
    blobs.put(&object_store::path::Path::from(path.as_str()), damaged).await.unwrap();

    let (status, body) = post(&d, &d.admin, paths::CASH_LETTERS, &json!({"businessDate": today()})).await;
    assert_eq!(status, 409, "{body}");
    assert!(body.to_string().contains(&format!("deposit {}'s stored image does not decode", ids[1])), "{body}");
    assert_eq!(objects(&d, "cash-letters").await, Vec::<String>::new(), "no file, whole or in part");
    let listed = json(d.server.get_auth(paths::CASH_LETTERS, &d.writer).await).await;
    assert_eq!(listed["data"]["totalElements"], 0, "no letter: {listed}");
    for id in ids {
        assert_eq!(status_of(&d, id).await, "Confirmed_2", "deposit {id} was not sent");
    }
}

async fn an_unfinished_letter_file_left_by_a_crash_is_swept(backend: Backend) {
    let d = desk(backend).await;
    let state = &d.server.running.state;
    let left = object_store::path::Path::from("cash-letters/incoming/left-by-a-crash");
    state.blobs.put(&left, object_store::PutPayload::from(b"half a letter".to_vec())).await.unwrap();
    // On the local store, a multipart upload's part is a file beside the objects.
    let part = state.blob_dir.as_ref().map(|root| root.join("cash-letters/incoming/another#1"));
    if let Some(part) = &part {
        std::fs::write(part, b"a part").unwrap();
    }
    let removed = moneydesk_server::vault::blobs::sweep_all(
        &state.blobs,
        &state.stores.vault,
        std::time::Duration::ZERO,
        state.blob_dir.as_deref(),
    )
    .await
    .unwrap();
    assert_eq!(removed, 1 + usize::from(part.is_some()), "the object and the part");
    assert_eq!(objects(&d, "cash-letters").await, Vec::<String>::new());
    assert!(part.is_none_or(|p| !p.exists()));
}

/// The letters' files (`cash-letters/<sha256>.x937`) and the letters recorded, once both have
/// stopped changing (a letter whose client hung up is still being made for a moment).
async fn files_and_letters(d: &Desk) -> (usize, u64) {
    let mut last = (usize::MAX, u64::MAX);
    for _ in 0..100 {
        let files = objects(d, "cash-letters").await.iter().filter(|p| p.ends_with(".x937")).count();
        let listed = json(d.server.get_auth(paths::CASH_LETTERS, &d.writer).await).await;
        let now = (files, listed["data"]["totalElements"].as_u64().unwrap());
        if now == last && files as u64 == now.1 {
            return now;
        }
        last = now;
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    last
}

async fn a_client_hanging_up_at_any_moment_leaves_a_whole_letter_or_none_and_no_file_alone(backend: Backend) {
    let d = desk(backend).await;
    // How long a letter of four checks takes here, to hang up at points all through it.
    for n in 0..4 {
        deposit(&d, n, 100 + n, true).await;
    }
    let started = std::time::Instant::now();
    let (status, made) = post(&d, &d.admin, paths::CASH_LETTERS, &json!({"businessDate": today()})).await;
    assert_eq!(status, 201, "{made}");
    let whole = started.elapsed();

    let mut hung_up = 0;
    for (round, fifths) in (1..=4u32).enumerate() {
        for n in 0..4 {
            deposit(&d, 10 * (round as u32 + 1) + n, 200 + n, true).await;
        }
        let impatient = reqwest::Client::builder().timeout(whole * fifths / 5).build().unwrap();
        let asked = impatient
            .post(d.server.url(paths::CASH_LETTERS))
            .bearer_auth(&d.admin)
            .json(&json!({"businessDate": today()}))
            .send()
            .await;
        hung_up += usize::from(asked.as_ref().is_err_and(reqwest::Error::is_timeout));
    }
    assert!(hung_up > 0, "the client hung up before an answer at least once");

    // Whatever a hung-up letter did not send is still confirmed and goes with the next one; a
    // letter still being made meanwhile may take a deposit first (409 deposits_changed: make
    // it again, as the answer says) until none is left to send.
    let mut left = 0;
    loop {
        let (status, rest) = post(&d, &d.admin, paths::CASH_LETTERS, &json!({"businessDate": today()})).await;
        match (status, rest["reason"].as_str()) {
            (201, _) => assert!(rest["data"]["itemCount"].as_u64().unwrap() > 0, "{rest}"),
            (409, Some("deposits_changed")) => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
            (409, Some("nothing_to_send")) => break,
            _ => panic!("{status} {rest}"),
        }
        left += 1;
        assert!(left < 50, "the confirmed deposits were sent in the end");
    }
    let (files, letters) = files_and_letters(&d).await;
    assert_eq!(files as u64, letters, "every stored letter file is a recorded letter's, and every letter has its file");
    assert_eq!(objects(&d, "cash-letters/incoming").await, Vec::<String>::new(), "nothing left incoming");
    let listed = json(d.server.get_auth(&format!("{}?size=100", paths::CASH_LETTERS), &d.writer).await).await;
    let sent: u64 =
        listed["data"]["content"].as_array().unwrap().iter().map(|l| l["itemCount"].as_u64().unwrap()).sum();
    assert_eq!(sent, 20, "each of the twenty checks in exactly one letter: {listed}");
}
