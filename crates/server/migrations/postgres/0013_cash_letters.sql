-- Image cash letters (cash_letters group): one row a file made, the file itself in the blob
-- store (content-addressed), and one row an item. A deposit is in at most one cash letter (the
-- unique index), and moves to Sent_3 in the transaction that records the letter.
CREATE TABLE cash_letters (
    id              BIGSERIAL PRIMARY KEY,
    cash_letter_id  TEXT   NOT NULL UNIQUE,
    business_date   TEXT   NOT NULL,
    created_at      TEXT   NOT NULL,
    created_by      TEXT   NOT NULL,
    item_count      BIGINT NOT NULL,
    bundle_count    BIGINT NOT NULL,
    total_cents     BIGINT NOT NULL,
    file_path       TEXT   NOT NULL,
    file_bytes      BIGINT NOT NULL,
    file_sha256     TEXT   NOT NULL
);

CREATE TABLE cash_letter_items (
    cash_letter     BIGINT NOT NULL REFERENCES cash_letters (id),
    position        BIGINT NOT NULL,
    deposit_id      BIGINT NOT NULL UNIQUE REFERENCES deposits (id),
    bundle          BIGINT NOT NULL,
    sequence_number TEXT   NOT NULL,
    routing_number  TEXT   NOT NULL,
    on_us           TEXT   NOT NULL,
    amount_cents    BIGINT NOT NULL,
    PRIMARY KEY (cash_letter, position)
);
