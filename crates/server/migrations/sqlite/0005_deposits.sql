-- Deposits (deposits group): one row a deposit, its history of moves, and the idempotency keys
-- of the requests that created them. Amounts are integer cents (exact, and they sort).
CREATE TABLE deposits (
    id                   INTEGER PRIMARY KEY,
    service_type         TEXT    NOT NULL,
    status               TEXT    NOT NULL,
    is_confirmed         INTEGER NOT NULL DEFAULT 0,
    amount_cents         INTEGER NOT NULL CHECK (amount_cents > 0),
    fee_cents            INTEGER NOT NULL CHECK (fee_cents >= 0),
    -- RFC 3339 UTC; answered in the business time zone.
    created_at           TEXT    NOT NULL,
    completed_at         TEXT,
    schedule_date        TEXT    NOT NULL,
    check_date           TEXT,
    check_number         TEXT,
    bank_routing_number  TEXT,
    bank_account_number  TEXT,
    bank_name            TEXT,
    memo                 TEXT,
    payee_account_id     TEXT    NOT NULL,
    payee_user_id        TEXT,
    payee_name           TEXT,
    payee_account_number TEXT,
    payee_record_type_id TEXT,
    payer_id             TEXT,
    payer_type           TEXT,
    payment_type         TEXT,
    source               TEXT,
    bank_info_id         TEXT,
    transfer_type        TEXT,
    submitter            TEXT    NOT NULL,
    -- Blob paths of the two images (content addressed).
    front_image          TEXT,
    back_image           TEXT,
    -- routing|account|check number|cents while the check counts as presented: a second
    -- deposit of the same check is refused by the unique index (duplicate presentment).
    -- NULL once rejected or cancelled, or for an admin's recorded override.
    presentment          TEXT,
    duplicate_of         INTEGER,
    override_reason      TEXT
);
CREATE UNIQUE INDEX deposits_presentment ON deposits (presentment) WHERE presentment IS NOT NULL;
CREATE INDEX deposits_created ON deposits (created_at, id);

CREATE TABLE deposit_events (
    id          INTEGER PRIMARY KEY,
    deposit_id  INTEGER NOT NULL REFERENCES deposits (id),
    at          TEXT    NOT NULL,
    actor       TEXT    NOT NULL,
    action      TEXT    NOT NULL,
    from_status TEXT,
    to_status   TEXT    NOT NULL,
    reason      TEXT
);
CREATE INDEX deposit_events_deposit ON deposit_events (deposit_id, id);

CREATE TABLE deposit_idempotency (
    token_id     INTEGER NOT NULL,
    key          TEXT    NOT NULL,
    request_hash TEXT    NOT NULL,
    -- NULL only inside the creating transaction (the key is claimed first).
    deposit_id   INTEGER REFERENCES deposits (id),
    created_at   TEXT    NOT NULL,
    PRIMARY KEY (token_id, key)
);
