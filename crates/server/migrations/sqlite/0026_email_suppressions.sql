-- Email suppression lists and scheduled batches (email group; extension, issue 46).
--
-- `email_suppressions`: per sender domain (the From address's domain, ASCII, lowercase), the
-- addresses not to send to, and why: `bounce` (a hard bounce; the bounce parser adds these),
-- `unsubscribe` (the List-Unsubscribe link; `category` is the one unsubscribed from),
-- `spam_complaint` (an ARF report), `manual`. `category` '' means every send; an address is on a
-- domain's list at most once per category. `source` says where the entry came from (the user
-- who added it, the message whose link was used, the bounce). Addresses are stored lowercase.
-- Times are RFC 3339 UTC with milliseconds, as the outbox's.
CREATE TABLE email_suppressions (
    id         TEXT    PRIMARY KEY,
    domain     TEXT    NOT NULL,
    address    TEXT    NOT NULL,
    reason     TEXT    NOT NULL CHECK (reason IN ('bounce', 'unsubscribe', 'spam_complaint', 'manual')),
    category   TEXT    NOT NULL DEFAULT '',
    source     TEXT    NOT NULL,
    created_by TEXT,
    created_at TEXT    NOT NULL,
    UNIQUE (domain, address, category)
);
-- The list's filter by reason, in address order.
CREATE INDEX email_suppressions_reason ON email_suppressions (domain, reason, address);

-- `email_batches`: a scheduled send's batch (`batch_id`, as the v3 API has it) and whether it is
-- `active`, `paused` or `cancelled`. A batch made with POST …/batches, or the first time a
-- send's own batch (`req_…`) is paused or cancelled.
CREATE TABLE email_batches (
    id         TEXT    PRIMARY KEY,
    state      TEXT    NOT NULL CHECK (state IN ('active', 'paused', 'cancelled')),
    created_by TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL
);
