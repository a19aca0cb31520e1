-- Webhook endpoints and their deliveries (issue 43); see the SQLite migration of the same number.
-- row into one delivery per matching enabled endpoint, in the transaction that deletes the row.
-- Deliveries are a queue (`storage::queue`); every POST is an attempt row.
-- Times are RFC 3339 UTC with milliseconds.

-- The secret is kept as given out: the server signs with it, so it cannot be a hash; the API
-- answers it once (create, rotation). `previous_secret` signs too until `previous_secret_until`.
-- `failing_since`: the first failed attempt since the last success (auto-disable).
CREATE TABLE webhook_endpoints (
    id                     TEXT    PRIMARY KEY,
    url                    TEXT    NOT NULL,
    description            TEXT    NOT NULL DEFAULT '',
    event_types            TEXT    NOT NULL,
    enabled                BIGINT  NOT NULL DEFAULT 1,
    disabled_reason        TEXT,
    disabled_at            TEXT,
    secret                 TEXT    NOT NULL,
    secret_rotated_at      TEXT    NOT NULL,
    previous_secret        TEXT,
    previous_secret_until  TEXT,
    failing_since          TEXT,
    created_by             TEXT    NOT NULL,
    created_at             TEXT    NOT NULL,
    updated_at             TEXT    NOT NULL
);

-- `waiting`: an earlier delivery of the same object to the same endpoint is not finished yet
-- (delivery in order per object); it becomes `pending` when that one is delivered or failed.
CREATE TABLE webhook_deliveries (
    id              TEXT    PRIMARY KEY,
    endpoint_id     TEXT    NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_seq       BIGINT  NOT NULL REFERENCES events (seq),
    event_id        TEXT    NOT NULL,
    event_type      TEXT    NOT NULL,
    object_type     TEXT    NOT NULL,
    object_id       TEXT    NOT NULL,
    state           TEXT    NOT NULL CHECK (state IN ('waiting', 'pending', 'delivering', 'delivered', 'failed')),
    attempts        BIGINT  NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    retry_until     TEXT    NOT NULL,
    claimed_by      TEXT,
    claim_until     TEXT,
    last_result     TEXT,
    created_at      TEXT    NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
CREATE INDEX webhook_deliveries_object ON webhook_deliveries (endpoint_id, object_type, object_id, state, event_seq);

CREATE TABLE webhook_attempts (
    delivery_id   TEXT    NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    number        BIGINT  NOT NULL,
    endpoint_id   TEXT    NOT NULL,
    url           TEXT    NOT NULL,
    started_at    TEXT    NOT NULL,
    outcome       TEXT    NOT NULL,
    duration_ms   BIGINT ,
    status        BIGINT ,
    response      TEXT,
    result        TEXT,
    PRIMARY KEY (delivery_id, number)
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, started_at);
