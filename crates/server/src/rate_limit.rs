//! Per-caller rate limiting (the fee API is rate limited: description 8): a token bucket kept
//! as the generic cell rate algorithm (GCRA), one instant per caller instead of a count and a
//! refill time, so a check is one map lookup and a few integer operations under a lock.
//!
//! The bucket holds `burst` requests and refills at `per_second`. It lives in the process: with
//! several server instances behind a load balancer each keeps its own buckets, so configure
//! each instance with its share of the rate you want in all (`per_second / instances`); the
//! README says so.

use rustc_hash::FxHashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Rate and burst (`MONEYDESK_FEES_RATE_PER_SECOND`, `MONEYDESK_FEES_RATE_BURST`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quota {
    pub per_second: u32,
    pub burst: u32,
}

impl Quota {
    /// 10 quotes a second, bursts of 20: a person typing an amount sends a debounced request
    /// every few hundred milliseconds; a script quoting a file is slowed, not refused.
    pub const DEFAULT: Quota = Quota { per_second: 10, burst: 20 };
}

/// The decision for one request, with what the `RateLimit-*` headers say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    pub allowed: bool,
    /// `RateLimit-Limit`: the burst.
    pub limit: u32,
    /// `RateLimit-Remaining`: requests that could be sent right now.
    pub remaining: u32,
    /// `RateLimit-Reset`: until the bucket is full again.
    pub reset: Duration,
    /// `Retry-After` when refused: until one request is allowed again.
    pub retry_after: Duration,
}

#[derive(Debug)]
pub struct RateLimiter {
    quota: Quota,
    /// Time between two requests at the sustained rate.
    interval: Duration,
    /// How far ahead of now the theoretical arrival time may run: (burst - 1) intervals.
    tolerance: Duration,
    /// Each caller's theoretical arrival time (TAT).
    tat: Mutex<FxHashMap<i64, Instant>>,
}

/// Callers kept before idle ones are forgotten (an idle caller's bucket is full: forgetting it
/// changes nothing).
const SWEEP_AT: usize = 10_000;

impl RateLimiter {
    pub fn new(quota: Quota) -> RateLimiter {
        let per_second = quota.per_second.max(1);
        let burst = quota.burst.max(1);
        let interval = Duration::from_secs(1) / per_second;
        RateLimiter {
            quota: Quota { per_second, burst },
            interval,
            tolerance: interval * (burst - 1),
            tat: Mutex::new(FxHashMap::default()),
        }
    }

    pub fn check(&self, caller: i64) -> Decision {
        self.check_at(caller, Instant::now())
    }

    /// The decision at `now` (tests pass their own clock).
    pub fn check_at(&self, caller: i64, now: Instant) -> Decision {
        let mut map = self.tat.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= SWEEP_AT {
            map.retain(|_, tat| *tat > now);
        }
        // One lookup for the read and the write. A new caller's slot starts at `now`, which is
        // never refused, so inserting it before deciding changes nothing.
        let slot = map.entry(caller).or_insert(now);
        let tat = (*slot).max(now);
        let ahead = tat - now;
        if ahead > self.tolerance {
            return Decision {
                allowed: false,
                limit: self.quota.burst,
                remaining: 0,
                reset: ahead,
                retry_after: ahead - self.tolerance,
            };
        }
        let next = tat + self.interval;
        *slot = next;
        let used = next - now;
        // One more request fits while the TAT stays within the tolerance after it.
        let room = (self.tolerance + self.interval).saturating_sub(used);
        Decision {
            allowed: true,
            limit: self.quota.burst,
            remaining: (room.as_nanos() / self.interval.as_nanos()) as u32,
            reset: used,
            retry_after: Duration::ZERO,
        }
    }
}

/// Whole seconds for a header, rounded up (a client that waits `Retry-After` seconds must be
/// let through).
pub fn header_seconds(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter(per_second: u32, burst: u32) -> RateLimiter {
        RateLimiter::new(Quota { per_second, burst })
    }

    #[test]
    fn a_full_bucket_allows_the_burst_then_refuses_with_the_wait() {
        let l = limiter(2, 3);
        let t0 = Instant::now();
        let remaining: Vec<u32> = (0..3).map(|_| l.check_at(1, t0)).map(|d| d.remaining).collect();
        assert_eq!(remaining, [2, 1, 0]);
        let refused = l.check_at(1, t0);
        assert!(!refused.allowed);
        assert_eq!(refused.retry_after, Duration::from_millis(500));
        assert_eq!(header_seconds(refused.retry_after), 1);
        assert_eq!(refused.reset, Duration::from_millis(1500));
    }

    #[test]
    fn after_the_retry_after_one_more_request_is_allowed_and_the_bucket_refills() {
        let l = limiter(2, 3);
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(l.check_at(1, t0).allowed);
        }
        let wait = l.check_at(1, t0).retry_after;
        assert!(!l.check_at(1, t0 + wait - Duration::from_millis(1)).allowed);
        assert!(l.check_at(1, t0 + wait).allowed);
        // Idle for the whole reset time: full again.
        let later = t0 + Duration::from_secs(10);
        assert_eq!(l.check_at(1, later).remaining, 2);
    }

    #[test]
    fn each_caller_has_its_own_bucket() {
        let l = limiter(1, 1);
        let t0 = Instant::now();
        assert!(l.check_at(1, t0).allowed);
        assert!(!l.check_at(1, t0).allowed);
        assert!(l.check_at(2, t0).allowed);
    }

    #[test]
    fn a_steady_caller_at_the_rate_is_never_refused() {
        let l = limiter(10, 1);
        let t0 = Instant::now();
        for i in 0..100 {
            assert!(l.check_at(1, t0 + Duration::from_millis(100) * i).allowed, "request {i}");
        }
    }

    #[test]
    fn forgetting_idle_callers_keeps_the_map_small() {
        let l = limiter(100, 1);
        let t0 = Instant::now();
        for i in 0..SWEEP_AT {
            l.check_at(i as i64, t0);
        }
        l.check_at(-1, t0 + Duration::from_secs(1));
        assert_eq!(l.tat.lock().unwrap().len(), 1);
    }
}
