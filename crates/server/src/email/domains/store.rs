//! Sending domains, both backends (table `email_domains` of `0008_email_domains.sql`). The
//! records to install are not stored: they follow from the domain (`records_for`).

use base64::Engine;
use moneydesk_model::email::domains::{DomainState, RecordCheck};

use super::dkim::DomainKeys;
use crate::storage::time::millis as time_text;
use crate::storage::{trail, Database, Sql};

#[derive(Clone, Debug)]
pub struct DomainStore {
    pub(crate) db: Database,
}

/// A stored domain.
#[derive(Debug, Clone)]
pub struct StoredDomain {
    pub domain: String,
    pub state: DomainState,
    pub keys: DomainKeys,
    pub created_at: String,
    pub verified_at: Option<String>,
    pub activated_at: Option<String>,
    pub checked_at: Option<String>,
    pub last_check: Option<Vec<RecordCheck>>,
}

#[derive(sqlx::FromRow)]
struct Row {
    domain: String,
    state: String,
    rsa_private: String,
    rsa_public: String,
    ed25519_private: String,
    ed25519_public: String,
    created_at: String,
    verified_at: Option<String>,
    activated_at: Option<String>,
    checked_at: Option<String>,
    last_check: Option<String>,
}

const COLUMNS: &str = "domain, state, rsa_private, rsa_public, ed25519_private, ed25519_public, created_at, verified_at, activated_at, checked_at, last_check";

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn unb64(text: &str) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD.decode(text).unwrap_or_default()
}

impl Row {
    fn stored(self) -> StoredDomain {
        StoredDomain {
            state: self.state.parse().unwrap_or(DomainState::Pending),
            keys: DomainKeys {
                rsa_private: unb64(&self.rsa_private),
                rsa_public: unb64(&self.rsa_public),
                ed25519_private: unb64(&self.ed25519_private),
                ed25519_public: unb64(&self.ed25519_public),
            },
            last_check: self.last_check.and_then(|j| serde_json::from_str(&j).ok()),
            domain: self.domain,
            created_at: self.created_at,
            verified_at: self.verified_at,
            activated_at: self.activated_at,
            checked_at: self.checked_at,
        }
    }
}

impl DomainStore {
    pub fn new(db: Database) -> DomainStore {
        DomainStore { db }
    }

    /// Registers `domain` (pending). A domain already registered breaks the primary key: a
    /// 409 by the crate's one mapping.
    pub async fn insert(&self, domain: &str, keys: &DomainKeys, by: &str) -> sqlx::Result<StoredDomain> {
        let q = self
            .db
            .sql("INSERT INTO email_domains (domain, state, rsa_private, rsa_public, ed25519_private, ed25519_public, created_by, created_at) VALUES (?, 'pending', ?, ?, ?, ?, ?, ?)")
            .arg(domain)
            .arg(b64(&keys.rsa_private))
            .arg(b64(&keys.rsa_public))
            .arg(b64(&keys.ed25519_private))
            .arg(b64(&keys.ed25519_public))
            .arg(by)
            .arg(time_text(chrono::Utc::now()));
        let mut tx = self.db.begin().await?;
        tx.exec().execute(&q).await?;
        trail::target("email_domain", domain);
        trail::change("state", None::<&str>, Some(DomainState::Pending));
        tx.commit().await?;
        Ok(self.get(domain).await?.expect("the domain just registered"))
    }

    pub async fn get(&self, domain: &str) -> sqlx::Result<Option<StoredDomain>> {
        let q = self.db.sql(&format!("SELECT {COLUMNS} FROM email_domains WHERE domain = ?")).arg(domain);
        Ok(self.db.acquire().await?.exec().row::<Row>(&q).await?.map(Row::stored))
    }

    /// Every domain, by name.
    pub async fn list(&self) -> sqlx::Result<Vec<StoredDomain>> {
        let q = self.db.sql(&format!("SELECT {COLUMNS} FROM email_domains ORDER BY domain"));
        Ok(self.db.acquire().await?.exec().rows::<Row>(&q).await?.into_iter().map(Row::stored).collect())
    }

    /// Runs `change` on `domain` in a transaction, on record with its state before and
    /// `after` (`None`: removed); `false`, nothing written, when there is no such domain.
    async fn change(&self, domain: &str, change: &Sql, after: Option<DomainState>) -> sqlx::Result<bool> {
        let mut tx = self.db.begin().await?;
        let q = self.db.sql("SELECT state FROM email_domains WHERE domain = ?").arg(domain);
        let Some(before) = tx.exec().texts(&q).await?.pop() else { return Ok(false) };
        tx.exec().execute(change).await?;
        trail::target("email_domain", domain);
        trail::change("state", Some(before), after);
        tx.commit().await?;
        Ok(true)
    }

    /// Records a verification and the state it leads to (`verified_at` set the first time it
    /// passes, kept after; `activated_at` the first time it leads to `active`): one change.
    pub async fn record_check(
        &self,
        domain: &str,
        check: &[RecordCheck],
        state: DomainState,
        passed: bool,
    ) -> sqlx::Result<Option<StoredDomain>> {
        let now = time_text(chrono::Utc::now());
        let json = serde_json::to_string(check).expect("checks serialize");
        let q = self
            .db
            .sql("UPDATE email_domains SET state = ?, checked_at = ?, last_check = ?, \
                  verified_at = CASE WHEN ? = 1 THEN COALESCE(verified_at, ?) ELSE verified_at END, \
                  activated_at = CASE WHEN ? = 'active' THEN COALESCE(activated_at, ?) ELSE activated_at END WHERE domain = ?")
            .arg(state.as_str())
            .arg(now.clone())
            .arg(json)
            .arg(i64::from(passed))
            .arg(now.clone())
            .arg(state.as_str())
            .arg(now)
            .arg(domain);
        if !self.change(domain, &q, Some(state)).await? {
            return Ok(None);
        }
        self.get(domain).await
    }

    /// Makes a domain active; `None` when there is no such domain.
    pub async fn activate(&self, domain: &str) -> sqlx::Result<Option<StoredDomain>> {
        let q = self
            .db
            .sql("UPDATE email_domains SET state = 'active', activated_at = COALESCE(activated_at, ?) WHERE domain = ?")
            .arg(time_text(chrono::Utc::now()))
            .arg(domain);
        if !self.change(domain, &q, Some(DomainState::Active)).await? {
            return Ok(None);
        }
        self.get(domain).await
    }

    /// Removes a domain; whether there was one.
    pub async fn delete(&self, domain: &str) -> sqlx::Result<bool> {
        let q = self.db.sql("DELETE FROM email_domains WHERE domain = ?").arg(domain);
        self.change(domain, &q, None).await
    }
}
