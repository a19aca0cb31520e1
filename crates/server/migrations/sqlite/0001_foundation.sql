-- Foundation: API tokens (stored hashed) and a key/value table for one-time facts such as
-- "demo data was seeded".

CREATE TABLE tokens (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    name         TEXT    NOT NULL,
    -- SHA-256 of the whole token text (`mdk_...`), lowercase hex. The token itself is never stored.
    token_hash   TEXT    NOT NULL UNIQUE,
    -- Space-separated scope names, e.g. "deposits:read deposits:write".
    scopes       TEXT    NOT NULL,
    -- RFC 3339 UTC timestamps.
    created_at   TEXT    NOT NULL,
    expires_at   TEXT,
    revoked_at   TEXT,
    last_used_at TEXT
);

CREATE INDEX tokens_name ON tokens (name);

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
