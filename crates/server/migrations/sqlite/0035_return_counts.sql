-- Returned items in counted ranges (storage/counted.rs, migration 0028), newest first by id:
-- all of them (part '') and those of each state (part: the state), so a deep page of the
-- returns queue costs what the first does and its total is no count(*). An item moving state
-- moves its state's count; the count of all stays.
CREATE TRIGGER deposit_return_items_counted AFTER INSERT ON deposit_return_items
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('returns', '', NEW.id / 1024, 1);
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('returns', NEW.state, NEW.id / 1024, 1);
END;
CREATE TRIGGER deposit_return_items_recounted AFTER UPDATE OF state ON deposit_return_items
WHEN NEW.state IS NOT OLD.state
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('returns', OLD.state, OLD.id / 1024, -1);
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('returns', NEW.state, NEW.id / 1024, 1);
END;
-- Items are never deleted today; counted anyway, so that a purge added later cannot forget.
CREATE TRIGGER deposit_return_items_uncounted AFTER DELETE ON deposit_return_items
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('returns', '', OLD.id / 1024, -1);
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('returns', OLD.state, OLD.id / 1024, -1);
END;

INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'returns', '', id / 1024, COUNT(*) FROM deposit_return_items GROUP BY id / 1024;
INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'returns', state, id / 1024, COUNT(*) FROM deposit_return_items GROUP BY state, id / 1024;
