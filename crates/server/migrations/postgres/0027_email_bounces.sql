-- Bounces and complaints (email group; extension, issue 46).
--
-- `email_bounce_reports`: every report received at a return-path address
-- (`bounces+<message id>@mdbounce.<domain>`, by the inbound SMTP listener) or posted to the API,
-- kept whatever came of it: `processed`, `unmatched` (read, but no message or domain known),
-- `unparseable` (neither a delivery status notification, RFC 3464, nor a feedback report,
-- RFC 5965; `problem` says why). The raw bytes are the blob `email/bounces/<raw_sha256>.eml`.
-- Times are RFC 3339 UTC with milliseconds, as the outbox's.
CREATE TABLE email_bounce_reports (
    id          TEXT    PRIMARY KEY,
    state       TEXT    NOT NULL CHECK (state IN ('processed', 'unmatched', 'unparseable')),
    report_type TEXT,
    problem     TEXT,
    received_by TEXT    NOT NULL,
    mail_from   TEXT    NOT NULL,
    rcpt_to     TEXT,
    raw_sha256  TEXT    NOT NULL,
    size        BIGINT  NOT NULL,
    received_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX email_bounce_reports_received ON email_bounce_reports (received_at, id);

-- `email_bounces`: one recipient of a report: a `hard` or `soft` bounce or a `complaint`,
-- the message it answers (when matched) and the sender domain whose list it acts on;
-- `suppressed` 1 when it put the address on that list. Addresses lowercase.
CREATE TABLE email_bounces (
    id          TEXT    PRIMARY KEY,
    report_id   TEXT    NOT NULL REFERENCES email_bounce_reports (id) ON DELETE CASCADE,
    message_id  TEXT,
    domain      TEXT,
    address     TEXT    NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('hard', 'soft', 'complaint')),
    action      TEXT    NOT NULL,
    status      TEXT,
    diagnostic  TEXT,
    suppressed  BIGINT  NOT NULL DEFAULT 0,
    received_at TEXT COLLATE "C" NOT NULL
);
-- A message's bounces; the figures and the latest per domain; soft bounces of one address.
CREATE INDEX email_bounces_message ON email_bounces (message_id);
CREATE INDEX email_bounces_received ON email_bounces (received_at, id);
CREATE INDEX email_bounces_address ON email_bounces (domain, address, kind, received_at);

-- A bounce's or complaint's words on the suppression entry it made.
ALTER TABLE email_suppressions ADD COLUMN detail TEXT;
