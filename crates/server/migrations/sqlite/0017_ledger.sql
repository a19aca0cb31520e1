-- The ledger (ledger group): double-entry and append-only. Amounts are signed integers in
-- ten-thousandths of the currency unit (a credit is positive, a debit negative), exact and
-- wide enough for imported market values with four decimals.
--
-- The database itself keeps the books balanced: a transaction's entries are written first and
-- its header last; the header's insert is refused unless its entries sum to zero (two or more),
-- an entry is refused once its header exists, and an entry whose header never comes fails the
-- deferred foreign key at COMMIT. Nothing in the ledger is ever updated or deleted, but a
-- balance row (`ledger_accounts.balance`), kept in the same transaction as the entries and
-- rebuildable from them (`moneydesk-server ledger verify`).
CREATE TABLE ledger_accounts (
    id          INTEGER PRIMARY KEY,
    -- `sma:{accountId}:pending|posted|held` or `bank:{kind}` (the chart: ledger/chart.rs).
    code        TEXT    NOT NULL UNIQUE,
    owner       TEXT,
    kind        TEXT    NOT NULL,
    normal      TEXT    NOT NULL CHECK (normal IN ('debit', 'credit')),
    currency    TEXT    NOT NULL DEFAULT 'USD',
    -- The sum of the account's entries (credits positive) and how many there are.
    balance     INTEGER NOT NULL DEFAULT 0,
    entry_count INTEGER NOT NULL DEFAULT 0,
    -- A sleeve's posted account: the entry count the accounts list's sort key (`value_key`)
    -- was last brought up to (accounts/store/values.rs), so the sync reads only what moved.
    synced_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ledger_accounts_unsynced ON ledger_accounts (id) WHERE kind = 'posted' AND entry_count <> synced_count;

CREATE TABLE ledger_transactions (
    id              INTEGER PRIMARY KEY,
    kind            TEXT    NOT NULL,
    at_ms           INTEGER NOT NULL,
    actor           TEXT    NOT NULL,
    memo            TEXT,
    deposit_id      INTEGER,
    -- A correction names what it reverses.
    reverses        INTEGER REFERENCES ledger_transactions (id),
    -- A manual adjustment's Idempotency-Key, with its token and the request's SHA-256.
    token_id        INTEGER,
    idempotency_key TEXT,
    request_hash    TEXT
);
CREATE INDEX ledger_transactions_by_deposit ON ledger_transactions (deposit_id) WHERE deposit_id IS NOT NULL;
CREATE INDEX ledger_transactions_by_time ON ledger_transactions (at_ms);
CREATE UNIQUE INDEX ledger_transactions_by_key ON ledger_transactions (token_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;

CREATE TABLE ledger_entries (
    id             INTEGER PRIMARY KEY,
    transaction_id INTEGER NOT NULL REFERENCES ledger_transactions (id) DEFERRABLE INITIALLY DEFERRED,
    account_id     INTEGER NOT NULL REFERENCES ledger_accounts (id),
    amount         INTEGER NOT NULL CHECK (amount <> 0),
    -- The account's balance after this entry: the running balance, and balances as of any
    -- moment without summing.
    balance_after  INTEGER NOT NULL,
    at_ms          INTEGER NOT NULL
);
CREATE INDEX ledger_entries_by_account ON ledger_entries (account_id, at_ms, id);
CREATE INDEX ledger_entries_by_transaction ON ledger_entries (transaction_id);

CREATE TRIGGER ledger_transaction_balanced BEFORE INSERT ON ledger_transactions
WHEN (SELECT COUNT(*) FROM ledger_entries WHERE transaction_id = NEW.id) < 2
  OR (SELECT SUM(amount) FROM ledger_entries WHERE transaction_id = NEW.id) <> 0
BEGIN
    SELECT RAISE(ABORT, 'ledger: a transaction needs two or more entries summing to zero');
END;

CREATE TRIGGER ledger_entry_unsealed BEFORE INSERT ON ledger_entries
WHEN EXISTS (SELECT 1 FROM ledger_transactions WHERE id = NEW.transaction_id)
BEGIN
    SELECT RAISE(ABORT, 'ledger: entries of a written transaction are never added to');
END;

CREATE TRIGGER ledger_entry_no_update BEFORE UPDATE ON ledger_entries
BEGIN
    SELECT RAISE(ABORT, 'ledger: entries are never updated');
END;
CREATE TRIGGER ledger_entry_no_delete BEFORE DELETE ON ledger_entries
BEGIN
    SELECT RAISE(ABORT, 'ledger: entries are never deleted');
END;
CREATE TRIGGER ledger_transaction_no_update BEFORE UPDATE ON ledger_transactions
BEGIN
    SELECT RAISE(ABORT, 'ledger: transactions are never updated');
END;
CREATE TRIGGER ledger_transaction_no_delete BEFORE DELETE ON ledger_transactions
BEGIN
    SELECT RAISE(ABORT, 'ledger: transactions are never deleted');
END;

-- Funds availability: each tranche of a deposit's hold with its release day. A schedule, not
-- the books: its release (or cancellation, when the deposit is returned, rejected or
-- cancelled first) is a ledger transaction, named here.
CREATE TABLE ledger_holds (
    id           INTEGER PRIMARY KEY,
    deposit_id   INTEGER NOT NULL,
    account_id   TEXT    NOT NULL,
    amount       INTEGER NOT NULL CHECK (amount > 0),
    release_on   TEXT    NOT NULL,
    released_tx  INTEGER REFERENCES ledger_transactions (id) DEFERRABLE INITIALLY DEFERRED,
    cancelled_tx INTEGER REFERENCES ledger_transactions (id) DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX ledger_holds_due ON ledger_holds (release_on) WHERE released_tx IS NULL AND cancelled_tx IS NULL;
CREATE INDEX ledger_holds_by_account ON ledger_holds (account_id, release_on);
CREATE INDEX ledger_holds_by_deposit ON ledger_holds (deposit_id);

-- When each deposit was sent (for the settlement job: a sent item settles once its settlement
-- day passes without a return).
ALTER TABLE deposits ADD COLUMN sent_on TEXT;

-- Accounts already here open their posted ledger account at their market value, against the
-- bank's opening balances, in transaction 1 (as an import does for new ones:
-- ledger/store/opening.rs), so that marketValue is the posted balance from the start.
INSERT INTO ledger_accounts (code, owner, kind, normal, balance, entry_count, synced_count)
    SELECT 'sma:' || id || ':posted', id, 'posted', 'credit', value_key, 1, 1 FROM accounts
    WHERE market_value IS NOT NULL AND value_key <> 0 AND value_key <> -9223372036854775808;
INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, at_ms)
    SELECT 1, id, balance, balance, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) FROM ledger_accounts WHERE kind = 'posted';
INSERT INTO ledger_accounts (code, owner, kind, normal, balance, entry_count)
    SELECT 'bank:opening_balances', NULL, 'opening_balances', 'credit', -SUM(amount), 1 FROM ledger_entries
    HAVING COUNT(*) > 0;
INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, at_ms)
    SELECT 1, id, balance, balance, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) FROM ledger_accounts WHERE code = 'bank:opening_balances';
INSERT INTO ledger_transactions (id, kind, at_ms, actor, memo)
    SELECT 1, 'opening', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), 'migration', 'opening balances: the accounts'' market values'
    WHERE EXISTS (SELECT 1 FROM ledger_entries WHERE transaction_id = 1);
