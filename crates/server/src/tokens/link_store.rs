//! The `sign_in_links` table (`0022_sign_in_links.sql`): links stored by the SHA-256 of their
//! secret, and their exchange for a session token, both in one transaction.

use chrono::{DateTime, Duration, SecondsFormat, Utc};
use moneydesk_model::tokens::{SignInLink, LINK_EXPIRED, LINK_MINUTES, LINK_REVOKED, LINK_USED, SESSION_HOURS};
use moneydesk_model::Scope;
use sqlx::FromRow;

use super::store::{NewToken, TokenStore};
use crate::storage::{trail, Database};

/// Sign-in link secrets: `mdl_` and 32 random bytes, like tokens (`mdk_`) but never a bearer.
pub const SECRET_PREFIX: &str = "mdl_";

const COLUMNS: &str = "id, user_id, scopes, created_by, created_at, expires_at, used_at, revoked_at";

#[derive(FromRow)]
struct Row {
    id: i64,
    user_id: String,
    scopes: String,
    created_by: String,
    created_at: String,
    expires_at: String,
    used_at: Option<String>,
    revoked_at: Option<String>,
}

impl Row {
    fn answer(self) -> SignInLink {
        SignInLink {
            id: self.id,
            user_id: self.user_id,
            // An unknown scope in the table grants nothing (as for tokens).
            scopes: self.scopes.split_whitespace().filter_map(|s| s.parse().ok()).collect(),
            created_by: self.created_by,
            created_at: self.created_at,
            expires_at: self.expires_at,
            used_at: self.used_at,
            revoked_at: self.revoked_at,
        }
    }
}

/// Why an exchange gave no session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// No link has this secret (or it is not a link secret at all).
    Unknown,
    /// The `reason` of the 410: [`LINK_EXPIRED`], [`LINK_USED`] or [`LINK_REVOKED`].
    Gone(&'static str),
}

fn text(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

#[derive(Clone, Debug)]
pub struct LinkStore {
    db: Database,
}

impl LinkStore {
    pub fn new(db: Database) -> LinkStore {
        LinkStore { db }
    }

    /// A new link for `user_id` made by `created_by`; answers its secret (shown once).
    pub async fn create(
        &self,
        user_id: &str,
        scopes: &[Scope],
        created_by: &str,
        now: DateTime<Utc>,
    ) -> sqlx::Result<(SignInLink, String)> {
        let secret = format!("{SECRET_PREFIX}{}", &crate::tokens::generate()[crate::tokens::PREFIX.len()..]);
        let scope_text = scopes.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ");
        let q = self
            .db
            .sql(&format!(
                "INSERT INTO sign_in_links (secret_hash, user_id, scopes, created_by, created_at, expires_at) \
                 VALUES (?, ?, ?, ?, ?, ?) RETURNING {COLUMNS}"
            ))
            .arg(crate::tokens::hash(&secret))
            .arg(user_id)
            .arg(scope_text.clone())
            .arg(created_by)
            .arg(text(now))
            .arg(text(now + Duration::minutes(LINK_MINUTES)));
        let mut tx = self.db.begin().await?;
        let row: Row = tx.exec().row(&q).await?.ok_or(sqlx::Error::RowNotFound)?;
        trail::target("sign_in_link", row.id);
        trail::change("userId", None::<&str>, Some(user_id));
        trail::change("scopes", None::<&str>, Some(scope_text));
        tx.commit().await?;
        Ok((row.answer(), secret))
    }

    /// Every link, newest first.
    pub async fn list(&self) -> sqlx::Result<Vec<SignInLink>> {
        let q = self.db.sql(&format!("SELECT {COLUMNS} FROM sign_in_links ORDER BY id DESC"));
        let rows: Vec<Row> = self.db.acquire().await?.exec().rows(&q).await?;
        Ok(rows.into_iter().map(Row::answer).collect())
    }

    /// Revokes an unused link; `None`: no such link. A used or revoked one is answered as it is.
    pub async fn revoke(&self, id: i64, now: DateTime<Utc>) -> sqlx::Result<Option<SignInLink>> {
        let q = self
            .db
            .sql(&format!(
                "UPDATE sign_in_links SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL AND used_at IS NULL \
                 RETURNING {COLUMNS}"
            ))
            .arg(text(now))
            .arg(id);
        let mut tx = self.db.begin().await?;
        if let Some(row) = tx.exec().row::<Row>(&q).await? {
            trail::target("sign_in_link", row.id);
            trail::change("revoked", None::<i64>, Some(row.id));
            tx.commit().await?;
            return Ok(Some(row.answer()));
        }
        drop(tx);
        let q = self.db.sql(&format!("SELECT {COLUMNS} FROM sign_in_links WHERE id = ?")).arg(id);
        Ok(self.db.acquire().await?.exec().row::<Row>(&q).await?.map(Row::answer))
    }

    /// Exchanges the link whose secret is `secret` at `now` for a session token of its user and
    /// scopes ([`SESSION_HOURS`]): the link is used up in the same transaction.
    pub async fn exchange(&self, secret: &str, now: DateTime<Utc>) -> anyhow::Result<Result<NewToken, Refused>> {
        if !secret.starts_with(SECRET_PREFIX) {
            return Ok(Err(Refused::Unknown));
        }
        let q = self.db.sql(&format!("SELECT {COLUMNS} FROM sign_in_links WHERE secret_hash = ?"));
        let q = q.arg(crate::tokens::hash(secret));
        let Some(row) = self.db.acquire().await?.exec().row::<Row>(&q).await? else {
            return Ok(Err(Refused::Unknown));
        };
        if row.revoked_at.is_some() {
            return Ok(Err(Refused::Gone(LINK_REVOKED)));
        }
        if row.used_at.is_some() {
            return Ok(Err(Refused::Gone(LINK_USED)));
        }
        // An unreadable expiry counts as expired: fail closed.
        let expired =
            DateTime::parse_from_rfc3339(&row.expires_at).map(|e| e.with_timezone(&Utc) <= now).unwrap_or(true);
        if expired {
            return Ok(Err(Refused::Gone(LINK_EXPIRED)));
        }
        let mut tx = self.db.begin().await?;
        // Used up only if nobody used or revoked it since it was read (two tabs, one link).
        let take = self
            .db
            .sql("UPDATE sign_in_links SET used_at = ? WHERE id = ? AND used_at IS NULL AND revoked_at IS NULL")
            .arg(text(now))
            .arg(row.id);
        if tx.exec().execute(&take).await? == 0 {
            return Ok(Err(Refused::Gone(LINK_USED)));
        }
        trail::target("sign_in_link", row.id);
        trail::change("used", None::<i64>, Some(row.id));
        let link = row.answer();
        let name = format!("sign-in link {} ({})", link.id, link.user_id);
        let expires = now + Duration::hours(SESSION_HOURS);
        let new = TokenStore::insert(&mut tx, &name, Some(&link.user_id), &link.scopes, Some(expires)).await?;
        let note = self.db.sql("UPDATE sign_in_links SET token_id = ? WHERE id = ?").arg(new.record.id).arg(link.id);
        tx.exec().execute(&note).await?;
        tx.commit().await?;
        Ok(Ok(new))
    }

    /// Test helper: sets a link's expiry (RFC 3339), e.g. to the past.
    pub async fn set_expiry(&self, id: i64, expires_at: &str) -> sqlx::Result<()> {
        let q = self.db.sql("UPDATE sign_in_links SET expires_at = ? WHERE id = ?").arg(expires_at).arg(id);
        self.db.acquire().await?.exec().execute(&q).await?;
        Ok(())
    }
}
