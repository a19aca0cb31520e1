//! `kill -9` of the server binary during a vault upload and during folder moves, then a
//! restart on the same data: nothing half-done is visible, and the sweeper (grace 0 here)
//! leaves no unfinished upload and no unreferenced content behind. The upload also on the
//! scale-out arrangement (PostgreSQL and an S3 bucket).

use crate::common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::json;
use common::process::Process;
use moneydesk_model::paths;

/// The server binary on `data_dir` (SQLite there), the sweeper's grace 0.
async fn start(data_dir: &Path) -> Process {
    start_with(data_dir, &[]).await
}

/// The variables that put a server on PostgreSQL `url` and the S3 bucket `b`.
fn scaled(url: &str, b: &moneydesk_server::storage::blobs::S3Config) -> Vec<(&'static str, String)> {
    let (id, secret) = b.access_key.clone().unwrap();
    vec![
        ("MONEYDESK_DATABASE_URL", url.to_string()),
        ("MONEYDESK_S3_BUCKET", b.bucket.clone()),
        ("MONEYDESK_S3_PREFIX", b.prefix.clone().unwrap()),
        ("MONEYDESK_S3_ENDPOINT", b.endpoint.clone().unwrap()),
        ("AWS_ACCESS_KEY_ID", id),
        ("AWS_SECRET_ACCESS_KEY", secret),
    ]
}

async fn start_with(data_dir: &Path, env: &[(&'static str, String)]) -> Process {
    let mut env = env.to_vec();
    env.push(("MONEYDESK_VAULT_SWEEP_GRACE", "0".into()));
    common::process::start(data_dir, &env).await
}

async fn token(data_dir: &Path) -> String {
    let out = common::cli(
        data_dir,
        &["token", "create", "--name", "alice", "--scope", "vault:read", "--scope", "vault:write"],
    )
    .await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

async fn call(base: &str, method: reqwest::Method, path: &str, token: &str) -> (u16, serde_json::Value) {
    let r = reqwest::Client::new().request(method, format!("{base}{path}")).bearer_auth(token).send().await.unwrap();
    (r.status().as_u16(), json(r).await)
}

async fn names(base: &str, token: &str, folder: &str) -> Option<Vec<String>> {
    let path = format!("{}?path={folder}&size=500", paths::VAULT_FOLDER_CONTENTS.replace("{userId}", "alice"));
    let (status, body) = call(base, reqwest::Method::GET, &path, token).await;
    (status == 200).then(|| {
        body["data"]["content"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap().to_string()).collect()
    })
}

/// Objects under the blob store's vault area: (unfinished uploads, contents).
fn blobs(data_dir: &Path) -> (usize, usize) {
    let count = |sub: &str| std::fs::read_dir(data_dir.join("blobs/vault").join(sub)).map(|d| d.count()).unwrap_or(0);
    (count("incoming"), count("sha256"))
}

#[tokio::test]
async fn a_kill_during_an_upload_leaves_no_file_and_the_sweeper_no_blob() {
    let dir = tempfile::tempdir().unwrap();
    let token = token(dir.path()).await;
    let server = start(dir.path()).await;
    // A body that sends 11 MiB and then waits: past the 10 MiB the server buffers, so the
    // upload is being written to the blob store when the server dies.
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(16);
    let boundary = "moneydesk-crash-test";
    tx.send(Ok(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n").into_bytes())).await.unwrap();
    for _ in 0..11 {
        tx.send(Ok(vec![42u8; 1 << 20])).await.unwrap();
    }
    let body = reqwest::Body::wrap_stream(tokio_stream_from(rx));
    let url = format!("{}{}?path=", server.base, paths::VAULT_FILE.replace("{userId}", "alice"));
    let upload = tokio::spawn(
        reqwest::Client::new()
            .post(url)
            .bearer_auth(&token)
            .header("content-type", format!("multipart/form-data; boundary={boundary}"))
            .body(body)
            .send(),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while blobs(dir.path()).0 == 0 {
        assert!(Instant::now() < deadline, "the upload never reached the blob store");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.kill_9();
    let _ = upload.await;
    drop(tx);
    assert_eq!(blobs(dir.path()).0, 1, "the crash left the unfinished upload behind");

    let server = start(dir.path()).await;
    assert_eq!(names(&server.base, &token, "").await, Some(vec![]), "no half-uploaded file is visible");
    let deadline = Instant::now() + Duration::from_secs(20);
    while blobs(dir.path()) != (0, 0) {
        assert!(Instant::now() < deadline, "the sweeper left {:?} behind", blobs(dir.path()));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.kill_9();
}

/// The same on PostgreSQL and S3, killed once the upload's first part is in the bucket (an S3
/// multipart upload is invisible until completed): after the restart no file is visible and
/// the bucket holds no object of the upload (its parts are the bucket's lifecycle rule's to
/// abort, as on any S3 store).
#[tokio::test]
async fn a_kill_during_an_upload_to_s3_leaves_no_file_and_no_object() {
    let dir = tempfile::tempdir().unwrap();
    let url = common::postgres::fresh_database().await;
    let bucket = common::s3::fresh_bucket();
    let env = scaled(&url, &bucket);
    let out = Command::new(env!("CARGO_BIN_EXE_moneydesk-server"))
        .args(["token", "create", "--name", "alice", "--scope", "vault:read", "--scope", "vault:write"])
        .env_clear()
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .env("MONEYDESK_DATA_DIR", dir.path())
        .env("MONEYDESK_LOG", "warn")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let token = String::from_utf8(out.stdout).unwrap().trim().to_string();
    let server = start_with(dir.path(), &env).await;
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(1);
    let boundary = "moneydesk-crash-test";
    let body = reqwest::Body::wrap_stream(tokio_stream_from(rx));
    let upload = tokio::spawn(
        reqwest::Client::new()
            .post(format!("{}{}?path=", server.base, paths::VAULT_FILE.replace("{userId}", "alice")))
            .bearer_auth(&token)
            .header("content-type", format!("multipart/form-data; boundary={boundary}"))
            .body(body)
            .send(),
    );
    tx.send(Ok(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n").into_bytes())).await.unwrap();
    for _ in 0..11 {
        tx.send(Ok(vec![42u8; 1 << 20])).await.unwrap();
    }
    // Past the 10 MiB buffered, the first part goes to the bucket: the kill comes mid-upload.
    let deadline = Instant::now() + Duration::from_secs(20);
    while common::s3::multipart_parts() == 0 {
        assert!(Instant::now() < deadline, "the upload never reached the bucket");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.kill_9();
    let _ = upload.await;
    drop(tx);

    let server = start_with(dir.path(), &env).await;
    assert_eq!(names(&server.base, &token, "").await, Some(vec![]), "no half-uploaded file is visible");
    let objects = |sub: &str| {
        let d = common::s3::bucket_dir(&bucket).join("moneydesk/vault").join(sub);
        std::fs::read_dir(d).map(|d| d.filter_map(Result::ok).filter(|e| e.path().is_file()).count()).unwrap_or(0)
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!((objects("incoming"), objects("sha256")), (0, 0), "no object of the upload in the bucket");
    server.kill_9();
}

fn tokio_stream_from(
    mut rx: tokio::sync::mpsc::Receiver<Result<Vec<u8>, std::io::Error>>,
) -> impl futures_util::Stream<Item = Result<Vec<u8>, std::io::Error>> {
    futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx))
}

#[tokio::test]
async fn a_kill_during_folder_moves_leaves_each_tree_whole_at_one_place() {
    let dir = tempfile::tempdir().unwrap();
    let token = token(dir.path()).await;
    let mut server = start(dir.path()).await;
    let folder = paths::VAULT_FOLDER.replace("{userId}", "alice");
    for i in 0..40 {
        let (status, body) =
            call(&server.base, reqwest::Method::POST, &format!("{folder}?path=tree/sub{i:02}&name=leaf"), &token).await;
        assert_eq!(status, 200, "{body}");
    }
    let mv = paths::VAULT_FOLDER_MOVE.replace("{userId}", "alice");
    for (round, delay_us) in [0u64, 300, 1000, 3000, 8000].into_iter().enumerate() {
        let here = names(&server.base, &token, "").await.unwrap();
        let from = here[0].clone();
        let to = format!("moved{round}");
        let base = server.base.clone();
        let (t, m) = (token.clone(), format!("{mv}?path={from}&newPath={to}"));
        let request = tokio::spawn(async move { call(&base, reqwest::Method::POST, &m, &t).await });
        tokio::time::sleep(Duration::from_micros(delay_us)).await;
        server.kill_9();
        let _ = request.await;
        server = start(dir.path()).await;
        let now = names(&server.base, &token, "").await.unwrap();
        assert!(
            now == [from.clone()] || now == [to.clone()],
            "round {round}: the tree is at one place, not both or neither: {now:?}"
        );
        let subs = names(&server.base, &token, &now[0]).await.unwrap();
        assert_eq!(subs.len(), 40, "round {round}: every subfolder moved with it or none did");
        for s in ["sub00", "sub39"] {
            assert_eq!(
                names(&server.base, &token, &format!("{}/{s}", now[0])).await.unwrap(),
                ["leaf"],
                "round {round}"
            );
        }
    }
    server.kill_9();
}
