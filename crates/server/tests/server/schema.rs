//! The SQLite schema as the migrations leave it: what its planner needs of it.

use sqlx::{Row, SqlitePool};

use crate::common::Backend;

/// SQLite checks a deferred foreign key from both sides: each time a parent row is inserted
/// while a deferred violation is outstanding (a posting's entries are written before their
/// transaction), it looks for the child rows the new row satisfies. Without an index on the
/// child's column that look is a scan of the child table in every such insert: before
/// migration 0039 every posting read every ledger hold twice, and a deposit's confirmation
/// slowed from 0.7 ms to 3.9 ms over 20,000 deposits.
#[tokio::test]
async fn every_deferred_foreign_key_is_indexed_on_its_column() {
    let dir = tempfile::tempdir().unwrap();
    let url = Backend::Sqlite.database_url(dir.path()).await;
    let stores = moneydesk_server::state::Stores::open(&url).await.expect("stores open");
    drop(stores);
    let pool = SqlitePool::connect(&url).await.unwrap();
    let tables = sqlx::query("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL")
        .fetch_all(&pool)
        .await
        .unwrap();
    let mut deferred = Vec::new();
    for t in &tables {
        let (table, sql): (String, String) = (t.get(0), t.get(1));
        // One column definition a line, as every migration writes them.
        for line in sql.lines().filter(|l| l.contains("REFERENCES") && l.contains("DEFERRABLE")) {
            let column = line.split_whitespace().next().unwrap().to_string();
            deferred.push((table.clone(), column));
        }
    }
    assert!(
        deferred.contains(&("ledger_entries".into(), "transaction_id".into())),
        "the schema's deferred keys were not found: {deferred:?}"
    );
    let mut unindexed = Vec::new();
    for (table, column) in &deferred {
        let indexes =
            sqlx::query(&format!("SELECT name FROM pragma_index_list('{table}')")).fetch_all(&pool).await.unwrap();
        let mut found = false;
        for index in indexes {
            let name: String = index.get(0);
            let first: Option<String> =
                sqlx::query_scalar(&format!("SELECT name FROM pragma_index_info('{name}') WHERE seqno = 0"))
                    .fetch_optional(&pool)
                    .await
                    .unwrap();
            found |= first.as_deref() == Some(column.as_str());
        }
        if !found {
            unindexed.push(format!("{table}.{column}"));
        }
    }
    assert!(unindexed.is_empty(), "deferred foreign keys without an index on their column: {unindexed:?}");
}
