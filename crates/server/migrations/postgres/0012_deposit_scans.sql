-- Scans of checks (POST …/deposits/check/smas/{smaSfid}/scan): per side a grayscale JPEG and a
-- bitonal G4 TIFF in the blob store (content-addressed paths), the MICR line read from the
-- front, and the whole answer as JSON. A check deposit names a scan instead of sending images
-- (`deposits.scan_id`, each scan deposited at most once); its G4 images and MICR line are what a
-- cash letter carries.
CREATE TABLE deposit_scans (
    id            TEXT   PRIMARY KEY,
    sma_sfid      TEXT   NOT NULL,
    amount_cents  BIGINT NOT NULL CHECK (amount_cents > 0),
    created_at    TEXT   NOT NULL,
    submitter     TEXT   NOT NULL,
    front_gray    TEXT   NOT NULL,
    front_g4      TEXT   NOT NULL,
    rear_gray     TEXT   NOT NULL,
    rear_g4       TEXT   NOT NULL,
    -- The line as read (⑆ ⑈ ⑇ ⑉, `*` unread); NULL when no MICR line was found.
    micr_line     TEXT,
    answer        TEXT   NOT NULL
);

ALTER TABLE deposits ADD COLUMN scan_id TEXT;
CREATE UNIQUE INDEX deposits_scan ON deposits (scan_id) WHERE scan_id IS NOT NULL;
