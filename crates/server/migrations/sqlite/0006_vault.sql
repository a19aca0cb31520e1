-- Document vault (vault group). A token belongs to a user (`user_id`; NULL = the user named
-- like the token): whose vault it reaches. Folders are rows keyed by their whole path, so a
-- folder's subtree is one index range (`path >= 'a/' AND path < 'a0'`: '0' follows '/'),
-- and a move rewrites the moved folders' paths in one statement while files keep pointing
-- at their folder's id: the cost does not grow with the files inside. File contents are
-- blobs addressed by SHA-256 (`vault/sha256/<hex>`), stored once however often they recur.

ALTER TABLE tokens ADD COLUMN user_id TEXT;

CREATE TABLE vault_folders (
    id         INTEGER PRIMARY KEY,
    user_id    TEXT    NOT NULL,
    -- NFC, '/'-separated, relative to the vault root; '' is the root (created on first use).
    path       TEXT    NOT NULL,
    -- The parent's path; NULL for the root.
    parent     TEXT,
    name       TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    UNIQUE (user_id, path)
);
CREATE INDEX vault_folders_children ON vault_folders (user_id, parent, name);

CREATE TABLE vault_files (
    id           INTEGER PRIMARY KEY,
    folder_id    INTEGER NOT NULL REFERENCES vault_folders (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    -- The latest version's, kept here so a listing reads one row a file.
    size         INTEGER NOT NULL,
    content_type TEXT    NOT NULL,
    modified_at  TEXT    NOT NULL,
    versions     INTEGER NOT NULL,
    UNIQUE (folder_id, name)
);

CREATE TABLE vault_versions (
    id           INTEGER PRIMARY KEY,
    file_id      INTEGER NOT NULL REFERENCES vault_files (id) ON DELETE CASCADE,
    version      INTEGER NOT NULL,
    sha256       TEXT    NOT NULL,
    size         INTEGER NOT NULL,
    content_type TEXT    NOT NULL,
    created_at   TEXT    NOT NULL,
    uploaded_by  TEXT    NOT NULL,
    UNIQUE (file_id, version)
);
CREATE INDEX vault_versions_sha256 ON vault_versions (sha256);
