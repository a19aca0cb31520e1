//! A file's versions (issue 46): an older one restored as the newest, and two compared by
//! their sizes and SHA-256 hashes.

use axum::extract::{Path as UrlPath, RawQuery, State};
use moneydesk_model::vault::{Entry, VaultEntry, VaultParams, VersionComparison};
use moneydesk_model::{paths, Envelope};

use super::{owner, pairs, path_param, required, VaultState};
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Json;

fn version(q: &[(String, String)], name: &str) -> Result<i64, Error> {
    required(q, name)?
        .parse::<i64>()
        .ok()
        .filter(|n| *n >= 1 && *n <= i64::from(u32::MAX))
        .ok_or_else(|| Error::field(name, "must be a version number from 1"))
}

#[utoipa::path(operation_id = "restore_vault_file_version", post, path = paths::VAULT_FILE_VERSION_RESTORE, tag = "vault",
    params(VaultParams<Entry>,
        ("version" = u32, Query, description = "The version to make the newest", minimum = 1)),
    security(("bearer" = ["vault:write"])),
    extensions(("x-extension" = json!(true))),
    description = "Makes an older version the newest: a new version is recorded with that version's bytes and type (stored once: nothing is copied), and every version stays in the history.",
    responses((status = 200, description = "The file with its new latest version", body = Envelope<VaultEntry>),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc),
        (status = 403, description = "Another user's vault without admin", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such file or version", body = ErrorEnvelopeDoc)))]
pub(super) async fn restore(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<VaultEntry>>, Error> {
    let user = owner(&caller, &user_id)?;
    let q = pairs(&q);
    let path = path_param("path", required(&q, "path")?)?;
    let n = version(&q, "version")?;
    Ok(Json(Envelope::ok(state.vault().restore_version(&user, &path, n, caller.token_name()).await?)))
}

#[utoipa::path(operation_id = "compare_vault_file_versions", get, path = paths::VAULT_FILE_VERSIONS_COMPARE, tag = "vault",
    params(VaultParams<Entry>,
        ("from" = u32, Query, description = "One version", minimum = 1),
        ("to" = u32, Query, description = "The other", minimum = 1)),
    security(("bearer" = ["vault:read"])),
    extensions(("x-extension" = json!(true))),
    description = "Two versions of a file side by side: each one's size, type and SHA-256, whether their bytes are the same, and the difference in size.",
    responses((status = 200, description = "The two versions", body = Envelope<VersionComparison>),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc),
        (status = 403, description = "Another user's vault without admin", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such file or version", body = ErrorEnvelopeDoc)))]
pub(super) async fn compare(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<VersionComparison>>, Error> {
    let user = owner(&caller, &user_id)?;
    let q = pairs(&q);
    let path = path_param("path", required(&q, "path")?)?;
    let (from, to) = (version(&q, "from")?, version(&q, "to")?);
    let (_, _, rows) =
        state.vault().file(&user, &path).await?.ok_or_else(|| Error::not_found(format!("No file {path}")))?;
    let find = |n: i64| {
        rows.iter()
            .find(|r| r.version == n)
            .map(|r| r.record())
            .ok_or_else(|| Error::not_found(format!("File {path} has no version {n}")))
    };
    let (from, to) = (find(from)?, find(to)?);
    Ok(Json(Envelope::ok(VersionComparison {
        path: path.as_str().to_string(),
        same_contents: from.sha256 == to.sha256,
        size_difference: to.size as i64 - from.size as i64,
        from,
        to,
    })))
}
