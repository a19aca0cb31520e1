-- The audit trail and the events (issue 43). Both are written in the transaction of the change
-- they record (storage/trail.rs, storage/events.rs), so neither exists without the other.

-- One record per write. `seq`, `prev_hash` and `hash` are filled once, by the sealer
-- (audit/seal.rs), which chains each day's records in the order it finds them committed:
-- hash = SHA-256(prev_hash || the record's canonical text), the first prev_hash of a day
-- being SHA-256("moneydesk-audit " || day).
CREATE TABLE audit_records (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    at              TEXT    NOT NULL,
    day             TEXT    NOT NULL,
    token_id        INTEGER,
    user_id         TEXT,
    token_name      TEXT,
    client_address  TEXT,
    user_agent      TEXT,
    operation       TEXT    NOT NULL,
    method          TEXT,
    path            TEXT,
    target_type     TEXT,
    target_id       TEXT,
    outcome         TEXT    NOT NULL,
    request_id      TEXT,
    -- JSON: [{"field", "before", "after"}]
    changes         TEXT    NOT NULL DEFAULT '[]',
    seq             INTEGER,
    prev_hash       TEXT,
    hash            TEXT
);
CREATE INDEX audit_records_at ON audit_records (at, id);
CREATE INDEX audit_records_unsealed ON audit_records (id) WHERE hash IS NULL;
CREATE UNIQUE INDEX audit_records_chain ON audit_records (day, seq);
CREATE INDEX audit_records_target ON audit_records (target_type, target_id, id);
CREATE INDEX audit_records_user ON audit_records (user_id, id);
CREATE INDEX audit_records_operation ON audit_records (operation, id);

-- Days removed under the retention setting: the count and the last hash stay, so the gap is
-- accounted for and the exported copy of that day can still be checked against it.
CREATE TABLE audit_purges (
    day         TEXT    PRIMARY KEY,
    purged_at   TEXT    NOT NULL,
    records     INTEGER NOT NULL,
    last_hash   TEXT
);

-- A record is never changed once chained, and its content never at all; it is deleted only
-- with its whole day, once that day's purge is on record.
CREATE TRIGGER audit_records_sealed BEFORE UPDATE ON audit_records
WHEN OLD.hash IS NOT NULL
  OR NEW.at IS NOT OLD.at OR NEW.day IS NOT OLD.day OR NEW.token_id IS NOT OLD.token_id
  OR NEW.user_id IS NOT OLD.user_id OR NEW.token_name IS NOT OLD.token_name
  OR NEW.client_address IS NOT OLD.client_address OR NEW.user_agent IS NOT OLD.user_agent
  OR NEW.operation IS NOT OLD.operation OR NEW.method IS NOT OLD.method OR NEW.path IS NOT OLD.path
  OR NEW.target_type IS NOT OLD.target_type OR NEW.target_id IS NOT OLD.target_id
  OR NEW.outcome IS NOT OLD.outcome OR NEW.request_id IS NOT OLD.request_id
  OR NEW.changes IS NOT OLD.changes
BEGIN
    SELECT RAISE(ABORT, 'audit: a record is never changed; only the sealer chains it once');
END;
CREATE TRIGGER audit_records_kept BEFORE DELETE ON audit_records
WHEN NOT EXISTS (SELECT 1 FROM audit_purges WHERE day = OLD.day)
BEGIN
    SELECT RAISE(ABORT, 'audit: records are deleted only a whole day at a time, under retention');
END;

-- Events: `seq` orders them (paging, delivery per object); `id` is what receivers see.
CREATE TABLE events (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    id           TEXT    NOT NULL UNIQUE,
    type         TEXT    NOT NULL,
    created      TEXT    NOT NULL,
    api_version  TEXT    NOT NULL,
    object_type  TEXT    NOT NULL,
    object_id    TEXT    NOT NULL,
    data         TEXT    NOT NULL
);
CREATE INDEX events_type ON events (type, seq);
CREATE INDEX events_created ON events (created, seq);
CREATE INDEX events_object ON events (object_type, object_id, seq);

CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events: an event is never changed');
END;

-- Events not yet handed to the webhook endpoints: written with the event, deleted by the
-- dispatcher in the transaction that creates the event's deliveries (so none is lost, and
-- none is handed twice, whatever order concurrent transactions commit in).
CREATE TABLE event_outbox (
    event_seq    INTEGER PRIMARY KEY REFERENCES events (seq)
);
-- Filled by the event's own INSERT: one statement an event batch, not two (each statement is
-- a round trip under SQLite's one write lock; scripts/bench-audit).
CREATE TRIGGER events_outbox AFTER INSERT ON events
BEGIN
    INSERT INTO event_outbox (event_seq) VALUES (NEW.seq);
END;
