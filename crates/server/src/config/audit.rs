//! The audit trail's settings (environment only).

/// How long the trail is kept, and the key its exported days are signed with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditConfig {
    /// `MONEYDESK_AUDIT_RETENTION_DAYS`: days older than this are removed whole (their count
    /// and last hash stay on record). Unset: kept forever.
    pub retention_days: Option<u32>,
    /// `MONEYDESK_AUDIT_SIGNING_KEY`: the HMAC-SHA256 key of exported days. Keep it outside
    /// the database (a reader of the database could otherwise re-sign a rewritten day); unset,
    /// a key made once and kept in the database's settings signs (integrity, not secrecy).
    pub signing_key: Option<String>,
}

impl AuditConfig {
    pub fn from_env(var: &impl Fn(&str) -> Option<String>) -> anyhow::Result<AuditConfig> {
        let retention_days = match var("MONEYDESK_AUDIT_RETENTION_DAYS").map(|v| v.trim().to_string()) {
            None => None,
            Some(v) if v.is_empty() || v == "forever" => None,
            Some(v) => {
                let n: u32 = v.parse().map_err(|_| {
                    anyhow::anyhow!(
                        "MONEYDESK_AUDIT_RETENTION_DAYS must be a whole number of days or \"forever\", got {v:?}"
                    )
                })?;
                anyhow::ensure!(n >= 1, "MONEYDESK_AUDIT_RETENTION_DAYS must be at least 1 day, got {n}");
                Some(n)
            }
        };
        let signing_key = var("MONEYDESK_AUDIT_SIGNING_KEY").filter(|k| !k.trim().is_empty());
        if let Some(k) = &signing_key {
            anyhow::ensure!(k.len() >= 32, "MONEYDESK_AUDIT_SIGNING_KEY must be at least 32 characters");
        }
        Ok(AuditConfig { retention_days, signing_key })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_forever_unless_a_retention_is_set() {
        assert_eq!(AuditConfig::from_env(&|_| None).unwrap().retention_days, None);
        let env = |k: &str| (k == "MONEYDESK_AUDIT_RETENTION_DAYS").then(|| "400".to_string());
        assert_eq!(AuditConfig::from_env(&env).unwrap().retention_days, Some(400));
        let env = |k: &str| (k == "MONEYDESK_AUDIT_RETENTION_DAYS").then(|| "a year".to_string());
        assert!(AuditConfig::from_env(&env).unwrap_err().to_string().contains("whole number"));
    }
}
