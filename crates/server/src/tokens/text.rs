//! API token text: `mdk_` + 32 random bytes in unpadded base64url. Only the SHA-256 of the whole
//! text is stored; the text is shown once, when it is created, and never logged.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::RngCore;
use sha2::{Digest as _, Sha256};

pub const PREFIX: &str = "mdk_";
/// 32 bytes in unpadded base64url.
const BODY_LEN: usize = 43;

/// A fresh token text.
pub fn generate() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// Whether `text` has the shape of a token this server issues (not whether it is known).
pub fn well_formed(text: &str) -> bool {
    let mut bytes = [0u8; 33];
    match text.strip_prefix(PREFIX) {
        // Decoded on the stack: this runs on every request.
        Some(body) => body.len() == BODY_LEN && URL_SAFE_NO_PAD.decode_slice(body, &mut bytes) == Ok(32),
        None => false,
    }
}

/// The SHA-256 of a token's text.
pub type Digest = [u8; 32];

pub fn digest(text: &str) -> Digest {
    Sha256::digest(text.as_bytes()).into()
}

/// Lowercase hex SHA-256 of the token text: what the database stores and looks up.
pub fn hash(text: &str) -> String {
    hex::encode(digest(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_tokens_are_well_formed_and_distinct() {
        let a = generate();
        let b = generate();
        assert!(well_formed(&a) && well_formed(&b) && a != b);
        assert_eq!(a.len(), 4 + 43);
        assert_eq!(hash(&a).len(), 64);
        assert_ne!(hash(&a), hash(&b));
    }

    #[test]
    fn malformed_shapes() {
        for t in [
            "",
            "mdk_",
            "abc",
            "mdk_short",
            &format!("xyz_{}", &generate()[4..]),
            &format!("{}=", generate()),
            &format!("{}!", &generate()[..46]),
        ] {
            assert!(!well_formed(t), "{t:?}");
        }
    }
}
