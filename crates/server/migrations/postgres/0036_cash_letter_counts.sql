-- Cash letters in counted ranges; see the SQLite migration of the same number.
CREATE FUNCTION cash_letters_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('cash_letters', '', NEW.id / 1024, 1);
    ELSE
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('cash_letters', '', OLD.id / 1024, -1);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER cash_letters_counted AFTER INSERT OR DELETE ON cash_letters
    FOR EACH ROW EXECUTE FUNCTION cash_letters_counted();

INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'cash_letters', '', id / 1024, COUNT(*) FROM cash_letters GROUP BY id / 1024;
