//! Permissions from a file (`moneydesk-server import permissions FILE`): every record
//! checked, then all written in one transaction, or nothing.

use moneydesk_model::collections::LocalDateTime;
use moneydesk_model::Scope;

use super::store::{NewPermission, PermissionStore};
use crate::collections::fields::{email, now, Fields};
use crate::collections::records::{self, Format, ImportError, ImportFailure, Record};

pub const PERMISSION_FIELDS: &[&str] =
    &["id", "userId", "userName", "userEmail", "companyId", "companyName", "scope", "grantedBy", "grantedAt"];

pub fn permission_from(rec: &Record, now: LocalDateTime) -> Result<NewPermission, Vec<ImportError>> {
    let mut f = Fields { rec, errors: Vec::new() };
    let user_id = f.required("userId", 64);
    let user_name = f.required("userName", 255);
    let user_email = f.text("userEmail", 254);
    let user_email = f.check("userEmail", user_email, email);
    let company_id = f.required("companyId", 64);
    let company_name = f.required("companyName", 255);
    let scope =
        f.required("scope", 40).and_then(|v| v.parse::<Scope>().map_err(|e| f.err("scope", e.to_string())).ok());
    let granted_by = f.required("grantedBy", 255);
    let granted_at = if rec.fields.contains_key("grantedAt") { f.time("grantedAt") } else { Some(now) };
    if !f.errors.is_empty() {
        return Err(f.errors);
    }
    Ok(NewPermission {
        user_id: user_id.unwrap_or_default(),
        user_name: user_name.unwrap_or_default(),
        user_email,
        company_id: company_id.unwrap_or_default(),
        company_name: company_name.unwrap_or_default(),
        scope: scope.unwrap_or(Scope::PermissionsRead),
        granted_by: granted_by.unwrap_or_default(),
        granted_at: granted_at.unwrap_or(now),
    })
}

pub async fn import_permissions(store: &PermissionStore, text: &str, format: Format) -> Result<usize, ImportFailure> {
    let (records, mut errors) = records::read(text, format, PERMISSION_FIELDS);
    let now = now();
    let mut rows = Vec::with_capacity(records.len());
    let mut seen = std::collections::HashMap::new();
    for rec in &records {
        match permission_from(rec, now) {
            Ok(p) => {
                let key = (p.user_id.clone(), p.company_id.clone(), p.scope);
                if let Some(first) = seen.insert(key, rec.line) {
                    errors.push(ImportError::new(
                        rec.line,
                        Some("scope"),
                        format!("this user already gets {} on line {first}", p.scope),
                    ));
                }
                rows.push((rec.line, p));
            }
            Err(e) => errors.extend(e),
        }
    }
    let mut writer = store.writer().await?;
    for (line, p) in &rows {
        if writer.exists(p).await? {
            errors.push(ImportError::new(
                *line,
                Some("scope"),
                format!("{} already holds {} in {}", p.user_id, p.scope, p.company_id),
            ));
        }
    }
    if !errors.is_empty() {
        errors.sort_by_key(|e| e.line);
        return Err(ImportFailure::Invalid(errors));
    }
    let rows: Vec<NewPermission> = rows.into_iter().map(|(_, p)| p).collect();
    writer.insert(&rows).await?;
    writer.commit().await?;
    Ok(rows.len())
}
