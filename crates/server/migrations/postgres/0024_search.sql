-- One search across everything (issue 45, server/src/search): its deposit stages through
-- indexes instead of a scan of every row. With demo data + 100,000 deposits
-- (benches/search.rs, 200 requests a case, same session, load 5-8 on 2 cores) a number
-- scanned the table once per stage: 48-101 ms p50, 67-209 ms p95 before; 4-6 ms p50,
-- 8-12 ms p95 after (target 100 ms p95).
--
-- Exact check number and payee name, and their prefix as a range: byte-wise (COLLATE "C",
-- as SQLite compares), so every text starting with `t` lies in `>= t AND < t'` whatever the
-- database's locale; `id` after the key keeps equal keys newest first.
CREATE INDEX deposits_check_number ON deposits (check_number COLLATE "C", id);
CREATE INDEX deposits_payee_name_key ON deposits ((lower(payee_name)) COLLATE "C", id);
-- The payee's account id, byte-wise for its prefix (deposits_payee_created is the locale's).
CREATE INDEX deposits_payee_account_id ON deposits (payee_account_id COLLATE "C", id);
-- A routing number: the checks drawn on that bank.
CREATE INDEX deposits_bank_routing_number ON deposits (bank_routing_number, id);

-- "Contains" (LIKE '%term%') through pg_trgm GIN indexes, as accounts' names do
-- (0003_accounts_name_trigram.sql; SQLite has an FTS5 trigram table instead).
CREATE INDEX deposits_check_number_trigram ON deposits USING gin (check_number gin_trgm_ops);
CREATE INDEX deposits_payee_name_trigram ON deposits USING gin (lower(payee_name) gin_trgm_ops);
