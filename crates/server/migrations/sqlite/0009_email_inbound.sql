-- Inbound mail (email group; description section 6, extension). A route per domain: the URL
-- messages are posted to and the secret that signs the posts (kept as given out: the server
-- needs it to sign, and the owner reveals it on demand; it grants nothing here). Messages are
-- kept with their envelope and state; the raw MIME is a blob (`email/inbound/<sha256>.eml`),
-- written before the row. Every POST is an attempt row.
-- Times are RFC 3339 UTC with milliseconds, as the outbox's.

CREATE TABLE email_inbound_routes (
    domain            TEXT    PRIMARY KEY,
    url               TEXT    NOT NULL,
    secret            TEXT    NOT NULL,
    created_by        TEXT    NOT NULL,
    created_at        TEXT    NOT NULL,
    secret_rotated_at TEXT    NOT NULL
);

CREATE TABLE email_inbound_messages (
    id              TEXT    PRIMARY KEY,
    domain          TEXT    NOT NULL,
    mail_from       TEXT    NOT NULL,
    rcpt_to         TEXT    NOT NULL,
    from_header     TEXT    NOT NULL,
    subject         TEXT    NOT NULL,
    size            INTEGER  NOT NULL,
    raw_sha256      TEXT    NOT NULL,
    attachments     TEXT    NOT NULL,
    received_by     TEXT    NOT NULL CHECK (received_by IN ('smtp', 'api')),
    received_at     TEXT    NOT NULL,
    state           TEXT    NOT NULL CHECK (state IN ('pending', 'delivering', 'delivered', 'failed')),
    attempts        INTEGER  NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    retry_until     TEXT    NOT NULL,
    claimed_by      TEXT,
    claim_until     TEXT,
    last_result     TEXT
);
CREATE INDEX email_inbound_due ON email_inbound_messages (state, next_attempt_at);
CREATE INDEX email_inbound_received ON email_inbound_messages (received_at, id);
CREATE INDEX email_inbound_domain ON email_inbound_messages (domain, received_at);

CREATE TABLE email_inbound_attempts (
    message_id  TEXT    NOT NULL REFERENCES email_inbound_messages (id) ON DELETE CASCADE,
    number      INTEGER  NOT NULL,
    url         TEXT    NOT NULL,
    started_at  TEXT    NOT NULL,
    duration_ms INTEGER,
    status      INTEGER,
    result      TEXT    NOT NULL,
    PRIMARY KEY (message_id, number)
);
