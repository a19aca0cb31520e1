-- A folder's files counted by the database; see the SQLite migration of the same number.
CREATE FUNCTION vault_files_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('vault', NEW.folder_id::text, 0, 1);
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('vault', OLD.folder_id::text, 0, -1);
    ELSIF NEW.folder_id IS DISTINCT FROM OLD.folder_id THEN
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('vault', OLD.folder_id::text, 0, -1);
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('vault', NEW.folder_id::text, 0, 1);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER vault_files_counted AFTER INSERT OR UPDATE OF folder_id OR DELETE ON vault_files
    FOR EACH ROW EXECUTE FUNCTION vault_files_counted();
INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'vault', folder_id::text, 0, COUNT(*) FROM vault_files GROUP BY folder_id;

CREATE INDEX vault_files_by_size ON vault_files (folder_id, size, name);
CREATE INDEX vault_files_by_modified ON vault_files (folder_id, modified_at, name);
