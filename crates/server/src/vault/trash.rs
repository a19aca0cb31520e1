//! The trash (issue 46, "nothing lost by a slip"): what a delete moved there (a page, newest
//! first), a restore to where it was or to a chosen path, a delete for good of one item, the
//! trash emptied; and the purge job that removes what is older than the retention
//! (`MONEYDESK_VAULT_TRASH_RETENTION`, 30 days by default). Contents go only when nothing
//! references them any more: the sweeper's one reference count (`blobs::sweep_these`).

use std::time::Duration;

use axum::extract::{Path as UrlPath, RawQuery, State};
use moneydesk_model::vault::{TrashItem, VaultEntry};
use moneydesk_model::{paths, Envelope, Page, PageRequest, Sort};

use super::blobs::sweep_later;
use super::store::{Deleter, VaultStore};
use super::{owner, pairs, path_param, VaultState};
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Json;
use crate::http::openapi::PageParams;
use crate::storage::blobs::Blobs;

/// Who deletes, for how long the trash keeps it.
pub(crate) fn deleter<'a>(state: &VaultState, caller: &'a Caller) -> Deleter<'a> {
    Deleter { by: caller.token_name(), retention: state.config().vault_trash_retention }
}

/// The optional `permanent` switch of the deletes: `true` skips the trash.
pub(crate) fn permanent(q: &[(String, String)]) -> Result<bool, Error> {
    super::flag(q, "permanent")
}

fn trash_id(raw: &str) -> Result<i64, Error> {
    raw.parse::<i64>().ok().filter(|n| *n >= 1).ok_or_else(|| Error::field("trashId", "must be a trashed item's id"))
}

#[utoipa::path(operation_id = "list_vault_trash", get, path = paths::VAULT_TRASH, tag = "vault",
    params(("userId" = String, Path, description = "The vault's owner (a token reaches its own user's; `admin` any)", pattern = "^[A-Za-z0-9._@-]{1,128}$"),
        PageParams),
    security(("bearer" = ["vault:read"])),
    extensions(("x-extension" = json!(true))),
    description = "The files and folders deleted from the vault and not yet purged, newest first: the path each had, its kind and bytes, when and by whom it was deleted, and when the purge removes it for good.",
    responses((status = 200, description = "A page of the trash", body = Envelope<Page<TrashItem>>),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc),
        (status = 403, description = "Another user's vault without admin", body = ErrorEnvelopeDoc)))]
pub(super) async fn list(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Page<TrashItem>>>, Error> {
    let user = owner(&caller, &user_id)?;
    let q = pairs(&q);
    let page = PageRequest::from_query(q.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| Error::field(e.param(), e.to_string()))?;
    let (total, items) = state.vault().trash(&user, page.offset(), page.size).await?;
    Ok(Json(Envelope::ok(Page::build(page, total, items, Sort::UNSORTED))))
}

#[utoipa::path(operation_id = "restore_vault_trash_item", post, path = paths::VAULT_TRASH_RESTORE, tag = "vault",
    params(("userId" = String, Path, description = "The vault's owner (a token reaches its own user's; `admin` any)", pattern = "^[A-Za-z0-9._@-]{1,128}$"),
        ("trashId" = i64, Path, description = "The trashed item's id", minimum = 1),
        ("path" = Option<String>, Query, description = "Where to put it instead of the path it had (when that place is taken, or wanted elsewhere)", pattern = r"^/?(?!\.\.?(?:/|$))[^/\\\x00-\x1f\x7f-\x9f]+(?:/(?!\.\.?(?:/|$))[^/\\\x00-\x1f\x7f-\x9f]+)*/?$", max_length = 4096)),
    security(("bearer" = ["vault:write"])),
    extensions(("x-extension" = json!(true))),
    description = "Puts a trashed file or folder (with everything it held, every version) back at the path it had, or at `path`, in one transaction. Missing parent folders are made again. A file or folder already at that place is a 409 naming it: nothing moves; restore to another `path`.",
    responses((status = 200, description = "The item where it now is", body = Envelope<VaultEntry>),
        (status = 400, description = "A parameter is wrong, or `path` is the root", body = ErrorEnvelopeDoc),
        (status = 403, description = "Another user's vault without admin", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such item in this user's trash", body = ErrorEnvelopeDoc),
        (status = 409, description = "Something is at the place; the message names it", body = ErrorEnvelopeDoc)))]
pub(super) async fn restore(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath((user_id, id)): UrlPath<(String, String)>,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<VaultEntry>>, Error> {
    let user = owner(&caller, &user_id)?;
    let id = trash_id(&id)?;
    let q = pairs(&q);
    let to = match q.iter().find(|(k, _)| k == "path") {
        Some((_, v)) => Some(path_param("path", v)?),
        None => None,
    };
    Ok(Json(Envelope::ok(state.vault().restore(&user, id, to.as_ref()).await?)))
}

#[utoipa::path(operation_id = "delete_vault_trash_item", delete, path = paths::VAULT_TRASH_ITEM, tag = "vault",
    params(("userId" = String, Path, description = "The vault's owner (a token reaches its own user's; `admin` any)", pattern = "^[A-Za-z0-9._@-]{1,128}$"),
        ("trashId" = i64, Path, description = "The trashed item's id", minimum = 1)),
    security(("bearer" = ["vault:write"])),
    extensions(("x-extension" = json!(true))),
    description = "Permanently removes one trashed item with everything it held; contents no longer referenced by any version, file or trashed item are removed from storage after the commit.",
    responses((status = 200, description = "The item as it was", body = Envelope<TrashItem>),
        (status = 400, description = "`trashId` is not an id", body = ErrorEnvelopeDoc),
        (status = 403, description = "Another user's vault without admin", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such item in this user's trash", body = ErrorEnvelopeDoc)))]
pub(super) async fn delete(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath((user_id, id)): UrlPath<(String, String)>,
) -> Result<Json<Envelope<TrashItem>>, Error> {
    let user = owner(&caller, &user_id)?;
    let (item, shas) = state.vault().purge(&user, trash_id(&id)?).await?;
    sweep_later(&state, shas);
    Ok(Json(Envelope::ok(item)))
}

#[utoipa::path(operation_id = "empty_vault_trash", delete, path = paths::VAULT_TRASH, tag = "vault",
    params(("userId" = String, Path, description = "The vault's owner (a token reaches its own user's; `admin` any)", pattern = "^[A-Za-z0-9._@-]{1,128}$")),
    security(("bearer" = ["vault:write"])),
    extensions(("x-extension" = json!(true))),
    description = "Empties the trash: every trashed item is permanently removed, in one transaction; contents no longer referenced are removed from storage after the commit.",
    responses((status = 200, description = "What was removed", body = Envelope<Vec<TrashItem>>),
        (status = 403, description = "Another user's vault without admin", body = ErrorEnvelopeDoc)))]
pub(super) async fn empty(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
) -> Result<Json<Envelope<Vec<TrashItem>>>, Error> {
    let user = owner(&caller, &user_id)?;
    let (items, shas) = state.vault().empty_trash(&user).await?;
    sweep_later(&state, shas);
    Ok(Json(Envelope::ok(items)))
}

/// Purges what is past its `purge_at`: each item in its own transaction, on record as the
/// job's; then the contents nothing references any more.
pub async fn purge_due(blobs: &Blobs, store: &VaultStore, grace: Duration) -> anyhow::Result<usize> {
    let mut purged = 0;
    loop {
        let due = store.due_for_purge(chrono::Utc::now(), 200).await?;
        if due.is_empty() {
            return Ok(purged);
        }
        for (user, id) in due {
            let (_, shas) = crate::storage::trail::job("vault-trash-purge", store.purge(&user, id)).await?;
            purged += 1;
            super::blobs::sweep_these(blobs, store, &shas, grace).await?;
        }
    }
}

/// The purge, once across the instances (`storage::queue::schedule`): it runs every quarter of
/// the retention, at most hourly (each instance asks at most every minute), so an item goes
/// within a quarter of its retention after its `purge_at`.
pub fn spawn_purge(blobs: Blobs, store: VaultStore, retention: Duration, grace: Duration) {
    use crate::storage::queue::schedule::{self, Every};
    let every = (retention / 4).clamp(Duration::from_secs(1), Duration::from_secs(3600));
    let when = Every { every, ask: every.min(Duration::from_secs(60)) };
    let db = store.db.clone();
    let run = move || {
        let (blobs, store) = (blobs.clone(), store.clone());
        async move {
            match purge_due(&blobs, &store, grace).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(purged = n, "vault trash purge removed expired items"),
                Err(e) => tracing::warn!(error = %e, "vault trash purge failed; it runs again at its next turn"),
            }
        }
    };
    schedule::spawn(db, "vault-trash-purge", when, |_| crate::metrics::taken_over("job", 1), run);
}
