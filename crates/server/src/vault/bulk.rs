//! Bulk actions on a vault's files and folders (issue 45): `move` (into one folder) and
//! `delete`, each entry in its own transaction with its own audit record, as the single
//! actions do; and one zip of the selection (`…/bulk/download`, streamed by `archive`). The
//! selection is paths, or `{"path": folder}`: everything that folder holds (its listing).

use std::collections::HashSet;

use axum::extract::{Path as UrlPath, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use moneydesk_model::bulk::{BulkItem, BulkRequest, BulkResult, BulkSelect, BULK_LIMIT};
use moneydesk_model::collections::SortDir;
use moneydesk_model::vault::{archive_name, VaultPath, VaultSortField};
use moneydesk_model::{paths, Envelope};
use serde::{Deserialize, Serialize};

use super::blobs::sweep_later;
use super::store::ArchiveFile;
use super::{archive, owner, VaultState};
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::bulk::{self, Chosen};
use crate::http::extract::Json;

/// What a bulk action does to each entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VaultBulkAction {
    /// Into the folder `to`, keeping its name (a folder with all it holds).
    Move,
    /// To the trash (`permanent: true`: for good), with every version (a folder with all it
    /// holds).
    Delete,
}

/// A bulk action's parameter beside `action`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VaultBulkParams {
    /// `move`: the folder the entries go into (it must exist; `/` is the root).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// `delete`: `true` removes for good, skipping the trash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permanent: Option<bool>,
}

/// What to download: the selection, and the archive's file name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VaultDownloadRequest {
    pub select: BulkSelect,
    /// The archive's file name (`.zip` added when missing); `vault-selection.zip` by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// The selection's schema: paths, or a folder's listing. A bulk action takes its ids one by
/// one: a path that names no entry (or is no path) is that item's refusal (`not_found`), as
/// every bulk action treats an unknown id. A download answers one zip, which cannot say what
/// was refused: a path that is no path is a 400 (the root, empty or `/`, is everything).
fn select_schema(download: bool) -> serde_json::Value {
    use moneydesk_model::vault::{ENTRY_PATTERN, FOLDER_PATTERN};
    let path = |pattern: &str| serde_json::json!({"type": "string", "pattern": pattern, "maxLength": 4096});
    let (what, id) = match download {
        false => (
            "Paths of files and folders (one that names no entry is refused on its own, `not_found`)",
            serde_json::json!({"type": "string"}),
        ),
        true => ("Paths of files and folders (empty or `/`: the root)", path(&format!("^/?$|{ENTRY_PATTERN}"))),
    };
    bulk::select_schema(what, id, serde_json::json!({"path": path(FOLDER_PATTERN)}))
}

/// The bulk action's body, as the document writes it: a move names its folder, a delete none.
pub struct VaultBulkRequest;

impl utoipa::PartialSchema for VaultBulkRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        let to = serde_json::json!({"to": {"type": "string", "pattern": moneydesk_model::vault::FOLDER_PATTERN, "maxLength": 4096,
            "description": "The folder the entries go into (`/` or empty: the root)"}});
        bulk::schema(serde_json::json!({"oneOf": [
            bulk::action_schema(&["move"], to, select_schema(false)),
            bulk::action_schema(&["delete"], serde_json::json!({"permanent": {"type": ["boolean", "null"],
                "description": "`true`: removed for good at once, skipping the trash (default, or `null`: moved to the trash)"}}), select_schema(false)),
        ]}))
    }
}

impl utoipa::ToSchema for VaultBulkRequest {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("VaultBulkRequest")
    }
}

/// The download's body, as the document writes it.
pub struct VaultDownloadBody;

impl utoipa::PartialSchema for VaultDownloadBody {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        bulk::schema(serde_json::json!({"type": "object", "required": ["select"], "additionalProperties": false,
            "properties": {"select": select_schema(true), "name": {"type": ["string", "null"],
                "description": "The archive's file name (none or `null`: `vault-selection.zip`; `.zip` added when missing; characters a file name cannot hold become `_`; cut to 200 characters)"}}}))
    }
}

impl utoipa::ToSchema for VaultDownloadBody {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("VaultDownloadRequest")
    }
}

#[utoipa::path(operation_id = "bulk_vault_entries", post, path = paths::VAULT_BULK, tag = "vault",
    params(("userId" = String, Path, description = "The vault's owner (a token reaches its own user's; `admin` any)", pattern = "^[A-Za-z0-9._@-]{1,128}$")),
    request_body = VaultBulkRequest,
    security(("bearer" = ["vault:write"])),
    extensions(("x-extension" = json!(true))),
    description = "Moves (`to`: a folder that exists) or deletes the selected files and folders (a delete moves them to the owner's trash, as the single deletes do; `permanent: true` removes them for good): `select.ids` are their paths, or `select.filter` is `{\"path\": folder}` (the folder's listing: everything directly in it; `page`, `size`, `sort` ignored), applied when the request runs. Each entry is taken alone, in its own transaction with its own audit record, as the single file or folder action does; a folder goes with everything in it. Refused per entry: `not_found` (no such path, or no folder `to`), `conflict` (the name is taken in `to`, or a folder would move into itself), `validation` (the root, or a path not allowed). The answer is 200 even when some or all are refused. More than 10,000 entries: 422 `too_many`, nothing done.",
    responses((status = 200, description = "Each entry's outcome", body = Envelope<BulkResult>),
        (status = 400, description = "The request is malformed: both or neither of ids and filter, an unknown filter parameter or action, a move without `to`; the message names it", body = ErrorEnvelopeDoc),
        (status = 403, description = "Another user's vault without admin", body = ErrorEnvelopeDoc),
        (status = 404, description = "The filter's folder does not exist", body = ErrorEnvelopeDoc),
        (status = 422, description = "More entries selected than one bulk action takes (`too_many`)", body = ErrorEnvelopeDoc)))]
pub(super) async fn bulk_action(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
    body: axum::body::Bytes,
) -> Result<Json<Envelope<BulkResult>>, Error> {
    let req: BulkRequest<VaultBulkAction, VaultBulkParams> =
        bulk::read(&body, &["action", "to", "permanent", "select"])?;
    let user = owner(&caller, &user_id)?;
    if req.action == VaultBulkAction::Move && req.params.permanent.is_some() {
        return Err(Error::field("permanent", "only a delete takes it"));
    }
    let permanent = req.params.permanent.unwrap_or(false);
    let to = match (req.action, &req.params.to) {
        (VaultBulkAction::Move, Some(to)) => Some(super::path_param("to", to)?),
        (VaultBulkAction::Move, None) => return Err(Error::field("to", "is required: the folder to move into")),
        (VaultBulkAction::Delete, Some(_)) => return Err(Error::field("to", "only a move takes a folder")),
        (VaultBulkAction::Delete, None) => None,
    };
    let ids = selected(&state, &user, &req.select).await?;
    // A missing folder `to` refuses every entry alike (a folder's move would create it, a
    // file's would not: the same answer for both).
    let missing_to = match &to {
        Some(to) if state.vault().folder(&user, to).await?.is_none() => Some(format!("No folder {to}")),
        _ => None,
    };
    let who = (caller.token_name().to_string(), state.config().vault_trash_retention, permanent);
    let items = bulk::each(ids, |id| {
        let (state, user, to, missing_to, who) =
            (state.clone(), user.clone(), to.clone(), missing_to.clone(), who.clone());
        async move {
            if let Some(problem) = missing_to {
                return BulkItem::refused(&id, "not_found", problem);
            }
            match one(&state, &user, &id, to.as_ref(), &who).await {
                Ok(()) => BulkItem::done(&id),
                Err(e) => bulk::refused(&id, e),
            }
        }
    })
    .await;
    let action = if to.is_some() { "move" } else { "delete" };
    Ok(Json(Envelope::ok(BulkResult::new(action, items))))
}

/// Moves (`to`) or deletes one entry, a folder or a file (`who`: the deleter's name, the
/// trash's retention, and whether the delete skips the trash).
async fn one(
    state: &VaultState,
    user: &str,
    id: &str,
    to: Option<&VaultPath>,
    who: &(String, std::time::Duration, bool),
) -> Result<(), Error> {
    let trash = super::store::Deleter { by: &who.0, retention: who.1 };
    let path = super::path_param("path", id)?;
    if path.is_root() {
        return Err(Error::field("path", "the vault root cannot be moved or deleted; select what it holds"));
    }
    let folder = state.vault().folder(user, &path).await?.is_some();
    match (to, folder) {
        (Some(to), _) => {
            let dest = to.join(path.name()).map_err(|e| Error::field("to", e.to_string()))?;
            match folder {
                true => state.vault().move_folder(user, &path, &dest).await.map(|_| ())?,
                false => state.vault().move_file(user, &path, &dest).await.map(|_| ())?,
            }
        }
        (None, true) if !who.2 => {
            state.vault().trash_folders(user, std::slice::from_ref(&path), &trash).await?;
        }
        (None, false) if !who.2 => {
            state.vault().trash_file(user, &path, &trash).await?;
        }
        (None, true) => {
            let (_, shas) = state.vault().delete_folders(user, std::slice::from_ref(&path)).await?;
            sweep_later(state, shas);
        }
        (None, false) => {
            let (_, shas) = state.vault().delete_file(user, &path).await?;
            sweep_later(state, shas);
        }
    }
    Ok(())
}

/// The selected paths as given, or the listing of the filter's folder.
async fn selected(state: &VaultState, user: &str, select: &BulkSelect) -> Result<Vec<String>, Error> {
    match bulk::choose(select, &["path"])? {
        Chosen::Ids(ids) => Ok(ids),
        Chosen::Filter(pairs) => {
            let folder = pairs.iter().find(|(k, _)| k == "path").map(|(_, v)| v.as_str()).unwrap_or("/");
            let folder = super::path_param("select.filter.path", folder)?;
            let (total, entries) =
                state.vault().list(user, &folder, VaultSortField::Name, SortDir::Asc, 0, BULK_LIMIT as u32 + 1).await?;
            bulk::limit(total as usize)?;
            Ok(entries.into_iter().map(|e| e.path).collect())
        }
    }
}

#[utoipa::path(operation_id = "download_vault_selection", post, path = paths::VAULT_BULK_DOWNLOAD, tag = "vault",
    params(("userId" = String, Path, description = "The vault's owner (a token reaches its own user's; `admin` any)", pattern = "^[A-Za-z0-9._@-]{1,128}$")),
    request_body = VaultDownloadBody,
    security(("bearer" = ["vault:read"])),
    extensions(("x-extension" = json!(true))),
    description = "One zip of the selected files (latest version) and folders (with everything in them), streamed as the folder download is: `select.ids` are paths, or `select.filter` is `{\"path\": folder}` (everything directly in it). Folders are entries named by their name, files by theirs, at the archive's top; two of one name become `name` and `name (2)`. A zip cannot say per entry what was refused, so a path that does not exist is a 404 naming it before any byte is sent. On record as a download.",
    responses((status = 200, description = "The zip archive", content_type = "application/zip", body = crate::http::openapi::Binary),
        (status = 400, description = "The request is malformed, or a path is not allowed", body = ErrorEnvelopeDoc),
        (status = 403, description = "Another user's vault without admin", body = ErrorEnvelopeDoc),
        (status = 404, description = "A selected path does not exist", body = ErrorEnvelopeDoc),
        (status = 422, description = "More entries selected than one bulk action takes (`too_many`)", body = ErrorEnvelopeDoc)))]
pub(super) async fn bulk_download(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
    Json(req): Json<VaultDownloadRequest>,
) -> Result<Response, Error> {
    let user = owner(&caller, &user_id)?;
    let mut folders = Vec::new();
    let mut files = Vec::new();
    for id in selected(&state, &user, &req.select).await? {
        let path = super::path_param("select.ids", &id)?;
        if path.is_root() || state.vault().folder(&user, &path).await?.is_some() {
            folders.push(path);
            continue;
        }
        let (_, _, versions) = state
            .vault()
            .file(&user, &path)
            .await?
            .ok_or_else(|| Error::not_found(format!("No file or folder {id}")))?;
        let latest = versions.first().ok_or_else(|| Error::not_found(format!("No file or folder {id}")))?;
        let folder = path.parent().unwrap_or_default().as_str().to_string();
        files.push(ArchiveFile {
            folder,
            name: path.name().to_string(),
            sha256: latest.sha256.clone(),
            size: latest.size,
        });
    }
    let (dirs, mut entries) = archive::entries(state.vault().archive(&user, &folders).await?);
    let mut taken: HashSet<String> = dirs.iter().filter_map(|d| d.split('/').next()).map(str::to_string).collect();
    let mut recorded: Vec<VaultPath> = folders.clone();
    for f in files {
        recorded.extend(VaultPath::parse(&format!("{}/{}", f.folder, f.name)).ok());
        entries.push((unique(&mut taken, &f.name), f));
    }
    state.vault().record_download(&user, &recorded).await?;
    let name = archive_name(req.name.as_deref().unwrap_or("vault-selection"));
    let mut response = archive::body(state.blobs().clone(), dirs, entries).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/zip"));
    if let Ok(v) = HeaderValue::from_str(&archive::content_disposition("attachment", &name)) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// `name`, or `name (2)`, `name (3)` … (before the extension) when taken at the archive's top.
fn unique(taken: &mut HashSet<String>, name: &str) -> String {
    let (stem, ext) = match name.rsplit_once('.') {
        Some((s, e)) if !s.is_empty() => (s, format!(".{e}")),
        _ => (name, String::new()),
    };
    let mut candidate = name.to_string();
    let mut n = 1;
    while !taken.insert(candidate.clone()) {
        n += 1;
        candidate = format!("{stem} ({n}){ext}");
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::unique;

    #[test]
    fn a_name_taken_at_the_top_of_the_archive_gets_a_number_before_its_extension() {
        let mut taken = ["Reports".to_string()].into_iter().collect();
        assert_eq!(unique(&mut taken, "a.pdf"), "a.pdf");
        assert_eq!(unique(&mut taken, "a.pdf"), "a (2).pdf");
        assert_eq!(unique(&mut taken, "Reports"), "Reports (2)");
        assert_eq!(unique(&mut taken, ".env"), ".env");
    }
}
