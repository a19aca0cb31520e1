-- The audit trail and the events (issue 43); see the SQLite migration of the same number.

CREATE TABLE audit_records (
    id              BIGSERIAL PRIMARY KEY,
    at              TEXT    NOT NULL,
    day             TEXT    NOT NULL,
    token_id        BIGINT,
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
    changes         TEXT    NOT NULL DEFAULT '[]',
    seq             BIGINT,
    prev_hash       TEXT,
    hash            TEXT
);
CREATE INDEX audit_records_at ON audit_records (at, id);
CREATE INDEX audit_records_unsealed ON audit_records (id) WHERE hash IS NULL;
CREATE UNIQUE INDEX audit_records_chain ON audit_records (day, seq);
CREATE INDEX audit_records_target ON audit_records (target_type, target_id, id);
CREATE INDEX audit_records_user ON audit_records (user_id, id);
CREATE INDEX audit_records_operation ON audit_records (operation, id);

CREATE TABLE audit_purges (
    day         TEXT    PRIMARY KEY,
    purged_at   TEXT    NOT NULL,
    records     BIGINT  NOT NULL,
    last_hash   TEXT
);

CREATE FUNCTION audit_records_sealed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF NOT EXISTS (SELECT 1 FROM audit_purges WHERE day = OLD.day) THEN
            RAISE EXCEPTION 'audit: records are deleted only a whole day at a time, under retention';
        END IF;
        RETURN OLD;
    END IF;
    IF OLD.hash IS NOT NULL
       OR (NEW.at, NEW.day, NEW.token_id, NEW.user_id, NEW.token_name, NEW.client_address,
           NEW.user_agent, NEW.operation, NEW.method, NEW.path, NEW.target_type, NEW.target_id,
           NEW.outcome, NEW.request_id, NEW.changes)
          IS DISTINCT FROM
          (OLD.at, OLD.day, OLD.token_id, OLD.user_id, OLD.token_name, OLD.client_address,
           OLD.user_agent, OLD.operation, OLD.method, OLD.path, OLD.target_type, OLD.target_id,
           OLD.outcome, OLD.request_id, OLD.changes) THEN
        RAISE EXCEPTION 'audit: a record is never changed; only the sealer chains it once';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER audit_records_sealed BEFORE UPDATE OR DELETE ON audit_records
    FOR EACH ROW EXECUTE FUNCTION audit_records_sealed();

CREATE TABLE events (
    seq          BIGSERIAL PRIMARY KEY,
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

CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events: an event is never changed';
END $$;
CREATE TRIGGER events_append_only BEFORE UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION events_append_only();

CREATE TABLE event_outbox (
    event_seq    BIGINT PRIMARY KEY REFERENCES events (seq)
);
-- Filled by the event's own INSERT (one statement an event batch, not two).
CREATE FUNCTION events_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO event_outbox (event_seq) VALUES (NEW.seq);
    RETURN NULL;
END $$;
CREATE TRIGGER events_outbox AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION events_outbox();
