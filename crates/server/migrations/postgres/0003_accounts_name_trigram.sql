-- Accounts' `name` filter ("name contains") through a trigram index instead of a scan: the
-- pg_trgm GIN index over the lower-cased name answers `name_key LIKE '%term%'` (where SQLite
-- uses its FTS5 trigram table, ../sqlite/0003_accounts_name_trigram.sql).

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX accounts_name_trigram ON accounts USING gin (name_key gin_trgm_ops);
