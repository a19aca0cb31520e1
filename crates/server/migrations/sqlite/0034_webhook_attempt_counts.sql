-- The webhook delivery log in counted ranges (storage/counted.rs, migration 0028): each attempt
-- gets `seq`, its place in the log (the order attempts were opened, newest highest), and the
-- counts are per endpoint, so page 10,000 of an endpoint's log costs what page 1 does and its
-- total is no count(*). Here `seq` is the rowid (INTEGER PRIMARY KEY: one above the highest on
-- insert, SQLite having one writer), so the table is made again with it; the attempts there
-- already are numbered in the log's order until now (started_at, delivery, attempt number).
CREATE TABLE webhook_attempts_new (
    seq           INTEGER PRIMARY KEY,
    delivery_id   TEXT    NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    endpoint_id   TEXT    NOT NULL,
    url           TEXT    NOT NULL,
    started_at    TEXT    NOT NULL,
    outcome       TEXT    NOT NULL,
    duration_ms   INTEGER,
    status        INTEGER,
    response      TEXT,
    result        TEXT,
    UNIQUE (delivery_id, number)
);
INSERT INTO webhook_attempts_new (delivery_id, number, endpoint_id, url, started_at, outcome, duration_ms, status,
    response, result)
    SELECT delivery_id, number, endpoint_id, url, started_at, outcome, duration_ms, status, response, result
    FROM webhook_attempts ORDER BY started_at, delivery_id, number;
DROP TABLE webhook_attempts;
ALTER TABLE webhook_attempts_new RENAME TO webhook_attempts;
-- The 7-day figures read by time; the log by seq.
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, started_at);
CREATE INDEX webhook_attempts_endpoint_seq ON webhook_attempts (endpoint_id, seq);

CREATE TRIGGER webhook_attempts_counted AFTER INSERT ON webhook_attempts
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('webhook_attempts', NEW.endpoint_id, NEW.seq / 1024, 1);
END;
-- An attempt is deleted alone when a claim is given back before it started, or with its
-- endpoint. The endpoint's counts go with the endpoint (below), so an attempt deleted with it
-- counts nothing: an endpoint of a million attempts is not a million count rows to delete.
CREATE TRIGGER webhook_attempts_uncounted AFTER DELETE ON webhook_attempts
WHEN EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = OLD.endpoint_id)
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('webhook_attempts', OLD.endpoint_id, OLD.seq / 1024, -1);
END;
CREATE TRIGGER webhook_endpoints_uncounted AFTER DELETE ON webhook_endpoints
BEGIN
    DELETE FROM list_counts WHERE list = 'webhook_attempts' AND part = OLD.id;
END;

INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'webhook_attempts', endpoint_id, seq / 1024, COUNT(*) FROM webhook_attempts GROUP BY endpoint_id, seq / 1024;
