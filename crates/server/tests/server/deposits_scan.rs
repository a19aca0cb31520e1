//! Scanning a check over real HTTP on both backends: a real check photo from ../shared is
//! scanned (quality findings, grayscale and G4 sides stored, the MICR line read with the
//! routing number checked and named from the directory), a deposit then names the scan instead
//! of sending images (and only once), and every refusal names its reason: an unknown sleeve
//! account, a missing field, broken base64, an image too small or too large.

use crate::common;

use base64::Engine;
use common::{json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use serde_json::{json, Value};

struct Desk {
    server: Server,
    writer: String,
    sleeve: Account,
    payee: Account,
}

async fn desk(backend: Backend) -> Desk {
    let server = Server::start_on(backend).await;
    let accounts: Vec<Account> = Accounts::new(3, 11).collect();
    let mut w = server.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let writer = server.token(&[Scope::DepositsRead, Scope::DepositsWrite]).await;
    Desk { server, writer, sleeve: accounts[0].clone(), payee: accounts[1].clone() }
}

fn shared(name: &str) -> String {
    let path = format!("{}/../../../shared/data/checks/full/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

async fn scan(d: &Desk, sleeve: &str, body: &Value) -> (u16, Value) {
    let (status, text) = scan_text(d, sleeve, body).await;
    (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")))
}

/// The answer as sent (a JSON number's trailing zeros are lost once parsed).
async fn scan_text(d: &Desk, sleeve: &str, body: &Value) -> (u16, String) {
    let path = paths::DEPOSITS_CHECK_SCAN.replace("{smaSfid}", sleeve);
    let r = d.server.client.post(d.server.url(&path)).bearer_auth(&d.writer).json(body).send().await.unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

async fn deposit(d: &Desk, body: &Value) -> (u16, Value) {
    let r = d
        .server
        .client
        .post(d.server.url(paths::DEPOSITS_CHECK))
        .bearer_auth(&d.writer)
        .json(body)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), json(r).await)
}

/// The sample check photographed on a dark table: 1,000 × 459 pixels of check in the middle of
/// a 1,600 × 1,000 picture, as a JPEG.
fn on_a_table(name: &str) -> String {
    let path = format!("{}/../../../shared/data/checks/full/{name}", env!("CARGO_MANIFEST_DIR"));
    let check = image::open(&path).unwrap().to_rgb8();
    let mut photo =
        image::RgbImage::from_fn(1600, 1000, |x, y| image::Rgb([40 + ((x * 7 + y * 13) % 11) as u8, 36, 33]));
    image::imageops::overlay(&mut photo, &check, 300, 270);
    let mut bytes = Vec::new();
    image::DynamicImage::ImageRgb8(photo)
        .write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Jpeg)
        .unwrap();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

on_both_backends!(
    a_scanned_check_is_measured_stored_and_its_micr_line_read,
    a_deposit_names_its_scan_once_and_becomes_a_check_scan,
    a_scan_refuses_what_it_cannot_use_and_names_why,
);

async fn a_scanned_check_is_measured_stored_and_its_micr_line_read(backend: Backend) {
    let d = desk(backend).await;
    // The Deluxe sample check (MICR ⑆000067894⑆12345678⑈0101): routing 000067894 passes the
    // checksum but is no bank in the directory.
    let front = shared("07_tmannherz_check1_deluxe_sample.jpg");
    let (status, text) =
        scan_text(&d, &d.sleeve.id, &json!({"amount": 12.5, "frontimage": front, "rearimage": front})).await;
    assert_eq!(status, 200, "{text}");
    assert!(text.contains(r#""amount":12.50"#), "the amount with exactly two decimals: {text}");
    let body: Value = serde_json::from_str(&text).unwrap();
    let s = &body["data"];
    assert!(s["scanId"].as_str().unwrap().starts_with("scn_"), "{s}");
    assert_eq!(s["smaSfid"], d.sleeve.id);
    for side in ["front", "rear"] {
        let side = &s[side];
        assert_eq!(side["width"], 1000, "a picture under 200 dpi of a 6-inch check is kept as it is: {side}");
        assert!(side["grayscaleBytes"].as_u64().unwrap() > 10_000, "{side}");
        assert!(side["bitonalBytes"].as_u64().unwrap() > 1_000, "{side}");
        assert!(side["findings"].is_array());
    }
    let micr = &s["micr"];
    assert_eq!(micr["routingNumber"]["value"], "000067894", "{micr}");
    assert_eq!(micr["routingValid"], true);
    assert_eq!(micr["accountNumber"]["value"], "12345678", "{micr}");
    assert_eq!(micr["checkNumber"]["value"], "0101", "{micr}");
    assert!(micr["line"].as_str().unwrap().contains('⑆'), "{micr}");
}

#[tokio::test]
async fn a_photo_of_the_check_on_a_table_is_cropped_to_the_check_before_it_is_kept_and_read() {
    let d = desk(Backend::Sqlite).await;
    let photo = on_a_table("07_tmannherz_check1_deluxe_sample.jpg");
    let (status, body) =
        scan(&d, &d.sleeve.id, &json!({"amount": "12.50", "frontimage": photo, "rearimage": photo})).await;
    assert_eq!(status, 200, "{body}");
    let front = &body["data"]["front"];
    let (w, h) = (front["width"].as_f64().unwrap(), front["height"].as_f64().unwrap());
    // The table is gone: the check's own 1,000 × 459 (2.18:1), not the photo's 1.6:1.
    assert!(
        (w - 1000.0).abs() <= 12.0 && (w / h - 1000.0 / 459.0).abs() < 0.05,
        "the stored side is the check alone: {front}"
    );
    let codes: Vec<&str> = front["findings"].as_array().unwrap().iter().map(|f| f["code"].as_str().unwrap()).collect();
    assert!(!codes.contains(&"not_check_shaped"), "{codes:?}");
    assert_eq!(body["data"]["micr"]["routingNumber"]["value"], "000067894", "{body}");
}

async fn a_deposit_names_its_scan_once_and_becomes_a_check_scan(backend: Backend) {
    let d = desk(backend).await;
    let front = shared("07_tmannherz_check1_deluxe_sample.jpg");
    let (status, body) =
        scan(&d, &d.sleeve.id, &json!({"amount": "250.00", "frontimage": front, "rearimage": front})).await;
    assert_eq!(status, 200, "{body}");
    let scan_id = body["data"]["scanId"].as_str().unwrap().to_string();
    let mut request = json!({
        "amount": "250.00", "bankRoutingNumber": "021090028", "bankAccountNumber": "12345678", "checkNumber": "101",
        "payeeAccountId": d.payee.id, "payeeUserId": "usr-1", "scanId": scan_id,
    });
    let (status, record) = deposit(&d, &request).await;
    assert_eq!(status, 201, "{record}");
    assert_eq!(record["sleeveAccountId"], d.sleeve.id, "the scan's sleeve account is the deposit's");
    let id = record["id"].as_i64().unwrap();
    let r = d.server.get_auth(&paths::DEPOSIT.replace("{id}", &id.to_string()), &d.writer).await;
    let detail = json(r).await;
    assert_eq!(detail["data"]["serviceType"], "Check_Scan", "{detail}");
    let front_image = d
        .server
        .get_auth(&paths::DEPOSIT_IMAGE.replace("{id}", &id.to_string()).replace("{side}", "front"), &d.writer)
        .await;
    assert_eq!(front_image.status(), 200);
    assert_eq!(front_image.headers()["content-type"], "image/jpeg", "the scan's grayscale JPEG");

    request["checkNumber"] = json!("102");
    let (status, again) = deposit(&d, &request).await;
    assert_eq!(status, 409, "{again}");
    assert!(again.to_string().contains(&format!("deposit {id}")), "names the first deposit: {again}");

    request["amount"] = json!("251.00");
    request["checkNumber"] = json!("103");
    let (status, wrong) = deposit(&d, &request).await;
    assert_eq!(status, 400, "{wrong}");
    assert!(wrong.to_string().contains("was made for 250.00"), "{wrong}");

    let (status, both) = deposit(&d, &json!({"scanId": scan_id, "checkFrontImage": front, "amount": "1"})).await;
    assert_eq!(status, 400);
    assert!(both.to_string().contains("give scanId or checkFrontImage and checkBackImage, not both"), "{both}");
}

async fn a_scan_refuses_what_it_cannot_use_and_names_why(backend: Backend) {
    let d = desk(backend).await;
    let front = shared("07_tmannherz_check1_deluxe_sample.jpg");
    let (status, body) =
        scan(&d, "no-such-account", &json!({"amount": 1, "frontimage": front, "rearimage": front})).await;
    assert_eq!(status, 404, "{body}");
    assert!(body.to_string().contains("no-such-account"), "{body}");

    let (status, body) = scan(&d, &d.sleeve.id, &json!({"amount": 0, "frontimage": front})).await;
    assert_eq!(status, 400);
    let text = body.to_string();
    assert!(text.contains("greater than zero") && text.contains("rearimage is required"), "every field named: {body}");

    let (status, body) =
        scan(&d, &d.sleeve.id, &json!({"amount": 1, "frontimage": "not base64!", "rearimage": front})).await;
    assert_eq!(status, 400);
    assert!(body.to_string().contains("frontimage"), "{body}");

    let mut tiny = Vec::new();
    image::GrayImage::new(1, 1).write_to(&mut std::io::Cursor::new(&mut tiny), image::ImageFormat::Png).unwrap();
    let tiny = base64::engine::general_purpose::STANDARD.encode(tiny);
    let (status, body) = scan(&d, &d.sleeve.id, &json!({"amount": 1, "frontimage": front, "rearimage": tiny})).await;
    assert_eq!(status, 400);
    assert!(body.to_string().contains("rearimage") && body.to_string().contains("too small"), "{body}");

    let huge = "A".repeat(15 * 1024 * 1024);
    let (status, body) = scan(&d, &d.sleeve.id, &json!({"amount": 1, "frontimage": huge, "rearimage": front})).await;
    assert_eq!(status, 413, "{body}");
}
