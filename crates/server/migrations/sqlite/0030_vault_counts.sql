-- A folder's files counted by the database (storage/counted.rs's `list_counts`, list 'vault',
-- one partition a folder, its id as text, one range): a listing's total without counting the
-- folder. Uploads, deletes (a folder's own cascade included) and moves keep it.
CREATE TRIGGER vault_files_counted AFTER INSERT ON vault_files
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('vault', CAST(NEW.folder_id AS TEXT), 0, 1);
END;
CREATE TRIGGER vault_files_moved AFTER UPDATE OF folder_id ON vault_files
WHEN NEW.folder_id IS NOT OLD.folder_id
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('vault', CAST(OLD.folder_id AS TEXT), 0, -1);
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('vault', CAST(NEW.folder_id AS TEXT), 0, 1);
END;
CREATE TRIGGER vault_files_uncounted AFTER DELETE ON vault_files
BEGIN
    INSERT INTO list_counts (list, part, bucket, n) VALUES ('vault', CAST(OLD.folder_id AS TEXT), 0, -1);
END;
INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'vault', CAST(folder_id AS TEXT), 0, COUNT(*) FROM vault_files GROUP BY folder_id;

-- A page of a folder in each order the listing offers reads an index from its offset.
CREATE INDEX vault_files_by_size ON vault_files (folder_id, size, name);
CREATE INDEX vault_files_by_modified ON vault_files (folder_id, modified_at, name);
