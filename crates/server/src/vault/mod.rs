//! Document vault. STUB until the vault issue lands: guarded and documented, answers 501.

use moneydesk_model::vault::VaultEntry;
use moneydesk_model::{paths, Envelope};
use serde_json::Value;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_folder))
        .routes(routes!(move_folder))
        .routes(routes!(download_folders))
        .routes(routes!(delete_folders))
}

fn todo() -> Error {
    Error::not_implemented("The document vault")
}

#[utoipa::path(post, path = paths::VAULT_FOLDER, tag = "vault",
    params(("userId" = String, Path, description = "The vault's owner"),
        ("path" = String, Query, description = "Parent folder, `/`-separated, relative to the vault root"),
        ("name" = String, Query, description = "New folder's name")),
    security(("bearer" = ["vault:write"])),
    responses((status = 200, description = "The folder created", body = Envelope<VaultEntry>),
        (status = 409, description = "A folder or file of that name exists", body = ErrorEnvelopeDoc),
        (status = 501, description = "Not implemented on this server yet", body = ErrorEnvelopeDoc)))]
async fn create_folder(_caller: Caller) -> Result<(), Error> {
    Err(todo())
}

#[utoipa::path(post, path = paths::VAULT_FOLDER_MOVE, tag = "vault",
    params(("userId" = String, Path, description = "The vault's owner"),
        ("path" = String, Query, description = "Folder to move"),
        ("newPath" = String, Query, description = "Where it goes (the folder's new path)")),
    security(("bearer" = ["vault:write"])),
    responses((status = 200, description = "The folder at its new place", body = Envelope<VaultEntry>),
        (status = 409, description = "Target exists, or a move into the folder's own subtree", body = ErrorEnvelopeDoc),
        (status = 501, description = "Not implemented on this server yet", body = ErrorEnvelopeDoc)))]
async fn move_folder(_caller: Caller) -> Result<(), Error> {
    Err(todo())
}

#[utoipa::path(post, path = paths::VAULT_FOLDER_DOWNLOAD, tag = "vault",
    params(("userId" = String, Path, description = "The vault's owner"),
        ("paths" = Vec<String>, Query, description = "Folders to download; repeat the parameter", explode = true),
        ("name" = Option<String>, Query, description = "The zip file's name")),
    security(("bearer" = ["vault:read"])),
    responses((status = 200, description = "A zip archive of the folders", content_type = "application/zip", body = Vec<u8>),
        (status = 501, description = "Not implemented on this server yet", body = ErrorEnvelopeDoc)))]
async fn download_folders(_caller: Caller) -> Result<(), Error> {
    Err(todo())
}

#[utoipa::path(delete, path = paths::VAULT_FOLDERS_DELETE, tag = "vault",
    params(("paths" = Vec<String>, Query, description = "Folders to delete; repeat the parameter", explode = true),
        ("userId" = String, Query, description = "The vault's owner")),
    security(("bearer" = ["vault:write"])),
    responses((status = 200, description = "What was deleted", body = Envelope<Value>),
        (status = 501, description = "Not implemented on this server yet", body = ErrorEnvelopeDoc)))]
async fn delete_folders(_caller: Caller) -> Result<(), Error> {
    Err(todo())
}
