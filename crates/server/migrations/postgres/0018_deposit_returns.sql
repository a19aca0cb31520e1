-- Returned items (deposits group): every return file read (X9.100-187 or NACHA), once — its
-- SHA-256 is unique, so the same file twice (or another instance's try) is read once — and
-- every item it held, matched to its deposit or listed unmatched; nothing a file holds is
-- dropped. An operator's return with a reason code is an item too (no file).
CREATE TABLE deposit_return_files (
    id          BIGSERIAL PRIMARY KEY,
    -- `x9` or `ach`.
    format      TEXT   NOT NULL,
    file_name   TEXT,
    sha256      TEXT   NOT NULL UNIQUE,
    received_at TEXT   NOT NULL,
    received_by TEXT   NOT NULL,
    item_count  BIGINT NOT NULL,
    -- What the reader reported, as JSON (`[ReturnFileError]`): answered again with the file.
    errors      TEXT   NOT NULL
);

CREATE TABLE deposit_return_items (
    id             BIGSERIAL PRIMARY KEY,
    -- `x9`, `ach` or `operator`; the states of `ReturnItemState`.
    source         TEXT   NOT NULL,
    state          TEXT   NOT NULL,
    file_id        BIGINT REFERENCES deposit_return_files (id),
    record_number  BIGINT,
    reason_code    TEXT   NOT NULL,
    reason         TEXT,
    amount_cents   BIGINT NOT NULL,
    -- The item's sequence number (X9) or the original entry's trace number (ACH).
    reference      TEXT,
    deposit_id     BIGINT REFERENCES deposits (id),
    corrected_data TEXT,
    received_at    TEXT   NOT NULL,
    note           TEXT
);
-- An item of a file is recorded once: a file read again (after a crash, or by another
-- instance) adds only what is missing.
CREATE UNIQUE INDEX deposit_return_items_by_record ON deposit_return_items (file_id, record_number)
    WHERE file_id IS NOT NULL;
-- A deposit is returned once per (source, reference, amount): a second return is `duplicate`.
CREATE UNIQUE INDEX deposit_return_items_posted ON deposit_return_items (deposit_id, source, reference, amount_cents)
    WHERE state IN ('matched', 'resolved');
CREATE INDEX deposit_return_items_by_state ON deposit_return_items (state, id);

-- An electronic deposit's trace number in the day's ACH file, written when the file is made:
-- what an ACH return names the entry by.
ALTER TABLE deposits ADD COLUMN ach_trace_number TEXT;
CREATE INDEX deposits_by_ach_trace ON deposits (ach_trace_number) WHERE ach_trace_number IS NOT NULL;
