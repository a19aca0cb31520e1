//! Token scopes (CONTRACT.md point 7). `admin` grants every scope.

use crate::vocabulary::vocabulary;

vocabulary!(
    /// An API scope. The label is the name: operators know scopes by it.
    #[derive(PartialOrd, Ord)]
    pub enum Scope {
        FeesRead = "fees:read" / "fees:read",
        /// May set a check deposit's `fee` (what is charged) instead of the schedule's.
        FeesOverride = "fees:override" / "fees:override",
        VaultRead = "vault:read" / "vault:read",
        VaultWrite = "vault:write" / "vault:write",
        EmailSend = "email:send" / "email:send",
        EmailVerify = "email:verify" / "email:verify",
        RoutingRead = "routing:read" / "routing:read",
        DepositsRead = "deposits:read" / "deposits:read",
        DepositsWrite = "deposits:write" / "deposits:write",
        AccountsRead = "accounts:read" / "accounts:read",
        PermissionsRead = "permissions:read" / "permissions:read",
        LedgerRead = "ledger:read" / "ledger:read",
        AuditRead = "audit:read" / "audit:read",
        WebhooksWrite = "webhooks:write" / "webhooks:write",
        Admin = "admin" / "admin",
    }
    receiver: ref;
    from_str: UnknownScope = |s: &str| UnknownScope(s.to_string());
    serde: from_str;
);

impl Scope {
    /// The scope's name: its wire text.
    pub const fn name(&self) -> &'static str {
        self.as_str()
    }

    /// Whether a credential holding `held` may use an endpoint that needs `self`.
    pub fn granted_by(self, held: &[Scope]) -> bool {
        held.iter().any(|h| *h == self || *h == Scope::Admin)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown scope {0:?}; known scopes: fees:read, fees:override, vault:read, vault:write, email:send, email:verify, routing:read, deposits:read, deposits:write, accounts:read, permissions:read, ledger:read, audit:read, webhooks:write, admin")]
pub struct UnknownScope(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_admin_grants_all() {
        for s in Scope::ALL {
            assert_eq!(s.as_str().parse::<Scope>().unwrap(), s);
            assert!(s.granted_by(&[Scope::Admin]));
        }
        assert!(!Scope::DepositsWrite.granted_by(&[Scope::DepositsRead]));
        assert!("fees:write".parse::<Scope>().is_err());
    }
}
