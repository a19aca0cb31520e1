-- Counted ranges (storage/counted.rs): how many rows each list has per partition and per range
-- of 1024 keys, so a deep page costs what the first does and a total needs no count(*). The
-- triggers add +1 or -1 rows in the writer's own transaction; storage::counted::compact folds
-- them into one row per range. The width, 1024, is `counted::WIDTH` (a test holds them together).
CREATE TABLE list_counts (
    seq    INTEGER PRIMARY KEY,
    list   TEXT    NOT NULL,
    -- What a filter narrows to: '' for all of the list, else the list's own value (below).
    part   TEXT    NOT NULL,
    bucket INTEGER NOT NULL,
    n      INTEGER NOT NULL
);
CREATE INDEX list_counts_by_part ON list_counts (list, part, bucket, n);

-- The audit trail, newest first: all of it, and one user's ('u:' || user_id).
CREATE TRIGGER audit_records_counted AFTER INSERT ON audit_records
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('audit', '', NEW.id / 1024, 1);
    INSERT INTO list_counts (list, part, bucket, n)
        SELECT 'audit', 'u:' || NEW.user_id, NEW.id / 1024, 1 WHERE NEW.user_id IS NOT NULL;
END;
-- Deleted only by the retention purge, a whole day at a time.
CREATE TRIGGER audit_records_uncounted AFTER DELETE ON audit_records
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('audit', '', OLD.id / 1024, -1);
    INSERT INTO list_counts (list, part, bucket, n)
        SELECT 'audit', 'u:' || OLD.user_id, OLD.id / 1024, -1 WHERE OLD.user_id IS NOT NULL;
END;

-- Events, newest first, by type (a listing reads the types its caller may see).
CREATE TRIGGER events_counted AFTER INSERT ON events
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('events', NEW.type, NEW.seq / 1024, 1);
END;
CREATE TRIGGER events_uncounted AFTER DELETE ON events
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('events', OLD.type, OLD.seq / 1024, -1);
END;

-- Ledger entries by ledger account (its id as text); entries are never deleted.
CREATE TRIGGER ledger_entries_counted AFTER INSERT ON ledger_entries
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('ledger', CAST(NEW.account_id AS TEXT), NEW.id / 1024, 1);
END;
-- A page of one account's entries in posting order reads this index from the page's window.
CREATE INDEX ledger_entries_by_account_id ON ledger_entries (account_id, id);

-- What is there already.
INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'audit', '', id / 1024, COUNT(*) FROM audit_records GROUP BY id / 1024;
INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'audit', 'u:' || user_id, id / 1024, COUNT(*) FROM audit_records WHERE user_id IS NOT NULL
    GROUP BY user_id, id / 1024;
INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'events', type, seq / 1024, COUNT(*) FROM events GROUP BY type, seq / 1024;
INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'ledger', CAST(account_id AS TEXT), id / 1024, COUNT(*) FROM ledger_entries GROUP BY account_id, id / 1024;
