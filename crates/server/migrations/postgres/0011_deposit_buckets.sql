-- Deep pages of deposits as fast as the first (deposits::store::buckets): each order of the
-- list (created, amount) is cut into buckets of about a thousand rows, and every bucket keeps
-- its row count per partition (all, a status, a service type, a status and a type). A page at
-- any position is a sum over the bucket counts and a skip of fewer than two thousand index
-- entries; the total is the same sum. Every write of a deposit keeps the counts current in its
-- own transaction, and splits a bucket that has grown to twice the size.
--
-- `sort` 0 = created (created_at, id), 1 = amount (amount_cents, id); `lo_key`, `lo_id` is the
-- bucket's first key (created_at text, or the amount in cents as 19 zero-padded digits); the
-- first bucket of each order starts at ('', 0), before every row.
CREATE TABLE deposit_buckets (
    sort    BIGINT NOT NULL,
    part    BIGINT NOT NULL,
    lo_key  TEXT   NOT NULL,
    lo_id   BIGINT NOT NULL,
    n       BIGINT NOT NULL,
    PRIMARY KEY (sort, part, lo_key, lo_id)
);

-- One row: whether the buckets describe the table (0 until the first rebuild, which the first
-- list after an upgrade starts), and the row every deposit write updates first, so writes of
-- deposits take turns and a bucket split counts what is committed.
CREATE TABLE deposit_index_state (
    id      BIGINT PRIMARY KEY CHECK (id = 1),
    built   BIGINT NOT NULL,
    writes  BIGINT NOT NULL
);
INSERT INTO deposit_index_state (id, built, writes) VALUES (1, 0, 0);

-- Each partition in each order, read from a bucket's first key.
CREATE INDEX deposits_amount ON deposits (amount_cents, id);
CREATE INDEX deposits_status_created ON deposits (status, created_at, id);
CREATE INDEX deposits_status_amount ON deposits (status, amount_cents, id);
CREATE INDEX deposits_type_created ON deposits (service_type, created_at, id);
CREATE INDEX deposits_type_amount ON deposits (service_type, amount_cents, id);
CREATE INDEX deposits_status_type_created ON deposits (status, service_type, created_at, id);
CREATE INDEX deposits_status_type_amount ON deposits (status, service_type, amount_cents, id);
-- A payee's deposits (counted and skipped through this index, not the buckets).
CREATE INDEX deposits_payee_created ON deposits (payee_account_id, created_at, id);
