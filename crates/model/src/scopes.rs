//! Token scopes (CONTRACT.md point 7). `admin` grants every scope.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    FeesRead,
    VaultRead,
    VaultWrite,
    EmailSend,
    EmailVerify,
    RoutingRead,
    DepositsRead,
    DepositsWrite,
    AccountsRead,
    PermissionsRead,
    Admin,
}

impl Scope {
    pub const ALL: [Scope; 11] = [
        Scope::FeesRead,
        Scope::VaultRead,
        Scope::VaultWrite,
        Scope::EmailSend,
        Scope::EmailVerify,
        Scope::RoutingRead,
        Scope::DepositsRead,
        Scope::DepositsWrite,
        Scope::AccountsRead,
        Scope::PermissionsRead,
        Scope::Admin,
    ];

    /// `(name, label)` of every scope, in `ALL`'s order (the label is the name: operators
    /// know scopes by it).
    pub const OPTIONS: [(&'static str, &'static str); 11] = {
        let mut out = [("", ""); 11];
        let mut i = 0;
        while i < 11 {
            let name = Scope::ALL[i].name();
            out[i] = (name, name);
            i += 1;
        }
        out
    };

    pub const fn name(&self) -> &'static str {
        match self {
            Scope::FeesRead => "fees:read",
            Scope::VaultRead => "vault:read",
            Scope::VaultWrite => "vault:write",
            Scope::EmailSend => "email:send",
            Scope::EmailVerify => "email:verify",
            Scope::RoutingRead => "routing:read",
            Scope::DepositsRead => "deposits:read",
            Scope::DepositsWrite => "deposits:write",
            Scope::AccountsRead => "accounts:read",
            Scope::PermissionsRead => "permissions:read",
            Scope::Admin => "admin",
        }
    }

    pub fn as_str(&self) -> &'static str {
        self.name()
    }

    /// Whether a credential holding `held` may use an endpoint that needs `self`.
    pub fn granted_by(self, held: &[Scope]) -> bool {
        held.iter().any(|h| *h == self || *h == Scope::Admin)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown scope {0:?}; known scopes: fees:read, vault:read, vault:write, email:send, email:verify, routing:read, deposits:read, deposits:write, accounts:read, permissions:read, admin")]
pub struct UnknownScope(pub String);

impl FromStr for Scope {
    type Err = UnknownScope;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Scope::ALL.into_iter().find(|x| x.as_str() == s).ok_or_else(|| UnknownScope(s.to_string()))
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Scope {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Scope {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

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
