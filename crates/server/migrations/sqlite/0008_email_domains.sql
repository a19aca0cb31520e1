-- Sending domains (email group; extension). One row a domain (ASCII, lowercase): its state,
-- its DKIM keys (base64 DER: the RSA key PKCS#1, the Ed25519 key PKCS#8; the public halves as
-- published in DNS) and the last verification (JSON, one check a record). The records to
-- install are derived from the domain (the model's `records_for`), not stored.
-- Times are RFC 3339 UTC with milliseconds, as the outbox's.

CREATE TABLE email_domains (
    domain           TEXT    PRIMARY KEY,
    state            TEXT    NOT NULL CHECK (state IN ('pending', 'verified', 'active')),
    rsa_private      TEXT    NOT NULL,
    rsa_public       TEXT    NOT NULL,
    ed25519_private  TEXT    NOT NULL,
    ed25519_public   TEXT    NOT NULL,
    created_by       TEXT    NOT NULL,
    created_at       TEXT    NOT NULL,
    verified_at      TEXT,
    activated_at     TEXT,
    checked_at       TEXT,
    last_check       TEXT
);
