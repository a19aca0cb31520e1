//! The queues' retry schedule: after failed attempt `n`, wait `base` doubled `n - 1` times, at
//! most `max`, plus up to a tenth of that as jitter (so a receiver coming back is not hit by
//! everything at once); give up after a number of attempts, or once the next try would fall
//! after a retry window. The schedule without jitter ([`Retry::wait`], [`Retry::next_with`]) is
//! exact, for tests and documents; [`Retry::next`] adds the jitter.

use std::time::Duration;

use chrono::{DateTime, Utc};
use rand::Rng;

/// When a queue stops trying.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GiveUp {
    /// After this many attempts.
    After(u32),
    /// When the next try would come after this time (the retry window's end).
    At(DateTime<Utc>),
}

/// A queue's retry schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retry {
    pub base: Duration,
    pub max: Duration,
    pub give_up: GiveUp,
}

impl Retry {
    /// The wait after failed attempt `attempt` (the first is 1), without jitter: `base`
    /// doubled per attempt before it, at most `max`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use moneydesk_server::storage::queue::{GiveUp, Retry};
    /// let r = Retry { base: Duration::from_secs(60), max: Duration::from_secs(7200), give_up: GiveUp::After(5) };
    /// let waits: Vec<u64> = (1..=9).map(|n| r.wait(n).as_secs()).collect();
    /// assert_eq!(waits, [60, 120, 240, 480, 960, 1920, 3840, 7200, 7200]);
    /// ```
    pub fn wait(&self, attempt: u32) -> Duration {
        // 2^20 times any base is past any maximum worth having; the shift stays in range.
        self.base.saturating_mul(1u32 << attempt.saturating_sub(1).min(20)).min(self.max)
    }

    /// When to try after failed attempt `attempt` at `now`, the wait lengthened by `jitter`
    /// (at most a tenth of it; more is cut to a tenth); `None`: give up.
    pub fn next_with(&self, attempt: u32, now: DateTime<Utc>, jitter: Duration) -> Option<DateTime<Utc>> {
        let wait = self.wait(attempt);
        let wait = wait + jitter.min(wait / 10);
        let next = now + chrono::Duration::from_std(wait).unwrap_or(chrono::Duration::MAX);
        match self.give_up {
            GiveUp::After(limit) if attempt >= limit => None,
            GiveUp::At(end) if next > end => None,
            _ => Some(next),
        }
    }

    /// [`Retry::next_with`] a random jitter, from none to a tenth of the wait.
    pub fn next(&self, attempt: u32, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.next_with(attempt, now, jitter(self.wait(attempt)))
    }
}

/// A random part of `wait`, from none to a tenth of it (to the millisecond).
pub fn jitter(wait: Duration) -> Duration {
    Duration::from_millis(rand::thread_rng().gen_range(0..=wait.as_millis() as u64 / 10))
}

/// The wait after failed attempt `attempt` with its jitter, whatever the give-up rule.
pub fn retry_delay(base: Duration, max: Duration, attempt: u32) -> Duration {
    let wait = Retry { base, max, give_up: GiveUp::After(u32::MAX) }.wait(attempt);
    wait + jitter(wait)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: Duration = Duration::from_secs(60);

    fn at(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + s, 0).unwrap()
    }

    #[test]
    fn the_wait_doubles_from_the_base_up_to_the_maximum() {
        let r = Retry { base: MIN, max: 120 * MIN, give_up: GiveUp::After(100) };
        for n in 1..=7 {
            assert_eq!(r.wait(n), MIN * 2u32.pow(n - 1), "attempt {n}");
        }
        assert_eq!(r.wait(8), 120 * MIN);
        assert_eq!(r.wait(1000), 120 * MIN, "no overflow however many attempts");
        assert_eq!(r.wait(0), MIN, "attempt 0 counts as the first");
    }

    #[test]
    fn the_next_try_is_the_wait_plus_at_most_a_tenth() {
        let r = Retry { base: MIN, max: 120 * MIN, give_up: GiveUp::After(100) };
        assert_eq!(r.next_with(3, at(0), Duration::ZERO), Some(at(240)));
        assert_eq!(r.next_with(3, at(0), Duration::from_secs(24)), Some(at(264)));
        assert_eq!(r.next_with(3, at(0), Duration::from_secs(500)), Some(at(264)), "jitter cut to a tenth");
        for _ in 0..1000 {
            let next = r.next(3, at(0)).unwrap();
            assert!(next >= at(240) && next <= at(264), "{next}");
            let d = retry_delay(MIN, 120 * MIN, 30);
            assert!(d >= 120 * MIN && d <= 132 * MIN, "{d:?}");
        }
    }

    #[test]
    fn it_gives_up_after_the_attempt_limit() {
        let r = Retry { base: MIN, max: 120 * MIN, give_up: GiveUp::After(3) };
        assert_eq!(r.next_with(1, at(0), Duration::ZERO), Some(at(60)));
        assert_eq!(r.next_with(2, at(0), Duration::ZERO), Some(at(120)));
        assert_eq!(r.next_with(3, at(0), Duration::ZERO), None);
        assert_eq!(r.next(3, at(0)), None);
        assert_eq!(r.next_with(4, at(0), Duration::ZERO), None);
    }

    #[test]
    fn it_gives_up_when_the_next_try_would_fall_after_the_window() {
        let r = Retry { base: MIN, max: 120 * MIN, give_up: GiveUp::At(at(240)) };
        // Exactly at the window's end is still in it; a second later is not.
        assert_eq!(r.next_with(3, at(0), Duration::ZERO), Some(at(240)));
        assert_eq!(r.next_with(3, at(1), Duration::ZERO), None);
        // The jitter counts: the try it pushes past the end is not made.
        assert_eq!(r.next_with(3, at(0), Duration::from_secs(1)), None);
        assert_eq!(r.next_with(2, at(0), Duration::from_secs(12)), Some(at(132)));
        // With the defaults of inbound mail (1 min doubling to 2 h, a 3-day window), tried
        // as soon as each wait ends: 7 doubling waits, then every 2 hours until 3 days.
        let window = GiveUp::At(at(3 * 24 * 3600));
        let r = Retry { give_up: window, ..r };
        let (mut now, mut attempts) = (at(0), 1);
        while let Some(next) = r.next_with(attempts, now, Duration::ZERO) {
            (now, attempts) = (next, attempts + 1);
        }
        assert_eq!(attempts, 7 + 1 + (3 * 24 * 3600 - 127 * 60) / 7200);
        assert_eq!(attempts, 42);
    }
}
