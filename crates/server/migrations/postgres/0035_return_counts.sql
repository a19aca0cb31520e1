-- Returned items in counted ranges; see the SQLite migration of the same number.
CREATE FUNCTION deposit_return_items_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('returns', '', NEW.id / 1024, 1);
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('returns', NEW.state, NEW.id / 1024, 1);
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('returns', '', OLD.id / 1024, -1);
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('returns', OLD.state, OLD.id / 1024, -1);
    ELSIF NEW.state IS DISTINCT FROM OLD.state THEN
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('returns', OLD.state, OLD.id / 1024, -1);
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('returns', NEW.state, NEW.id / 1024, 1);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER deposit_return_items_counted AFTER INSERT OR UPDATE OF state OR DELETE ON deposit_return_items
    FOR EACH ROW EXECUTE FUNCTION deposit_return_items_counted();

INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'returns', '', id / 1024, COUNT(*) FROM deposit_return_items GROUP BY id / 1024;
INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'returns', state, id / 1024, COUNT(*) FROM deposit_return_items GROUP BY state, id / 1024;
