-- Scheduled jobs that must run once across instances (the vault sweeper): one row a job,
-- claimed by moving `due_at` forward in one UPDATE (`storage::jobs`). The instance whose
-- UPDATE changed the row runs the job; the others see it not due. Times are RFC 3339 UTC text.

CREATE TABLE job_runs (
    name        TEXT PRIMARY KEY,
    due_at      TEXT NOT NULL,
    started_at  TEXT,
    instance    TEXT
);
