-- Fee schedules (fees group): each row one complete, validated version of the schedule, in
-- force from `effective_from` until the next version's. Rows are never rewritten once in force
-- (history stays as it was quoted); a version still in the future may be replaced.
CREATE TABLE fee_schedules (
    id             INTEGER PRIMARY KEY,
    -- RFC 3339 UTC, YYYY-MM-DDTHH:MM:SSZ: sorts as text.
    effective_from TEXT NOT NULL UNIQUE,
    -- The validated schedule (moneydesk_model::fees::FeeSchedule) as JSON.
    schedule       TEXT NOT NULL,
    loaded_at      TEXT NOT NULL,
    -- Who loaded it: a token's name, "cli", or "default" for the first start's schedule.
    loaded_by      TEXT NOT NULL
);
