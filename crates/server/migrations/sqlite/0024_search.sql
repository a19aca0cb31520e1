-- One search across everything (issue 45, server/src/search): its deposit stages through
-- indexes instead of a scan of every row. With demo data + 100,000 deposits
-- (benches/search.rs, 200 requests a case, same session, load 5-8 on 2 cores) a number
-- scanned the table once per stage: 28-59 ms p50, 34-182 ms p95 before; 1.8-5 ms p50,
-- 2-6 ms p95 after (target 100 ms p95).
--
-- Exact check number and payee name, and their prefix as a range (`>= t AND < t'`: LIKE
-- 'x%' is case-insensitive here and cannot use a BINARY index). The lower-cased name is
-- what the search compares; the rowid in each entry keeps equal keys newest first.
CREATE INDEX deposits_check_number ON deposits (check_number);
CREATE INDEX deposits_payee_name_key ON deposits (lower(payee_name));
-- A routing number: the checks drawn on that bank.
CREATE INDEX deposits_bank_routing_number ON deposits (bank_routing_number);

-- "Contains" (check number or payee name) through trigrams, as accounts' names do
-- (0003_accounts_name_trigram.sql): an external-content FTS5 table kept in step by
-- triggers. Case-insensitive, so the phrase `"term"` is "contains, ignoring case" for
-- terms of three characters or more; shorter terms still scan.
CREATE VIRTUAL TABLE deposits_trigram USING fts5(
    check_number,
    payee_name,
    content = 'deposits',
    content_rowid = 'id',
    tokenize = 'trigram'
);

INSERT INTO deposits_trigram (deposits_trigram) VALUES ('rebuild');

CREATE TRIGGER deposits_trigram_insert AFTER INSERT ON deposits BEGIN
    INSERT INTO deposits_trigram (rowid, check_number, payee_name)
    VALUES (NEW.id, NEW.check_number, NEW.payee_name);
END;

CREATE TRIGGER deposits_trigram_delete AFTER DELETE ON deposits BEGIN
    INSERT INTO deposits_trigram (deposits_trigram, rowid, check_number, payee_name)
    VALUES ('delete', OLD.id, OLD.check_number, OLD.payee_name);
END;

CREATE TRIGGER deposits_trigram_update AFTER UPDATE OF id, check_number, payee_name ON deposits BEGIN
    INSERT INTO deposits_trigram (deposits_trigram, rowid, check_number, payee_name)
    VALUES ('delete', OLD.id, OLD.check_number, OLD.payee_name);
    INSERT INTO deposits_trigram (rowid, check_number, payee_name)
    VALUES (NEW.id, NEW.check_number, NEW.payee_name);
END;
