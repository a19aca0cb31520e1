//! The `tokens` table. Holds SHA-256 hashes only; see `text.rs`. (Here, not in `storage/`,
//! which imports no group: the token's text and digest are this group's.)

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

use chrono::{DateTime, Duration, Utc};
use moneydesk_model::events::EventType;
use moneydesk_model::Scope;
use sqlx::FromRow;

use super::text::{self as tokens, Digest};
use crate::storage::time::now_text;
use crate::storage::{events, trail, Database, Sql, Tx};

/// A token as stored (without its hash).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenRecord {
    pub id: i64,
    pub name: String,
    pub scopes: Vec<Scope>,
    pub created_at: String,
    pub expires_at: Option<String>,
    pub revoked_at: Option<String>,
    pub last_used_at: Option<String>,
    /// Whose document vault the token reaches: the user it was created for, else its name.
    pub user_id: String,
}

impl TokenRecord {
    pub fn is_revoked(&self) -> bool {
        self.revoked_at.is_some()
    }

    /// Expired now; reads the clock only for a token that has an expiry (this runs on every
    /// request).
    pub fn is_expired_now(&self) -> bool {
        self.expires_at.is_some() && self.is_expired(Utc::now())
    }

    /// Expired at `now` (an unreadable expiry counts as expired: fail closed).
    pub fn is_expired(&self, now: DateTime<Utc>) -> bool {
        match &self.expires_at {
            None => false,
            Some(t) => DateTime::parse_from_rfc3339(t).map(|e| e.with_timezone(&Utc) <= now).unwrap_or(true),
        }
    }
}

#[derive(FromRow)]
struct Row {
    id: i64,
    name: String,
    scopes: String,
    created_at: String,
    expires_at: Option<String>,
    revoked_at: Option<String>,
    last_used_at: Option<String>,
    user_id: Option<String>,
}

impl Row {
    fn into_record(self) -> TokenRecord {
        // An unknown scope in the table (e.g. written by a newer version) grants nothing.
        let scopes = self.scopes.split_whitespace().filter_map(|s| s.parse().ok()).collect();
        TokenRecord {
            id: self.id,
            user_id: self.user_id.unwrap_or_else(|| self.name.clone()),
            name: self.name,
            scopes,
            created_at: self.created_at,
            expires_at: self.expires_at,
            revoked_at: self.revoked_at,
            last_used_at: self.last_used_at,
        }
    }
}

/// A token just created: its text is shown once and then only its hash exists.
#[derive(Debug, Clone)]
pub struct NewToken {
    pub record: TokenRecord,
    pub token: String,
}

/// Token records read recently, keyed by hash. A record is trusted for [`TokenCache::TTL`]
/// after it was read: revoking or re-dating a token through this process's [`TokenStore`] empties the
/// cache at once, and a revoke by another process (the `token revoke` CLI against the same
/// database) takes effect within the TTL. Expiry is still checked on every request against
/// the record's own `expires_at`. Unknown tokens are never cached, so guessing cannot grow it.
#[derive(Debug, Default)]
pub struct TokenCache {
    /// FxHash: the keys are SHA-256 digests and only known tokens are stored, so no caller can
    /// lengthen a probe; SipHash of the 32 bytes was ~1 % of a request (benches/http_stack.rs).
    entries: RwLock<rustc_hash::FxHashMap<Digest, (Arc<TokenRecord>, Instant)>>,
    /// When this process last recorded each token's use: the write happens at most once a
    /// minute per token, so authenticating stays a read (no SQLite write lock per request).
    touched: Mutex<HashMap<i64, Instant>>,
    /// `Config::token_cache_ttl` in milliseconds; 0 = [`TokenCache::TTL`].
    ttl_ms: std::sync::atomic::AtomicU64,
}

impl TokenCache {
    /// How long a record read from the table is used without reading it again, by default.
    pub const TTL: std::time::Duration = std::time::Duration::from_secs(2);
    /// A token's `last_used_at` is written at most this often.
    const TOUCH_EVERY: std::time::Duration = std::time::Duration::from_secs(60);
    /// Beyond this many live tokens the cache starts over rather than grow without bound.
    const CAPACITY: usize = 10_000;

    /// The TTL in force (`MONEYDESK_TOKEN_CACHE_TTL`).
    pub fn ttl(&self) -> std::time::Duration {
        match self.ttl_ms.load(std::sync::atomic::Ordering::Relaxed) {
            0 => Self::TTL,
            ms => std::time::Duration::from_millis(ms),
        }
    }

    fn get(&self, digest: &Digest, now: Instant) -> Option<Arc<TokenRecord>> {
        let entries = self.entries.read().unwrap_or_else(|e| e.into_inner());
        let (record, read_at) = entries.get(digest)?;
        (now.saturating_duration_since(*read_at) < self.ttl()).then(|| record.clone())
    }

    fn put(&self, digest: &Digest, record: &Arc<TokenRecord>) {
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= Self::CAPACITY {
            let ttl = self.ttl();
            entries.retain(|_, (_, read_at)| read_at.elapsed() < ttl);
            if entries.len() >= Self::CAPACITY {
                entries.clear();
            }
        }
        entries.insert(*digest, (record.clone(), Instant::now()));
    }

    fn clear(&self) {
        self.entries.write().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

impl TokenStore {
    /// Sets how long checked tokens are trusted (`Config::token_cache_ttl`; at least 1 ms).
    pub fn set_cache_ttl(&self, ttl: std::time::Duration) {
        let ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
        self.cache.ttl_ms.store(ms, std::sync::atomic::Ordering::Relaxed);
    }
}

const COLUMNS: &str = "id, name, scopes, created_at, expires_at, revoked_at, last_used_at, user_id";

/// The `tokens` table and the cache in front of it (the guard asks it on every request).
#[derive(Clone, Debug)]
pub struct TokenStore {
    db: Database,
    /// One `Arc`: the store is cloned into the guard.
    cache: Arc<TokenCache>,
}

impl TokenStore {
    /// The database the tokens are kept in (the guard records refused writes there).
    pub fn database(&self) -> &Database {
        &self.db
    }

    pub fn new(db: Database, cache: Arc<TokenCache>) -> TokenStore {
        TokenStore { db, cache }
    }

    pub async fn create(&self, name: &str, scopes: &[Scope], expires_in: Option<Duration>) -> anyhow::Result<NewToken> {
        self.create_for(name, None, scopes, expires_in).await
    }

    /// A token of user `user_id` (whose vault it reaches); `None`: the user named like the token.
    pub async fn create_for(
        &self,
        name: &str,
        user_id: Option<&str>,
        scopes: &[Scope],
        expires_in: Option<Duration>,
    ) -> anyhow::Result<NewToken> {
        let mut tx = self.db.begin().await?;
        let expires_at = expires_in.map(|d| Utc::now() + d);
        let new = Self::insert(&mut tx, name, user_id, scopes, expires_at).await?;
        tx.commit().await?;
        Ok(new)
    }

    /// Makes a token in `tx` (a sign-in link's exchange makes its session token in its own).
    pub async fn insert(
        tx: &mut Tx,
        name: &str,
        user_id: Option<&str>,
        scopes: &[Scope],
        expires_at: Option<DateTime<Utc>>,
    ) -> anyhow::Result<NewToken> {
        if let Some(user) = user_id {
            user.parse::<moneydesk_model::vault::UserId>().map_err(|e| anyhow::anyhow!("--user: {e}"))?;
        }
        let name = name.trim();
        anyhow::ensure!(!name.is_empty(), "token name must not be empty");
        anyhow::ensure!(!scopes.is_empty(), "a token needs at least one scope");
        let mut scopes = scopes.to_vec();
        scopes.sort();
        scopes.dedup();
        let scope_text: Vec<&str> = scopes.iter().map(|s| s.as_str()).collect();
        let token = tokens::generate();
        let expires_at = expires_at.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
        let q = Sql::new(
            tx.dialect(),
            &format!(
                "INSERT INTO tokens (name, token_hash, scopes, created_at, expires_at, user_id) VALUES (?, ?, ?, ?, ?, ?) RETURNING {COLUMNS}"
            ),
        )
            .arg(name)
            .arg(tokens::hash(&token))
            .arg(scope_text.join(" "))
            .arg(now_text())
            .arg(expires_at)
            .arg(user_id);
        let row: Option<Row> = tx.exec().row(&q).await?;
        let record = row.ok_or_else(|| anyhow::anyhow!("the new token was not returned"))?.into_record();
        // On record and told without its text or hash (the record holds neither).
        trail::target("token", record.id);
        trail::change("name", None::<&str>, Some(record.name.as_str()));
        trail::change("userId", None::<&str>, Some(record.user_id.as_str()));
        trail::change("scopes", None::<&str>, Some(scope_text.join(" ")));
        events::append(tx, EventType::TokenCreated, "token", record.id, &record).await?;
        Ok(NewToken { record, token })
    }

    /// The token whose text has this SHA-256, revoked or expired ones included, read from the
    /// [`TokenCache`] when it was read from the table less than [`TokenCache::TTL`] ago.
    pub async fn by_digest_cached(&self, digest: &Digest) -> sqlx::Result<Option<Arc<TokenRecord>>> {
        if let Some(record) = self.cache.get(digest, Instant::now()) {
            return Ok(Some(record));
        }
        let record = self.by_hash(&hex::encode(digest)).await?.map(Arc::new);
        if let Some(record) = &record {
            self.cache.put(digest, record);
        }
        Ok(record)
    }

    /// The guard's path that awaits nothing (most requests): the record for `digest` when it
    /// was read from the table less than [`TokenCache::TTL`] ago. Its use was recorded then
    /// (see `auth::authenticate`), so `last_used_at` lags by at most a minute plus the TTL.
    /// `None` sends the caller to [`TokenStore::by_digest_cached`] and [`TokenStore::touch`].
    pub fn if_cached(&self, digest: &Digest) -> Option<Arc<TokenRecord>> {
        self.cache.get(digest, Instant::now())
    }

    /// The token whose text hashes to `hash`, revoked or expired ones included.
    pub async fn by_hash(&self, hash: &str) -> sqlx::Result<Option<TokenRecord>> {
        let q = self.db.sql(&format!("SELECT {COLUMNS} FROM tokens WHERE token_hash = ?")).arg(hash);
        let row: Option<Row> = self.db.acquire().await?.exec().row(&q).await?;
        Ok(row.map(Row::into_record))
    }

    pub async fn list(&self) -> sqlx::Result<Vec<TokenRecord>> {
        let q = self.db.sql(&format!("SELECT {COLUMNS} FROM tokens ORDER BY id"));
        let rows: Vec<Row> = self.db.acquire().await?.exec().rows(&q).await?;
        Ok(rows.into_iter().map(Row::into_record).collect())
    }

    /// Revokes the token with this id, or every unrevoked token with this name.
    /// Returns the tokens revoked now (empty when none matched or all were revoked already).
    pub async fn revoke(&self, id_or_name: &str) -> sqlx::Result<Vec<TokenRecord>> {
        let update = |by: &str| {
            self.db
                .sql(&format!(
                    "UPDATE tokens SET revoked_at = ? WHERE {by} = ? AND revoked_at IS NULL RETURNING {COLUMNS}"
                ))
                .arg(now_text())
        };
        let q = match id_or_name.trim().parse::<i64>() {
            Ok(id) => update("id").arg(id),
            Err(_) => update("name").arg(id_or_name.trim()),
        };
        let mut tx = self.db.begin().await?;
        let revoked: Vec<TokenRecord> = tx.exec().rows::<Row>(&q).await?.into_iter().map(Row::into_record).collect();
        if revoked.is_empty() {
            return Ok(revoked);
        }
        for t in &revoked {
            trail::target("token", t.id);
            trail::change("revoked", None::<i64>, Some(t.id));
            events::append(&mut tx, EventType::TokenRevoked, "token", t.id, t).await?;
        }
        tx.commit().await?;
        self.cache.clear();
        Ok(revoked)
    }

    /// The tokens of user `user_id` (a token without one is its name's), oldest first.
    pub async fn list_of(&self, user_id: &str) -> sqlx::Result<Vec<TokenRecord>> {
        let q = self
            .db
            .sql(&format!("SELECT {COLUMNS} FROM tokens WHERE COALESCE(user_id, name) = ? ORDER BY id"))
            .arg(user_id);
        let rows: Vec<Row> = self.db.acquire().await?.exec().rows(&q).await?;
        Ok(rows.into_iter().map(Row::into_record).collect())
    }

    pub async fn by_id(&self, id: i64) -> sqlx::Result<Option<TokenRecord>> {
        let q = self.db.sql(&format!("SELECT {COLUMNS} FROM tokens WHERE id = ?")).arg(id);
        let row: Option<Row> = self.db.acquire().await?.exec().row(&q).await?;
        Ok(row.map(Row::into_record))
    }

    /// Records a use, at most once a minute per token (keeps writes off the hot path).
    pub async fn touch(&self, id: i64) -> sqlx::Result<()> {
        {
            let mut touched = self.cache.touched.lock().unwrap_or_else(|e| e.into_inner());
            let fresh = std::time::Instant::now();
            match touched.get(&id) {
                Some(at) if fresh.duration_since(*at) < TokenCache::TOUCH_EVERY => return Ok(()),
                _ => {
                    touched.insert(id, fresh);
                }
            }
        }
        let now = Utc::now();
        let every = Duration::from_std(TokenCache::TOUCH_EVERY).expect("a minute fits");
        let cutoff = (now - every).to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let q = self
            .db
            .sql("UPDATE tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)")
            .arg(now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
            .arg(id)
            .arg(cutoff);
        self.db.acquire().await?.exec().execute(&q).await?;
        Ok(())
    }

    /// Test and CLI helper: sets a token's expiry (RFC 3339), e.g. to the past.
    pub async fn set_expiry(&self, id: i64, expires_at: Option<&str>) -> sqlx::Result<()> {
        let q = self.db.sql("UPDATE tokens SET expires_at = ? WHERE id = ?").arg(expires_at).arg(id);
        self.db.acquire().await?.exec().execute(&q).await?;
        self.cache.clear();
        Ok(())
    }
}
