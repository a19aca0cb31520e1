-- Accounts' `name` filter ("name contains") through a trigram index instead of a scan of
-- every row: an external-content FTS5 table over the lower-cased name (`name_key`), kept in
-- step by triggers, so the import and the seed (which only insert) need nothing more. Case
-- sensitive (the names and the terms are lower-cased already), so the phrase query
-- `"term"` matches exactly the names containing the term, for terms of three characters or
-- more; shorter terms still scan (storage/accounts.rs).

CREATE VIRTUAL TABLE accounts_name_trigram USING fts5(
    name_key,
    content = 'accounts',
    content_rowid = 'seq',
    tokenize = 'trigram case_sensitive 1'
);

INSERT INTO accounts_name_trigram (accounts_name_trigram) VALUES ('rebuild');

CREATE TRIGGER accounts_name_trigram_insert AFTER INSERT ON accounts BEGIN
    INSERT INTO accounts_name_trigram (rowid, name_key) VALUES (NEW.seq, NEW.name_key);
END;

CREATE TRIGGER accounts_name_trigram_delete AFTER DELETE ON accounts BEGIN
    INSERT INTO accounts_name_trigram (accounts_name_trigram, rowid, name_key) VALUES ('delete', OLD.seq, OLD.name_key);
END;

CREATE TRIGGER accounts_name_trigram_update AFTER UPDATE OF seq, name_key ON accounts BEGIN
    INSERT INTO accounts_name_trigram (accounts_name_trigram, rowid, name_key) VALUES ('delete', OLD.seq, OLD.name_key);
    INSERT INTO accounts_name_trigram (rowid, name_key) VALUES (NEW.seq, NEW.name_key);
END;
