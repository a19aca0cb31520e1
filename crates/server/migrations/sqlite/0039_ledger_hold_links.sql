-- The ledger transactions a hold names (released by, cancelled by), indexed. Both columns are
-- deferred foreign keys to `ledger_transactions`, and a posting writes its entries before its
-- transaction, so SQLite has a deferred violation outstanding at every transaction's INSERT.
-- Then it looks, for each foreign key naming the table, for child rows the new row satisfies:
-- with no index on these columns that was a scan of every hold, twice, in every posting. The
-- insert of a deposit's confirmation went from 0.7 ms to 3.9 ms as 20,000 deposits were made
-- (scripts/bench-audit, 2026-12-01), and throughput halved with it.
-- Partial: a pending hold names neither, and `x = ?` implies `x IS NOT NULL`, which is what
-- lets the lookup use them.
CREATE INDEX ledger_holds_by_released ON ledger_holds (released_tx) WHERE released_tx IS NOT NULL;
CREATE INDEX ledger_holds_by_cancelled ON ledger_holds (cancelled_tx) WHERE cancelled_tx IS NOT NULL;
