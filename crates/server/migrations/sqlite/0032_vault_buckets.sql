-- A folder's files counted by ranges of each order the listing offers (vault/store/buckets.rs):
-- a bucket is the files from its first key (`lo_*`) to the next bucket's, so a page at any
-- depth is a seek to its bucket plus a skip of fewer than two buckets' files, and a folder's
-- total is its buckets' sum. Keys as (lo_int, lo_text, lo_name): by name (0, '', name), by
-- size (size, '', name), by modification (0, modified_at, name); the bucket before every file
-- is (-1, '', '') and needs no row. The triggers add +1 or -1 rows in the writer's own
-- transaction; the compactor folds them, cuts a bucket grown past twice its size and drops an
-- empty one. This replaces the one-range count of migration 0030.
DROP TRIGGER vault_files_counted;
DROP TRIGGER vault_files_moved;
DROP TRIGGER vault_files_uncounted;
DELETE FROM list_counts WHERE list = 'vault';

CREATE TABLE vault_buckets (
    seq       INTEGER PRIMARY KEY,
    folder_id INTEGER NOT NULL,
    -- 0 by name, 1 by size, 2 by modification.
    sort      INTEGER NOT NULL,
    lo_int    INTEGER NOT NULL,
    lo_text   TEXT    NOT NULL,
    lo_name   TEXT    NOT NULL,
    n         INTEGER NOT NULL
);
CREATE INDEX vault_buckets_by_key ON vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n);

-- One statement per order and sign: the file's key, counted in the last bucket starting at or
-- before it.
CREATE TRIGGER vault_files_bucketed AFTER INSERT ON vault_files
BEGIN
    INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n)
    SELECT NEW.folder_id, 0, lo_int, lo_text, lo_name, 1 FROM (
        SELECT * FROM (SELECT lo_int, lo_text, lo_name FROM vault_buckets WHERE folder_id = NEW.folder_id AND sort = 0
            AND (lo_int, lo_text, lo_name) <= (0, '', NEW.name) ORDER BY lo_int DESC, lo_text DESC, lo_name DESC LIMIT 1)
        UNION ALL SELECT -1, '', '' ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1);
    INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n)
    SELECT NEW.folder_id, 1, lo_int, lo_text, lo_name, 1 FROM (
        SELECT * FROM (SELECT lo_int, lo_text, lo_name FROM vault_buckets WHERE folder_id = NEW.folder_id AND sort = 1
            AND (lo_int, lo_text, lo_name) <= (NEW.size, '', NEW.name) ORDER BY lo_int DESC, lo_text DESC, lo_name DESC LIMIT 1)
        UNION ALL SELECT -1, '', '' ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1);
    INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n)
    SELECT NEW.folder_id, 2, lo_int, lo_text, lo_name, 1 FROM (
        SELECT * FROM (SELECT lo_int, lo_text, lo_name FROM vault_buckets WHERE folder_id = NEW.folder_id AND sort = 2
            AND (lo_int, lo_text, lo_name) <= (0, NEW.modified_at, NEW.name) ORDER BY lo_int DESC, lo_text DESC, lo_name DESC LIMIT 1)
        UNION ALL SELECT -1, '', '' ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1);
END;

CREATE TRIGGER vault_files_unbucketed AFTER DELETE ON vault_files
BEGIN
    INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n)
    SELECT OLD.folder_id, 0, lo_int, lo_text, lo_name, -1 FROM (
        SELECT * FROM (SELECT lo_int, lo_text, lo_name FROM vault_buckets WHERE folder_id = OLD.folder_id AND sort = 0
            AND (lo_int, lo_text, lo_name) <= (0, '', OLD.name) ORDER BY lo_int DESC, lo_text DESC, lo_name DESC LIMIT 1)
        UNION ALL SELECT -1, '', '' ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1);
    INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n)
    SELECT OLD.folder_id, 1, lo_int, lo_text, lo_name, -1 FROM (
        SELECT * FROM (SELECT lo_int, lo_text, lo_name FROM vault_buckets WHERE folder_id = OLD.folder_id AND sort = 1
            AND (lo_int, lo_text, lo_name) <= (OLD.size, '', OLD.name) ORDER BY lo_int DESC, lo_text DESC, lo_name DESC LIMIT 1)
        UNION ALL SELECT -1, '', '' ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1);
    INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n)
    SELECT OLD.folder_id, 2, lo_int, lo_text, lo_name, -1 FROM (
        SELECT * FROM (SELECT lo_int, lo_text, lo_name FROM vault_buckets WHERE folder_id = OLD.folder_id AND sort = 2
            AND (lo_int, lo_text, lo_name) <= (0, OLD.modified_at, OLD.name) ORDER BY lo_int DESC, lo_text DESC, lo_name DESC LIMIT 1)
        UNION ALL SELECT -1, '', '' ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1);
END;

-- A move, a rename, a new version: out of the old key's bucket, into the new key's, for each
-- order whose key changed (a new version leaves the name order alone).
CREATE TRIGGER vault_files_rebucketed AFTER UPDATE OF folder_id, name, size, modified_at ON vault_files
BEGIN
    INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n)
    SELECT OLD.folder_id, 0, lo_int, lo_text, lo_name, -1 FROM (
        SELECT * FROM (SELECT lo_int, lo_text, lo_name FROM vault_buckets WHERE folder_id = OLD.folder_id AND sort = 0
            AND (lo_int, lo_text, lo_name) <= (0, '', OLD.name) ORDER BY lo_int DESC, lo_text DESC, lo_name DESC LIMIT 1)
        UNION ALL SELECT -1, '', '' ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1)
    WHERE NEW.folder_id IS NOT OLD.folder_id OR NEW.name IS NOT OLD.name;
    INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n)
    SELECT NEW.folder_id, 0, lo_int, lo_text, lo_name, 1 FROM (
        SELECT * FROM (SELECT lo_int, lo_text, lo_name FROM vault_buckets WHERE folder_id = NEW.folder_id AND sort = 0
            AND (lo_int, lo_text, lo_name) <= (0, '', NEW.name) ORDER BY lo_int DESC, lo_text DESC, lo_name DESC LIMIT 1)
        UNION ALL SELECT -1, '', '' ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1)
    WHERE NEW.folder_id IS NOT OLD.folder_id OR NEW.name IS NOT OLD.name;
    INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n)
    SELECT OLD.folder_id, 1, lo_int, lo_text, lo_name, -1 FROM (
        SELECT * FROM (SELECT lo_int, lo_text, lo_name FROM vault_buckets WHERE folder_id = OLD.folder_id AND sort = 1
            AND (lo_int, lo_text, lo_name) <= (OLD.size, '', OLD.name) ORDER BY lo_int DESC, lo_text DESC, lo_name DESC LIMIT 1)
        UNION ALL SELECT -1, '', '' ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1)
    WHERE NEW.folder_id IS NOT OLD.folder_id OR NEW.name IS NOT OLD.name OR NEW.size IS NOT OLD.size;
    INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n)
    SELECT NEW.folder_id, 1, lo_int, lo_text, lo_name, 1 FROM (
        SELECT * FROM (SELECT lo_int, lo_text, lo_name FROM vault_buckets WHERE folder_id = NEW.folder_id AND sort = 1
            AND (lo_int, lo_text, lo_name) <= (NEW.size, '', NEW.name) ORDER BY lo_int DESC, lo_text DESC, lo_name DESC LIMIT 1)
        UNION ALL SELECT -1, '', '' ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1)
    WHERE NEW.folder_id IS NOT OLD.folder_id OR NEW.name IS NOT OLD.name OR NEW.size IS NOT OLD.size;
    INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n)
    SELECT OLD.folder_id, 2, lo_int, lo_text, lo_name, -1 FROM (
        SELECT * FROM (SELECT lo_int, lo_text, lo_name FROM vault_buckets WHERE folder_id = OLD.folder_id AND sort = 2
            AND (lo_int, lo_text, lo_name) <= (0, OLD.modified_at, OLD.name) ORDER BY lo_int DESC, lo_text DESC, lo_name DESC LIMIT 1)
        UNION ALL SELECT -1, '', '' ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1)
    WHERE NEW.folder_id IS NOT OLD.folder_id OR NEW.name IS NOT OLD.name OR NEW.modified_at IS NOT OLD.modified_at;
    INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n)
    SELECT NEW.folder_id, 2, lo_int, lo_text, lo_name, 1 FROM (
        SELECT * FROM (SELECT lo_int, lo_text, lo_name FROM vault_buckets WHERE folder_id = NEW.folder_id AND sort = 2
            AND (lo_int, lo_text, lo_name) <= (0, NEW.modified_at, NEW.name) ORDER BY lo_int DESC, lo_text DESC, lo_name DESC LIMIT 1)
        UNION ALL SELECT -1, '', '' ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1)
    WHERE NEW.folder_id IS NOT OLD.folder_id OR NEW.name IS NOT OLD.name OR NEW.modified_at IS NOT OLD.modified_at;
END;

-- The files already kept: each folder's in its first bucket of each order; the compactor cuts
-- the large ones on its first round.
INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n)
    SELECT folder_id, s.sort, -1, '', '', COUNT(*) FROM vault_files, (SELECT 0 AS sort UNION ALL SELECT 1 UNION ALL SELECT 2) s
    GROUP BY folder_id, s.sort;
