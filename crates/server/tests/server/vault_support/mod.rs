//! The vault tests' client: a server with three users' tokens, and one call a vault operation
//! over real HTTP.

use moneydesk_model::{paths, Scope};
use serde_json::Value;

use crate::common::{json, Backend, Server};

pub struct Vault {
    pub server: Server,
    /// User alice's `vault:read vault:write` token.
    pub alice: String,
    /// User bob's.
    pub bob: String,
    pub admin: String,
}

pub async fn vault(backend: Backend) -> Vault {
    vault_with(backend, |_| {}).await
}

pub async fn vault_with(backend: Backend, tweak: impl FnOnce(&mut moneydesk_server::Config)) -> Vault {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let server = Server::start_in_dir(dir, |c| {
        c.database_url = url;
        tweak(c);
    })
    .await;
    let rw = [Scope::VaultRead, Scope::VaultWrite];
    let alice = server.running.create_token_for("alice-laptop", "alice", &rw).await.unwrap();
    let bob = server.running.create_token_for("bob-laptop", "bob", &rw).await.unwrap();
    let admin = server.running.create_token_for("ops", "ops", &[Scope::Admin]).await.unwrap();
    Vault { server, alice, bob, admin }
}

pub fn at(template: &str, user: &str) -> String {
    template.replace("{userId}", user)
}

pub fn q(v: &str) -> String {
    url::form_urlencoded::byte_serialize(v.as_bytes()).collect()
}

impl Vault {
    pub async fn send(&self, method: reqwest::Method, path: &str, token: &str) -> (u16, Value) {
        let r = self.server.client.request(method, self.server.url(path)).bearer_auth(token).send().await.unwrap();
        (r.status().as_u16(), json(r).await)
    }

    pub async fn mkdir(&self, user: &str, parent: &str, name: &str, token: &str) -> (u16, Value) {
        let path = format!("{}?path={}&name={}", at(paths::VAULT_FOLDER, user), q(parent), q(name));
        self.send(reqwest::Method::POST, &path, token).await
    }

    pub async fn mv(&self, user: &str, from: &str, to: &str, token: &str) -> (u16, Value) {
        let path = format!("{}?path={}&newPath={}", at(paths::VAULT_FOLDER_MOVE, user), q(from), q(to));
        self.send(reqwest::Method::POST, &path, token).await
    }

    pub async fn ls(&self, user: &str, folder: &str, token: &str) -> (u16, Value) {
        let path = format!("{}?path={}&size=500", at(paths::VAULT_FOLDER_CONTENTS, user), q(folder));
        self.send(reqwest::Method::GET, &path, token).await
    }

    pub async fn names(&self, user: &str, folder: &str) -> Vec<String> {
        let (status, body) = self.ls(user, folder, &self.alice).await;
        assert_eq!(status, 200, "{body}");
        body["data"]["content"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap().to_string()).collect()
    }

    pub async fn upload(&self, user: &str, folder: &str, name: &str, bytes: Vec<u8>, token: &str) -> (u16, Value) {
        let part = reqwest::multipart::Part::bytes(bytes).file_name(name.to_string());
        let form = reqwest::multipart::Form::new().part("file", part);
        let url = self.server.url(&format!("{}?path={}", at(paths::VAULT_FILE, user), q(folder)));
        let r = self.server.client.post(url).bearer_auth(token).multipart(form).send().await.unwrap();
        (r.status().as_u16(), json(r).await)
    }

    pub async fn download(&self, user: &str, file: &str, extra: &str, headers: &[(&str, &str)]) -> reqwest::Response {
        let url = self.server.url(&format!("{}?path={}{extra}", at(paths::VAULT_FILE, user), q(file)));
        let mut req = self.server.client.get(url).bearer_auth(&self.alice);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send().await.unwrap()
    }

    pub async fn folder(&self, user: &str, path: &str) -> (u16, Value) {
        let path = format!("{}?path={}", at(paths::VAULT_FOLDER, user), q(path));
        self.send(reqwest::Method::GET, &path, &self.alice).await
    }

    /// Deletes the folders for good (`permanent=true`: a delete's default is the trash).
    pub async fn delete(&self, user: &str, folders: &[&str], token: &str) -> (u16, Value) {
        let list: String = folders.iter().map(|p| format!("paths={}&", q(p))).collect();
        let path = format!("{}?{list}permanent=true&userId={}", paths::VAULT_FOLDERS_DELETE, q(user));
        self.send(reqwest::Method::DELETE, &path, token).await
    }

    pub async fn zip(&self, user: &str, folders: &[&str], name: &str) -> reqwest::Response {
        let list: String = folders.iter().map(|p| format!("paths={}&", q(p))).collect();
        let url = self.server.url(&format!("{}?{list}name={}", at(paths::VAULT_FOLDER_DOWNLOAD, user), q(name)));
        self.server.client.post(url).bearer_auth(&self.alice).send().await.unwrap()
    }
}
