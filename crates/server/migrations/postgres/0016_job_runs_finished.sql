-- When a job's run ended (`storage::jobs::finish`): a run claimed while the previous one
-- started and never ended was taken over from an instance that died (or overran the interval),
-- which the metrics count.
ALTER TABLE job_runs ADD COLUMN finished_at TEXT;
