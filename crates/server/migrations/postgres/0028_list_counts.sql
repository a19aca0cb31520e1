-- Counted ranges (storage/counted.rs); see the SQLite migration of the same number. Rows are
-- added, never updated, by the triggers: concurrent writers never wait on one another's count.
CREATE TABLE list_counts (
    seq    BIGSERIAL PRIMARY KEY,
    list   TEXT   NOT NULL,
    part   TEXT   NOT NULL,
    bucket BIGINT NOT NULL,
    n      BIGINT NOT NULL
);
CREATE INDEX list_counts_by_part ON list_counts (list, part, bucket) INCLUDE (n);

CREATE FUNCTION audit_records_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('audit', '', NEW.id / 1024, 1);
        IF NEW.user_id IS NOT NULL THEN
            INSERT INTO list_counts (list, part, bucket, n) VALUES ('audit', 'u:' || NEW.user_id, NEW.id / 1024, 1);
        END IF;
    ELSE
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('audit', '', OLD.id / 1024, -1);
        IF OLD.user_id IS NOT NULL THEN
            INSERT INTO list_counts (list, part, bucket, n) VALUES ('audit', 'u:' || OLD.user_id, OLD.id / 1024, -1);
        END IF;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER audit_records_counted AFTER INSERT OR DELETE ON audit_records
    FOR EACH ROW EXECUTE FUNCTION audit_records_counted();

CREATE FUNCTION events_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('events', NEW.type, NEW.seq / 1024, 1);
    ELSE
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('events', OLD.type, OLD.seq / 1024, -1);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER events_counted AFTER INSERT OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_counted();

CREATE FUNCTION ledger_entries_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('ledger', NEW.account_id::text, NEW.id / 1024, 1);
    RETURN NULL;
END $$;
CREATE TRIGGER ledger_entries_counted AFTER INSERT ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_entries_counted();
CREATE INDEX ledger_entries_by_account_id ON ledger_entries (account_id, id);

INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'audit', '', id / 1024, COUNT(*) FROM audit_records GROUP BY id / 1024;
INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'audit', 'u:' || user_id, id / 1024, COUNT(*) FROM audit_records WHERE user_id IS NOT NULL
    GROUP BY user_id, id / 1024;
INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'events', type, seq / 1024, COUNT(*) FROM events GROUP BY type, seq / 1024;
INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'ledger', account_id::text, id / 1024, COUNT(*) FROM ledger_entries GROUP BY account_id, id / 1024;
