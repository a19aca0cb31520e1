-- Each user's trash in counted ranges; see the SQLite migration of the same number.
CREATE INDEX vault_trash_user_id ON vault_trash (user_id, id);

CREATE FUNCTION vault_trash_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('vault_trash', NEW.user_id, NEW.id / 1024, 1);
    ELSE
        INSERT INTO list_counts (list, part, bucket, n) VALUES ('vault_trash', OLD.user_id, OLD.id / 1024, -1);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER vault_trash_counted AFTER INSERT OR DELETE ON vault_trash
    FOR EACH ROW EXECUTE FUNCTION vault_trash_counted();

INSERT INTO list_counts (list, part, bucket, n)
    SELECT 'vault_trash', user_id, id / 1024, COUNT(*) FROM vault_trash GROUP BY user_id, id / 1024;
