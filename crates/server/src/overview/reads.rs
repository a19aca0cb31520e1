//! The overview's figures, each read as the list it links to counts it (the same table, the
//! same filter), so that a figure and its list agree. One snapshot per member.

use chrono::{DateTime, NaiveDate, SecondsFormat, TimeZone, Utc};
use moneydesk_model::deposits::{DepositStatus, ServiceType};
use moneydesk_model::email::MessageState;
use moneydesk_model::overview::{
    BalanceMove, DepositsToday, Figure, LedgerToday, ListQuery, MessageStateFigure, Outbox, RailFigure, StatusFigure,
    Waiting, Webhooks, LEDGER_MOVES,
};
use moneydesk_model::{paths, Money};
use rust_decimal::Decimal;

use crate::storage::Database;

/// A business day as `[start, end)` instants.
#[derive(Debug, Clone, Copy)]
pub struct Day {
    pub date: NaiveDate,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

impl Day {
    pub fn of(date: NaiveDate, tz: chrono_tz::Tz) -> Day {
        let at = |d: NaiveDate| {
            let midnight = d.and_hms_opt(0, 0, 0).unwrap_or_default();
            tz.from_local_datetime(&midnight).earliest().map_or(DateTime::<Utc>::MIN_UTC, |t| t.with_timezone(&Utc))
        };
        Day { date, start: at(date), end: at(date + chrono::Duration::days(1)) }
    }

    fn text(&self) -> String {
        self.date.to_string()
    }
}

fn cents(c: i64) -> Money {
    Money::new(Decimal::new(c, 2))
}

fn figure(count: i64, amount: Option<Money>, list: ListQuery) -> Figure {
    Figure { count: count.max(0) as u64, amount, list }
}

#[derive(Debug, sqlx::FromRow)]
struct Group {
    service_type: String,
    status: String,
    n: i64,
    cents: i64,
}

/// Deposits created today (the list's `createdFrom`/`createdTo` of today) by rail and state.
pub async fn deposits_today(db: &Database, day: Day) -> sqlx::Result<DepositsToday> {
    // Stored as the deposits list filters them: RFC 3339 UTC, whole seconds.
    let secs = |t: DateTime<Utc>| t.to_rfc3339_opts(SecondsFormat::Secs, true);
    let q = db
        .sql(
            "SELECT service_type, status, count(*) AS n, CAST(COALESCE(sum(amount_cents), 0) AS BIGINT) AS cents \
             FROM deposits WHERE created_at >= ? AND created_at < ? GROUP BY service_type, status",
        )
        .arg(secs(day.start))
        .arg(secs(day.end));
    let rows: Vec<Group> = db.acquire().await?.exec().rows(&q).await?;
    let d = day.text();
    let list = |extra: &[(&str, &str)]| {
        let mut pairs = extra.to_vec();
        pairs.extend([("createdFrom", d.as_str()), ("createdTo", d.as_str())]);
        ListQuery::new(paths::DEPOSITS, &pairs)
    };
    let sum = |keep: &dyn Fn(&Group) -> bool| {
        rows.iter().filter(|r| keep(r)).fold((0, 0), |(n, c), r| (n + r.n, c + r.cents))
    };
    let by_status = |rail: Option<ServiceType>| -> Vec<StatusFigure> {
        DepositStatus::ALL
            .iter()
            .filter_map(|s| {
                let (n, c) = sum(&|r| r.status == s.as_str() && rail.is_none_or(|t| r.service_type == t.as_str()));
                let mut pairs = vec![("status", s.as_str())];
                pairs.extend(rail.map(|t| ("serviceType", t.as_str())));
                (n > 0).then(|| StatusFigure { status: *s, figure: figure(n, Some(cents(c)), list(&pairs)) })
            })
            .collect()
    };
    let by_rail = ServiceType::ALL
        .iter()
        .filter_map(|t| {
            let (n, c) = sum(&|r| r.service_type == t.as_str());
            (n > 0).then(|| RailFigure {
                service_type: *t,
                figure: figure(n, Some(cents(c)), list(&[("serviceType", t.as_str())])),
                by_status: by_status(Some(*t)),
            })
        })
        .collect();
    let (n, c) = sum(&|_| true);
    Ok(DepositsToday { total: figure(n, Some(cents(c)), list(&[])), by_status: by_status(None), by_rail })
}

/// Deposits to confirm and returned, and returned items no deposit matched.
pub async fn waiting(db: &Database) -> sqlx::Result<Waiting> {
    let mut conn = db.acquire().await?;
    let deposits = |status: DepositStatus| {
        let q = db
            .sql("SELECT count(*) AS n, CAST(COALESCE(sum(amount_cents), 0) AS BIGINT) AS cents FROM deposits WHERE status = ?")
            .arg(status.as_str());
        (q, ListQuery::new(paths::DEPOSITS, &[("status", status.as_str())]))
    };
    let (confirm_q, confirm_list) = deposits(DepositStatus::InProgress);
    let (returned_q, returned_list) = deposits(DepositStatus::Returned);
    let confirm: Option<Sum> = conn.exec().row(&confirm_q).await?;
    let returned: Option<Sum> = conn.exec().row(&returned_q).await?;
    let q = db
        .sql("SELECT count(*) AS n, CAST(COALESCE(sum(amount_cents), 0) AS BIGINT) AS cents FROM deposit_return_items WHERE state = ?")
        .arg("unmatched");
    let unmatched: Option<Sum> = conn.exec().row(&q).await?;
    let f = |s: Option<Sum>, list| {
        let s = s.unwrap_or_default();
        figure(s.n, Some(cents(s.cents)), list)
    };
    Ok(Waiting {
        to_confirm: f(confirm, confirm_list),
        returned: f(returned, returned_list),
        unmatched: f(unmatched, ListQuery::new(paths::DEPOSIT_RETURNS, &[("state", "unmatched")])),
    })
}

#[derive(Debug, Default, sqlx::FromRow)]
struct Sum {
    n: i64,
    cents: i64,
}

/// Messages not finished by state, and failed messages tried today.
pub async fn outbox(db: &Database, day: Day) -> sqlx::Result<Outbox> {
    #[derive(sqlx::FromRow)]
    struct ByState {
        state: String,
        n: i64,
    }
    let mut conn = db.acquire().await?;
    let q = db.sql(
        "SELECT state, count(*) AS n FROM email_messages \
         WHERE state IN ('queued', 'scheduled', 'sending', 'deferred') GROUP BY state",
    );
    let rows: Vec<ByState> = conn.exec().rows(&q).await?;
    let list = |state: Option<MessageState>| {
        ListQuery::new(paths::EMAIL_MESSAGES, &state.map(|s| ("state", s.as_str())).into_iter().collect::<Vec<_>>())
    };
    let by_state: Vec<MessageStateFigure> = MessageState::ALL
        .iter()
        .filter_map(|s| {
            let n = rows.iter().find(|r| r.state == s.as_str())?.n;
            Some(MessageStateFigure { state: *s, figure: figure(n, None, list(Some(*s))) })
        })
        .collect();
    let depth = by_state.iter().map(|s| s.figure.count as i64).sum();
    // The queue's times carry milliseconds (`…T05:00:00.000Z`).
    let millis = |t: DateTime<Utc>| t.to_rfc3339_opts(SecondsFormat::Millis, true);
    let q = db
        .sql(
            "SELECT count(*) FROM email_messages m WHERE m.state = 'failed' AND EXISTS \
             (SELECT 1 FROM email_attempts a WHERE a.message_id = m.id AND a.started_at >= ? AND a.started_at < ?)",
        )
        .arg(millis(day.start))
        .arg(millis(day.end));
    let bounces = conn.exec().int(&q).await?;
    Ok(Outbox {
        depth: figure(depth, None, list(None)),
        by_state,
        bounces_today: figure(bounces, None, list(Some(MessageState::Failed))),
    })
}

/// Endpoints, and those failing (enabled and failing since their last success, or disabled by
/// the server for failing).
pub async fn webhooks(db: &Database) -> sqlx::Result<Webhooks> {
    let mut conn = db.acquire().await?;
    let all = conn.exec().int(&db.sql("SELECT count(*) FROM webhook_endpoints")).await?;
    let q = db.sql(
        "SELECT count(*) FROM webhook_endpoints WHERE (enabled = 1 AND failing_since IS NOT NULL) \
         OR (enabled = 0 AND disabled_reason IS NOT NULL)",
    );
    let failing = conn.exec().int(&q).await?;
    Ok(Webhooks {
        endpoints: all.max(0) as u64,
        failing: figure(failing, None, ListQuery::new(paths::WEBHOOK_ENDPOINTS, &[])),
    })
}

/// Ledger accounts with entries today: the net, the balance now and today's entries.
pub async fn ledger(db: &Database, day: Day) -> sqlx::Result<LedgerToday> {
    #[derive(sqlx::FromRow)]
    struct Moved {
        code: String,
        balance: i64,
        moved: i64,
        n: i64,
    }
    let q = db
        .sql(
            "SELECT a.code AS code, a.balance AS balance, m.moved AS moved, m.n AS n \
             FROM (SELECT account_id, CAST(sum(amount) AS BIGINT) AS moved, count(*) AS n FROM ledger_entries \
             WHERE at_ms >= ? AND at_ms < ? GROUP BY account_id) m JOIN ledger_account_balances a ON a.id = m.account_id",
        )
        .arg(day.start.timestamp_millis())
        .arg(day.end.timestamp_millis());
    let mut rows: Vec<Moved> = db.acquire().await?.exec().rows(&q).await?;
    rows.sort_by(|a, b| b.moved.abs().cmp(&a.moved.abs()).then_with(|| a.code.cmp(&b.code)));
    // Amounts are kept in ten-thousandths.
    let money = |v: i64| Money::new(Decimal::new(v, 4)).with_cents();
    let d = day.text();
    let moves = rows
        .iter()
        .take(LEDGER_MOVES)
        .map(|r| BalanceMove {
            code: r.code.clone(),
            moved: money(r.moved),
            balance: money(r.balance),
            entries: figure(r.n, None, entries_list(&r.code, &d)),
        })
        .collect();
    Ok(LedgerToday { accounts_moved: rows.len() as u64, moves })
}

/// A ledger account's entries of a day: a bank account by its code, a sleeve's ledger account
/// (`sma:{id}:{pending|posted|held}`) by the sleeve's id and `ledgerAccount`.
fn entries_list(code: &str, day: &str) -> ListQuery {
    let mut pairs = vec![("from", day), ("to", day)];
    let account = match code.strip_prefix("sma:").and_then(|r| r.rsplit_once(':')) {
        Some((id, which)) => {
            pairs.push(("ledgerAccount", which));
            id
        }
        None => code,
    };
    ListQuery::new(&paths::fill(paths::LEDGER_ENTRIES, "accountId", account), &pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sleeve_account_links_to_its_sleeve_and_ledger_account_a_bank_account_to_its_code() {
        let l = entries_list("sma:acc-1:posted", "2026-11-29");
        assert!(l.path.ends_with("/ledger/accounts/acc-1/entries"), "{}", l.path);
        assert_eq!(l.query, "from=2026-11-29&to=2026-11-29&ledgerAccount=posted");
        let l = entries_list("bank:clearing_x9", "2026-11-29");
        assert!(l.path.ends_with("/ledger/accounts/bank%3Aclearing_x9/entries"), "{}", l.path);
    }

    #[test]
    fn a_business_day_runs_from_its_local_midnight_to_the_next() {
        let d = Day::of(NaiveDate::from_ymd_opt(2026, 11, 29).unwrap(), chrono_tz::America::New_York);
        assert_eq!(d.start.to_rfc3339(), "2026-11-29T05:00:00+00:00");
        assert_eq!(d.end.to_rfc3339(), "2026-11-30T05:00:00+00:00");
    }
}
