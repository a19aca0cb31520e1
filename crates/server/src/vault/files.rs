//! The vault's extensions (`x-extension`): a folder's contents, files (upload a version,
//! download any version with `Range` and `ETag`, delete, move or rename), a file's versions
//! and a user's usage.

use axum::body::Body;
use axum::extract::{Multipart, Path as UrlPath, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::TryStreamExt;
use moneydesk_model::collections::SortSpec;
use moneydesk_model::vault::{
    Entry, FileRecord, Folder, Owner, VaultEntry, VaultParams, VaultPath, VaultSortField, VaultUsage,
};
use moneydesk_model::{paths, Envelope, Page, PageRequest, Sort};
use object_store::ObjectStore;

use super::store::VersionRow;
use super::{archive, blobs, owner, pairs, path_param, required};
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Json;
use crate::http::openapi::PageParams;
use crate::storage::time::now_text;
use crate::vault::VaultState;

#[utoipa::path(get, path = paths::VAULT_FOLDER_CONTENTS, tag = "vault",
    params(VaultParams<Folder>,
        PageParams,
        ("sort" = Option<String>, Query, description = "`name`, `size` or `modifiedAt`, then `,asc` or `,desc` (default `name,asc`); folders always come first", pattern = "^(name|size|modifiedAt)(,(asc|desc))?$")),
    security(("bearer" = ["vault:read"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "A page of the folder's subfolders and files. `totalElements` is exact and kept by the database (never a count of the folder); each order reads an index from the page's offset, so no page sorts the whole folder.", body = Envelope<Page<VaultEntry>>),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such folder", body = ErrorEnvelopeDoc)))]
pub(super) async fn contents(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Page<VaultEntry>>>, Error> {
    let user = owner(&caller, &user_id)?;
    let q = pairs(&q);
    let path = path_param("path", required(&q, "path")?)?;
    let page = PageRequest::from_query(q.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| Error::field(e.param(), e.to_string()))?;
    let sort = match q.iter().find(|(k, _)| k == "sort") {
        Some((_, v)) => Some(SortSpec::<VaultSortField>::parse(v).map_err(|e| Error::field(e.param, e.message))?),
        None => None,
    };
    let spec = sort.unwrap_or(SortSpec::asc(VaultSortField::Name));
    let (total, entries) = state.vault().list(&user, &path, spec.field, spec.dir, page.offset(), page.size).await?;
    Ok(Json(Envelope::ok(Page::build(
        page,
        total,
        entries,
        if sort.is_some() { Sort::SORTED } else { Sort::UNSORTED },
    ))))
}

#[utoipa::path(post, path = paths::VAULT_FILE, tag = "vault",
    params(VaultParams<Folder>,
        ("name" = Option<String>, Query, description = "The file's name when the part has no filename (the part's filename wins otherwise)", pattern = r"^(?!\.\.?$)[^/\\\x00-\x1f\x7f-\x9f]+$", max_length = 255)),
    request_body(content = UploadForm, content_type = "multipart/form-data", description = "One part named `file`, stored in the folder `path` (it must exist; the root always does); its filename is the file's name (a name already there makes a new version) and its Content-Type is kept (guessed from the name when missing). At most MONEYDESK_VAULT_UPLOAD_LIMIT bytes (1 GiB by default)."),
    security(("bearer" = ["vault:write"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The file with its new latest version", body = Envelope<VaultEntry>),
        (status = 400, description = "No `file` part, no name for it, or its name is not allowed", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such folder", body = ErrorEnvelopeDoc),
        (status = 409, description = "A folder of that name exists", body = ErrorEnvelopeDoc),
        (status = 413, description = "The file is larger than the limit", body = ErrorEnvelopeDoc)))]
pub(super) async fn upload(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
    RawQuery(q): RawQuery,
    mut multipart: Multipart,
) -> Result<Json<Envelope<VaultEntry>>, Error> {
    let user = owner(&caller, &user_id)?;
    let q = pairs(&q);
    let folder = path_param("path", required(&q, "path")?)?;
    // Checked when given, used when the part has no filename.
    let fallback = match q.iter().find(|(k, _)| k == "name") {
        Some((_, v)) => Some(VaultPath::parse_name(v).map_err(|e| Error::field("name", e.to_string()))?),
        None => None,
    };
    let limit = state.config().vault_upload_limit;
    if let Some(field) = multipart.next_field().await.map_err(|e| multipart_error(&e.body_text(), limit))? {
        if field.name() != Some("file") {
            let name = field.name().unwrap_or_default().to_string();
            return Err(Error::field("file", format!("unexpected part {name:?}: send one part, named \"file\"")));
        }
        let raw_name = match (field.file_name(), &fallback) {
            (Some(n), _) if !n.is_empty() => n.to_string(),
            (_, Some(n)) => n.clone(),
            _ => return Err(Error::field("file", "the part has no filename; give one, or the name parameter")),
        };
        let name = VaultPath::parse_name(&raw_name)
            .map_err(|e| Error::field("file", format!("file name {raw_name:?}: {e}")))?;
        let content_type = match field.content_type() {
            Some(t) if !t.is_empty() && t != "application/octet-stream" => t.to_string(),
            _ => mime_guess::from_path(&name).first_or_octet_stream().essence_str().to_string(),
        };
        let chunks = field.map_err(|e| e.body_text());
        let stored = blobs::store_upload(&state.blobs(), chunks, limit).await.map_err(|e| match e {
            blobs::UploadError::TooLarge(n) => {
                Error::payload_too_large(format!("The file is larger than the limit of {n} bytes"))
            }
            blobs::UploadError::Read(m) => multipart_error(&m, limit),
            blobs::UploadError::Store(e) => Error::internal(e),
        })?;
        let version = VersionRow {
            version: 0,
            sha256: stored.sha256.clone(),
            size: stored.size as i64,
            content_type,
            created_at: now_text(),
            uploaded_by: caller.token_name().to_string(),
        };
        // One part only: anything after the file refuses the whole request.
        let extra = match multipart.next_field().await {
            Ok(None) => None,
            Ok(Some(f)) => Some(Error::field(
                "file",
                format!(
                    "unexpected part {:?} after the file: send one part, named \"file\"",
                    f.name().unwrap_or_default()
                ),
            )),
            Err(e) => Some(multipart_error(&e.body_text(), limit)),
        };
        if let Some(e) = extra {
            let _ = blobs::settle(&state.blobs(), &stored).await;
            super::blobs::sweep_later(&state, vec![stored.sha256.clone()]);
            return Err(e);
        }
        let entry = match state.vault().add_version(&user, &folder, &name, &version).await {
            Ok(entry) => entry,
            Err(e) => {
                let _ = blobs::settle(&state.blobs(), &stored).await;
                super::blobs::sweep_later(&state, vec![stored.sha256.clone()]);
                return Err(e.into());
            }
        };
        blobs::settle(&state.blobs(), &stored).await.map_err(Error::internal)?;
        return Ok(Json(Envelope::ok(entry)));
    }
    Err(Error::field("file", "the multipart body has no part named \"file\""))
}

/// The upload's form, for the OpenAPI document.
#[derive(serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub(super) struct UploadForm {
    /// The file's bytes (its filename is the file's name).
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

fn multipart_error(message: &str, limit: u64) -> Error {
    if message.contains("limit") || message.contains("too large") {
        Error::payload_too_large(format!("The file is larger than the limit of {limit} bytes"))
    } else {
        Error::bad_request(format!("The multipart body does not read: {message}"))
    }
}

#[utoipa::path(get, path = paths::VAULT_FILE, tag = "vault",
    params(VaultParams<Entry>,
        ("version" = Option<u32>, Query, description = "A version number (default: the latest)", minimum = 1),
        ("inline" = Option<bool>, Query, description = "`true`: shown in the browser (previews) rather than saved")),
    security(("bearer" = ["vault:read"])),
    extensions(("x-extension" = json!(true))),
    description = "The file's bytes. One `Range: bytes=` range is honoured (206); the strong `ETag` is the contents' SHA-256, so `If-None-Match` answers 304.",
    responses((status = 200, description = "The contents, with the type they were uploaded with", content_type = "*/*", body = crate::http::openapi::Binary),
        (status = 206, description = "The requested range", content_type = "*/*", body = crate::http::openapi::Binary),
        (status = 304, description = "Unchanged (If-None-Match)"),
        (status = 404, description = "No such file or version", body = ErrorEnvelopeDoc),
        (status = 416, description = "The range lies outside the file", body = ErrorEnvelopeDoc)))]
pub(super) async fn download(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Result<Response, Error> {
    let user = owner(&caller, &user_id)?;
    let q = pairs(&q);
    let path = path_param("path", required(&q, "path")?)?;
    let wanted = match q.iter().find(|(k, _)| k == "version") {
        Some((_, v)) => Some(
            v.parse::<i64>()
                .ok()
                .filter(|n| *n >= 1)
                .ok_or_else(|| Error::field("version", "must be a version number from 1"))?,
        ),
        None => None,
    };
    let inline = super::flag(&q, "inline")?;
    let (_, _, rows) =
        state.vault().file(&user, &path).await?.ok_or_else(|| Error::not_found(format!("No file {path}")))?;
    let v = match wanted {
        None => rows.first(),
        Some(n) => rows.iter().find(|r| r.version == n),
    }
    .ok_or_else(|| Error::not_found(format!("File {path} has no version {}", wanted.unwrap_or(0))))?;
    let etag = format!("\"{}\"", v.sha256);
    if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|h| h.to_str().ok())
        .is_some_and(|h| h.split(',').any(|t| t.trim() == etag || t.trim() == "*"))
    {
        return Ok((StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response());
    }
    let size = v.size as u64;
    let range = match headers.get(header::RANGE).and_then(|h| h.to_str().ok()) {
        Some(r) => match byte_range(r, size) {
            Ok(range) => range,
            Err(()) => {
                let mut e = Error::new(
                    StatusCode::RANGE_NOT_SATISFIABLE,
                    "range",
                    format!("The file has {size} bytes; {r:?} lies outside it"),
                )
                .into_response();
                e.headers_mut()
                    .insert(header::CONTENT_RANGE, HeaderValue::from_str(&format!("bytes */{size}")).expect("ascii"));
                return Ok(e);
            }
        },
        None => None,
    };
    // The blob is there before any byte is promised (a missing one is a 500, not a cut body).
    state.blobs().head(&blobs::content_path(&v.sha256)).await.map_err(Error::internal)?;
    let stream = blobs::read(&state.blobs(), &v.sha256, size, range.clone());
    let mut response = Body::from_stream(stream).into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(&v.content_type).unwrap_or(HeaderValue::from_static("application/octet-stream")),
    );
    h.insert(header::ETAG, HeaderValue::from_str(&etag).expect("hex"));
    h.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    // A preview never runs as a page of this origin (an uploaded HTML or SVG file).
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("sandbox; default-src 'none'; img-src 'self' data: blob:; style-src 'unsafe-inline'"),
    );
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    let kind = if inline { "inline" } else { "attachment" };
    if let Ok(d) = HeaderValue::from_str(&archive::content_disposition(kind, path.name())) {
        h.insert(header::CONTENT_DISPOSITION, d);
    }
    match range {
        Some(r) => {
            h.insert(
                header::CONTENT_RANGE,
                HeaderValue::from_str(&format!("bytes {}-{}/{size}", r.start, r.end - 1)).expect("ascii"),
            );
            h.insert(header::CONTENT_LENGTH, HeaderValue::from(r.end - r.start));
            *response.status_mut() = StatusCode::PARTIAL_CONTENT;
        }
        None => {
            h.insert(header::CONTENT_LENGTH, HeaderValue::from(size));
        }
    }
    Ok(response)
}

/// One `bytes=` range of a file of `size` bytes, as a half-open range; `Ok(None)` for what
/// is not a single byte range (the whole file is sent, as RFC 9110 allows); `Err` when it
/// lies outside the file.
fn byte_range(header: &str, size: u64) -> Result<Option<std::ops::Range<u64>>, ()> {
    let Some(spec) = header.trim().strip_prefix("bytes=") else { return Ok(None) };
    if spec.contains(',') {
        return Ok(None);
    }
    let Some((a, b)) = spec.split_once('-') else { return Ok(None) };
    let (a, b) = (a.trim(), b.trim());
    let range = match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(start), Ok(end)) if start <= end => start..(end + 1).min(size),
        (Ok(start), Err(_)) if b.is_empty() => start..size,
        (Err(_), Ok(suffix)) if a.is_empty() => size.saturating_sub(suffix)..size,
        _ => return Ok(None),
    };
    if range.start >= size || range.is_empty() {
        return Err(());
    }
    Ok(Some(range))
}

#[utoipa::path(operation_id = "delete_file", delete, path = paths::VAULT_FILE, tag = "vault",
    params(VaultParams<Entry>,
        ("permanent" = Option<bool>, Query, description = "`true`: remove permanently at once, skipping the trash (default `false`: move to the trash)")),
    security(("bearer" = ["vault:write"])),
    extensions(("x-extension" = json!(true))),
    description = "Deletes the file with every version. By default it moves to the owner's trash (a slip must not lose a record): restorable until the purge (`MONEYDESK_VAULT_TRASH_RETENTION`, 30 days by default), its name free again at once. `permanent=true` removes it at once; its contents go from storage when nothing references them.",
    responses((status = 200, description = "The file as it was, with every version (all deleted)", body = Envelope<FileRecord>),
        (status = 404, description = "No such file", body = ErrorEnvelopeDoc)))]
pub(super) async fn delete(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<FileRecord>>, Error> {
    let user = owner(&caller, &user_id)?;
    let q = pairs(&q);
    let path = path_param("path", required(&q, "path")?)?;
    if !super::trash::permanent(&q)? {
        let record = state.vault().trash_file(&user, &path, &super::trash::deleter(&state, &caller)).await?;
        return Ok(Json(Envelope::ok(record)));
    }
    let (record, shas) = state.vault().delete_file(&user, &path).await?;
    super::blobs::sweep_later(&state, shas);
    Ok(Json(Envelope::ok(record)))
}

#[utoipa::path(post, path = paths::VAULT_FILE_MOVE, tag = "vault",
    params(VaultParams<Entry>,
        ("newPath" = String, Query, description = "Its new path: another name (rename), another folder that exists (move), or both", pattern = r"^/?(?!\.\.?(?:/|$))[^/\\\x00-\x1f\x7f-\x9f]+(?:/(?!\.\.?(?:/|$))[^/\\\x00-\x1f\x7f-\x9f]+)*/?$", max_length = 4096)),
    security(("bearer" = ["vault:write"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The file at its new path", body = Envelope<VaultEntry>),
        (status = 404, description = "No such file, or the target folder does not exist", body = ErrorEnvelopeDoc),
        (status = 409, description = "A file or folder exists at `newPath`", body = ErrorEnvelopeDoc)))]
pub(super) async fn move_file(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<VaultEntry>>, Error> {
    let user = owner(&caller, &user_id)?;
    let q = pairs(&q);
    let from = path_param("path", required(&q, "path")?)?;
    let to = path_param("newPath", required(&q, "newPath")?)?;
    Ok(Json(Envelope::ok(state.vault().move_file(&user, &from, &to).await?)))
}

#[utoipa::path(get, path = paths::VAULT_FILE_VERSIONS, tag = "vault",
    params(VaultParams<Entry>),
    security(("bearer" = ["vault:read"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The file with its versions, newest first", body = Envelope<FileRecord>),
        (status = 404, description = "No such file", body = ErrorEnvelopeDoc)))]
pub(super) async fn versions(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<FileRecord>>, Error> {
    let user = owner(&caller, &user_id)?;
    let path = path_param("path", required(&pairs(&q), "path")?)?;
    let (_, record, _) =
        state.vault().file(&user, &path).await?.ok_or_else(|| Error::not_found(format!("No file {path}")))?;
    Ok(Json(Envelope::ok(record)))
}

#[utoipa::path(get, path = paths::VAULT_USAGE, tag = "vault",
    params(VaultParams<Owner>),
    security(("bearer" = ["vault:read"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "What the vault holds", body = Envelope<VaultUsage>)))]
pub(super) async fn usage(
    State(state): State<VaultState>,
    caller: Caller,
    UrlPath(user_id): UrlPath<String>,
) -> Result<Json<Envelope<VaultUsage>>, Error> {
    let user = owner(&caller, &user_id)?;
    let (folders, files, versions, bytes, stored_bytes) = state.vault().usage(&user).await?;
    Ok(Json(Envelope::ok(VaultUsage { user_id: user, folders, files, versions, bytes, stored_bytes })))
}

#[cfg(test)]
mod tests {
    use super::byte_range;

    #[test]
    fn byte_ranges_are_read_as_rfc_9110_says() {
        assert_eq!(byte_range("bytes=0-9", 100), Ok(Some(0..10)));
        assert_eq!(byte_range("bytes=90-", 100), Ok(Some(90..100)));
        assert_eq!(byte_range("bytes=-10", 100), Ok(Some(90..100)));
        assert_eq!(byte_range("bytes=95-200", 100), Ok(Some(95..100)), "an end past the file is cut");
        assert_eq!(byte_range("bytes=100-", 100), Err(()), "a start past the end is unsatisfiable");
        assert_eq!(byte_range("bytes=0-1,5-6", 100), Ok(None), "several ranges: the whole file");
        assert_eq!(byte_range("lines=1-2", 100), Ok(None));
        assert_eq!(byte_range("bytes=9-1", 100), Ok(None));
    }
}
