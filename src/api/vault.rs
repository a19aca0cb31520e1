//! The vault group: a folder's contents and record, folders created, moved, zipped and deleted,
//! files uploaded (XMLHttpRequest, for progress and cancel), downloaded, moved and deleted,
//! their versions (an older one restored), a user's usage, bulk actions (move, delete, zip)
//! on a selection, and the trash (list, restore, delete for good, empty). `user` is the vault's owner (the path's `{userId}`).

use std::future::Future;

use gloo_net::http::Method;
use moneydesk_model::vault::{FileRecord, FolderRecord, TrashItem, VaultEntry, VaultUsage};
use moneydesk_model::{paths, Envelope, Page};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use moneydesk_model::bulk::{BulkResult, BulkSelect};

use super::client::{envelope_data, Body};
use super::error::decode_error;
use super::{ApiError, Client};

fn at(template: &str, user: &str) -> String {
    let encoded: String = js_sys::encode_uri_component(user).into();
    paths::fill(template, "userId", &encoded)
}

/// POST/DELETE with query parameters only (the description's style), answering an envelope.
fn call<T: serde::de::DeserializeOwned + 'static>(
    client: &Client,
    method: Method,
    path: String,
    query: Vec<(&'static str, String)>,
) -> impl Future<Output = Result<T, ApiError>> + 'static {
    let refs: Vec<(&str, &str)> = query.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let sent = client.send::<Envelope<T>>(method, &path, &refs, None);
    async move { envelope_data(sent.await?) }
}

/// One page of a folder's subfolders and files (folders first), `sort` as `name,asc`.
pub fn contents(
    client: &Client,
    user: &str,
    path: &str,
    page: u32,
    sort: &str,
) -> impl Future<Output = Result<Page<VaultEntry>, ApiError>> + 'static {
    let page = page.to_string();
    client.get_data(
        &at(paths::VAULT_FOLDER_CONTENTS, user),
        &[("path", path), ("page", &page), ("size", "100"), ("sort", sort)],
    )
}

/// A folder with the counts of its subtree (what a delete would remove).
pub fn folder(
    client: &Client,
    user: &str,
    path: &str,
) -> impl Future<Output = Result<FolderRecord, ApiError>> + 'static {
    client.get_data(&at(paths::VAULT_FOLDER, user), &[("path", path)])
}

pub fn create_folder(
    client: &Client,
    user: &str,
    parent: &str,
    name: &str,
) -> impl Future<Output = Result<FolderRecord, ApiError>> + 'static {
    call(client, Method::POST, at(paths::VAULT_FOLDER, user), vec![("path", parent.into()), ("name", name.into())])
}

pub fn move_folder(
    client: &Client,
    user: &str,
    from: &str,
    to: &str,
) -> impl Future<Output = Result<FolderRecord, ApiError>> + 'static {
    call(client, Method::POST, at(paths::VAULT_FOLDER_MOVE, user), vec![("path", from.into()), ("newPath", to.into())])
}

pub fn delete_folders(
    client: &Client,
    user: &str,
    folders: &[String],
) -> impl Future<Output = Result<Vec<FolderRecord>, ApiError>> + 'static {
    let mut query: Vec<(&'static str, String)> = folders.iter().map(|p| ("paths", p.clone())).collect();
    query.push(("userId", user.to_string()));
    call(client, Method::DELETE, paths::VAULT_FOLDERS_DELETE.to_string(), query)
}

pub fn move_file(
    client: &Client,
    user: &str,
    from: &str,
    to: &str,
) -> impl Future<Output = Result<VaultEntry, ApiError>> + 'static {
    call(client, Method::POST, at(paths::VAULT_FILE_MOVE, user), vec![("path", from.into()), ("newPath", to.into())])
}

pub fn delete_file(
    client: &Client,
    user: &str,
    path: &str,
) -> impl Future<Output = Result<FileRecord, ApiError>> + 'static {
    call(client, Method::DELETE, at(paths::VAULT_FILE, user), vec![("path", path.into())])
}

/// A file with its versions, newest first.
pub fn versions(
    client: &Client,
    user: &str,
    path: &str,
) -> impl Future<Output = Result<FileRecord, ApiError>> + 'static {
    client.get_data(&at(paths::VAULT_FILE_VERSIONS, user), &[("path", path)])
}

pub fn usage(client: &Client, user: &str) -> impl Future<Output = Result<VaultUsage, ApiError>> + 'static {
    client.get_data(&at(paths::VAULT_USAGE, user), &[])
}

fn trash_item(template: &str, user: &str, id: u64) -> String {
    paths::fill(&at(template, user), "trashId", &id.to_string())
}

/// One page of the user's trash, newest first.
pub fn trash(
    client: &Client,
    user: &str,
    page: u32,
) -> impl Future<Output = Result<Page<TrashItem>, ApiError>> + 'static {
    let page = page.to_string();
    client.get_data(&at(paths::VAULT_TRASH, user), &[("page", &page), ("size", "50")])
}

/// Puts a trashed item back where it was, or at `to`.
pub fn restore(
    client: &Client,
    user: &str,
    id: u64,
    to: Option<&str>,
) -> impl Future<Output = Result<VaultEntry, ApiError>> + 'static {
    let query = to.map(|p| vec![("path", p.to_string())]).unwrap_or_default();
    call(client, Method::POST, trash_item(paths::VAULT_TRASH_RESTORE, user, id), query)
}

/// Removes one trashed item for good.
pub fn purge(client: &Client, user: &str, id: u64) -> impl Future<Output = Result<TrashItem, ApiError>> + 'static {
    call(client, Method::DELETE, trash_item(paths::VAULT_TRASH_ITEM, user, id), Vec::new())
}

/// Empties the trash.
pub fn empty_trash(client: &Client, user: &str) -> impl Future<Output = Result<Vec<TrashItem>, ApiError>> + 'static {
    call(client, Method::DELETE, at(paths::VAULT_TRASH, user), Vec::new())
}

/// Makes `version` of the file the newest (a new version with its bytes).
pub fn restore_version(
    client: &Client,
    user: &str,
    path: &str,
    version: u32,
) -> impl Future<Output = Result<VaultEntry, ApiError>> + 'static {
    let query = vec![("path", path.to_string()), ("version", version.to_string())];
    call(client, Method::POST, at(paths::VAULT_FILE_VERSION_RESTORE, user), query)
}

/// The answer's bytes as a Blob (see `client::blob`).
fn blob(
    sent: impl Future<Output = Result<gloo_net::http::Response, ApiError>> + 'static,
) -> impl Future<Output = Result<web_sys::Blob, ApiError>> + 'static {
    async move { super::client::blob(sent.await?).await }
}

/// A file's bytes: the latest version, or `version`.
pub fn file(
    client: &Client,
    user: &str,
    path: &str,
    version: Option<u32>,
) -> impl Future<Output = Result<web_sys::Blob, ApiError>> + 'static {
    let v = version.map(|v| v.to_string());
    let mut query = vec![("path", path)];
    if let Some(v) = &v {
        query.push(("version", v));
    }
    blob(client.send_raw(Method::GET, &at(paths::VAULT_FILE, user), &query, None))
}

/// The folders as one zip named `name`.
pub fn zip(
    client: &Client,
    user: &str,
    folders: &[String],
    name: &str,
) -> impl Future<Output = Result<web_sys::Blob, ApiError>> + 'static {
    let mut query: Vec<(&str, &str)> = folders.iter().map(|p| ("paths", p.as_str())).collect();
    query.push(("name", name));
    blob(client.send_raw(Method::POST, &at(paths::VAULT_FOLDER_DOWNLOAD, user), &query, None))
}

/// An upload under way: `cancel` aborts it (the server keeps nothing of it).
pub struct Upload {
    xhr: web_sys::XmlHttpRequest,
    // Kept alive while the request runs.
    _handlers: Vec<Closure<dyn FnMut(web_sys::ProgressEvent)>>,
}

impl Upload {
    pub fn cancel(&self) {
        let _ = self.xhr.abort();
    }
}

/// Uploads `file` into `folder` as one multipart part `file`; `progress(sent, total)` as it
/// goes; `done` once with the file's entry, the server's error, or `Aborted` after a cancel.
pub fn upload(
    client: &Client,
    user: &str,
    folder: &str,
    file: &web_sys::File,
    name: &str,
    mut progress: impl FnMut(f64, f64) + 'static,
    done: impl FnOnce(Result<VaultEntry, ApiError>) + 'static,
) -> Result<Upload, ApiError> {
    let fail = |what: &str| ApiError::Decode { status: 0, message: format!("the upload could not start: {what}") };
    let xhr = web_sys::XmlHttpRequest::new().map_err(|_| fail("no XMLHttpRequest"))?;
    let query = format!("?path={}", String::from(js_sys::encode_uri_component(folder)));
    let url = client.url(&format!("{}{query}", at(paths::VAULT_FILE, user)));
    xhr.open_with_async("POST", &url, true).map_err(|_| fail("open"))?;
    if let Some(auth) = client.authorization() {
        xhr.set_request_header("Authorization", &auth).map_err(|_| fail("header"))?;
    }
    xhr.set_request_header("Accept", "application/json").map_err(|_| fail("header"))?;
    let form = web_sys::FormData::new().map_err(|_| fail("form"))?;
    form.append_with_blob_and_filename("file", file, name).map_err(|_| fail("form"))?;

    let on_progress = Closure::<dyn FnMut(web_sys::ProgressEvent)>::new(move |e: web_sys::ProgressEvent| {
        if e.length_computable() {
            progress(e.loaded(), e.total());
        }
    });
    if let Ok(up) = xhr.upload() {
        up.set_onprogress(Some(on_progress.as_ref().unchecked_ref()));
    }
    let done = std::cell::RefCell::new(Some(done));
    let (xhr2, client2, url2) = (xhr.clone(), client.clone(), url.clone());
    let on_end = Closure::<dyn FnMut(web_sys::ProgressEvent)>::new(move |e: web_sys::ProgressEvent| {
        let Some(done) = done.borrow_mut().take() else { return };
        let result = match e.type_().as_str() {
            "abort" => Err(ApiError::Aborted),
            "error" | "timeout" => {
                Err(ApiError::Network { url: url2.clone(), message: "the connection failed during the upload".into() })
            }
            _ => {
                let status = xhr2.status().unwrap_or(0);
                let text = xhr2.response_text().ok().flatten().unwrap_or_default();
                if (200..300).contains(&status) {
                    super::client::decode_success::<Envelope<VaultEntry>>(status, &text).and_then(envelope_data)
                } else {
                    let err = decode_error(status, &text);
                    client2.report(&err);
                    Err(err)
                }
            }
        };
        done(result);
    });
    let target: &web_sys::XmlHttpRequestEventTarget = xhr.as_ref();
    target.set_onloadend(Some(on_end.as_ref().unchecked_ref()));
    target.set_onabort(Some(on_end.as_ref().unchecked_ref()));
    xhr.send_with_opt_form_data(Some(&form)).map_err(|_| fail("send"))?;
    Ok(Upload { xhr, _handlers: vec![on_progress, on_end] })
}

/// POST `…/bulk`: `move` (into `to`) or `delete` the selected entries, one request with
/// `key` as its `Idempotency-Key`; each entry's outcome.
pub fn bulk(
    client: &Client,
    user: &str,
    action: &str,
    to: Option<&str>,
    select: &BulkSelect,
    key: &str,
) -> impl Future<Output = Result<BulkResult, ApiError>> + 'static {
    let mut body = serde_json::json!({"action": action, "select": select});
    if let Some(to) = to {
        body["to"] = to.into();
    }
    let client = client.clone().with_header("Idempotency-Key", key.to_string());
    let sent = Body::json(&body)
        .map(|b| client.send::<Envelope<BulkResult>>(Method::POST, &at(paths::VAULT_BULK, user), &[], Some(b)));
    async move { envelope_data(sent?.await?) }
}

/// POST `…/bulk/download`: one zip of the selected files and folders, named `name`.
pub fn bulk_zip(
    client: &Client,
    user: &str,
    select: &BulkSelect,
    name: &str,
) -> impl Future<Output = Result<web_sys::Blob, ApiError>> + 'static {
    let body = Body::json(&serde_json::json!({"select": select, "name": name}));
    let sent = body.map(|b| client.send_raw(Method::POST, &at(paths::VAULT_BULK_DOWNLOAD, user), &[], Some(b)));
    async move { super::client::blob(sent?.await?).await }
}
