-- A folder's files counted by ranges of each order the listing offers; see the SQLite
-- migration of the same number. Writers of a folder take a shared advisory lock on it (class
-- 5032) for their transaction; the compactor cuts or drops a bucket under the exclusive one,
-- so no writer counts a file in a bucket whose bounds are changing.
DROP TRIGGER vault_files_counted ON vault_files;
DROP FUNCTION vault_files_counted();
DELETE FROM list_counts WHERE list = 'vault';

CREATE TABLE vault_buckets (
    seq       BIGSERIAL PRIMARY KEY,
    folder_id BIGINT   NOT NULL,
    sort      BIGINT   NOT NULL,
    lo_int    BIGINT   NOT NULL,
    lo_text   TEXT     NOT NULL,
    lo_name   TEXT     NOT NULL,
    n         BIGINT   NOT NULL
);
CREATE INDEX vault_buckets_by_key ON vault_buckets (folder_id, sort, lo_int, lo_text, lo_name) INCLUDE (n);

-- Counts `d` in the last bucket of folder `f`'s order `s` starting at or before key
-- (ki, kt, nm).
CREATE FUNCTION vault_bucket_add(f BIGINT, s BIGINT, ki BIGINT, kt TEXT, nm TEXT, d BIGINT) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(5032, (f % 2147483647)::int);
    INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n)
    SELECT f, s, b.lo_int, b.lo_text, b.lo_name, d FROM (
        (SELECT lo_int, lo_text, lo_name FROM vault_buckets WHERE folder_id = f AND sort = s
            AND (lo_int, lo_text, lo_name) <= (ki, kt, nm) ORDER BY lo_int DESC, lo_text DESC, lo_name DESC LIMIT 1)
        UNION ALL SELECT -1, '', ''
        ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1) AS b;
END $$;

CREATE FUNCTION vault_files_bucketed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    moved BOOLEAN;
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM vault_bucket_add(NEW.folder_id, 0, 0, '', NEW.name, 1);
        PERFORM vault_bucket_add(NEW.folder_id, 1, NEW.size, '', NEW.name, 1);
        PERFORM vault_bucket_add(NEW.folder_id, 2, 0, NEW.modified_at, NEW.name, 1);
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM vault_bucket_add(OLD.folder_id, 0, 0, '', OLD.name, -1);
        PERFORM vault_bucket_add(OLD.folder_id, 1, OLD.size, '', OLD.name, -1);
        PERFORM vault_bucket_add(OLD.folder_id, 2, 0, OLD.modified_at, OLD.name, -1);
    ELSE
        moved := NEW.folder_id IS DISTINCT FROM OLD.folder_id OR NEW.name IS DISTINCT FROM OLD.name;
        IF moved THEN
            PERFORM vault_bucket_add(OLD.folder_id, 0, 0, '', OLD.name, -1);
            PERFORM vault_bucket_add(NEW.folder_id, 0, 0, '', NEW.name, 1);
        END IF;
        IF moved OR NEW.size IS DISTINCT FROM OLD.size THEN
            PERFORM vault_bucket_add(OLD.folder_id, 1, OLD.size, '', OLD.name, -1);
            PERFORM vault_bucket_add(NEW.folder_id, 1, NEW.size, '', NEW.name, 1);
        END IF;
        IF moved OR NEW.modified_at IS DISTINCT FROM OLD.modified_at THEN
            PERFORM vault_bucket_add(OLD.folder_id, 2, 0, OLD.modified_at, OLD.name, -1);
            PERFORM vault_bucket_add(NEW.folder_id, 2, 0, NEW.modified_at, NEW.name, 1);
        END IF;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER vault_files_bucketed AFTER INSERT OR UPDATE OF folder_id, name, size, modified_at OR DELETE
    ON vault_files FOR EACH ROW EXECUTE FUNCTION vault_files_bucketed();

INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n)
    SELECT folder_id, s.sort, -1, '', '', COUNT(*) FROM vault_files, (VALUES (0), (1), (2)) AS s (sort)
    GROUP BY folder_id, s.sort;
