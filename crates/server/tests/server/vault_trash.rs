//! The vault's trash and version restore (issue 46) over real HTTP on both backends: a delete
//! moves to the trash (out of listings, downloads and zips, its path free again), a restore puts
//! it back where it was or at a chosen path on a clash, a delete for good, an empty trash and
//! the purge job remove it, contents go only when nothing references them; another user's
//! trash is out of reach; an older version restored as the newest; two versions compared.

use std::time::{Duration, Instant};

use crate::common;
use crate::vault_support;

use common::Backend;
use moneydesk_model::{paths, Scope};
use reqwest::Method;
use serde_json::Value;
use vault_support::{at, q, vault, vault_with, Vault};

on_both_backends!(
    a_deleted_folder_leaves_the_vault_for_the_trash_and_is_restored_where_it_was_or_elsewhere_on_a_clash,
    a_deleted_file_is_restored_with_its_versions_even_when_its_folder_is_gone,
    contents_are_freed_only_when_no_version_file_or_trashed_item_references_them,
    the_purge_job_removes_what_outlived_the_retention,
    another_users_trash_is_out_of_reach_and_the_scopes_hold,
    an_older_version_is_restored_as_the_newest_and_two_versions_compare,
);

fn trash_url(user: &str) -> String {
    at(paths::VAULT_TRASH, user)
}

fn item_url(template: &str, user: &str, id: &Value) -> String {
    at(template, user).replace("{trashId}", &id.to_string())
}

async fn trash(v: &Vault, user: &str) -> Vec<Value> {
    let (status, body) = v.send(Method::GET, &format!("{}?size=100", trash_url(user)), &v.alice).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["content"].as_array().unwrap().clone()
}

async fn delete_file(v: &Vault, path: &str, extra: &str) -> (u16, Value) {
    v.send(Method::DELETE, &format!("{}?path={}{extra}", at(paths::VAULT_FILE, "alice"), q(path)), &v.alice).await
}

async fn trash_folder(v: &Vault, path: &str, extra: &str) -> (u16, Value) {
    let url = format!("{}?userId=alice&paths={}{extra}", paths::VAULT_FOLDERS_DELETE, q(path));
    v.send(Method::DELETE, &url, &v.alice).await
}

async fn restore(v: &Vault, id: &Value, to: Option<&str>) -> (u16, Value) {
    let mut url = item_url(paths::VAULT_TRASH_RESTORE, "alice", id);
    if let Some(to) = to {
        url = format!("{url}?path={}", q(to));
    }
    v.send(Method::POST, &url, &v.alice).await
}

async fn count_events(v: &Vault, kind: &str) -> i64 {
    let db = &v.server.running.state.stores.database;
    let q = db.sql("SELECT COUNT(*) FROM events WHERE type = ?").arg(kind);
    db.acquire().await.unwrap().exec().int(&q).await.unwrap()
}

async fn blobs(v: &Vault) -> (usize, usize) {
    moneydesk_server::vault::blobs::count(&v.server.running.state.blobs).await.unwrap()
}

async fn a_deleted_folder_leaves_the_vault_for_the_trash_and_is_restored_where_it_was_or_elsewhere_on_a_clash(
    backend: Backend,
) {
    let v = vault(backend).await;
    assert_eq!(v.upload("alice", "", "keep.txt", b"keep".to_vec(), &v.alice).await.0, 200);
    v.mkdir("alice", "Docs", "2026", &v.alice).await;
    assert_eq!(v.upload("alice", "Docs/2026", "a.txt", b"hello".to_vec(), &v.alice).await.0, 200);

    let (status, body) = trash_folder(&v, "Docs", "").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"][0]["files"], 1, "the answer is the folder as it was: {body}");
    assert_eq!(v.names("alice", "").await, ["keep.txt"], "out of the listing");
    assert_eq!(v.download("alice", "Docs/2026/a.txt", "", &[]).await.status(), 404, "out of downloads");
    assert_eq!(v.zip("alice", &["Docs"], "x").await.status(), 404, "out of zips");
    let (_, usage) = v.send(Method::GET, &at(paths::VAULT_USAGE, "alice"), &v.alice).await;
    assert_eq!(usage["data"]["files"], 1, "out of the usage: {usage}");

    let items = trash(&v, "alice").await;
    assert_eq!(items.len(), 1, "{items:?}");
    let item = &items[0];
    assert_eq!(
        (item["path"].as_str(), item["kind"].as_str(), item["size"].as_u64()),
        (Some("Docs"), Some("folder"), Some(5))
    );
    assert_eq!(item["deletedBy"], "alice-laptop");
    assert!(item["purgeAt"].as_str() > item["deletedAt"].as_str(), "{item}");
    assert_eq!(count_events(&v, "vault.item.trashed").await, 1);
    assert_eq!(count_events(&v, "vault.folder.deleted").await, 1, "told as deleted from the vault too");

    // The path is free again; restoring onto it is a clash named in the answer.
    assert_eq!(v.mkdir("alice", "", "Docs", &v.alice).await.0, 200);
    let (status, body) = restore(&v, &item["id"], None).await;
    assert_eq!(status, 409, "{body}");
    assert!(body["errorMessage"].as_str().unwrap_or_default().contains("Docs"), "names the clash: {body}");
    assert_eq!(trash(&v, "alice").await.len(), 1, "nothing moved");

    let (status, body) = restore(&v, &item["id"], Some("Old/Docs")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!((body["data"]["path"].as_str(), body["data"]["kind"].as_str()), (Some("Old/Docs"), Some("folder")));
    assert_eq!(v.names("alice", "Old/Docs/2026").await, ["a.txt"]);
    let r = v.download("alice", "Old/Docs/2026/a.txt", "", &[]).await;
    assert_eq!(r.bytes().await.unwrap().as_ref(), b"hello");
    assert!(trash(&v, "alice").await.is_empty());
    assert_eq!(count_events(&v, "vault.item.restored").await, 1);

    // Where it was, when the place is free; the root's contents go item by item.
    let (status, _) = trash_folder(&v, "Old", "").await;
    assert_eq!(status, 200);
    let id = trash(&v, "alice").await[0]["id"].clone();
    assert_eq!(restore(&v, &id, None).await.0, 200);
    assert_eq!(v.names("alice", "Old/Docs/2026").await, ["a.txt"]);
    assert_eq!(trash_folder(&v, "", "").await.0, 200);
    assert!(v.names("alice", "").await.is_empty(), "the root emptied");
    let mut paths: Vec<String> =
        trash(&v, "alice").await.iter().map(|i| i["path"].as_str().unwrap().to_string()).collect();
    paths.sort();
    assert_eq!(paths, ["Docs", "Old", "keep.txt"]);
}

async fn a_deleted_file_is_restored_with_its_versions_even_when_its_folder_is_gone(backend: Backend) {
    let v = vault(backend).await;
    v.mkdir("alice", "", "Inbox", &v.alice).await;
    v.upload("alice", "Inbox", "a.txt", b"one".to_vec(), &v.alice).await;
    v.upload("alice", "Inbox", "a.txt", b"two!".to_vec(), &v.alice).await;
    let (status, body) = delete_file(&v, "Inbox/a.txt", "").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["versions"].as_array().unwrap().len(), 2, "the file as it was: {body}");
    assert!(v.names("alice", "Inbox").await.is_empty());
    let items = trash(&v, "alice").await;
    assert_eq!((items[0]["kind"].as_str(), items[0]["size"].as_u64()), (Some("file"), Some(7)));

    // A new file takes the name; the restore then needs another path.
    v.upload("alice", "Inbox", "a.txt", b"new".to_vec(), &v.alice).await;
    let (status, body) = restore(&v, &items[0]["id"], None).await;
    assert_eq!(status, 409, "{body}");
    assert!(body["errorMessage"].as_str().unwrap_or_default().contains("Inbox/a.txt"), "{body}");
    let (status, body) = restore(&v, &items[0]["id"], Some("Inbox/a (old).txt")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["versions"], 2, "{body}");
    assert_eq!(v.names("alice", "Inbox").await, ["a (old).txt", "a.txt"]);

    // Its folder deleted for good meanwhile: the restore makes it again.
    assert_eq!(delete_file(&v, "Inbox/a (old).txt", "").await.0, 200);
    let id = trash(&v, "alice").await[0]["id"].clone();
    assert_eq!(trash_folder(&v, "Inbox", "&permanent=true").await.0, 200);
    assert_eq!(trash(&v, "alice").await.len(), 1, "a permanent delete skips the trash");
    let (status, body) = restore(&v, &id, None).await;
    assert_eq!(status, 200, "{body}");
    let r = v.download("alice", "Inbox/a (old).txt", "", &[]).await;
    assert_eq!(r.bytes().await.unwrap().as_ref(), b"two!");
    let (status, body) = restore(&v, &id, None).await;
    assert_eq!(status, 404, "restored once: {body}");
    let (status, body) = restore(&v, &serde_json::json!("x"), None).await;
    assert_eq!(status, 400, "{body}");
}

async fn contents_are_freed_only_when_no_version_file_or_trashed_item_references_them(backend: Backend) {
    let v = vault_with(backend, |c| c.vault_sweep_grace = Duration::ZERO).await;
    for folder in ["a", "b"] {
        v.mkdir("alice", "", folder, &v.alice).await;
        v.upload("alice", folder, "same.txt", b"identical".to_vec(), &v.alice).await;
    }
    v.upload("alice", "", "other.txt", b"different".to_vec(), &v.alice).await;
    assert_eq!(blobs(&v).await, (0, 2));
    assert_eq!(trash_folder(&v, "a", "").await.0, 200);
    assert_eq!(trash_folder(&v, "b", "&permanent=true").await.0, 200);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(blobs(&v).await, (0, 2), "still referenced by the trashed folder");

    let id = trash(&v, "alice").await[0]["id"].clone();
    let (status, body) = v.send(Method::DELETE, &item_url(paths::VAULT_TRASH_ITEM, "alice", &id), &v.alice).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["path"], "a");
    assert_eq!(count_events(&v, "vault.item.purged").await, 1);
    wait_for(|| async { blobs(&v).await == (0, 1) }, "the identical contents were never removed").await;

    // A bulk delete moves to the trash as well; emptying it frees the rest.
    let bulk = serde_json::json!({"action": "delete", "select": {"ids": ["other.txt"]}});
    let r = v.server.client.post(v.server.url(&at(paths::VAULT_BULK, "alice"))).bearer_auth(&v.alice).json(&bulk);
    assert_eq!(r.send().await.unwrap().status(), 200);
    assert_eq!(trash(&v, "alice").await.len(), 1);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(blobs(&v).await, (0, 1), "a trashed file keeps its contents");
    let (status, body) = v.send(Method::DELETE, &trash_url("alice"), &v.alice).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"].as_array().unwrap().len(), 1);
    assert!(trash(&v, "alice").await.is_empty());
    wait_for(|| async { blobs(&v).await == (0, 0) }, "emptying the trash never freed the contents").await;
    let db = &v.server.running.state.stores.database;
    let q = db.sql("SELECT COUNT(*) FROM audit_records WHERE operation = 'empty_vault_trash'");
    assert_eq!(db.acquire().await.unwrap().exec().int(&q).await.unwrap(), 1, "the empty is on record");
}

async fn the_purge_job_removes_what_outlived_the_retention(backend: Backend) {
    let v = vault_with(backend, |c| {
        c.vault_sweep_grace = Duration::ZERO;
        c.vault_trash_retention = Duration::from_secs(1);
    })
    .await;
    v.upload("alice", "", "old.txt", b"old".to_vec(), &v.alice).await;
    assert_eq!(delete_file(&v, "old.txt", "").await.0, 200);
    assert_eq!(trash(&v, "alice").await.len(), 1);
    wait_for(|| async { trash(&v, "alice").await.is_empty() }, "the purge job never ran").await;
    wait_for(|| async { blobs(&v).await == (0, 0) }, "the purged contents were never removed").await;
    assert_eq!(count_events(&v, "vault.item.purged").await, 1);
    let db = &v.server.running.state.stores.database;
    let q = db.sql("SELECT COUNT(*) FROM audit_records WHERE operation = 'job:vault-trash-purge'");
    assert_eq!(db.acquire().await.unwrap().exec().int(&q).await.unwrap(), 1, "the purge is on record");
}

async fn another_users_trash_is_out_of_reach_and_the_scopes_hold(backend: Backend) {
    let v = vault(backend).await;
    v.upload("alice", "", "a.txt", b"a".to_vec(), &v.alice).await;
    delete_file(&v, "a.txt", "").await;
    let id = trash(&v, "alice").await[0]["id"].clone();
    let reader = v.server.running.create_token_for("alice-reader", "alice", &[Scope::VaultRead]).await.unwrap();

    assert_eq!(v.send(Method::GET, &trash_url("alice"), &v.bob).await.0, 403, "bob in alice's trash");
    let restore_alices = item_url(paths::VAULT_TRASH_RESTORE, "alice", &id);
    assert_eq!(v.send(Method::POST, &restore_alices, &v.bob).await.0, 403);
    let as_bobs = item_url(paths::VAULT_TRASH_RESTORE, "bob", &id);
    assert_eq!(v.send(Method::POST, &as_bobs, &v.bob).await.0, 404, "alice's item is not in bob's trash");
    assert_eq!(v.send(Method::DELETE, &item_url(paths::VAULT_TRASH_ITEM, "bob", &id), &v.bob).await.0, 404);
    assert_eq!(v.send(Method::DELETE, &trash_url("bob"), &v.bob).await.0, 200, "bob empties his own");

    assert_eq!(v.send(Method::GET, &trash_url("alice"), &reader).await.0, 200, "vault:read lists");
    assert_eq!(v.send(Method::POST, &restore_alices, &reader).await.0, 403, "vault:read does not restore");
    assert_eq!(v.send(Method::DELETE, &trash_url("alice"), &reader).await.0, 403);
    assert_eq!(v.send(Method::GET, &trash_url("alice"), &v.admin).await.0, 200, "admin reaches any");
    assert_eq!(trash(&v, "alice").await.len(), 1, "still there");
    assert_eq!(v.send(Method::POST, &restore_alices, &v.admin).await.0, 200);
}

async fn an_older_version_is_restored_as_the_newest_and_two_versions_compare(backend: Backend) {
    let v = vault(backend).await;
    v.upload("alice", "", "a.txt", b"one".to_vec(), &v.alice).await;
    v.upload("alice", "", "a.txt", b"two!".to_vec(), &v.alice).await;
    let compare = |from: u32, to: u32| {
        format!("{}?path=a.txt&from={from}&to={to}", at(paths::VAULT_FILE_VERSIONS_COMPARE, "alice"))
    };
    let (status, body) = v.send(Method::GET, &compare(1, 2), &v.alice).await;
    assert_eq!(status, 200, "{body}");
    let d = &body["data"];
    assert_eq!((d["from"]["size"].as_u64(), d["to"]["size"].as_u64()), (Some(3), Some(4)));
    assert_eq!((d["sameContents"].as_bool(), d["sizeDifference"].as_i64()), (Some(false), Some(1)));
    assert_eq!(d["from"]["sha256"].as_str().unwrap().len(), 64);

    let url = |n: u32| format!("{}?path=a.txt&version={n}", at(paths::VAULT_FILE_VERSION_RESTORE, "alice"));
    let (status, body) = v.send(Method::POST, &url(1), &v.alice).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!((body["data"]["versions"].as_u64(), body["data"]["size"].as_u64()), (Some(3), Some(3)));
    let r = v.download("alice", "a.txt", "", &[]).await;
    assert_eq!(r.bytes().await.unwrap().as_ref(), b"one", "the newest holds version 1's bytes");
    let (_, body) = v.send(Method::GET, &compare(1, 3), &v.alice).await;
    assert_eq!(body["data"]["sameContents"], true, "{body}");
    assert_eq!(count_events(&v, "vault.file.version_restored").await, 1);

    assert_eq!(v.send(Method::POST, &url(9), &v.alice).await.0, 404);
    assert_eq!(v.send(Method::GET, &compare(1, 9), &v.alice).await.0, 404);
    assert_eq!(v.send(Method::GET, &compare(0, 1), &v.alice).await.0, 400);
    assert_eq!(v.send(Method::POST, &url(1), &v.bob).await.0, 403, "bob in alice's vault");
}

async fn wait_for<F, Fut>(done: F, never: &str)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(20);
    while !done().await {
        assert!(Instant::now() < deadline, "{never}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `kill -9` during a move to the trash and during a restore (the server binary on SQLite):
/// after the restart the folder is whole in the vault or whole in the trash, never both or
/// neither, and the trash's record matches.
#[tokio::test]
async fn a_kill_during_a_move_to_the_trash_or_a_restore_leaves_the_folder_whole_at_one_place() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::cli(
        dir.path(),
        &["token", "create", "--name", "alice", "--scope", "vault:read", "--scope", "vault:write"],
    )
    .await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let token = String::from_utf8(out.stdout).unwrap().trim().to_string();
    let mut server = common::process::start(dir.path(), &[]).await;
    let send = |base: String, method: Method, path: String, token: String| async move {
        let r =
            reqwest::Client::new().request(method, format!("{base}{path}")).bearer_auth(token).send().await.unwrap();
        (r.status().as_u16(), common::json(r).await)
    };
    let folder = at(paths::VAULT_FOLDER, "alice");
    for i in 0..40 {
        let (status, body) =
            send(server.base.clone(), Method::POST, format!("{folder}?path=tree/sub{i:02}&name=leaf"), token.clone())
                .await;
        assert_eq!(status, 200, "{body}");
    }
    let contents = |base: String, token: String, path: &'static str| {
        let url = format!("{}?path={path}&size=500", at(paths::VAULT_FOLDER_CONTENTS, "alice"));
        async move {
            let (status, body) = send(base, Method::GET, url, token).await;
            (status == 200).then(|| body["data"]["content"].as_array().unwrap().len())
        }
    };
    for (round, delay_us) in [0u64, 300, 1000, 3000, 8000, 0, 500, 2000].into_iter().enumerate() {
        let (_, page) = send(server.base.clone(), Method::GET, trash_url("alice"), token.clone()).await;
        let trashed = page["data"]["content"].as_array().unwrap().clone();
        let request = match trashed.first() {
            None => format!("{}?userId=alice&paths=tree", paths::VAULT_FOLDERS_DELETE),
            Some(item) => item_url(paths::VAULT_TRASH_RESTORE, "alice", &item["id"]),
        };
        let method = if trashed.is_empty() { Method::DELETE } else { Method::POST };
        let call = tokio::spawn(send(server.base.clone(), method, request, token.clone()));
        tokio::time::sleep(Duration::from_micros(delay_us)).await;
        server.kill_9();
        let _ = call.await;
        server = common::process::start(dir.path(), &[]).await;
        let (_, page) = send(server.base.clone(), Method::GET, trash_url("alice"), token.clone()).await;
        let in_trash = page["data"]["content"].as_array().unwrap().len();
        let in_vault = contents(server.base.clone(), token.clone(), "tree").await;
        match (in_vault, in_trash) {
            (Some(40), 0) => {}
            (None, 1) => assert_eq!(page["data"]["content"][0]["path"], "tree", "round {round}"),
            other => panic!("round {round}: the folder is in one place, whole: {other:?}"),
        }
        assert_eq!(contents(server.base.clone(), token.clone(), "").await.unwrap(), in_vault.map_or(0, |_| 1));
    }
    server.kill_9();
}
