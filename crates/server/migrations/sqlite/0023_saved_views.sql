-- Saved views (views group): a data table's view (the URL query the table owns) saved by name,
-- per user (the token's user), so it follows the user to another browser. Saving a name again
-- replaces its query. Times are RFC 3339 UTC texts.
CREATE TABLE saved_views (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    TEXT    NOT NULL,
    table_id   TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    query      TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    -- One view of a name per user and table; also the list's index (a user's views of a table).
    UNIQUE (user_id, table_id, name)
);
