//! Which accounts a page asks for: the sort key and its column and index, the partition and
//! filters of a selection, and the SQL that selects them (shared by the page and the marks).

use moneydesk_model::accounts::{AccountQuery, AccountSortField, AccountStatus, AccountType};
use moneydesk_model::collections::{LocalDateTime, QueryError, SortDir};
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::Decimal;

use moneydesk_model::PageRequest;

use crate::storage::{Dialect, Sql};

/// The orders accounts can be listed in; `Seq` (insertion order) when no sort is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    Seq,
    Create,
    Name,
    Status,
    Type,
    Value,
    Id,
}

impl SortKey {
    pub const ALL: [SortKey; 7] =
        [SortKey::Seq, SortKey::Create, SortKey::Name, SortKey::Status, SortKey::Type, SortKey::Value, SortKey::Id];

    pub(super) fn code(self) -> i64 {
        self as i64
    }

    pub(super) fn column(self) -> &'static str {
        match self {
            SortKey::Seq => "seq",
            SortKey::Create => "create_ms",
            SortKey::Name => "name_key",
            SortKey::Status => "status_code",
            SortKey::Type => "type_code",
            SortKey::Value => "value_key",
            SortKey::Id => "id",
        }
    }

    /// The covering index in (key, seq) order; `Seq` reads the table itself.
    pub(super) fn index(self) -> Option<&'static str> {
        match self {
            SortKey::Seq => None,
            SortKey::Create => Some("accounts_by_create"),
            SortKey::Name => Some("accounts_by_name"),
            SortKey::Status => Some("accounts_by_status"),
            SortKey::Type => Some("accounts_by_type"),
            SortKey::Value => Some("accounts_by_value"),
            SortKey::Id => Some("accounts_by_id"),
        }
    }

    pub(super) fn is_text(self) -> bool {
        matches!(self, SortKey::Name | SortKey::Id)
    }

    pub(super) fn of(field: AccountSortField) -> SortKey {
        match field {
            AccountSortField::CreateTime => SortKey::Create,
            AccountSortField::AccountName => SortKey::Name,
            AccountSortField::AccountStatus => SortKey::Status,
            AccountSortField::AccountType => SortKey::Type,
            AccountSortField::MarketValue => SortKey::Value,
            AccountSortField::Id => SortKey::Id,
        }
    }
}

/// A sort key value, as stored in the key column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Key {
    Int(i64),
    Text(String),
}

/// A validated accounts query in storage terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountSelection {
    pub page: PageRequest,
    pub sort: SortKey,
    pub desc: bool,
    /// Whether the client asked for a sort (the page's `sort.sorted`).
    pub sorted: bool,
    pub status: Option<i64>,
    pub typ: Option<i64>,
    /// Lower-cased "name contains".
    pub name: Option<String>,
    /// createTime in [from, to), milliseconds.
    pub from_ms: Option<i64>,
    pub to_ms: Option<i64>,
}

impl AccountSelection {
    pub fn new(q: &AccountQuery) -> Result<Self, QueryError> {
        let (from, to) = q.filters.create_time_range()?;
        Ok(AccountSelection {
            page: q.page,
            sort: q.sort.map(|s| SortKey::of(s.field)).unwrap_or(SortKey::Seq),
            desc: q.sort.is_some_and(|s| s.dir == SortDir::Desc),
            sorted: q.sort.is_some(),
            status: q.filters.account_status.map(status_code),
            typ: q.filters.account_type.map(type_code),
            name: q.filters.name.as_ref().map(|n| n.to_lowercase()),
            from_ms: from.map(LocalDateTime::millis),
            to_ms: to.map(LocalDateTime::millis),
        })
    }

    /// The marks partition of the status/type filters.
    pub(super) fn part(&self) -> i64 {
        match (self.status, self.typ) {
            (None, None) => 0,
            (Some(s), None) => 100 + s,
            (None, Some(t)) => 200 + t,
            (Some(s), Some(t)) => 1000 + 10 * s + t,
        }
    }

    pub(super) fn has_range(&self) -> bool {
        self.from_ms.is_some() || self.to_ms.is_some()
    }
}

pub fn status_code(s: AccountStatus) -> i64 {
    AccountStatus::ALL.iter().position(|x| *x == s).unwrap_or(0) as i64
}

pub fn type_code(t: AccountType) -> i64 {
    AccountType::ALL.iter().position(|x| *x == t).unwrap_or(0) as i64
}

/// marketValue's sort key: ten-thousandths of a dollar; no value sorts lowest.
pub fn value_key(v: Option<Decimal>) -> i64 {
    v.and_then(|d| (d * Decimal::from(10_000)).trunc().to_i64()).unwrap_or(i64::MIN)
}

/// Pushes ` AND ...` for the status/type filters.
pub(super) fn push_part(qb: &mut Sql, sel: &AccountSelection) {
    if let Some(s) = sel.status {
        qb.push(" AND status_code = ").bind(s);
    }
    if let Some(t) = sel.typ {
        qb.push(" AND type_code = ").bind(t);
    }
}

/// Pushes ` AND ...` for every filter.
pub(super) fn push_filters(qb: &mut Sql, sel: &AccountSelection) {
    push_part(qb, sel);
    if let Some(f) = sel.from_ms {
        qb.push(" AND create_ms >= ").bind(f);
    }
    if let Some(t) = sel.to_ms {
        qb.push(" AND create_ms < ").bind(t);
    }
    if let Some(n) = &sel.name {
        if qb.dialect() == Dialect::Postgres {
            // The pg_trgm index (postgres migration 0003) answers LIKE '%term%' for any
            // term; `\` escapes LIKE's own wildcards in the term.
            qb.push(" AND name_key LIKE ").bind(like_contains(n)).push(" ESCAPE '\\'");
        } else if trigram_searchable(n) {
            // The trigram index (migration 0003): the phrase of the term's trigrams is
            // exactly "contains".
            qb.push(" AND seq IN (SELECT rowid FROM accounts_name_trigram WHERE accounts_name_trigram MATCH ")
                .bind(trigram_phrase(n))
                .push(")");
        } else {
            qb.push(" AND instr(name_key, ").bind(n.as_str()).push(") > 0");
        }
    }
}

/// Whether the trigram index can answer "name contains `term`" (one trigram at least).
pub fn trigram_searchable(term: &str) -> bool {
    term.chars().count() >= 3
}

/// `term` as a LIKE pattern matching any text that contains it.
fn like_contains(term: &str) -> String {
    let escaped = term.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    format!("%{escaped}%")
}

/// `term` as an FTS5 phrase: quoted, where only `"` is special (doubled).
pub(super) fn trigram_phrase(term: &str) -> String {
    format!("\"{}\"", term.replace('"', "\"\""))
}
