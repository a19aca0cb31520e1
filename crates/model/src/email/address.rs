//! Email addresses, checked once at the boundary.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An addr-spec (`local@domain`) by RFC 5321/5322 rules: a local part that is a dot-atom
/// (RFC 5322 atext and dots) or a quoted string (printable ASCII, `\\"` and `\\\\` escaped), at
/// most 64 bytes; a domain name of at least two labels, internationalised domains accepted
/// and kept in their ASCII (A-label, `xn--`) form, which is what SMTP and the headers carry
/// ([`EmailAddress::display`] gives the Unicode form back); at most 254 bytes in all (RFC
/// 5321's path of 256 less its angle brackets).
///
/// Refused, each with its reason: display names (the `name` field carries those), domain
/// literals (`[192.0.2.1]`: a back office never needs them), non-ASCII local parts (they need
/// SMTPUTF8, which a relay may not offer), and any control character, so no address can carry
/// a header line of its own.
///
/// ```
/// use moneydesk_model::email::EmailAddress;
/// let a = EmailAddress::parse("Zoë.Ops@Bücher.example").unwrap_err();
/// assert!(a.to_string().contains("ASCII"));
/// let b = EmailAddress::parse("ops@Bücher.example").unwrap();
/// assert_eq!(b.as_str(), "ops@xn--bcher-kva.example");
/// assert_eq!(b.display(), "ops@bücher.example");
/// assert!(EmailAddress::parse("\"john doe\"@bank.example").is_ok());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EmailAddress(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmailAddressError {
    #[error("email address is empty")]
    Empty,
    #[error("email address {0:?} needs exactly one @ outside quotes")]
    At(String),
    #[error("email address is {0} bytes long; at most 254 are allowed")]
    TooLong(usize),
    #[error("the part before @ in {0:?} is empty, longer than 64 bytes, or has a character that is not allowed")]
    Local(String),
    #[error(
        "the part before @ in {0:?} has non-ASCII characters; write it in ASCII (relays need SMTPUTF8 for others)"
    )]
    LocalNotAscii(String),
    #[error("the domain of {0:?} is not a valid domain name (like example.com)")]
    Domain(String),
    #[error("the domain of {0:?} is an IP address literal; use a domain name")]
    DomainLiteral(String),
    #[error("{0:?} has a control character or line break")]
    Control(String),
    #[error("{0:?} looks like a name with an address; give only the address (the name goes in `name`)")]
    DisplayName(String),
}

/// RFC 5322 atext.
fn atext(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~-".contains(c)
}

/// The local part as written: a dot-atom, or a quoted string.
fn local_ok(local: &str) -> bool {
    if local.is_empty() || local.len() > 64 {
        return false;
    }
    if let Some(inner) = local.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some(e) if (' '..='~').contains(&e) => {}
                    _ => return false,
                },
                '"' => return false,
                c if (' '..='~').contains(&c) => {}
                _ => return false,
            }
        }
        return true;
    }
    local.split('.').all(|part| !part.is_empty() && part.chars().all(atext))
}

impl EmailAddress {
    pub fn parse(s: &str) -> Result<Self, EmailAddressError> {
        let s = s.trim_matches(|c: char| c == ' ' || c == '\t');
        if s.is_empty() {
            return Err(EmailAddressError::Empty);
        }
        if s.chars().any(char::is_control) {
            return Err(EmailAddressError::Control(s.to_string()));
        }
        if s.ends_with('>') && s.contains('<') {
            return Err(EmailAddressError::DisplayName(s.to_string()));
        }
        // The last @ separates: a quoted local part may hold an @ of its own.
        let (local, domain) = match s.rsplit_once('@') {
            Some((l, d)) if !d.is_empty() && (l.starts_with('"') || !l.contains('@')) => (l, d),
            _ => return Err(EmailAddressError::At(s.to_string())),
        };
        if !local.is_ascii() {
            return Err(EmailAddressError::LocalNotAscii(s.to_string()));
        }
        if !local_ok(local) {
            return Err(EmailAddressError::Local(s.to_string()));
        }
        if domain.starts_with('[') {
            return Err(EmailAddressError::DomainLiteral(s.to_string()));
        }
        // UTS 46 with the STD3 rules: Unicode domains to their A-labels, lowercased; refuses
        // what no DNS name may be (spaces, `_`, empty labels, bad hyphens, bad bidi).
        let ascii = idna::domain_to_ascii_strict(domain).map_err(|_| EmailAddressError::Domain(s.to_string()))?;
        let labels: Vec<&str> = ascii.split('.').collect();
        let domain_ok = labels.len() >= 2
            && ascii.len() <= 253
            && labels.iter().all(|l| !l.is_empty() && l.len() <= 63)
            && labels.last().is_some_and(|tld| tld.len() >= 2 && !tld.chars().all(|c| c.is_ascii_digit()));
        if !domain_ok {
            return Err(EmailAddressError::Domain(s.to_string()));
        }
        let address = format!("{local}@{ascii}");
        if address.len() > 254 {
            return Err(EmailAddressError::TooLong(address.len()));
        }
        Ok(EmailAddress(address))
    }

    /// The address with its domain in Unicode (`ops@bücher.example`), for people to read.
    pub fn display(&self) -> String {
        let (local, domain) = self.0.rsplit_once('@').unwrap_or((&self.0, ""));
        let (unicode, result) = idna::domain_to_unicode(domain);
        match result {
            Ok(()) => format!("{local}@{unicode}"),
            Err(_) => self.0.clone(),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn domain(&self) -> &str {
        self.0.rsplit_once('@').map(|(_, d)| d).unwrap_or("")
    }

    /// A domain name by the same rules as an address's (UTS 46, at least two labels), in its
    /// ASCII form, lowercase: what sending domains and the service domain are kept as.
    ///
    /// ```
    /// use moneydesk_model::email::EmailAddress;
    /// assert_eq!(EmailAddress::domain_name(" Bücher.Example ").as_deref(), Some("xn--bcher-kva.example"));
    /// assert_eq!(EmailAddress::domain_name("not a domain"), None);
    /// ```
    pub fn domain_name(s: &str) -> Option<String> {
        EmailAddress::parse(&format!("postmaster@{}", s.trim())).ok().map(|a| a.domain().to_ascii_lowercase())
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
        assert!(matches!(EmailAddress::parse("a@[192.0.2.1]"), Err(EmailAddressError::DomainLiteral(_))));
        assert!(matches!(EmailAddress::parse("Ops <ops@x.com>"), Err(EmailAddressError::DisplayName(_))));
        assert!(matches!(EmailAddress::parse("a@x.com\r\nBcc: e@x.com"), Err(EmailAddressError::Control(_))));
        assert!(matches!(EmailAddress::parse("\"a\nb\"@x.com"), Err(EmailAddressError::Control(_))));
        assert!(matches!(EmailAddress::parse("ü@x.com"), Err(EmailAddressError::LocalNotAscii(_))));
        assert!(matches!(EmailAddress::parse("a@ex ample.com"), Err(EmailAddressError::Domain(_))));
        assert!(matches!(EmailAddress::parse(&format!("{}@x.com", "a".repeat(65))), Err(EmailAddressError::Local(_))));
        assert!(matches!(
            EmailAddress::parse(&format!("a@{}.com", vec!["b".repeat(60); 5].join("."))),
            Err(EmailAddressError::TooLong(_) | EmailAddressError::Domain(_))
        ));
    }

    #[test]
    fn quoted_local_parts_and_international_domains_are_addresses() {
        assert_eq!(EmailAddress::parse("\"a@b\"@bank.example").unwrap().as_str(), "\"a@b\"@bank.example");
        assert_eq!(EmailAddress::parse("\"x\\\"y\"@bank.example").unwrap().domain(), "bank.example");
        assert_eq!(EmailAddress::parse("ops@例え.テスト").unwrap().as_str(), "ops@xn--r8jz45g.xn--zckzah");
        assert_eq!(EmailAddress::parse("ops@例え.テスト").unwrap().display(), "ops@例え.テスト");
        // Two spellings of one domain are one address.
        assert_eq!(
            EmailAddress::parse("ops@BÜCHER.example").unwrap(),
            EmailAddress::parse("ops@xn--bcher-kva.example").unwrap()
        );
    }

    proptest::proptest! {
        /// Whatever is typed, parsing never panics, and what it accepts has no control
        /// character and parses again to itself.
        #[test]
        fn parsing_is_total_and_stable(s in "\\PC{0,80}|[a-z.\"@\\\\ \r\n]{0,30}") {
            if let Ok(a) = EmailAddress::parse(&s) {
                proptest::prop_assert!(!a.as_str().chars().any(char::is_control));
                proptest::prop_assert_eq!(EmailAddress::parse(a.as_str()).unwrap(), a);
            }
        }
    }
}
