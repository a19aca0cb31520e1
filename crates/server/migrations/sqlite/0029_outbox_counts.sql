-- The outbox in counted ranges (storage/counted.rs, migration 0028): each message gets `seq`,
-- its place in the outbox (newest highest; a request's messages numbered so that newest first
-- reads them in personalization order), given by the insert (email/outbox/store/outbox.rs:
-- one above the highest, as SQLite has one writer). The counts are per state, so a message
-- moving state moves its count.
ALTER TABLE email_messages ADD COLUMN seq INTEGER;
UPDATE email_messages SET seq = r.n
    FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, batch_id, idx DESC) AS n FROM email_messages) AS r
    WHERE r.id = email_messages.id;
CREATE UNIQUE INDEX email_messages_seq ON email_messages (seq);
CREATE INDEX email_messages_state_seq ON email_messages (state, seq);

CREATE TRIGGER email_messages_sequenced BEFORE INSERT ON email_messages
WHEN NEW.seq IS NULL
BEGIN
    SELECT RAISE(ABORT, 'email_messages: a message is inserted with its seq');
END;

CREATE TRIGGER email_messages_counted AFTER INSERT ON email_messages
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('outbox', NEW.state, NEW.seq / 1024, 1);
END;
CREATE TRIGGER email_messages_recounted AFTER UPDATE OF state, seq ON email_messages
WHEN NEW.state IS NOT OLD.state OR NEW.seq IS NOT OLD.seq
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('outbox', OLD.state, OLD.seq / 1024, -1);
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('outbox', NEW.state, NEW.seq / 1024, 1);
END;
CREATE TRIGGER email_messages_uncounted AFTER DELETE ON email_messages
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('outbox', OLD.state, OLD.seq / 1024, -1);
END;

INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'outbox', state, seq / 1024, COUNT(*) FROM email_messages GROUP BY state, seq / 1024;
