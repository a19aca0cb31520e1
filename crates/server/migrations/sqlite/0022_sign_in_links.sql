-- Sign-in links (tokens group): an admin makes one for a user; its secret travels in a URL to
-- the portal, which exchanges it once, within 15 minutes, for a session token of the link's
-- scopes. Only the SHA-256 of the secret is stored, as for tokens. Times are RFC 3339 UTC texts.
CREATE TABLE sign_in_links (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    secret_hash TEXT    NOT NULL UNIQUE,
    user_id     TEXT    NOT NULL,
    -- Space-separated scope names: what the session token it is exchanged for holds.
    scopes      TEXT    NOT NULL,
    created_by  TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    expires_at  TEXT    NOT NULL,
    used_at     TEXT,
    revoked_at  TEXT,
    -- The session token the exchange made (its id in `tokens`).
    token_id    INTEGER
);
