-- The outbox in counted ranges; see the SQLite migration of the same number. Here `seq` comes
-- from a sequence (concurrent writers), reserved by the insert a request at a time.
ALTER TABLE email_messages ADD COLUMN seq BIGINT;
UPDATE email_messages m SET seq = r.n
    FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, batch_id, idx DESC) AS n FROM email_messages) AS r
    WHERE r.id = m.id;
ALTER TABLE email_messages ALTER COLUMN seq SET NOT NULL;
CREATE SEQUENCE email_messages_seq;
SELECT setval('email_messages_seq', COALESCE((SELECT MAX(seq) FROM email_messages), 0) + 1, false);
CREATE UNIQUE INDEX email_messages_seq_key ON email_messages (seq);
CREATE INDEX email_messages_state_seq ON email_messages (state, seq);

CREATE FUNCTION email_messages_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('outbox', NEW.state, NEW.seq / 1024, 1);
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('outbox', OLD.state, OLD.seq / 1024, -1);
    ELSIF NEW.state IS DISTINCT FROM OLD.state OR NEW.seq IS DISTINCT FROM OLD.seq THEN
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('outbox', OLD.state, OLD.seq / 1024, -1);
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('outbox', NEW.state, NEW.seq / 1024, 1);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER email_messages_counted AFTER INSERT OR UPDATE OF state, seq OR DELETE ON email_messages
    FOR EACH ROW EXECUTE FUNCTION email_messages_counted();

INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'outbox', state, seq / 1024, COUNT(*) FROM email_messages GROUP BY state, seq / 1024;
