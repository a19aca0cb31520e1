//! The vault (the caller's own files), the email outbox and tokens (an admin's every token,
//! anyone else's their own user's).

use moneydesk_model::search::{MatchKind, Query, QueryShape, SearchHit};

use super::matching::{best, hit, open, ranked, Matcher};
use super::stages::{cond, like, Cond, Staged};
use crate::error::Error;
use crate::storage::Database;

#[derive(sqlx::FromRow)]
struct FileHit {
    id: i64,
    name: String,
    folder: String,
    size: i64,
    modified_at: String,
}

/// The caller's vault files by name (the vault is per user: an admin searches their own).
pub async fn vault(db: &Database, q: &Query, limit: u32, user: &str) -> Result<(Vec<SearchHit>, bool), Error> {
    let lower = q.text.to_lowercase();
    let stages: [Vec<Cond>; 3] = if q.shape == QueryShape::Amount {
        [vec![], vec![], vec![]]
    } else {
        [
            vec![cond("lower(f.name) = ?", lower.clone())],
            vec![like("lower(f.name)", &lower, MatchKind::Prefix)],
            vec![like("lower(f.name)", &lower, MatchKind::Contains)],
        ]
    };
    let staged = Staged {
        select: "SELECT f.id, f.name, d.path AS folder, f.size, f.modified_at FROM vault_files f \
                 JOIN vault_folders d ON d.id = f.folder_id WHERE ",
        scope: Some(cond("d.user_id = ?", user)),
        order: " ORDER BY f.modified_at DESC, f.id DESC",
    };
    let (rows, more) = staged.run::<FileHit, _>(db, stages, limit, |r| (r.modified_at.clone(), r.id)).await?;
    let m = Matcher::new(&q.text);
    let hits = rows
        .into_iter()
        .filter_map(|r| {
            let matched = best([("name", m.text(&r.name))])?;
            let path = if r.folder.is_empty() { r.name.clone() } else { format!("{}/{}", r.folder, r.name) };
            let detail = format!("in /{} · {} bytes", r.folder, r.size);
            let link = if r.folder.is_empty() {
                open("/vault", &[("file", &r.name)])
            } else {
                open("/vault", &[("path", &r.folder), ("file", &r.name)])
            };
            Some(hit(path, r.name.clone(), Some(detail), matched, link))
        })
        .collect();
    Ok((ranked(hits), more))
}

#[derive(sqlx::FromRow)]
struct MessageHit {
    id: String,
    subject: String,
    recipients: String,
    state: String,
    created_at: String,
}

/// Outbox messages by recipient address, subject or id.
pub async fn email(db: &Database, q: &Query, limit: u32) -> Result<(Vec<SearchHit>, bool), Error> {
    let t = q.text.as_str();
    let lower = t.to_lowercase();
    let stages: [Vec<Cond>; 3] = match q.shape {
        QueryShape::Amount => [vec![], vec![], vec![]],
        // Recipients are JSON: an exact address is the whole of a quoted value there.
        QueryShape::Email => [
            vec![like("lower(recipients)", &format!("\"{lower}\""), MatchKind::Contains)],
            vec![like("lower(recipients)", &format!("\"{lower}"), MatchKind::Contains)],
            vec![like("lower(recipients)", &lower, MatchKind::Contains)],
        ],
        _ => [
            vec![cond("id = ?", t), cond("lower(subject) = ?", lower.clone())],
            vec![like("lower(subject)", &lower, MatchKind::Prefix)],
            vec![
                like("lower(subject)", &lower, MatchKind::Contains),
                like("lower(recipients)", &lower, MatchKind::Contains),
            ],
        ],
    };
    let staged = Staged {
        select: "SELECT id, subject, recipients, state, created_at FROM email_messages WHERE ",
        scope: None,
        order: " ORDER BY created_at DESC, id DESC",
    };
    let (rows, more) = staged.run::<MessageHit, _>(db, stages, limit, |r| (r.created_at.clone(), r.id.clone())).await?;
    let m = Matcher::new(t);
    let hits = rows
        .into_iter()
        .filter_map(|r| {
            let to = addresses(&r.recipients);
            let address = to.iter().filter_map(|a| m.text(a)).min();
            let matched = best([
                ("id", m.text(&r.id).filter(|k| *k == MatchKind::Exact)),
                ("to", address),
                ("subject", m.text(&r.subject)),
            ])?;
            let detail = format!(
                "to {} · {} · {}",
                to.first().map_or("", String::as_str),
                r.state,
                r.created_at.get(..10).unwrap_or_default()
            );
            let link = open("/email", &[("tab", "outbox"), ("q", &r.id), ("message", &r.id)]);
            Some(hit(r.id.clone(), r.subject.clone(), Some(detail), matched, link))
        })
        .collect();
    Ok((ranked(hits), more))
}

/// Every address of a message's stored recipients (`{"to":[{"email":..}],"cc":..,"bcc":..}`).
fn addresses(recipients: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(recipients).unwrap_or_default();
    ["to", "cc", "bcc"]
        .iter()
        .filter_map(|k| v.get(k)?.as_array())
        .flatten()
        .filter_map(|r| r.get("email")?.as_str().map(str::to_string))
        .collect()
}

#[derive(sqlx::FromRow)]
struct TokenHit {
    id: i64,
    name: String,
    user_id: Option<String>,
    revoked_at: Option<String>,
}

/// Tokens by name (or id): `own` is the caller's user unless it is an admin.
pub async fn tokens(db: &Database, q: &Query, limit: u32, own: Option<&str>) -> Result<(Vec<SearchHit>, bool), Error> {
    let lower = q.text.to_lowercase();
    let mut exact = vec![cond("lower(name) = ?", lower.clone())];
    exact.extend(q.number().map(|n| cond("id = ?", n)));
    let stages: [Vec<Cond>; 3] = [
        exact,
        vec![like("lower(name)", &lower, MatchKind::Prefix)],
        vec![like("lower(name)", &lower, MatchKind::Contains)],
    ];
    // A token whose user was never set belongs to the user named like it (`auth/me`).
    let staged = Staged {
        select: "SELECT id, name, user_id, revoked_at FROM tokens WHERE ",
        scope: own.map(|u| cond("COALESCE(user_id, name) = ?", u)),
        order: " ORDER BY id DESC",
    };
    let (rows, more) = staged.run::<TokenHit, _>(db, stages, limit, |r| r.id).await?;
    let m = Matcher::new(&q.text);
    let hits = rows
        .into_iter()
        .filter_map(|r| {
            let matched =
                best([("id", (q.number() == Some(r.id)).then_some(MatchKind::Exact)), ("name", m.text(&r.name))])?;
            let user = r.user_id.clone().unwrap_or_else(|| r.name.clone());
            let state = if r.revoked_at.is_some() { " · revoked" } else { "" };
            let link = open("/tokens", &[("open", &r.id.to_string())]);
            Some(hit(r.id.to_string(), r.name.clone(), Some(format!("#{} · user {user}{state}", r.id)), matched, link))
        })
        .collect();
    Ok((ranked(hits), more))
}
