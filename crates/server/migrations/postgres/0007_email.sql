-- Email (email group). PostgreSQL twin of ../sqlite/0007_email.sql (comments there). Times compare byte-wise (COLLATE "C"), as SQLite's do.

CREATE TABLE email_messages (
    id               TEXT    PRIMARY KEY,
    batch_id         TEXT    NOT NULL,
    idx              BIGINT  NOT NULL,
    state            TEXT    NOT NULL CHECK (state IN ('queued', 'scheduled', 'sending', 'sent', 'deferred', 'failed')),
    delivery         TEXT    NOT NULL CHECK (delivery IN ('relay', 'mailbox')),
    message_id       TEXT    NOT NULL UNIQUE,
    date_header      TEXT    NOT NULL,
    from_email       TEXT    NOT NULL,
    from_name        TEXT,
    reply_to_email   TEXT,
    reply_to_name    TEXT,
    recipients       TEXT    NOT NULL,
    subject          TEXT    NOT NULL,
    text_body        TEXT,
    html_body        TEXT,
    attachments      TEXT    NOT NULL DEFAULT '[]',
    template_id      TEXT,
    template_version BIGINT,
    categories       TEXT    NOT NULL DEFAULT '[]',
    created_by       TEXT    NOT NULL,
    created_at       TEXT COLLATE "C"    NOT NULL,
    send_at          TEXT COLLATE "C",
    next_attempt_at  TEXT COLLATE "C"    NOT NULL,
    attempts         BIGINT  NOT NULL DEFAULT 0,
    claimed_by       TEXT,
    claim_until      TEXT COLLATE "C",
    sent_at          TEXT COLLATE "C",
    last_reply       TEXT
);
CREATE INDEX email_messages_due ON email_messages (state, next_attempt_at);
CREATE INDEX email_messages_created ON email_messages (created_at, id);
CREATE INDEX email_messages_batch ON email_messages (batch_id, idx);

CREATE TABLE email_attempts (
    message_id TEXT    NOT NULL REFERENCES email_messages (id) ON DELETE CASCADE,
    number     BIGINT  NOT NULL,
    started_at TEXT    NOT NULL,
    outcome    TEXT    NOT NULL CHECK (outcome IN ('sending', 'sent', 'deferred', 'failed')),
    reply      TEXT,
    PRIMARY KEY (message_id, number)
);

CREATE TABLE email_mailbox (
    message_id   TEXT PRIMARY KEY REFERENCES email_messages (id) ON DELETE CASCADE,
    raw          TEXT NOT NULL,
    delivered_at TEXT NOT NULL
);

CREATE TABLE email_templates (
    id             TEXT    PRIMARY KEY,
    name           TEXT    NOT NULL,
    name_key       TEXT    NOT NULL UNIQUE,
    latest_version BIGINT  NOT NULL,
    created_at     TEXT    NOT NULL,
    updated_at     TEXT    NOT NULL
);

CREATE TABLE email_template_versions (
    template_id TEXT    NOT NULL REFERENCES email_templates (id) ON DELETE CASCADE,
    version     BIGINT  NOT NULL,
    subject     TEXT    NOT NULL,
    text_body   TEXT,
    html_body   TEXT,
    created_at  TEXT    NOT NULL,
    created_by  TEXT    NOT NULL,
    PRIMARY KEY (template_id, version)
);
