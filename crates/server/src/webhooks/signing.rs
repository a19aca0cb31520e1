//! Signatures, the way well-known payment APIs sign: `t=<timestamp>,v1=<hex HMAC-SHA256(secret,
//! "<timestamp>.<body>")>`, one `v1=` per secret in use (two while a rotation's overlap lasts),
//! so a receiver that knows either secret accepts the POST.

use base64::Engine;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

/// hex(HMAC-SHA256(secret, `<timestamp>.<body>`)).
pub fn signature(secret: &str, timestamp: i64, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes keys of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    hex::encode(mac.finalize().into_bytes())
}

/// The `Moneydesk-Webhook-Signature` header's value for `secrets` (the current one first).
///
/// ```
/// use moneydesk_server::webhooks::signing::header;
/// let one = header(&["whsec_a"], 1700000000, b"{}");
/// assert!(one.starts_with("t=1700000000,v1=") && one.len() == "t=1700000000,v1=".len() + 64);
/// let two = header(&["whsec_a", "whsec_b"], 1700000000, b"{}");
/// assert!(two.starts_with(&one) && two.matches(",v1=").count() == 2);
/// ```
pub fn header(secrets: &[&str], timestamp: i64, body: &[u8]) -> String {
    let mut h = format!("t={timestamp}");
    for s in secrets {
        h.push_str(",v1=");
        h.push_str(&signature(s, timestamp, body));
    }
    h
}

/// A new endpoint secret: `whsec_` and 32 random bytes in unpadded base64url.
pub fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    format!("whsec_{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// A new id: `prefix` and 24 hex digits.
pub fn new_id(prefix: &str) -> String {
    let mut bytes = [0u8; 12];
    rand::thread_rng().fill_bytes(&mut bytes);
    format!("{prefix}{}", hex::encode(bytes))
}
