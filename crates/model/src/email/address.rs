//! Email addresses, checked once at the boundary.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An addr-spec (`local@domain`) as mail servers accept it: at most 254 bytes, a local part of
/// at most 64 bytes made of RFC 5322 atext and dots, and a domain of LDH labels with a dot.
/// No display names, quoted local parts or IP-literal domains: a back office never needs them,
/// and refusing them closes header-injection and homograph tricks.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EmailAddress(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmailAddressError {
    #[error("email address is empty")]
    Empty,
    #[error("email address {0:?} needs exactly one @")]
    At(String),
    #[error("email address is {0} bytes long; at most 254 are allowed")]
    TooLong(usize),
    #[error("the part before @ in {0:?} is empty, longer than 64 bytes, or has a character that is not allowed")]
    Local(String),
    #[error("the domain of {0:?} is not a valid domain name (like example.com)")]
    Domain(String),
}

impl EmailAddress {
    pub fn parse(s: &str) -> Result<Self, EmailAddressError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(EmailAddressError::Empty);
        }
        if s.len() > 254 {
            return Err(EmailAddressError::TooLong(s.len()));
        }
        let (local, domain) = match s.split_once('@') {
            Some((l, d)) if !d.contains('@') => (l, d),
            _ => return Err(EmailAddressError::At(s.to_string())),
        };
        let atext = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~-".contains(c);
        let local_ok = !local.is_empty()
            && local.len() <= 64
            && local.split('.').all(|part| !part.is_empty() && part.chars().all(atext));
        if !local_ok {
            return Err(EmailAddressError::Local(s.to_string()));
        }
        let labels: Vec<&str> = domain.split('.').collect();
        let domain_ok = labels.len() >= 2
            && domain.len() <= 253
            && labels.iter().all(|l| {
                !l.is_empty()
                    && l.len() <= 63
                    && !l.starts_with('-')
                    && !l.ends_with('-')
                    && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            })
            && labels.last().is_some_and(|tld| tld.len() >= 2 && !tld.chars().all(|c| c.is_ascii_digit()));
        if !domain_ok {
            return Err(EmailAddressError::Domain(s.to_string()));
        }
        Ok(EmailAddress(format!("{local}@{}", domain.to_ascii_lowercase())))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn domain(&self) -> &str {
        self.0.rsplit_once('@').map(|(_, d)| d).unwrap_or("")
    }

    /// The address as it should be compared for duplicates: mailbox names are case-insensitive
    /// in practice, whatever RFC 5321 allows.
    pub fn canonical(&self) -> String {
        self.0.to_ascii_lowercase()
    }
}

impl fmt::Display for EmailAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for EmailAddress {
    type Err = EmailAddressError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EmailAddress::parse(s)
    }
}

impl Serialize for EmailAddress {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for EmailAddress {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        EmailAddress::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_addresses() {
        for a in ["ops@example.com", "first.last+tag@sub.Example.CO.uk", "o'brien@bank.io"] {
            assert!(EmailAddress::parse(a).is_ok(), "{a}");
        }
        assert_eq!(EmailAddress::parse("A@Example.COM").unwrap().as_str(), "A@example.com");
    }

    #[test]
    fn rejects_with_a_reason() {
        assert_eq!(EmailAddress::parse(""), Err(EmailAddressError::Empty));
        assert!(matches!(EmailAddress::parse("no-at.example.com"), Err(EmailAddressError::At(_))));
        assert!(matches!(EmailAddress::parse("a@@b.com"), Err(EmailAddressError::At(_))));
        assert!(matches!(EmailAddress::parse("a..b@x.com"), Err(EmailAddressError::Local(_))));
        assert!(matches!(EmailAddress::parse("a@localhost"), Err(EmailAddressError::Domain(_))));
        assert!(EmailAddress::parse("a@x.com\r\nBcc: evil@x.com").is_err());
        assert!(matches!(EmailAddress::parse("a@-x.com"), Err(EmailAddressError::Domain(_))));
    }
}
