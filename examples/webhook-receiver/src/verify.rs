//! Checking a Moneydesk webhook, with nothing but HMAC-SHA256: the signature header
//! `t=<timestamp>,v1=<hex>[,v1=<hex>…]` must carry one `v1` that is HMAC-SHA256(secret,
//! "<timestamp>.<body>") for one of the secrets the receiver knows (two while the sender rotates
//! it), the timestamp must be recent (a replayed request is refused), and an event id seen
//! before is acknowledged without being handled again (delivery is at least once).

use std::collections::{HashSet, VecDeque};

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// How old a signed request may be: 5 minutes.
pub const TOLERANCE_SECONDS: i64 = 300;

/// Why a request is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// No or malformed signature header.
    Malformed(&'static str),
    /// Signed more than [`TOLERANCE_SECONDS`] from now.
    TooOld(i64),
    /// No signature matches a known secret.
    BadSignature,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Malformed(why) => write!(f, "malformed signature header: {why}"),
            Refusal::TooOld(age) => write!(f, "the timestamp is {age} s away from now (at most {TOLERANCE_SECONDS})"),
            Refusal::BadSignature => write!(f, "no signature matches"),
        }
    }
}

fn expected(secret: &str, timestamp: &str, body: &[u8]) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes keys of any length");
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// Checks `signature` (the `Moneydesk-Webhook-Signature` header) over `body` against
/// `secrets`, at `now` (Unix seconds).
pub fn verify(secrets: &[&str], signature: &str, body: &[u8], now: i64) -> Result<(), Refusal> {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in signature.split(',') {
        match part.trim().split_once('=') {
            Some(("t", t)) => timestamp = Some(t),
            Some(("v1", s)) => signatures.push(hex::decode(s).map_err(|_| Refusal::Malformed("v1 is not hex"))?),
            _ => {}
        }
    }
    let t = timestamp.ok_or(Refusal::Malformed("no t="))?;
    let at: i64 = t.parse().map_err(|_| Refusal::Malformed("t is not a number"))?;
    if (now - at).abs() > TOLERANCE_SECONDS {
        return Err(Refusal::TooOld(now - at));
    }
    if signatures.is_empty() {
        return Err(Refusal::Malformed("no v1="));
    }
    // verify_slice compares in constant time.
    let ok = secrets.iter().any(|s| signatures.iter().any(|sig| expected(s, t, body).verify_slice(sig).is_ok()));
    if ok {
        Ok(())
    } else {
        Err(Refusal::BadSignature)
    }
}

/// The event ids seen lately (the last `capacity`), to drop repeats.
#[derive(Debug)]
pub struct Seen {
    ids: HashSet<String>,
    order: VecDeque<String>,
    capacity: usize,
}

impl Seen {
    pub fn new(capacity: usize) -> Seen {
        Seen { ids: HashSet::new(), order: VecDeque::new(), capacity: capacity.max(1) }
    }

    /// Whether `id` is new (and remembers it).
    pub fn first_time(&mut self, id: &str) -> bool {
        if self.ids.contains(id) {
            return false;
        }
        if self.order.len() == self.capacity {
            if let Some(old) = self.order.pop_front() {
                self.ids.remove(&old);
            }
        }
        self.ids.insert(id.to_string());
        self.order.push_back(id.to_string());
        true
    }

    /// Forgets `id` (its handling failed: the retry must be handled).
    pub fn forget(&mut self, id: &str) {
        self.ids.remove(id);
        self.order.retain(|o| o != id);
    }
}
