-- SQLite's 0039 indexes the ledger transactions a hold names: SQLite looks for child rows
-- whenever a parent row is inserted while a deferred violation is outstanding (every posting:
-- entries before their transaction), which scanned every hold. PostgreSQL checks a foreign
-- key from the child's side only (the hold's UPDATE finds its transaction by primary key), so
-- it needs no index; this migration keeps the two lists of migrations alike.
SELECT 1;
