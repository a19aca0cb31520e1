//! Document vault (description 2.8, 4.2; CONTRACT.md points 7, 8, 12): a vault per user,
//! folders with files and versions. The four folder operations of the description (query
//! parameters even on POST), and the extensions the Vault page needs (`files`). Metadata in
//! the database (`store`), contents in the blob store by SHA-256 (`blobs`), zips streamed
//! (`archive`). A token reaches its own user's vault; `admin` reaches any.

use axum::extract::{Path as UrlPath, RawQuery, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use moneydesk_model::vault::{archive_name, Entry, Folder, FolderRecord, Owner, UserId, VaultParams, VaultPath};
use moneydesk_model::{paths, Envelope, Scope};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Json;
use crate::AppState;

pub mod archive;
pub mod blobs;
mod bulk;
mod files;
pub mod store;
pub mod trash;
mod versions;

use store::VaultError;

crate::group_state! {
    /// What the vault handlers reach: its store and files.
    pub struct VaultState {
        vault: crate::vault::store::VaultStore = stores.vault,
        blobs: crate::storage::blobs::Blobs = blobs,
        blob_dir: Option<std::path::PathBuf> = blob_dir,
        config: std::sync::Arc<crate::Config> = config,
    }
}

// The parameters' patterns (in the OpenAPI document; the fuzzer generates from them) say
// what a path, a name and a user id may hold; the byte limits (255 a name, 4096 a path, after
// NFC) cannot be patterns: they are in the text and refused with a 400 naming the limit.

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_folder, folder))
        .routes(routes!(move_folder))
        .routes(routes!(download_folders))
        .routes(routes!(delete_folders))
        .routes(routes!(files::contents))
        .routes(routes!(files::upload, files::download, files::delete))
        .routes(routes!(files::move_file))
        .routes(routes!(files::versions))
        .routes(routes!(files::usage))
        .routes(routes!(bulk::bulk_action))
        .routes(routes!(bulk::bulk_download))
        .routes(routes!(trash::list, trash::empty))
        .routes(routes!(trash::delete))
        .routes(routes!(trash::restore))
        .routes(routes!(versions::restore))
        .routes(routes!(versions::compare))
}

impl From<VaultError> for Error {
    fn from(e: VaultError) -> Error {
        match e {
            VaultError::NotFound(m) => Error::not_found(m),
            VaultError::Conflict(m) => Error::conflict(m),
            VaultError::Invalid(m) => match m.split_once(": ") {
                Some((field, message)) if !field.contains(' ') => Error::field(field, message),
                _ => Error::bad_request(m),
            },
            VaultError::Db(e) => e.into(),
        }
    }
}

/// The query's pairs (a parameter may repeat: `paths`).
pub(crate) fn pairs(q: &Option<String>) -> Vec<(String, String)> {
    crate::http::extract::query_pairs(q.as_deref())
}

/// An optional `true`/`false` switch (`inline`, `permanent`): absent is `false`.
pub(crate) fn flag(pairs: &[(String, String)], name: &str) -> Result<bool, Error> {
    match pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()) {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(_) => Err(Error::field(name, "must be true or false")),
    }
}

/// The one value of a required parameter.
pub(crate) fn required<'a>(pairs: &'a [(String, String)], name: &str) -> Result<&'a str, Error> {
    let mut found = pairs.iter().filter(|(k, _)| k == name);
    match (found.next(), found.next()) {
        (Some((_, v)), None) => Ok(v),
        (None, _) => Err(Error::field(name, "is required")),
        (Some(_), Some(_)) => Err(Error::field(name, "is given more than once")),
    }
}

/// A path parameter, checked (CONTRACT.md point 12; NFC).
pub(crate) fn path_param(name: &str, value: &str) -> Result<VaultPath, Error> {
    VaultPath::parse(value).map_err(|e| Error::field(name, e.to_string()))
}

/// The vault `user_id` names, if the caller may reach it: its own, or any with `admin`.
pub(crate) fn owner(caller: &Caller, user_id: &str) -> Result<String, Error> {
    let user: UserId =
        user_id.parse().map_err(|e: moneydesk_model::vault::UserIdError| Error::field("userId", e.to_string()))?;
    if caller.user_id() != user.as_str() && !caller.can(Scope::Admin) {
        return Err(Error::new(
            axum::http::StatusCode::FORBIDDEN,
            "forbidden",
            format!(
                "This token reaches only the vault of user {:?}; user {:?}'s vault needs the admin scope",
                caller.user_id(),
                user.as_str()
            ),
        ));
    }
    Ok(user.as_str().to_string())
}

#[utoipa::path(post, path = paths::VAULT_FOLDER, tag = "vault",
    params(VaultParams<Folder>,
        ("name" = String, Query, description = "The new folder's name: 1 to 255 bytes (UTF-8, after NFC), no `/`, `\\`, control characters, `.` or `..`", pattern = r"^(?!\.\.?$)[^/\\\x00-\x1f\x7f-\x9f]+$", max_length = 255)),
    security(("bearer" = ["vault:write"])),
    description = "Creates a folder `name` in the folder `path`, which is created with its missing ancestors, like `mkdir -p`. Names are compared after Unicode NFC normalisation, so two spellings of one name are one folder. The answer is the folder's record (the description shows none).",
    responses((status = 200, description = "The folder created", body = Envelope<FolderRecord>),
        (status = 400, description = "A path or name is not allowed; the message says why", body = ErrorEnvelopeDoc),
        (status = 403, description = "Another user's vault without admin", body = ErrorEnvelopeDoc),
        (status = 409, description = "A folder or file of that name exists", body = ErrorEnvelopeDoc)))]
async fn create_folder(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<FolderRecord>>, Error> {
    let user = owner(&caller, &user_id)?;
    let q = pairs(&q);
    let parent = path_param("path", required(&q, "path")?)?;
    let name = VaultPath::parse_name(required(&q, "name")?).map_err(|e| Error::field("name", e.to_string()))?;
    Ok(Json(Envelope::ok(state.vault().create_folder(&user, &parent, &name).await?)))
}

#[utoipa::path(get, path = paths::VAULT_FOLDER, tag = "vault",
    params(VaultParams<Folder>),
    security(("bearer" = ["vault:read"])),
    extensions(("x-extension" = json!(true))),
    description = "A folder's record: how many folders, files and versions its subtree holds and their bytes (what a delete would remove).",
    responses((status = 200, description = "The folder", body = Envelope<FolderRecord>),
        (status = 404, description = "No such folder", body = ErrorEnvelopeDoc)))]
async fn folder(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<FolderRecord>>, Error> {
    let user = owner(&caller, &user_id)?;
    let path = path_param("path", required(&pairs(&q), "path")?)?;
    let record =
        state.vault().folder(&user, &path).await?.ok_or_else(|| Error::not_found(format!("No folder {path}")))?;
    Ok(Json(Envelope::ok(record)))
}

#[utoipa::path(post, path = paths::VAULT_FOLDER_MOVE, tag = "vault",
    params(VaultParams<Entry>,
        ("newPath" = String, Query, description = "The folder's new path (its new parent is created if missing); a rename is a move within one parent", pattern = r"^/?(?!\.\.?(?:/|$))[^/\\\x00-\x1f\x7f-\x9f]+(?:/(?!\.\.?(?:/|$))[^/\\\x00-\x1f\x7f-\x9f]+)*/?$", max_length = 4096)),
    security(("bearer" = ["vault:write"])),
    description = "Moves a folder with everything in it, atomically: a crash leaves the old tree or the new one. The cost does not depend on the number of files (contents are not rewritten).",
    responses((status = 200, description = "The folder at its new place", body = Envelope<FolderRecord>),
        (status = 400, description = "A path is not allowed, or the root was given", body = ErrorEnvelopeDoc),
        (status = 404, description = "No folder at `path`", body = ErrorEnvelopeDoc),
        (status = 409, description = "Something exists at `newPath`, or it lies inside the folder", body = ErrorEnvelopeDoc)))]
async fn move_folder(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<FolderRecord>>, Error> {
    let user = owner(&caller, &user_id)?;
    let q = pairs(&q);
    let from = path_param("path", required(&q, "path")?)?;
    let to = path_param("newPath", required(&q, "newPath")?)?;
    Ok(Json(Envelope::ok(state.vault().move_folder(&user, &from, &to).await?)))
}

#[utoipa::path(post, path = paths::VAULT_FOLDER_DOWNLOAD, tag = "vault",
    params(VaultParams<Owner>,
        ("paths" = Vec<String>, Query, description = "Folders to download; repeat the parameter", explode = true, min_items = 1),
        ("name" = String, Query, description = "The archive's file name (`.zip` is added when missing; characters a file name cannot hold become `_`)")),
    security(("bearer" = ["vault:read"])),
    description = "One zip of the folders with every file's latest version, streamed (constant memory, zip64 past 4 GB). Entries are named relative to each folder's parent, so extraction cannot escape its directory; two folders of one name become `name` and `name (2)`. A missing folder is a 404 before any byte is sent.",
    responses((status = 200, description = "The zip archive", content_type = "application/zip", body = crate::http::openapi::Binary),
        (status = 400, description = "A path is not allowed, or none was given", body = ErrorEnvelopeDoc),
        (status = 404, description = "A folder does not exist", body = ErrorEnvelopeDoc)))]
async fn download_folders(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
    RawQuery(q): RawQuery,
) -> Result<Response, Error> {
    let user = owner(&caller, &user_id)?;
    let q = pairs(&q);
    let paths = folder_list(&q)?;
    let name = archive_name(required(&q, "name")?);
    let (dirs, files) = archive::entries(state.vault().archive(&user, &paths).await?);
    // On record once the folders are found (a 404 is not a download).
    state.vault().record_download(&user, &paths).await?;
    let mut response = archive::body(state.blobs().clone(), dirs, files).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/zip"));
    if let Ok(v) = HeaderValue::from_str(&archive::content_disposition("attachment", &name)) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// The repeated `paths` parameter: at least one, each checked, duplicates once.
fn folder_list(q: &[(String, String)]) -> Result<Vec<VaultPath>, Error> {
    let mut paths = Vec::new();
    for (_, v) in q.iter().filter(|(k, _)| k == "paths") {
        let p = path_param("paths", v)?;
        if !paths.contains(&p) {
            paths.push(p);
        }
    }
    if paths.is_empty() {
        return Err(Error::field("paths", "give at least one folder (repeat the parameter for more)"));
    }
    Ok(paths)
}

#[utoipa::path(delete, path = paths::VAULT_FOLDERS_DELETE, tag = "vault",
    params(("paths" = Vec<String>, Query, description = "Folders to delete; repeat the parameter", explode = true, min_items = 1),
        ("userId" = String, Query, description = "The vault's owner (a token reaches its own user's; `admin` any)", pattern = "^[A-Za-z0-9._@-]{1,128}$", example = "usr_0001"),
        ("permanent" = Option<bool>, Query, description = "`true`: remove permanently at once, skipping the trash (default `false`: move to the trash)")),
    security(("bearer" = ["vault:write"])),
    description = "Deletes the folders with all their files and all versions, in one transaction (all or nothing: a missing folder deletes none). Deleting the root empties the vault. The answer lists each folder as it was (its counts are what went).\n\n**Default: moved to the owner's trash** (extension, issue 46): a slip must not lose a record, so by default the folders leave the vault (listings, downloads, zips; their paths are free again) but stay restorable from the trash (`…/trash`) until the purge removes them, `MONEYDESK_VAULT_TRASH_RETENTION` (30 days by default) later; deleting the root moves each top-level folder and file to the trash on its own. The description's meaning, \"permanently removes\", is kept by `permanent=true`, by emptying the trash (or deleting an item from it) and by the purge: then contents no longer referenced by any version, file or trashed item are removed from storage after the commit.",
    responses((status = 200, description = "What was deleted", body = Envelope<Vec<FolderRecord>>),
        (status = 400, description = "A path is not allowed, or none was given", body = ErrorEnvelopeDoc),
        (status = 404, description = "A folder does not exist (nothing was deleted)", body = ErrorEnvelopeDoc)))]
async fn delete_folders(
    State(state): State<VaultState>,
    caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Vec<FolderRecord>>>, Error> {
    let q = pairs(&q);
    let user = owner(&caller, required(&q, "userId")?)?;
    let paths = folder_list(&q)?;
    if !trash::permanent(&q)? {
        let gone = state.vault().trash_folders(&user, &paths, &trash::deleter(&state, &caller)).await?;
        return Ok(Json(Envelope::ok(gone)));
    }
    let (gone, shas) = state.vault().delete_folders(&user, &paths).await?;
    blobs::sweep_later(&state, shas);
    Ok(Json(Envelope::ok(gone)))
}
