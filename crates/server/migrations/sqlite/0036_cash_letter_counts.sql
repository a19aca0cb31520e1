-- Cash letters in counted ranges (storage/counted.rs, migration 0028), newest first by id: a
-- deep page of the letters costs what the first does and their total is no count(*).
CREATE TRIGGER cash_letters_counted AFTER INSERT ON cash_letters
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('cash_letters', '', NEW.id / 1024, 1);
END;
-- Letters are never deleted today; counted anyway, so that a purge added later cannot forget.
CREATE TRIGGER cash_letters_uncounted AFTER DELETE ON cash_letters
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('cash_letters', '', OLD.id / 1024, -1);
END;

INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'cash_letters', '', id / 1024, COUNT(*) FROM cash_letters GROUP BY id / 1024;
