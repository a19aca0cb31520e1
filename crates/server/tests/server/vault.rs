//! The document vault over real HTTP on both backends: folders created, listed, moved and
//! deleted with their counts; path attacks refused; files with versions, ranges and ETags;
//! zips read back by `unzip`; one user's token kept out of another's vault; contents stored
//! once and removed when nothing references them.

use crate::common;
use crate::vault_support;

use common::Backend;
use moneydesk_model::{paths, Scope};
use vault_support::{at, q, vault, vault_with};

on_both_backends!(
    folders_are_created_like_mkdir_p_listed_moved_with_everything_inside_and_deleted_with_their_counts,
    a_move_into_its_own_subtree_onto_an_existing_folder_or_of_a_missing_one_is_refused,
    two_concurrent_moves_of_one_folder_have_exactly_one_winner,
    files_keep_their_versions_and_download_with_ranges_and_etags,
    one_users_token_cannot_reach_another_users_vault_but_an_admin_can,
    a_zip_of_folders_unzips_to_the_same_bytes_with_unicode_names,
    identical_contents_are_stored_once_and_removed_when_nothing_references_them,
);

async fn folders_are_created_like_mkdir_p_listed_moved_with_everything_inside_and_deleted_with_their_counts(
    backend: Backend,
) {
    let v = vault(backend).await;
    let (status, body) = v.mkdir("alice", "Clients/Acme", "2026", &v.alice).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["path"], "Clients/Acme/2026");
    assert_eq!(v.names("alice", "/").await, ["Clients"], "the missing parents were created");
    assert_eq!(v.names("alice", "Clients").await, ["Acme"]);
    let (status, body) = v.mkdir("alice", "Clients/Acme", "2026", &v.alice).await;
    assert_eq!(status, 409, "the same folder again: {body}");
    // NFD and NFC spellings of a name are one folder.
    assert_eq!(v.mkdir("alice", "", "Caf\u{e9}", &v.alice).await.0, 200);
    let (status, body) = v.mkdir("alice", "", "Cafe\u{301}", &v.alice).await;
    assert_eq!(status, 409, "NFD spelling of an existing NFC name: {body}");

    for (name, bytes) in [("invoice.pdf", b"%PDF-1.7 one".to_vec()), ("notes.txt", b"two".to_vec())] {
        let (status, body) = v.upload("alice", "Clients/Acme/2026", name, bytes, &v.alice).await;
        assert_eq!(status, 200, "{body}");
    }
    let (_, body) = v.ls("alice", "Clients/Acme/2026", &v.alice).await;
    let entries = body["data"]["content"].as_array().unwrap();
    assert_eq!(body["data"]["totalElements"], 2);
    assert_eq!(entries[0]["name"], "invoice.pdf");
    assert_eq!(
        (entries[0]["kind"].as_str(), entries[0]["contentType"].as_str()),
        (Some("file"), Some("application/pdf"))
    );
    assert_eq!(entries[0]["size"], 12);

    let (status, body) = v.mv("alice", "Clients/Acme", "Archive/Acme Corp", &v.alice).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!((body["data"]["files"].as_u64(), body["data"]["folders"].as_u64()), (Some(2), Some(1)), "{body}");
    assert_eq!(v.names("alice", "Archive/Acme Corp/2026").await, ["invoice.pdf", "notes.txt"], "files moved with it");
    assert_eq!(v.ls("alice", "Clients/Acme", &v.alice).await.0, 404, "nothing left at the old path");
    assert!(v.names("alice", "Clients").await.is_empty());

    let (_, record) = v.folder("alice", "Archive").await;
    assert_eq!(
        (
            record["data"]["folders"].as_u64(),
            record["data"]["files"].as_u64(),
            record["data"]["versions"].as_u64(),
            record["data"]["bytes"].as_u64()
        ),
        (Some(2), Some(2), Some(2), Some(15)),
        "the confirmation's counts: {record}"
    );
    let (status, body) = v.delete("alice", &["Archive", "Clients"], &v.alice).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"][0]["files"], 2, "what went: {body}");
    assert_eq!(v.names("alice", "").await, ["Café"]);
    let (status, body) = v.delete("alice", &["Café", "Nowhere"], &v.alice).await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(v.names("alice", "").await, ["Café"], "a missing folder deletes none");
}

async fn a_move_into_its_own_subtree_onto_an_existing_folder_or_of_a_missing_one_is_refused(backend: Backend) {
    let v = vault(backend).await;
    v.mkdir("alice", "a/b", "c", &v.alice).await;
    v.mkdir("alice", "", "d", &v.alice).await;
    let (status, body) = v.mv("alice", "a", "a/b/c/a", &v.alice).await;
    assert_eq!(status, 409, "into its own subtree: {body}");
    assert!(body["errorMessage"].as_str().unwrap().contains("inside"), "{body}");
    assert_eq!(v.mv("alice", "a", "a", &v.alice).await.0, 409, "onto itself");
    let (status, body) = v.mv("alice", "a/b", "d", &v.alice).await;
    assert_eq!(status, 409, "onto an existing folder: {body}");
    assert_eq!(v.mv("alice", "nowhere", "e", &v.alice).await.0, 404);
    v.upload("alice", "d", "report", b"x".to_vec(), &v.alice).await;
    assert_eq!(v.mv("alice", "a", "d/report", &v.alice).await.0, 409, "onto a file's name");
    assert_eq!(v.names("alice", "a/b").await, ["c"], "nothing moved");
    // A prefix that is not a parent: "ab" is not inside "a".
    assert_eq!(v.mv("alice", "a", "ab", &v.alice).await.0, 200);
    assert_eq!(v.names("alice", "ab/b").await, ["c"]);
}

async fn two_concurrent_moves_of_one_folder_have_exactly_one_winner(backend: Backend) {
    let v = vault(backend).await;
    v.mkdir("alice", "src/inner", "deep", &v.alice).await;
    v.upload("alice", "src/inner", "f.txt", b"f".to_vec(), &v.alice).await;
    let (one, two) = tokio::join!(v.mv("alice", "src", "left", &v.alice), v.mv("alice", "src", "right", &v.alice));
    let mut statuses = [one.0, two.0];
    statuses.sort();
    assert_eq!(statuses, [200, 404], "{one:?} {two:?}");
    let winner = if one.0 == 200 { "left" } else { "right" };
    let loser = if one.0 == 200 { "right" } else { "left" };
    assert_eq!(v.names("alice", &format!("{winner}/inner")).await, ["deep", "f.txt"]);
    assert_eq!(v.ls("alice", loser, &v.alice).await.0, 404);
    assert_eq!(v.names("alice", "").await, [winner]);
}

async fn files_keep_their_versions_and_download_with_ranges_and_etags(backend: Backend) {
    let v = vault(backend).await;
    v.upload("alice", "", "plan.txt", b"first plan".to_vec(), &v.alice).await;
    let (status, body) = v.upload("alice", "", "plan.txt", b"the second plan".to_vec(), &v.alice).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["versions"], 2, "the same name makes a new version: {body}");
    let (_, history) = v
        .send(reqwest::Method::GET, &format!("{}?path=plan.txt", at(paths::VAULT_FILE_VERSIONS, "alice")), &v.alice)
        .await;
    let versions: Vec<u64> =
        history["data"]["versions"].as_array().unwrap().iter().map(|x| x["version"].as_u64().unwrap()).collect();
    assert_eq!(versions, [2, 1], "newest first: {history}");
    assert_eq!(history["data"]["versions"][0]["uploadedBy"], "alice-laptop");

    let latest = v.download("alice", "plan.txt", "", &[]).await;
    assert_eq!(latest.status(), 200);
    let etag = latest.headers()["etag"].to_str().unwrap().to_string();
    assert!(latest.headers()["content-disposition"].to_str().unwrap().starts_with("attachment; filename=\"plan.txt\""));
    assert_eq!(latest.bytes().await.unwrap().as_ref(), b"the second plan");
    let first = v.download("alice", "plan.txt", "&version=1&inline=true", &[]).await;
    assert!(first.headers()["content-disposition"].to_str().unwrap().starts_with("inline"));
    assert_eq!(first.bytes().await.unwrap().as_ref(), b"first plan");
    let part = v.download("alice", "plan.txt", "", &[("range", "bytes=4-9")]).await;
    assert_eq!(part.status(), 206);
    assert_eq!(part.headers()["content-range"], "bytes 4-9/15");
    assert_eq!(part.bytes().await.unwrap().as_ref(), b"second");
    assert_eq!(v.download("alice", "plan.txt", "", &[("range", "bytes=99-")]).await.status(), 416);
    assert_eq!(v.download("alice", "plan.txt", "", &[("if-none-match", &etag)]).await.status(), 304);
    assert_eq!(v.download("alice", "plan.txt", "&version=3", &[]).await.status(), 404);

    // Rename and move, then delete; a folder's name cannot be taken by a file.
    v.mkdir("alice", "", "kept", &v.alice).await;
    let mv = format!("{}?path=plan.txt&newPath={}", at(paths::VAULT_FILE_MOVE, "alice"), q("kept/final plan.txt"));
    let (status, body) = v.send(reqwest::Method::POST, &mv, &v.alice).await;
    assert_eq!((status, body["data"]["versions"].as_u64()), (200, Some(2)), "{body}");
    assert_eq!(v.upload("alice", "", "kept", b"x".to_vec(), &v.alice).await.0, 409);
    assert_eq!(v.upload("alice", "missing", "x.txt", b"x".to_vec(), &v.alice).await.0, 404);
    let (status, body) = v.upload("alice", "", "..", b"x".to_vec(), &v.alice).await;
    assert_eq!(status, 400, "{body}");
    let del = format!("{}?path={}", at(paths::VAULT_FILE, "alice"), q("kept/final plan.txt"));
    let (status, body) = v.send(reqwest::Method::DELETE, &del, &v.alice).await;
    assert_eq!((status, body["data"]["versions"].as_array().map(Vec::len)), (200, Some(2)), "{body}");
    assert!(v.names("alice", "kept").await.is_empty());
}

async fn one_users_token_cannot_reach_another_users_vault_but_an_admin_can(backend: Backend) {
    let v = vault(backend).await;
    v.mkdir("alice", "", "private", &v.alice).await;
    v.upload("alice", "private", "salary.txt", b"secret".to_vec(), &v.alice).await;
    let zip = format!("{}?paths=private&name=x", at(paths::VAULT_FOLDER_DOWNLOAD, "alice"));
    let attempts = [
        (reqwest::Method::GET, format!("{}?path=private", at(paths::VAULT_FOLDER_CONTENTS, "alice"))),
        (reqwest::Method::GET, format!("{}?path=private/salary.txt", at(paths::VAULT_FILE, "alice"))),
        (reqwest::Method::POST, zip.clone()),
        (reqwest::Method::GET, at(paths::VAULT_USAGE, "alice")),
        (reqwest::Method::POST, format!("{}?path=private&newPath=mine", at(paths::VAULT_FOLDER_MOVE, "alice"))),
        (reqwest::Method::DELETE, format!("{}?paths=private&userId=alice", paths::VAULT_FOLDERS_DELETE)),
        (reqwest::Method::POST, format!("{}?path=&name=intruder", at(paths::VAULT_FOLDER, "alice"))),
    ];
    for (method, path) in &attempts {
        let (status, body) = v.send(method.clone(), path, &v.bob).await;
        assert_eq!(status, 403, "bob {method} {path}: {body}");
        assert!(body["errorMessage"].as_str().unwrap().contains("\"bob\""), "{body}");
    }
    assert_eq!(v.names("alice", "private").await, ["salary.txt"], "nothing changed");
    let (status, body) = v.send(reqwest::Method::GET, &attempts[0].1, &v.admin).await;
    assert_eq!((status, body["data"]["totalElements"].as_u64()), (200, Some(1)), "an admin reaches any vault: {body}");
    let (status, body) = v.ls("bob", "", &v.bob).await;
    assert_eq!((status, body["data"]["totalElements"].as_u64()), (200, Some(0)), "bob's own vault is his and empty");
    let reader = v.server.running.create_token_for("reader", "alice", &[Scope::VaultRead]).await.unwrap();
    assert_eq!(v.mkdir("alice", "", "x", &reader).await.0, 403, "vault:read cannot write");
    let r = v.server.client.post(v.server.url(&zip)).bearer_auth(&reader).send().await.unwrap();
    assert_eq!(r.status(), 200, "but can download");
    assert_eq!(r.headers()["content-type"], "application/zip");
}

async fn a_zip_of_folders_unzips_to_the_same_bytes_with_unicode_names(backend: Backend) {
    let v = vault(backend).await;
    let files: Vec<(&str, &str, Vec<u8>)> = vec![
        ("Relevés 2026", "janvier été.pdf", b"%PDF janvier".to_vec()),
        ("Relevés 2026/Q1", "données.csv", b"a,b\n1,2\n".to_vec()),
        ("Relevés 2026/Q1", "big.bin", (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect()),
        ("Other/Relevés 2026", "same name.txt", b"another folder of the same name".to_vec()),
    ];
    for (folder, name, bytes) in &files {
        v.mkdir(
            "alice",
            folder.rsplit_once('/').map(|x| x.0).unwrap_or(""),
            folder.rsplit('/').next().unwrap(),
            &v.alice,
        )
        .await;
        let (status, body) = v.upload("alice", folder, name, bytes.clone(), &v.alice).await;
        assert_eq!(status, 200, "{body}");
    }
    v.mkdir("alice", "Relevés 2026", "empty", &v.alice).await;
    assert_eq!(
        v.zip("alice", &["Relevés 2026", "nowhere"], "x").await.status(),
        404,
        "a missing folder: 404 before any byte"
    );
    let r = v.zip("alice", &["Relevés 2026", "Other/Relevés 2026"], "Relevés \"Q1\"").await;
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.headers()["content-disposition"].to_str().unwrap(),
        "attachment; filename=\"Relev_s _Q1_.zip\"; filename*=UTF-8''Relev%C3%A9s%20_Q1_.zip"
    );
    let bytes = r.bytes().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let zip_path = dir.path().join("a.zip");
    std::fs::write(&zip_path, &bytes).unwrap();
    let out = std::process::Command::new("unzip")
        .arg("-q")
        .arg(&zip_path)
        .arg("-d")
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert!(out.status.success(), "unzip: {}", String::from_utf8_lossy(&out.stderr));
    let root = dir.path().join("out");
    assert_eq!(std::fs::read(root.join("Relevés 2026/janvier été.pdf")).unwrap(), files[0].2);
    assert_eq!(std::fs::read(root.join("Relevés 2026/Q1/données.csv")).unwrap(), files[1].2);
    assert_eq!(std::fs::read(root.join("Relevés 2026/Q1/big.bin")).unwrap(), files[2].2);
    assert_eq!(
        std::fs::read(root.join("Relevés 2026 (2)/same name.txt")).unwrap(),
        files[3].2,
        "two folders of one name"
    );
    assert!(root.join("Relevés 2026/empty").is_dir(), "empty folders are kept");
    let mut top: Vec<String> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    top.sort();
    assert_eq!(top, ["Relevés 2026", "Relevés 2026 (2)"], "entries are relative to each folder's parent");
}

async fn identical_contents_are_stored_once_and_removed_when_nothing_references_them(backend: Backend) {
    let v = vault_with(backend, |c| c.vault_sweep_grace = std::time::Duration::ZERO).await;
    let blobs = &v.server.running.state.blobs;
    for folder in ["a", "b"] {
        v.mkdir("alice", "", folder, &v.alice).await;
        v.upload("alice", folder, "same.txt", b"identical".to_vec(), &v.alice).await;
    }
    v.upload("alice", "b", "other.txt", b"different".to_vec(), &v.alice).await;
    let (_, usage) = v.send(reqwest::Method::GET, &at(paths::VAULT_USAGE, "alice"), &v.alice).await;
    assert_eq!(
        (usage["data"]["bytes"].as_u64(), usage["data"]["storedBytes"].as_u64()),
        (Some(27), Some(18)),
        "{usage}"
    );
    assert_eq!(
        moneydesk_server::vault::blobs::count(blobs).await.unwrap(),
        (0, 2),
        "two contents, no upload left over"
    );
    v.delete("alice", &["a"], &v.alice).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(moneydesk_server::vault::blobs::count(blobs).await.unwrap(), (0, 2), "still referenced from b");
    v.delete("alice", &["b"], &v.alice).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while moneydesk_server::vault::blobs::count(blobs).await.unwrap() != (0, 0) {
        assert!(std::time::Instant::now() < deadline, "the contents were never removed");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn path_attacks_are_refused_with_400_naming_the_problem() {
    let v = vault(Backend::Sqlite).await;
    let long = "x".repeat(256);
    for (parent, name, why) in [
        ("", "..", "reserved"),
        ("a/../..", "x", "reserved"),
        ("%2e%2e", "x", ""),
        ("a\\b", "x", "'/' as separator"),
        ("", "a\\b", "'/' as separator"),
        ("a\u{0}b", "x", "control character"),
        ("", "bell\u{7}", "control character"),
        ("", long.as_str(), "256 bytes"),
        ("//etc", "x", "empty segment"),
    ] {
        let (status, body) = v.mkdir("alice", parent, name, &v.alice).await;
        if parent == "%2e%2e" {
            // Percent signs are ordinary characters in a name once the query is decoded:
            // "%2e%2e" is a folder of that literal name, never "..".
            assert_eq!(status, 200, "{body}");
            assert_eq!(body["data"]["path"], "%2e%2e/x");
            continue;
        }
        assert_eq!(status, 400, "{parent:?} {name:?}: {body}");
        assert!(
            body["error"].as_str().unwrap_or_default().contains(why),
            "{parent:?} {name:?} should say {why:?}: {body}"
        );
    }
    let (status, body) =
        v.send(reqwest::Method::GET, &format!("{}?path=..", at(paths::VAULT_FOLDER_CONTENTS, "alice")), &v.alice).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) =
        v.send(reqwest::Method::GET, &format!("{}?path=", at(paths::VAULT_FOLDER_CONTENTS, "../x")), &v.alice).await;
    assert!(status == 400 || status == 404, "a userId with a slash never reaches a vault: {status} {body}");
}

#[tokio::test]
async fn an_upload_over_the_limit_is_a_413_and_leaves_nothing_behind() {
    let v = vault_with(Backend::Sqlite, |c| c.vault_upload_limit = 1000).await;
    let (status, body) = v.upload("alice", "", "big.bin", vec![7; 5000], &v.alice).await;
    assert_eq!(status, 413, "{body}");
    assert!(body["errorMessage"].as_str().unwrap().contains("1000 bytes"), "{body}");
    assert!(v.names("alice", "").await.is_empty());
    assert_eq!(moneydesk_server::vault::blobs::count(&v.server.running.state.blobs).await.unwrap(), (0, 0));
    assert_eq!(v.upload("alice", "", "small.bin", vec![7; 900], &v.alice).await.0, 200);
}
