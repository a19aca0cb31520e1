-- The webhook delivery log in counted ranges; see the SQLite migration of the same number.
-- Here `seq` comes from a sequence (concurrent writers: a transaction holding a lower seq may
-- commit after one holding a higher, which a page read in one snapshot never sees half of).
ALTER TABLE webhook_attempts ADD COLUMN seq BIGINT;
UPDATE webhook_attempts a SET seq = r.n
    FROM (SELECT delivery_id, number, ROW_NUMBER() OVER (ORDER BY started_at, delivery_id, number) AS n
          FROM webhook_attempts) AS r
    WHERE r.delivery_id = a.delivery_id AND r.number = a.number;
CREATE SEQUENCE webhook_attempts_seq OWNED BY webhook_attempts.seq;
SELECT setval('webhook_attempts_seq', COALESCE((SELECT MAX(seq) FROM webhook_attempts), 0) + 1, false);
ALTER TABLE webhook_attempts ALTER COLUMN seq SET DEFAULT nextval('webhook_attempts_seq');
ALTER TABLE webhook_attempts ALTER COLUMN seq SET NOT NULL;
CREATE INDEX webhook_attempts_endpoint_seq ON webhook_attempts (endpoint_id, seq);
-- A page's attempts are read by seq, once the window's skip found them (storage::counted).
CREATE UNIQUE INDEX webhook_attempts_seq_key ON webhook_attempts (seq);

CREATE FUNCTION webhook_attempts_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('webhook_attempts', NEW.endpoint_id, NEW.seq / 1024, 1);
    ELSIF EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = OLD.endpoint_id) THEN
        -- Deleted alone (a claim given back); with its endpoint, the endpoint's counts go whole.
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('webhook_attempts', OLD.endpoint_id, OLD.seq / 1024, -1);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER webhook_attempts_counted AFTER INSERT OR DELETE ON webhook_attempts
    FOR EACH ROW EXECUTE FUNCTION webhook_attempts_counted();

CREATE FUNCTION webhook_endpoints_uncounted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM list_counts WHERE list = 'webhook_attempts' AND part = OLD.id;
    RETURN NULL;
END $$;
CREATE TRIGGER webhook_endpoints_uncounted AFTER DELETE ON webhook_endpoints
    FOR EACH ROW EXECUTE FUNCTION webhook_endpoints_uncounted();

INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'webhook_attempts', endpoint_id, seq / 1024, COUNT(*) FROM webhook_attempts GROUP BY endpoint_id, seq / 1024;
