//! The baseline: the rows a posting writes — its entries, then its header — in tables shaped
//! like the ledger's (same columns, indexes, foreign keys, and the same triggers that refuse
//! an unbalanced transaction), without the balance upkeep: no balance row read or moved, so no
//! row lock and no running balance (an entry's `balance_after` is its amount). Copies, not the
//! ledger's own tables, so that the books stay provable at the end (`verify`) and the baseline's
//! rows do not slow the ledger's reads.

use moneydesk_server::storage::sql::Arg;
use moneydesk_server::storage::{Database, Dialect, Sql, Tx};

const POSTGRES: &[&str] = &[
    "CREATE TABLE bench_transactions (id BIGSERIAL PRIMARY KEY, kind TEXT NOT NULL, at_ms BIGINT NOT NULL, \
     actor TEXT NOT NULL, memo TEXT, deposit_id BIGINT, reverses BIGINT REFERENCES bench_transactions (id), \
     token_id BIGINT, idempotency_key TEXT, request_hash TEXT)",
    "CREATE INDEX bench_transactions_by_deposit ON bench_transactions (deposit_id) WHERE deposit_id IS NOT NULL",
    "CREATE INDEX bench_transactions_by_time ON bench_transactions (at_ms)",
    "CREATE UNIQUE INDEX bench_transactions_by_key ON bench_transactions (token_id, idempotency_key) WHERE idempotency_key IS NOT NULL",
    "CREATE TABLE bench_entries (id BIGSERIAL PRIMARY KEY, \
     transaction_id BIGINT NOT NULL REFERENCES bench_transactions (id) DEFERRABLE INITIALLY DEFERRED, \
     account_id BIGINT NOT NULL REFERENCES ledger_accounts (id), amount BIGINT NOT NULL CHECK (amount <> 0), \
     balance_after BIGINT NOT NULL, at_ms BIGINT NOT NULL)",
    "CREATE INDEX bench_entries_by_account ON bench_entries (account_id, at_ms, id)",
    "CREATE INDEX bench_entries_by_transaction ON bench_entries (transaction_id)",
    "CREATE FUNCTION bench_balanced() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
     IF (SELECT COUNT(*) FROM bench_entries WHERE transaction_id = NEW.id) < 2 \
        OR (SELECT SUM(amount) FROM bench_entries WHERE transaction_id = NEW.id) <> 0 THEN \
        RAISE EXCEPTION 'bench: unbalanced'; END IF; RETURN NEW; END $$",
    "CREATE TRIGGER bench_balanced BEFORE INSERT ON bench_transactions FOR EACH ROW EXECUTE FUNCTION bench_balanced()",
    "CREATE FUNCTION bench_unsealed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
     IF EXISTS (SELECT 1 FROM bench_transactions WHERE id = NEW.transaction_id) THEN \
        RAISE EXCEPTION 'bench: sealed'; END IF; RETURN NEW; END $$",
    "CREATE TRIGGER bench_unsealed BEFORE INSERT ON bench_entries FOR EACH ROW EXECUTE FUNCTION bench_unsealed()",
];

const SQLITE: &[&str] = &[
    "CREATE TABLE bench_transactions (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, at_ms INTEGER NOT NULL, \
     actor TEXT NOT NULL, memo TEXT, deposit_id INTEGER, reverses INTEGER REFERENCES bench_transactions (id), \
     token_id INTEGER, idempotency_key TEXT, request_hash TEXT)",
    "CREATE INDEX bench_transactions_by_deposit ON bench_transactions (deposit_id) WHERE deposit_id IS NOT NULL",
    "CREATE INDEX bench_transactions_by_time ON bench_transactions (at_ms)",
    "CREATE UNIQUE INDEX bench_transactions_by_key ON bench_transactions (token_id, idempotency_key) WHERE idempotency_key IS NOT NULL",
    "CREATE TABLE bench_entries (id INTEGER PRIMARY KEY, \
     transaction_id INTEGER NOT NULL REFERENCES bench_transactions (id) DEFERRABLE INITIALLY DEFERRED, \
     account_id INTEGER NOT NULL REFERENCES ledger_accounts (id), amount INTEGER NOT NULL CHECK (amount <> 0), \
     balance_after INTEGER NOT NULL, at_ms INTEGER NOT NULL)",
    "CREATE INDEX bench_entries_by_account ON bench_entries (account_id, at_ms, id)",
    "CREATE INDEX bench_entries_by_transaction ON bench_entries (transaction_id)",
    "CREATE TRIGGER bench_balanced BEFORE INSERT ON bench_transactions \
     WHEN (SELECT COUNT(*) FROM bench_entries WHERE transaction_id = NEW.id) < 2 \
       OR (SELECT SUM(amount) FROM bench_entries WHERE transaction_id = NEW.id) <> 0 \
     BEGIN SELECT RAISE(ABORT, 'bench: unbalanced'); END",
    "CREATE TRIGGER bench_unsealed BEFORE INSERT ON bench_entries \
     WHEN EXISTS (SELECT 1 FROM bench_transactions WHERE id = NEW.transaction_id) \
     BEGIN SELECT RAISE(ABORT, 'bench: sealed'); END",
];

/// Creates the baseline's tables in `db`.
pub async fn create(db: &Database) -> anyhow::Result<()> {
    let ddl = match db.dialect() {
        Dialect::Postgres => POSTGRES,
        Dialect::Sqlite => SQLITE,
    };
    for text in ddl {
        db.execute(text).await?;
    }
    Ok(())
}

/// Writes one two-leg transaction as `ledger::store::post` would, less the balance rows: the
/// id drawn as post.rs draws it, the entries in one statement, the header last.
pub async fn insert(db: &Database, legs: [(i64, i64); 2], now_ms: i64) -> sqlx::Result<()> {
    let mut tx: Tx = db.begin().await?;
    let next = match tx.dialect() {
        Dialect::Sqlite => "SELECT COALESCE(MAX(id), 0) + 1 FROM bench_transactions",
        Dialect::Postgres => "SELECT nextval(pg_get_serial_sequence('bench_transactions', 'id'))",
    };
    let next = Sql::new(tx.dialect(), next);
    let id = tx.exec().int(&next).await?;
    let mut q = Sql::new(
        tx.dialect(),
        "INSERT INTO bench_entries (transaction_id, account_id, amount, balance_after, at_ms) VALUES ",
    );
    for (i, (account, amount)) in legs.iter().enumerate() {
        q.push(if i == 0 { "" } else { ", " }).bind_row([
            Arg::from(id),
            Arg::from(*account),
            Arg::from(*amount),
            Arg::from(*amount),
            Arg::from(now_ms),
        ]);
    }
    tx.exec().execute(&q).await?;
    let q = Sql::new(
        tx.dialect(),
        "INSERT INTO bench_transactions (id, kind, at_ms, actor, memo, deposit_id, reverses, token_id, idempotency_key, request_hash) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .arg(id)
    .arg("adjustment")
    .arg(now_ms)
    .arg("bench")
    .arg(Some("bench posting"))
    .arg(None::<i64>)
    .arg(None::<i64>)
    .arg(None::<i64>)
    .arg(None::<&str>)
    .arg(None::<&str>);
    tx.exec().execute(&q).await?;
    tx.commit().await
}

/// Transactions of the baseline whose entries do not sum to zero (none: the trigger refuses them).
pub async fn unbalanced(db: &Database) -> sqlx::Result<i64> {
    let q = db.sql(
        "SELECT COUNT(*) FROM (SELECT transaction_id FROM bench_entries GROUP BY transaction_id \
         HAVING SUM(amount) <> 0 OR COUNT(*) < 2) u",
    );
    db.acquire().await?.exec().int(&q).await
}
