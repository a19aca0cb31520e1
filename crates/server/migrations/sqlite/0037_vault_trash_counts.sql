-- Each user's trash in counted ranges (storage/counted.rs, migration 0028), newest first by id
-- (the order items were trashed: `deleted_at` is whole seconds, and ties were broken by id
-- already): a deep page of a trash of a hundred thousand items costs what the first does and
-- its total is no count(*). A restore or a purge (by hand, or the sweeper's at `purge_at`)
-- deletes the row and uncounts it.
CREATE INDEX vault_trash_user_id ON vault_trash (user_id, id);

CREATE TRIGGER vault_trash_counted AFTER INSERT ON vault_trash
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('vault_trash', NEW.user_id, NEW.id / 1024, 1);
END;
CREATE TRIGGER vault_trash_uncounted AFTER DELETE ON vault_trash
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('vault_trash', OLD.user_id, OLD.id / 1024, -1);
END;

INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'vault_trash', user_id, id / 1024, COUNT(*) FROM vault_trash GROUP BY user_id, id / 1024;
