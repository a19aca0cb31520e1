-- A bank ledger account's balance in parts (ledger/store/parts.rs). Every posting moves
-- `bank:cash_vault` or a clearing account, so with one balance row per account every posting
-- took turns on that row from its UPDATE to its COMMIT: 539 postings/s in-process on
-- PostgreSQL, 23 % of the same rows written without balance upkeep (bench/results/ledger.md).
-- A posting now moves one of a bank account's parts, picked at random, so postings from many
-- connections rarely wait on one another; a sleeve account keeps its one row (the
-- available-balance guard reads it whole under its lock).
--
-- Each part is a balance row like the account's: its balance and entry count, the sum and
-- count of the entries written to it, and each of those entries carries the part's running
-- balance in `balance_after`. An entry whose `part` is NULL belongs to the account's own row
-- (every sleeve entry, and a bank account's entries from before this migration or written
-- to the row since: the opening balances). So, for every account:
--   balance now             = its row's balance + the sum of its parts' balances
--   balance as of a moment  = for its row and each part, the running balance of the last
--                             entry at or before the moment, summed
-- and `moneydesk-server ledger verify` checks the row and each part against their entries.
-- Parts are made on first use and never deleted.
CREATE TABLE ledger_balance_parts (
    account_id  INTEGER NOT NULL REFERENCES ledger_accounts (id),
    part        INTEGER NOT NULL CHECK (part >= 0),
    balance     INTEGER NOT NULL DEFAULT 0,
    entry_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, part)
);

ALTER TABLE ledger_entries ADD COLUMN part INTEGER;
-- The last entry of a row or a part at or before a moment: one descent each.
CREATE INDEX ledger_entries_by_part ON ledger_entries (account_id, part, at_ms, id);

-- Every ledger account with its balance and entry count whole (row plus parts).
CREATE VIEW ledger_account_balances AS
    SELECT a.id, a.code, a.owner, a.kind, a.normal,
           a.balance + COALESCE((SELECT SUM(p.balance) FROM ledger_balance_parts p WHERE p.account_id = a.id), 0) AS balance,
           a.entry_count + COALESCE((SELECT SUM(p.entry_count) FROM ledger_balance_parts p WHERE p.account_id = a.id), 0) AS entry_count
    FROM ledger_accounts a;
