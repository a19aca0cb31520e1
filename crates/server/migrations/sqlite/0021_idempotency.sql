-- Idempotency keys of the API's writes (`http::idempotency`): every POST and DELETE sent with
-- an `Idempotency-Key` (except the deposit creations, which keep theirs in their own
-- transaction, `deposit_idempotency`). A key is the caller's (its token's user): reserved
-- (`in_flight`) before the handler runs, then `done` with the first answer, which a retry with
-- the same request gets again. Times are UTC milliseconds texts (`storage::time::millis`).
CREATE TABLE idempotency_keys (
    user_id      TEXT    NOT NULL,
    key          TEXT    NOT NULL,
    -- The method and route as the API document writes it (`POST /api/.../folder`).
    operation    TEXT    NOT NULL,
    -- The method, path and query as sent: the same key on another object is another request.
    request      TEXT    NOT NULL,
    -- SHA-256 (hex) of the body (a multipart body without its boundary); NULL while in flight,
    -- or when the handler answered without reading the whole body.
    body_sha256  TEXT,
    state        TEXT    NOT NULL CHECK (state IN ('in_flight', 'done')),
    -- The first answer (`done` only): status, content type, body (UTF-8, at most 1 MiB).
    status       INTEGER,
    content_type TEXT,
    response     TEXT,
    created_at   TEXT    NOT NULL,
    -- While in flight, the request is running until then; past it, its instance is gone.
    lease_until  TEXT    NOT NULL,
    expires_at   TEXT    NOT NULL,
    PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
