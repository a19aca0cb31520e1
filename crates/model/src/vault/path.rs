//! Document-vault paths (CONTRACT.md point 12).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use unicode_normalization::UnicodeNormalization;

/// A `/`-separated path relative to a user's vault root, normalised to Unicode NFC.
/// The root itself is the empty path (written `""` or `/`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct VaultPath(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VaultPathError {
    #[error("path segment {0:?} is not allowed ('.' and '..' are reserved)")]
    DotSegment(String),
    #[error("path has an empty segment (two '/' in a row)")]
    EmptySegment,
    #[error("path must use '/' as separator, not '\\'")]
    Backslash,
    #[error("path has a control character (U+{0:04X})")]
    Control(u32),
    #[error("path segment is {0} bytes long; at most 255 are allowed")]
    SegmentTooLong(usize),
    #[error("path is {0} bytes long; at most 4096 are allowed")]
    TooLong(usize),
}

pub const MAX_SEGMENT_BYTES: usize = 255;
pub const MAX_PATH_BYTES: usize = 4096;

impl VaultPath {
    pub fn root() -> Self {
        VaultPath(String::new())
    }

    /// Parses a path; one leading and one trailing `/` are tolerated (`/a/b/` is `a/b`).
    ///
    /// ```
    /// use moneydesk_model::vault::{VaultPath, VaultPathError};
    /// assert_eq!(VaultPath::parse("/Reports/2026/").unwrap().as_str(), "Reports/2026");
    /// // NFD (e + combining acute) and NFC spellings are one folder.
    /// assert_eq!(VaultPath::parse("Cafe\u{301}"), VaultPath::parse("Caf\u{e9}"));
    /// assert_eq!(VaultPath::parse("a/../b"), Err(VaultPathError::DotSegment("..".into())));
    /// ```
    pub fn parse(s: &str) -> Result<Self, VaultPathError> {
        let nfc = nfc_checked(s)?;
        if nfc.len() > MAX_PATH_BYTES {
            return Err(VaultPathError::TooLong(nfc.len()));
        }
        let trimmed = nfc.strip_prefix('/').unwrap_or(&nfc);
        let trimmed = trimmed.strip_suffix('/').unwrap_or(trimmed);
        if trimmed.is_empty() {
            return Ok(VaultPath::root());
        }
        for seg in trimmed.split('/') {
            check_segment(seg)?;
        }
        Ok(VaultPath(trimmed.to_string()))
    }

    /// A single folder or file name: a one-segment path.
    pub fn parse_name(s: &str) -> Result<String, VaultPathError> {
        let nfc = nfc_checked(s)?;
        if nfc.contains('/') || nfc.is_empty() {
            return Err(VaultPathError::EmptySegment);
        }
        check_segment(&nfc)?;
        Ok(nfc)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.0.split('/').filter(|s| !s.is_empty())
    }

    pub fn name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or("")
    }

    pub fn parent(&self) -> Option<VaultPath> {
        if self.is_root() {
            return None;
        }
        Some(match self.0.rsplit_once('/') {
            Some((p, _)) => VaultPath(p.to_string()),
            None => VaultPath::root(),
        })
    }

    pub fn join(&self, name: &str) -> Result<VaultPath, VaultPathError> {
        let name = VaultPath::parse_name(name)?;
        let joined = if self.is_root() { name } else { format!("{}/{}", self.0, name) };
        if joined.len() > MAX_PATH_BYTES {
            return Err(VaultPathError::TooLong(joined.len()));
        }
        Ok(VaultPath(joined))
    }

    /// Whether `self` is `other` or lies below it (a move into this would be a cycle).
    pub fn is_within(&self, other: &VaultPath) -> bool {
        is_within(&self.0, &other.0)
    }
}

/// Whether the path `path` is `folder` or lies below it (`""` is the root), for paths as the
/// API writes them: a move of `folder` into `path` would be a cycle. The portal asks it of the
/// paths it shows, the server of parsed ones.
///
/// ```
/// use moneydesk_model::vault::is_within;
/// assert!(is_within("a/b", "a") && is_within("a", "a") && is_within("a", ""));
/// assert!(!is_within("ab", "a"), "a prefix is not a parent");
/// ```
pub fn is_within(path: &str, folder: &str) -> bool {
    folder.is_empty() || path == folder || path.strip_prefix(folder).is_some_and(|rest| rest.starts_with('/'))
}

/// `s` in NFC, without control characters or backslashes.
fn nfc_checked(s: &str) -> Result<String, VaultPathError> {
    let nfc: String = s.nfc().collect();
    if let Some(c) = nfc.chars().find(|c| c.is_control()) {
        return Err(VaultPathError::Control(c as u32));
    }
    if nfc.contains('\\') {
        return Err(VaultPathError::Backslash);
    }
    Ok(nfc)
}

fn check_segment(seg: &str) -> Result<(), VaultPathError> {
    if seg.is_empty() {
        return Err(VaultPathError::EmptySegment);
    }
    if seg == "." || seg == ".." {
        return Err(VaultPathError::DotSegment(seg.to_string()));
    }
    if seg.len() > MAX_SEGMENT_BYTES {
        return Err(VaultPathError::SegmentTooLong(seg.len()));
    }
    Ok(())
}

impl fmt::Display for VaultPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "/{}", self.0)
    }
}

impl Serialize for VaultPath {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for VaultPath {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        VaultPath::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_and_rejects() {
        assert_eq!(VaultPath::parse("/a/b/").unwrap().as_str(), "a/b");
        assert!(VaultPath::parse("/").unwrap().is_root());
        // "é" as e + combining acute becomes the single NFC code point.
        assert_eq!(VaultPath::parse("cafe\u{301}").unwrap().as_str(), "caf\u{e9}");
        assert_eq!(VaultPath::parse("a/../b"), Err(VaultPathError::DotSegment("..".into())));
        assert_eq!(VaultPath::parse("a/./b"), Err(VaultPathError::DotSegment(".".into())));
        assert_eq!(VaultPath::parse("a//b"), Err(VaultPathError::EmptySegment));
        assert_eq!(VaultPath::parse("a\\b"), Err(VaultPathError::Backslash));
        assert_eq!(VaultPath::parse("a\nb"), Err(VaultPathError::Control(10)));
        assert_eq!(VaultPath::parse(&"x".repeat(256)), Err(VaultPathError::SegmentTooLong(256)));
        assert!(VaultPath::parse(&"x".repeat(255)).is_ok());
    }

    #[test]
    fn subtree_checks() {
        let a = VaultPath::parse("a").unwrap();
        let ab = VaultPath::parse("a/b").unwrap();
        let abc = VaultPath::parse("abc").unwrap();
        assert!(ab.is_within(&a) && a.is_within(&a));
        assert!(!abc.is_within(&a));
        assert_eq!(ab.parent().unwrap(), a);
        assert_eq!(a.join("b").unwrap(), ab);
        assert!(a.join("..").is_err());
    }
}
