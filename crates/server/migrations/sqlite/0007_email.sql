-- Email (email group). The outbox: one row a message (a personalization of a send request),
-- written before the 202 so nothing accepted is lost. A message's parts are stored rendered
-- (subject, text, HTML: templates are applied at accept time) with its Message-ID and Date,
-- so every attempt sends the same bytes. Attachment contents are blobs addressed by SHA-256
-- (`email/sha256/<hex>`), stored once however many messages of a bulk send carry them.
-- Times are RFC 3339 UTC with milliseconds (`2026-11-25T10:00:00.000Z`): one format, so text
-- order is time order.

CREATE TABLE email_messages (
    -- `msg_…`, what the 202 answers.
    id               TEXT    PRIMARY KEY,
    -- The send request (`req_…`) and the personalization's index in it.
    batch_id         TEXT    NOT NULL,
    idx              INTEGER NOT NULL,
    state            TEXT    NOT NULL CHECK (state IN ('queued', 'scheduled', 'sending', 'sent', 'deferred', 'failed')),
    delivery         TEXT    NOT NULL CHECK (delivery IN ('relay', 'mailbox')),
    -- The Message-ID header's value without the angle brackets; the same on every attempt.
    message_id       TEXT    NOT NULL UNIQUE,
    -- The Date header, fixed at acceptance (RFC 5322 date-time).
    date_header      TEXT    NOT NULL,
    from_email       TEXT    NOT NULL,
    from_name        TEXT,
    reply_to_email   TEXT,
    reply_to_name    TEXT,
    -- JSON: {"to":[{"email":..,"name":..}],"cc":[..],"bcc":[..]}.
    recipients       TEXT    NOT NULL,
    subject          TEXT    NOT NULL,
    text_body        TEXT,
    html_body        TEXT,
    -- JSON: [{"filename","contentType","disposition","contentId","sha256","size"}].
    attachments      TEXT    NOT NULL DEFAULT '[]',
    template_id      TEXT,
    template_version INTEGER,
    -- JSON array of strings.
    categories       TEXT    NOT NULL DEFAULT '[]',
    -- The token's user who sent it.
    created_by       TEXT    NOT NULL,
    created_at       TEXT    NOT NULL,
    send_at          TEXT,
    -- When the message may next be tried (created_at, send_at, or after a deferral).
    next_attempt_at  TEXT    NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    -- The worker that claimed it (`sending`) and until when the claim holds; a claim past its
    -- time belongs to a process that died and is taken over.
    claimed_by       TEXT,
    claim_until      TEXT,
    sent_at          TEXT,
    last_reply       TEXT
);
-- What a worker claims: due messages in order.
CREATE INDEX email_messages_due ON email_messages (state, next_attempt_at);
-- The outbox list, newest first.
CREATE INDEX email_messages_created ON email_messages (created_at, id);
CREATE INDEX email_messages_batch ON email_messages (batch_id, idx);

CREATE TABLE email_attempts (
    message_id TEXT    NOT NULL REFERENCES email_messages (id) ON DELETE CASCADE,
    number     INTEGER NOT NULL,
    started_at TEXT    NOT NULL,
    outcome    TEXT    NOT NULL CHECK (outcome IN ('sending', 'sent', 'deferred', 'failed')),
    reply      TEXT,
    PRIMARY KEY (message_id, number)
);

-- The development mailbox (no relay configured): the exact MIME a relay would have got.
CREATE TABLE email_mailbox (
    message_id   TEXT PRIMARY KEY REFERENCES email_messages (id) ON DELETE CASCADE,
    -- lettre writes 7-bit MIME (non-ASCII parts quoted-printable or base64): text.
    raw          TEXT NOT NULL,
    delivered_at TEXT NOT NULL
);

-- Stored templates: a name and numbered versions (sends use the latest).
CREATE TABLE email_templates (
    id             TEXT    PRIMARY KEY,
    name           TEXT    NOT NULL,
    -- lower(name): names are unique whatever their case.
    name_key       TEXT    NOT NULL UNIQUE,
    latest_version INTEGER NOT NULL,
    created_at     TEXT    NOT NULL,
    updated_at     TEXT    NOT NULL
);

CREATE TABLE email_template_versions (
    template_id TEXT    NOT NULL REFERENCES email_templates (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    subject     TEXT    NOT NULL,
    text_body   TEXT,
    html_body   TEXT,
    created_at  TEXT    NOT NULL,
    created_by  TEXT    NOT NULL,
    PRIMARY KEY (template_id, version)
);
