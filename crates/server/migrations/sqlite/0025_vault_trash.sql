-- The vault's trash (issue 46): a deleted file or folder is kept, restorable, until its
-- `purge_at`. Its rows stay in vault_folders / vault_files / vault_versions, moved to an owner
-- no user can be: `<user>/trash/<id>` (user ids have no '/'). Listings, downloads, zips and
-- search ask for the user's own rows, so they no longer see it, and its path is free again;
-- its versions still reference their contents, so the sweeper keeps those blobs. A folder
-- keeps its paths there; a file sits in one folder row at the path of the folder it was in.

CREATE TABLE vault_trash (
    id         INTEGER PRIMARY KEY,
    user_id    TEXT    NOT NULL,
    -- 'folder' or 'file'.
    kind       TEXT    NOT NULL,
    -- The path it had (NFC, relative to the vault root).
    path       TEXT    NOT NULL,
    -- Bytes of all its versions.
    size       INTEGER NOT NULL,
    deleted_at TEXT    NOT NULL,
    -- The name of the token that deleted it.
    deleted_by TEXT    NOT NULL,
    purge_at   TEXT    NOT NULL
);
CREATE INDEX vault_trash_user ON vault_trash (user_id, deleted_at);
CREATE INDEX vault_trash_purge ON vault_trash (purge_at);
