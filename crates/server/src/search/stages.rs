//! A group's records asked in stages, best first: exact (indexed equalities), then prefix
//! (index ranges), then contains (trigram indexes, or a scan for a short text). Each stage
//! asks for no more rows than are still missing plus one (to tell whether there are more),
//! and a stage that would add nothing is not run: a number with five exact hits never asks
//! for check numbers containing it.
//!
//! Each condition of a stage is its own statement, the stage's rows then merged newest first:
//! OR-ed into one, the planner read the whole table in `ORDER BY` order to stop at the limit
//! rather than use an index per condition (EXPLAIN QUERY PLAN: `SCAN deposits`, even with
//! every column indexed; migration 0024 has the figures).

use moneydesk_model::search::MatchKind;

use crate::storage::sql::{Arg, Dialect, Record};
use crate::storage::Database;

/// One condition: SQL text with a `?` for each of its values, in order.
#[derive(Debug, Clone)]
pub struct Cond(pub String, pub Vec<Arg>);

pub fn cond(text: impl Into<String>, arg: impl Into<Arg>) -> Cond {
    Cond(text.into(), vec![arg.into()])
}

/// `col LIKE 'text%'` or `'%text%'`, the text's own wildcards matched literally.
pub fn like(col: &str, text: &str, kind: MatchKind) -> Cond {
    let t = text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    let pattern = match kind {
        MatchKind::Exact => t,
        MatchKind::Prefix => format!("{t}%"),
        MatchKind::Contains => format!("%{t}%"),
    };
    cond(format!("{col} LIKE ? ESCAPE '\\'"), pattern)
}

/// `col` byte-wise as its index orders it: PostgreSQL's indexes of migration 0024 are
/// COLLATE "C" (a locale's order is not a prefix's range); SQLite's BINARY is byte-wise.
fn bytewise(d: Dialect, col: &str) -> String {
    match d {
        Dialect::Sqlite => col.to_string(),
        Dialect::Postgres => format!("{col} COLLATE \"C\""),
    }
}

/// `col = text`, answered by a byte-wise index.
pub fn equal(d: Dialect, col: &str, text: &str) -> Cond {
    cond(format!("{} = ?", bytewise(d, col)), text)
}

/// `col` starts with `text` (case as given), as an index range: `>= text AND < text'`, where
/// `text'` is the first text after every one that starts with `text`.
pub fn starts(d: Dialect, col: &str, text: &str) -> Cond {
    let col = bytewise(d, col);
    match after_prefix(text) {
        Some(end) => Cond(format!("{col} >= ? AND {col} < ?"), vec![text.into(), end.into()]),
        None => cond(format!("{col} >= ?"), text),
    }
}

/// The least text greater than every text starting with `prefix` (its last character that
/// has a successor, incremented); `None` when none has one.
pub fn after_prefix(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(c) = chars.pop() {
        let next = match c as u32 {
            0xD7FF => Some('\u{E000}'),
            n => char::from_u32(n + 1),
        };
        if let Some(n) = next {
            chars.push(n);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

/// The query of one group: `select` ends where the conditions start (`... WHERE `), `scope`
/// limits every stage (a user's own rows), `order` follows them (` ORDER BY id DESC`).
pub struct Staged<'a> {
    pub select: &'a str,
    pub scope: Option<Cond>,
    pub order: &'a str,
}

impl Staged<'_> {
    /// The rows of the stages in turn (within a stage, the rows any of its conditions
    /// matched), without repeats, at most `limit`, and whether more matched. `key` is what
    /// `order` sorts by (descending) and tells one record from another.
    pub async fn run<R: Record, K: Ord>(
        &self,
        db: &Database,
        stages: [Vec<Cond>; 3],
        limit: u32,
        key: impl Fn(&R) -> K,
    ) -> sqlx::Result<(Vec<R>, bool)> {
        let limit = limit as usize;
        let mut found: Vec<R> = Vec::new();
        // One snapshot for every stage. PostgreSQL plans each statement for its values: a
        // cached generic plan guesses how many rows `LIKE $1` matches and may prefer reading
        // the primary key in order to using the trigram index.
        let mut tx = db.begin_snapshot().await?;
        if db.dialect() == Dialect::Postgres {
            tx.exec().execute(&db.sql("SET LOCAL plan_cache_mode = force_custom_plan")).await?;
        }
        for stage in stages.into_iter().filter(|s| !s.is_empty()) {
            if found.len() > limit {
                break;
            }
            let want = limit + 1 + found.len();
            let mut rows: Vec<R> = Vec::new();
            for c in stage {
                let mut q = db.sql(self.select);
                if let Some(scope) = &self.scope {
                    push_cond(&mut q, scope.clone());
                    q.push(" AND ");
                }
                q.push("(");
                push_cond(&mut q, c);
                q.push(")").push(self.order).push(" LIMIT ").bind(want as i64);
                rows.extend(tx.exec().rows::<R>(&q).await?);
            }
            // Newest first, as one OR-ed statement would have answered them.
            rows.sort_by_key(|r| std::cmp::Reverse(key(r)));
            rows.dedup_by(|a, b| key(a) == key(b));
            rows.truncate(want);
            for row in rows {
                let k = key(&row);
                if !found.iter().any(|f| key(f) == k) {
                    found.push(row);
                }
            }
        }
        tx.commit().await?;
        let more = found.len() > limit;
        found.truncate(limit);
        Ok((found, more))
    }
}

fn push_cond(q: &mut crate::storage::Sql, Cond(text, args): Cond) {
    let mut parts = text.split('?');
    q.push(parts.next().unwrap_or_default());
    for (part, arg) in parts.zip(args) {
        q.bind(arg).push(part);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_range_ends_after_every_text_that_starts_with_it() {
        assert_eq!(after_prefix("4285").as_deref(), Some("4286"));
        assert_eq!(after_prefix("acme").as_deref(), Some("acmf"));
        assert_eq!(after_prefix("a\u{D7FF}").as_deref(), Some("a\u{E000}"));
        assert_eq!(after_prefix("a\u{10FFFF}").as_deref(), Some("b"));
        assert_eq!(after_prefix("\u{10FFFF}"), None);
        assert!("acme holdings" >= "acme" && "acme holdings" < "acmf");
    }
}
