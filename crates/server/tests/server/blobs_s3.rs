//! The blob store on S3 (the tests' s3s-fs server): objects land in the bucket under the
//! configured prefix; `/readyz` names the store and is a 503 naming it when it cannot be
//! reached; `/healthz` answers either way.

use crate::common;

use common::{s3, Server};
use moneydesk_model::email::send::encode_base64;
use moneydesk_model::{paths, Scope};
use moneydesk_server::storage::blobs::BlobConfig;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

async fn get(s: &Server, path: &str) -> (u16, Value) {
    let r = s.client.get(s.url(path)).send().await.unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn an_attachment_is_an_object_in_the_bucket_and_readyz_names_the_store() {
    let bucket = s3::fresh_bucket();
    let c = bucket.clone();
    let s = Server::start_with(move |config| config.blobs = BlobConfig::S3(c)).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let bytes = b"%PDF-1.7 a statement stored on S3";
    let body = json!({"from": {"email": "ops@moneydesk.test"}, "subject": "S3", "content": [{"type": "text/plain", "value": "x"}],
        "attachments": [{"content": encode_base64(bytes), "filename": "s.pdf", "type": "application/pdf"}],
        "personalizations": [{"to": [{"email": "zoe@client.example"}]}]});
    let r = s.client.post(s.url(paths::EMAIL_SEND)).bearer_auth(&t).json(&body).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 202);
    let object = s3::bucket_dir(&bucket).join("moneydesk/email/sha256").join(hex::encode(Sha256::digest(bytes)));
    assert_eq!(std::fs::read(&object).expect("the object in the bucket, under the prefix"), bytes);
    assert!(!s.dir.path().join("blobs/email").exists(), "nothing on the local disk");

    let (status, ready) = get(&s, "/readyz").await;
    assert_eq!(status, 200, "{ready}");
    assert_eq!(ready["checks"]["blobs"]["ok"], true);
    assert!(
        ready["checks"]["blobs"]["detail"].as_str().unwrap().starts_with(&format!("s3://{}/moneydesk", bucket.bucket)),
        "{ready}"
    );
    assert_eq!(ready["checks"]["database"]["ok"], true);
    assert_eq!(ready["checks"]["routing"]["ok"], true);
}

#[tokio::test]
async fn readyz_is_a_503_naming_a_store_it_cannot_reach_and_healthz_still_answers() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let mut bucket = s3::fresh_bucket();
    bucket.endpoint = Some(format!("http://{}", closed.local_addr().unwrap()));
    drop(closed);
    let s = Server::start_with(move |config| config.blobs = BlobConfig::S3(bucket)).await;
    let (status, ready) = get(&s, "/readyz").await;
    assert_eq!(status, 503, "{ready}");
    assert_eq!(ready["status"], "not ready");
    assert_eq!(ready["checks"]["blobs"]["ok"], false);
    assert_eq!(ready["checks"]["database"]["ok"], true, "only the store is named");
    let (status, health) = get(&s, "/healthz").await;
    assert_eq!((status, health), (200, json!({"status": "ok"})));
}
