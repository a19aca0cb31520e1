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
    id          BIGSERIAL PRIMARY KEY,
    -- `sma:{accountId}:pending|posted|held` or `bank:{kind}` (the chart: ledger/chart.rs).
    code        TEXT COLLATE "C" NOT NULL UNIQUE,
    owner       TEXT COLLATE "C",
    kind        TEXT   NOT NULL,
    normal      TEXT   NOT NULL CHECK (normal IN ('debit', 'credit')),
    currency    TEXT   NOT NULL DEFAULT 'USD',
    -- The sum of the account's entries (credits positive) and how many there are.
    balance     BIGINT NOT NULL DEFAULT 0,
    entry_count BIGINT NOT NULL DEFAULT 0,
    -- A sleeve's posted account: the entry count the accounts list's sort key (`value_key`)
    -- was last brought up to (accounts/store/values.rs), so the sync reads only what moved.
    synced_count BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX ledger_accounts_unsynced ON ledger_accounts (id) WHERE kind = 'posted' AND entry_count <> synced_count;

CREATE TABLE ledger_transactions (
    id              BIGSERIAL PRIMARY KEY,
    kind            TEXT   NOT NULL,
    at_ms           BIGINT NOT NULL,
    actor           TEXT   NOT NULL,
    memo            TEXT,
    deposit_id      BIGINT,
    -- A correction names what it reverses.
    reverses        BIGINT REFERENCES ledger_transactions (id),
    -- A manual adjustment's Idempotency-Key, with its token and the request's SHA-256.
    token_id        BIGINT,
    idempotency_key TEXT,
    request_hash    TEXT
);
CREATE INDEX ledger_transactions_by_deposit ON ledger_transactions (deposit_id) WHERE deposit_id IS NOT NULL;
CREATE INDEX ledger_transactions_by_time ON ledger_transactions (at_ms);
CREATE UNIQUE INDEX ledger_transactions_by_key ON ledger_transactions (token_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;

CREATE TABLE ledger_entries (
    id             BIGSERIAL PRIMARY KEY,
    transaction_id BIGINT NOT NULL REFERENCES ledger_transactions (id) DEFERRABLE INITIALLY DEFERRED,
    account_id     BIGINT NOT NULL REFERENCES ledger_accounts (id),
    amount         BIGINT NOT NULL CHECK (amount <> 0),
    -- The account's balance after this entry: the running balance, and balances as of any
    -- moment without summing.
    balance_after  BIGINT NOT NULL,
    at_ms          BIGINT NOT NULL
);
CREATE INDEX ledger_entries_by_account ON ledger_entries (account_id, at_ms, id);
CREATE INDEX ledger_entries_by_transaction ON ledger_entries (transaction_id);

CREATE FUNCTION ledger_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT COUNT(*) FROM ledger_entries WHERE transaction_id = NEW.id) < 2
       OR (SELECT SUM(amount) FROM ledger_entries WHERE transaction_id = NEW.id) <> 0 THEN
        RAISE EXCEPTION 'ledger: a transaction needs two or more entries summing to zero';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER ledger_transaction_balanced BEFORE INSERT ON ledger_transactions
    FOR EACH ROW EXECUTE FUNCTION ledger_transaction_balanced();

CREATE FUNCTION ledger_entry_unsealed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM ledger_transactions WHERE id = NEW.transaction_id) THEN
        RAISE EXCEPTION 'ledger: entries of a written transaction are never added to';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER ledger_entry_unsealed BEFORE INSERT ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_entry_unsealed();

CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger: % of % refused: the ledger is never updated or deleted', TG_OP, TG_TABLE_NAME;
END $$;
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

-- Funds availability: each tranche of a deposit's hold with its release day. A schedule, not
-- the books: its release (or cancellation, when the deposit is returned, rejected or
-- cancelled first) is a ledger transaction, named here.
CREATE TABLE ledger_holds (
    id           BIGSERIAL PRIMARY KEY,
    deposit_id   BIGINT NOT NULL,
    account_id   TEXT COLLATE "C" NOT NULL,
    amount       BIGINT NOT NULL CHECK (amount > 0),
    release_on   TEXT   NOT NULL,
    released_tx  BIGINT REFERENCES ledger_transactions (id) DEFERRABLE INITIALLY DEFERRED,
    cancelled_tx BIGINT REFERENCES ledger_transactions (id) DEFERRABLE INITIALLY DEFERRED
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
    SELECT 1, id, balance, balance, (extract(epoch FROM now()) * 1000)::bigint FROM ledger_accounts WHERE kind = 'posted';
INSERT INTO ledger_accounts (code, owner, kind, normal, balance, entry_count)
    SELECT 'bank:opening_balances', NULL, 'opening_balances', 'credit', -SUM(amount), 1 FROM ledger_entries
    HAVING COUNT(*) > 0;
INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, at_ms)
    SELECT 1, id, balance, balance, (extract(epoch FROM now()) * 1000)::bigint FROM ledger_accounts WHERE code = 'bank:opening_balances';
INSERT INTO ledger_transactions (id, kind, at_ms, actor, memo)
    SELECT 1, 'opening', (extract(epoch FROM now()) * 1000)::bigint, 'migration', 'opening balances: the accounts'' market values'
    WHERE EXISTS (SELECT 1 FROM ledger_entries WHERE transaction_id = 1);
-- Transaction 1 was named, not drawn: the sequence goes on after it.
SELECT setval(pg_get_serial_sequence('ledger_transactions', 'id'), 1);
