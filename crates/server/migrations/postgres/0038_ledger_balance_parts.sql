-- A bank ledger account's balance in parts (ledger/store/parts.rs); see the SQLite migration of
-- the same number.
CREATE TABLE ledger_balance_parts (
    account_id  BIGINT NOT NULL REFERENCES ledger_accounts (id),
    part        BIGINT NOT NULL CHECK (part >= 0),
    balance     BIGINT NOT NULL DEFAULT 0,
    entry_count BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, part)
);

ALTER TABLE ledger_entries ADD COLUMN part BIGINT;
CREATE INDEX ledger_entries_by_part ON ledger_entries (account_id, part, at_ms, id);

CREATE VIEW ledger_account_balances AS
    SELECT a.id, a.code, a.owner, a.kind, a.normal,
           a.balance + COALESCE((SELECT CAST(SUM(p.balance) AS BIGINT) FROM ledger_balance_parts p WHERE p.account_id = a.id), 0) AS balance,
           a.entry_count + COALESCE((SELECT CAST(SUM(p.entry_count) AS BIGINT) FROM ledger_balance_parts p WHERE p.account_id = a.id), 0) AS entry_count
    FROM ledger_accounts a;
