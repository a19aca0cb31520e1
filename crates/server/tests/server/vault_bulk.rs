//! Bulk actions on a vault (issue 45) over real HTTP, on both backends: files and folders
//! moved into a folder or deleted by paths or by the listing's filter (each on its own:
//! partial success in the answer, an audit record each), a zip of a selection read back by
//! `unzip`, an `Idempotency-Key` replay answering the first answer, 403 without the scope or
//! in another user's vault, 400 for a malformed request.

use crate::common;
use crate::vault_support;

use common::{json, Backend};
use moneydesk_model::{paths, Scope};
use serde_json::{json, Value};
use vault_support::{at, vault, Vault};

async fn bulk(v: &Vault, user: &str, token: &str, body: &Value, key: Option<&str>) -> (u16, bool, Value) {
    let mut r = v.server.client.post(v.server.url(&at(paths::VAULT_BULK, user))).bearer_auth(token).json(body);
    if let Some(k) = key {
        r = r.header("Idempotency-Key", k);
    }
    let r = r.send().await.unwrap();
    let replayed = r.headers().get("idempotent-replayed").is_some_and(|v| v == "true");
    (r.status().as_u16(), replayed, json(r).await)
}

async fn ok(v: &Vault, body: Value) -> Value {
    let (status, _, b) = bulk(v, "alice", &v.alice, &body, None).await;
    assert_eq!(status, 200, "{b}");
    b["data"].clone()
}

/// Each item's `id outcome reason` line.
fn outcomes(result: &Value) -> Vec<String> {
    let items = result["items"].as_array().unwrap();
    items
        .iter()
        .map(|i| {
            format!(
                "{} {} {}",
                i["id"].as_str().unwrap(),
                i["outcome"].as_str().unwrap(),
                i["reason"].as_str().unwrap_or("-")
            )
        })
        .collect()
}

/// alice's vault: `Inbox/` with `a.pdf`, `b.pdf` and folder `Scans/` (holding `s.png`), and
/// an `Archive/` folder holding its own `b.pdf`.
async fn filled(backend: Backend) -> Vault {
    let v = vault(backend).await;
    for (parent, name) in [("", "Inbox"), ("Inbox", "Scans"), ("", "Archive")] {
        assert_eq!(v.mkdir("alice", parent, name, &v.alice).await.0, 200);
    }
    for (folder, name, bytes) in
        [("Inbox", "a.pdf", "A"), ("Inbox", "b.pdf", "B"), ("Inbox/Scans", "s.png", "S"), ("Archive", "b.pdf", "old B")]
    {
        assert_eq!(v.upload("alice", folder, name, bytes.as_bytes().to_vec(), &v.alice).await.0, 200);
    }
    v
}

async fn entries_move_one_by_one_and_a_clash_leaves_the_others_moved(backend: Backend) {
    let v = filled(backend).await;
    let body = json!({"action": "move", "to": "Archive", "select": {"ids": ["Inbox/a.pdf", "Inbox/b.pdf", "Inbox/Scans", "Inbox/gone.pdf"]}});
    let r = ok(&v, body).await;
    assert_eq!(
        outcomes(&r),
        [
            "Inbox/a.pdf done -",
            "Inbox/b.pdf refused conflict",
            "Inbox/Scans done -",
            "Inbox/gone.pdf refused not_found"
        ]
    );
    assert_eq!((r["matched"].as_u64(), r["done"].as_u64(), r["refused"].as_u64()), (Some(4), Some(2), Some(2)));
    assert_eq!(v.names("alice", "Inbox").await, ["b.pdf"]);
    assert_eq!(v.names("alice", "Archive").await, ["Scans", "a.pdf", "b.pdf"]);
    assert_eq!(v.names("alice", "Archive/Scans").await, ["s.png"], "a folder moves with what it holds");

    // Into a folder that does not exist: every entry refused alike, nothing created.
    let r = ok(&v, json!({"action": "move", "to": "Nowhere", "select": {"ids": ["Inbox/b.pdf"]}})).await;
    assert_eq!(outcomes(&r), ["Inbox/b.pdf refused not_found"]);
    assert_eq!(v.folder("alice", "Nowhere").await.0, 404);

    // One audit record per entry moved, each naming it.
    let audit = v.server.running.create_token_for("alice-audit", "alice", &[Scope::AuditRead]).await.unwrap();
    let q = format!("{}?operation=bulk_vault_entries", paths::AUDIT_RECORDS);
    let records =
        json(v.server.get_auth(&format!("{q}&targetType=vault_file&targetId=alice/Inbox/a.pdf"), &audit).await).await;
    let content = records["data"]["content"].as_array().unwrap();
    assert_eq!(content.len(), 1, "{records}");
    assert_eq!(content[0]["changes"][0]["after"], "Archive/a.pdf", "{records}");
    let records =
        json(v.server.get_auth(&format!("{q}&targetType=vault_folder&targetId=alice/Inbox/Scans"), &audit).await).await;
    assert_eq!(records["data"]["content"].as_array().map(Vec::len), Some(1), "{records}");
}

async fn a_folders_listing_is_deleted_by_its_filter(backend: Backend) {
    let v = filled(backend).await;
    let r =
        ok(&v, json!({"action": "delete", "select": {"filter": {"path": "Inbox", "page": "3", "sort": "size,desc"}}}))
            .await;
    assert_eq!(outcomes(&r), ["Inbox/Scans done -", "Inbox/a.pdf done -", "Inbox/b.pdf done -"]);
    assert!(v.names("alice", "Inbox").await.is_empty());
    assert_eq!(v.names("alice", "Archive").await, ["b.pdf"], "another folder is untouched");
    // Deleted by paths: the root is refused, the rest done.
    let r = ok(&v, json!({"action": "delete", "select": {"ids": ["/", "Archive/b.pdf"]}})).await;
    assert_eq!(outcomes(&r), ["/ refused validation", "Archive/b.pdf done -"]);
    // A filter's folder that does not exist is a 404.
    let (status, _, b) =
        bulk(&v, "alice", &v.alice, &json!({"action": "delete", "select": {"filter": {"path": "Nowhere"}}}), None)
            .await;
    assert_eq!(status, 404, "{b}");
}

async fn a_zip_of_a_selection_holds_its_files_and_folders(backend: Backend) {
    let v = filled(backend).await;
    let url = v.server.url(&at(paths::VAULT_BULK_DOWNLOAD, "alice"));
    let body = json!({"name": "selection", "select": {"ids": ["Inbox/Scans", "Inbox/b.pdf", "Archive/b.pdf"]}});
    let r = v.server.client.post(&url).bearer_auth(&v.alice).json(&body).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "application/zip");
    assert!(r.headers()["content-disposition"].to_str().unwrap().contains("selection.zip"));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.zip"), r.bytes().await.unwrap()).unwrap();
    let out = std::process::Command::new("unzip")
        .arg("-q")
        .arg(dir.path().join("a.zip"))
        .arg("-d")
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert!(out.status.success(), "unzip: {}", String::from_utf8_lossy(&out.stderr));
    let root = dir.path().join("out");
    assert_eq!(std::fs::read(root.join("Scans/s.png")).unwrap(), b"S");
    assert_eq!(std::fs::read(root.join("b.pdf")).unwrap(), b"B");
    assert_eq!(std::fs::read(root.join("b (2).pdf")).unwrap(), b"old B", "two files of one name");

    // The listing's filter: everything directly in Inbox.
    let body = json!({"select": {"filter": {"path": "Inbox"}}});
    let r = v.server.client.post(&url).bearer_auth(&v.alice).json(&body).send().await.unwrap();
    assert_eq!(r.status(), 200);
    // A missing path: 404 before any byte.
    let body = json!({"select": {"ids": ["Inbox/a.pdf", "Inbox/gone.pdf"]}});
    let r = v.server.client.post(&url).bearer_auth(&v.alice).json(&body).send().await.unwrap();
    assert_eq!(r.status(), 404);
}

async fn a_bulk_request_replayed_with_its_key_answers_the_first_answer(backend: Backend) {
    let v = filled(backend).await;
    let body = json!({"action": "delete", "select": {"ids": ["Inbox/a.pdf"]}});
    let (status, replayed, first) = bulk(&v, "alice", &v.alice, &body, Some("bulk-delete-1")).await;
    assert_eq!((status, replayed), (200, false), "{first}");
    assert_eq!(first["data"]["done"], 1);
    let (status, replayed, again) = bulk(&v, "alice", &v.alice, &body, Some("bulk-delete-1")).await;
    assert_eq!((status, replayed), (200, true));
    assert_eq!(again, first, "the first answer, not a second run (which would refuse: not found)");
}

async fn bulk_actions_need_the_scope_the_owner_and_a_well_formed_request(backend: Backend) {
    let v = filled(backend).await;
    let reader = v.server.running.create_token_for("alice-reader", "alice", &[Scope::VaultRead]).await.unwrap();
    let delete = json!({"action": "delete", "select": {"ids": ["Inbox/a.pdf"]}});
    assert_eq!(bulk(&v, "alice", &reader, &delete, None).await.0, 403, "vault:read does not write");
    assert_eq!(bulk(&v, "alice", &v.bob, &delete, None).await.0, 403, "bob's token in alice's vault");
    let url = v.server.url(&at(paths::VAULT_BULK_DOWNLOAD, "alice"));
    let email = v.server.token(&[Scope::EmailSend]).await;
    let r = v
        .server
        .client
        .post(&url)
        .bearer_auth(&email)
        .json(&json!({"select": {"ids": ["Inbox"]}}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403, "a download needs vault:read");
    let malformed = [
        json!({"action": "move", "select": {"ids": ["Inbox/a.pdf"]}}),
        json!({"action": "delete", "to": "Archive", "select": {"ids": ["Inbox/a.pdf"]}}),
        json!({"action": "copy", "select": {"ids": ["Inbox/a.pdf"]}}),
        json!({"action": "delete", "select": {"ids": ["Inbox/a.pdf"], "filter": {"path": "Inbox"}}}),
        json!({"action": "delete", "select": {"filter": {"name": "a.pdf"}}}),
        json!({"action": "delete"}),
    ];
    for body in malformed {
        let (status, _, b) = bulk(&v, "alice", &v.alice, &body, None).await;
        assert_eq!(status, 400, "{body}: {b}");
    }
    assert_eq!(v.names("alice", "Inbox").await, ["Scans", "a.pdf", "b.pdf"], "nothing was done");
}

on_both_backends!(
    entries_move_one_by_one_and_a_clash_leaves_the_others_moved,
    a_folders_listing_is_deleted_by_its_filter,
    a_zip_of_a_selection_holds_its_files_and_folders,
    a_bulk_request_replayed_with_its_key_answers_the_first_answer,
    bulk_actions_need_the_scope_the_owner_and_a_well_formed_request,
);
