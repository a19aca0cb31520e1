//! Recipes of the vault's trash and version restore (issue 46): each leaves exactly one record.

use moneydesk_model::paths;
use reqwest::Method;

use super::{Answer, Body, Desk, Recipe};

pub fn recipes() -> Vec<(Method, &'static str, Recipe)> {
    vec![
        (Method::POST, paths::VAULT_TRASH_RESTORE, recipe!(restore_item)),
        (Method::DELETE, paths::VAULT_TRASH_ITEM, recipe!(delete_item)),
        (Method::DELETE, paths::VAULT_TRASH, recipe!(empty_trash)),
        (Method::POST, paths::VAULT_FILE_VERSION_RESTORE, recipe!(restore_version)),
    ]
}

fn vault(template: &str) -> String {
    template.replace("{userId}", "test")
}

/// `T<n>/a.txt` of user `test`, uploaded `times` times; its path.
async fn file(d: &Desk, times: usize) -> String {
    let name = format!("T{}", d.unique());
    d.setup(Method::POST, &format!("{}?path=&name={name}", vault(paths::VAULT_FOLDER)), Body::None, 200).await;
    let url = format!("{}?path={name}", vault(paths::VAULT_FILE));
    for _ in 0..times {
        d.setup(Method::POST, &url, Body::File("a.txt".into(), b"hello".to_vec()), 200).await;
    }
    format!("{name}/a.txt")
}

/// A file moved to the trash; its trash id (the newest item).
async fn trashed(d: &Desk) -> String {
    let path = file(d, 1).await;
    d.setup(Method::DELETE, &format!("{}?path={path}", vault(paths::VAULT_FILE)), Body::None, 200).await;
    let page = d.setup(Method::GET, &format!("{}?size=1", vault(paths::VAULT_TRASH)), Body::None, 200).await;
    page["data"]["content"][0]["id"].to_string()
}

async fn restore_item(d: &Desk) -> Answer {
    let id = trashed(d).await;
    d.write(Method::POST, &vault(paths::VAULT_TRASH_RESTORE).replace("{trashId}", &id), Body::None).await
}

async fn delete_item(d: &Desk) -> Answer {
    let id = trashed(d).await;
    d.write(Method::DELETE, &vault(paths::VAULT_TRASH_ITEM).replace("{trashId}", &id), Body::None).await
}

async fn empty_trash(d: &Desk) -> Answer {
    trashed(d).await;
    d.write(Method::DELETE, &vault(paths::VAULT_TRASH), Body::None).await
}

async fn restore_version(d: &Desk) -> Answer {
    let path = file(d, 2).await;
    d.write(Method::POST, &format!("{}?path={path}&version=1", vault(paths::VAULT_FILE_VERSION_RESTORE)), Body::None)
        .await
}
