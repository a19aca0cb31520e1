//! The hold policy: when each part of a deposit becomes available, in the style of
//! Regulation CC (12 CFR part 229). Pure: the caller supplies the calendar, the deposit and the
//! account's age, and gets back dated release tranches to post as hold releases.

use chrono::NaiveDate;

use super::calendar::Calendar;

/// The bank's funds-availability schedule. Amounts are integer cents so that tranches add up
/// exactly; the defaults are Regulation CC's limits as adjusted on July 1, 2025.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoldPolicy {
    /// Cents of a check available on the next business day (§229.10(c)(1)(vii): $275).
    pub next_day_amount: i64,
    /// Business days until the rest of a check is available (§229.12(b): local checks, 2).
    pub standard_days: u32,
    /// Cents of a day's check deposit above which the excess may be held longer
    /// (§229.13(b) large deposits: $6,725).
    pub large_deposit_threshold_cents: i64,
    /// Business days for the large-deposit excess and new accounts (§229.13(h): a reasonable
    /// period is up to 5 business days more than the 2 of §229.12(b), so 7).
    pub extended_days: u32,
    /// Calendar days an account counts as new (§229.13(a): the first 30 days).
    pub new_account_days: i64,
    /// Whether cash is available at once rather than on the next business day (§229.10(a)).
    pub cash_immediate: bool,
}

impl Default for HoldPolicy {
    fn default() -> Self {
        Self {
            next_day_amount: 27_500,
            standard_days: 2,
            large_deposit_threshold_cents: 672_500,
            extended_days: 7,
            new_account_days: 30,
            cash_immediate: true,
        }
    }
}

/// How the funds arrived; Regulation CC sets a different availability for each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DepositKind {
    /// A check deposit (remote deposit capture or teller): the schedule of §229.10(c)/§229.12.
    Check,
    /// An electronic payment such as ACH: next business day (§229.10(b)).
    Electronic,
    /// Cash: same day if [`HoldPolicy::cash_immediate`], else next business day (§229.10(a)).
    Cash,
}

/// One tranche of a deposit that becomes available on a date; a hold covers the sum of the
/// tranches not yet released.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release {
    /// The day the tranche becomes available for withdrawal.
    pub on: NaiveDate,
    /// The tranche's amount in cents (> 0).
    pub amount_cents: i64,
}

impl HoldPolicy {
    /// The release tranches of a deposit of `amount_cents` (net of fees) confirmed on
    /// `banking_day`, in strictly increasing date order, one per date, each > 0 and summing
    /// exactly to `amount_cents` (empty when `amount_cents <= 0`). A deposit confirmed on a
    /// day that is not a business day counts as received on the next business day
    /// (§229.19(a)). `account_opened` is `None` when the account's age is unknown: it is then
    /// treated as established.
    pub fn schedule(
        &self,
        cal: &Calendar,
        kind: DepositKind,
        amount_cents: i64,
        banking_day: NaiveDate,
        account_opened: Option<NaiveDate>,
    ) -> Vec<Release> {
        if amount_cents <= 0 {
            return Vec::new();
        }
        let received = if cal.is_business_day(banking_day) { banking_day } else { cal.next_business_day(banking_day) };
        let after = |days: u32| cal.add_business_days(received, days);
        let tranches = match kind {
            // §229.10(a): cash deposited in person; the bank may choose to release it at once.
            DepositKind::Cash if self.cash_immediate => vec![(banking_day, amount_cents)],
            DepositKind::Cash => vec![(after(1), amount_cents)],
            // §229.10(b): electronic payments, next business day after the banking day.
            DepositKind::Electronic => vec![(after(1), amount_cents)],
            DepositKind::Check => {
                let next_day = self.next_day_amount.clamp(0, amount_cents);
                if self.is_new_account(banking_day, account_opened) {
                    // §229.13(a): new accounts are exempt from the schedule beyond the next-day amount.
                    vec![(after(1), next_day), (after(self.extended_days), amount_cents - next_day)]
                } else {
                    // §229.10(c)(1)(vii) next-day amount, §229.12(b) the rest, §229.13(b) the excess.
                    let threshold = self.large_deposit_threshold_cents.max(next_day).min(amount_cents);
                    vec![
                        (after(1), next_day),
                        (after(self.standard_days), threshold - next_day),
                        (after(self.extended_days), amount_cents - threshold),
                    ]
                }
            }
        };
        merge(tranches)
    }

    /// Whether an account opened on `opened` is still new on `banking_day` (§229.13(a)).
    fn is_new_account(&self, banking_day: NaiveDate, opened: Option<NaiveDate>) -> bool {
        opened.is_some_and(|opened| (banking_day - opened).num_days() < self.new_account_days)
    }
}

/// Drops empty tranches, sorts by date and merges same-day tranches, so that a configuration
/// with equal day counts still yields one release per date.
fn merge(mut tranches: Vec<(NaiveDate, i64)>) -> Vec<Release> {
    tranches.retain(|(_, amount)| *amount > 0);
    tranches.sort_by_key(|(on, _)| *on);
    let mut releases: Vec<Release> = Vec::with_capacity(tranches.len());
    for (on, amount_cents) in tranches {
        match releases.last_mut() {
            Some(last) if last.on == on => last.amount_cents += amount_cents,
            _ => releases.push(Release { on, amount_cents }),
        }
    }
    releases
}

#[cfg(test)]
mod tests {
    use chrono::{Datelike, Weekday};
    use proptest::prelude::*;

    use super::*;

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    fn releases(items: &[(&str, i64)]) -> Vec<Release> {
        items.iter().map(|(on, amount_cents)| Release { on: day(on), amount_cents: *amount_cents }).collect()
    }

    fn check(policy: &HoldPolicy, amount: i64, banking_day: &str, opened: Option<&str>) -> Vec<Release> {
        policy.schedule(&Calendar::federal_reserve(), DepositKind::Check, amount, day(banking_day), opened.map(day))
    }

    #[test]
    fn check_before_thanksgiving_skips_the_holiday() {
        assert_eq!(day("2026-11-25").weekday(), Weekday::Wed);
        let policy = HoldPolicy::default();
        assert_eq!(
            check(&policy, 100_000, "2026-11-25", None),
            releases(&[("2026-11-27", 27_500), ("2026-11-30", 72_500)])
        );
        // The same with the 2020–2025 next-day amount of $225.
        let old = HoldPolicy { next_day_amount: 22_500, ..HoldPolicy::default() };
        assert_eq!(
            check(&old, 100_000, "2026-11-25", None),
            releases(&[("2026-11-27", 22_500), ("2026-11-30", 77_500)])
        );
    }

    #[test]
    fn independence_day_on_saturday_is_not_moved_but_on_sunday_is() {
        let policy = HoldPolicy::default();
        // 2026: July 4 is a Saturday, Friday July 3 stays a business day.
        assert_eq!(day("2026-07-02").weekday(), Weekday::Thu);
        assert_eq!(
            check(&policy, 50_000, "2026-07-02", None),
            releases(&[("2026-07-03", 27_500), ("2026-07-06", 22_500)])
        );
        // 2027: July 4 is a Sunday, observed Monday July 5.
        assert_eq!(day("2027-07-02").weekday(), Weekday::Fri);
        assert_eq!(
            check(&policy, 50_000, "2027-07-02", None),
            releases(&[("2027-07-06", 27_500), ("2027-07-07", 22_500)])
        );
    }

    #[test]
    fn weekend_deposit_counts_as_received_next_business_day() {
        assert_eq!(day("2026-07-04").weekday(), Weekday::Sat);
        let got = check(&HoldPolicy::default(), 50_000, "2026-07-04", None);
        assert_eq!(got, releases(&[("2026-07-07", 27_500), ("2026-07-08", 22_500)]));
    }

    #[test]
    fn large_check_excess_waits_for_the_extended_day() {
        assert_eq!(day("2026-03-09").weekday(), Weekday::Mon);
        let got = check(&HoldPolicy::default(), 1_000_000, "2026-03-09", None);
        let want = releases(&[("2026-03-10", 27_500), ("2026-03-11", 645_000), ("2026-03-18", 327_500)]);
        assert_eq!(got, want);
    }

    #[test]
    fn new_account_holds_everything_above_the_next_day_amount() {
        let policy = HoldPolicy::default();
        let got = check(&policy, 300_000, "2026-03-09", Some("2026-02-20"));
        assert_eq!(got, releases(&[("2026-03-10", 27_500), ("2026-03-18", 272_500)]));
        // Opened exactly 30 days before: no longer new.
        let got = check(&policy, 300_000, "2026-03-09", Some("2026-02-07"));
        assert_eq!(got, releases(&[("2026-03-10", 27_500), ("2026-03-11", 272_500)]));
    }

    #[test]
    fn small_check_is_released_next_day_in_one_tranche() {
        assert_eq!(check(&HoldPolicy::default(), 10_000, "2026-03-09", None), releases(&[("2026-03-10", 10_000)]));
        assert_eq!(check(&HoldPolicy::default(), 0, "2026-03-09", None), vec![]);
    }

    #[test]
    fn cash_is_available_on_the_banking_day() {
        let cal = Calendar::federal_reserve();
        let policy = HoldPolicy::default();
        let got = policy.schedule(&cal, DepositKind::Cash, 1_000_000, day("2026-11-26"), Some(day("2026-11-20")));
        assert_eq!(got, releases(&[("2026-11-26", 1_000_000)]));
        let slow = HoldPolicy { cash_immediate: false, ..HoldPolicy::default() };
        let got = slow.schedule(&cal, DepositKind::Cash, 1_000_000, day("2026-11-25"), None);
        assert_eq!(got, releases(&[("2026-11-27", 1_000_000)]));
    }

    #[test]
    fn electronic_is_available_the_next_business_day() {
        let cal = Calendar::federal_reserve();
        let got = HoldPolicy::default().schedule(&cal, DepositKind::Electronic, 2_000_000, day("2026-11-25"), None);
        assert_eq!(got, releases(&[("2026-11-27", 2_000_000)]));
    }

    #[test]
    fn equal_day_counts_merge_into_one_release_per_date() {
        let policy = HoldPolicy { standard_days: 1, extended_days: 1, ..HoldPolicy::default() };
        assert_eq!(check(&policy, 1_000_000, "2026-03-09", None), releases(&[("2026-03-10", 1_000_000)]));
    }

    fn any_policy() -> impl Strategy<Value = HoldPolicy> {
        (0..100_000i64, 0..5u32, 0..2_000_000i64, 0..12u32, 0..60i64, any::<bool>()).prop_map(
            |(next_day_amount, standard_days, threshold, extended_days, new_account_days, cash_immediate)| HoldPolicy {
                next_day_amount,
                standard_days,
                large_deposit_threshold_cents: threshold,
                extended_days,
                new_account_days,
                cash_immediate,
            },
        )
    }

    proptest! {
        #[test]
        fn tranches_are_exact_positive_ordered_and_on_business_days(
            policy in prop_oneof![Just(HoldPolicy::default()), any_policy()],
            kind in prop_oneof![Just(DepositKind::Check), Just(DepositKind::Electronic), Just(DepositKind::Cash)],
            amount in 1..5_000_000i64,
            offset in 0..3_000u64,
            opened_before in proptest::option::of(-5..90i64),
        ) {
            let cal = Calendar::federal_reserve();
            let banking_day = day("2024-01-01") + chrono::Days::new(offset);
            let opened = opened_before.map(|days| banking_day - chrono::Duration::days(days));
            let got = policy.schedule(&cal, kind, amount, banking_day, opened);
            prop_assert_eq!(got.iter().map(|r| r.amount_cents).sum::<i64>(), amount);
            prop_assert!(got.iter().all(|r| r.amount_cents > 0));
            prop_assert!(got.windows(2).all(|w| w[0].on < w[1].on));
            prop_assert!(got.iter().all(|r| r.on >= banking_day));
            let instant_cash = kind == DepositKind::Cash && policy.cash_immediate;
            if !instant_cash {
                prop_assert!(got.iter().all(|r| cal.is_business_day(r.on)), "{:?}", got);
            }
        }
    }
}
