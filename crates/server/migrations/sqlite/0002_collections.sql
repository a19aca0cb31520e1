-- Paginated collections: unified accounts and company user permissions.
--
-- Accounts are paged through by position ("page 50,000") at any depth in constant time:
-- every sort order has a covering index whose leading columns are (sort key, seq), and
-- `account_marks` remembers the key of every 256th row of each order (overall, and within
-- each status, each type and each status+type), so a page seeks to the nearest mark and
-- skips fewer than 256 index entries. `account_counts` keeps the totals. Triggers keep the
-- counts and a version number current; the marks are rebuilt by whoever writes accounts
-- (import, seed) in the same transaction, and are only used while their version matches.

CREATE TABLE accounts (
    -- The stable tiebreaker of every order (insertion order).
    seq                  INTEGER PRIMARY KEY,
    id                   TEXT    NOT NULL UNIQUE,
    account_name         TEXT    NOT NULL,
    -- Index into AccountType::ALL (0 API_Customer, 1 Corporate_Client, 2 Corporate_Holding,
    -- 3 Household, 4 Individual_Client): the API text's alphabetical order.
    type_code            INTEGER NOT NULL CHECK (type_code BETWEEN 0 AND 4),
    business_entity_type TEXT,
    account_email        TEXT,
    sub_routing_number   TEXT,
    sub_routing_name     TEXT,
    parent_account_id    TEXT,
    account_number       TEXT,
    -- Index into AccountStatus::ALL (0 Active, 1 Closed, 2 Inactive, 3 Pending, 4 Suspended).
    status_code          INTEGER NOT NULL CHECK (status_code BETWEEN 0 AND 4),
    -- Masked to the last four digits; the full TIN is never stored.
    tin                  TEXT,
    record_type_id       TEXT,
    billing_street       TEXT,
    billing_city         TEXT,
    billing_state        TEXT,
    billing_postal_code  TEXT,
    billing_country      TEXT,
    mailing_street       TEXT,
    mailing_city         TEXT,
    mailing_state        TEXT,
    mailing_postal_code  TEXT,
    mailing_country      TEXT,
    -- Exact decimal text, as answered.
    market_value         TEXT,
    -- createTime in milliseconds since 1970-01-01T00:00:00 (UTC, no zone).
    create_ms            INTEGER NOT NULL,
    -- Sort keys: the lower-cased name; marketValue in ten-thousandths (NULL value = lowest).
    name_key             TEXT    NOT NULL,
    value_key            INTEGER NOT NULL
);

-- One covering index per sort order: (key, seq) order, plus the filter columns.
CREATE INDEX accounts_by_create ON accounts (create_ms, seq, status_code, type_code);
CREATE INDEX accounts_by_name   ON accounts (name_key, seq, status_code, type_code, create_ms);
CREATE INDEX accounts_by_status ON accounts (status_code, seq, type_code, create_ms);
CREATE INDEX accounts_by_type   ON accounts (type_code, seq, status_code, create_ms);
CREATE INDEX accounts_by_value  ON accounts (value_key, seq, status_code, type_code, create_ms);
CREATE INDEX accounts_by_id     ON accounts (id, seq, status_code, type_code, create_ms);

CREATE TABLE account_counts (
    status_code INTEGER NOT NULL,
    type_code   INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    PRIMARY KEY (status_code, type_code)
) WITHOUT ROWID;

INSERT INTO account_counts (status_code, type_code, n)
    WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 4)
    SELECT s.x, t.x, 0 FROM c AS s, c AS t;

-- version: bumped by every change to the collection; marks_version: the version the marks
-- were built at.
CREATE TABLE collection_versions (
    name          TEXT PRIMARY KEY,
    version       INTEGER NOT NULL,
    marks_version INTEGER NOT NULL
);

INSERT INTO collection_versions (name, version, marks_version) VALUES ('accounts', 0, 0);

CREATE TRIGGER accounts_after_insert AFTER INSERT ON accounts BEGIN
    UPDATE account_counts SET n = n + 1 WHERE status_code = NEW.status_code AND type_code = NEW.type_code;
    UPDATE collection_versions SET version = version + 1 WHERE name = 'accounts';
END;

CREATE TRIGGER accounts_after_delete AFTER DELETE ON accounts BEGIN
    UPDATE account_counts SET n = n - 1 WHERE status_code = OLD.status_code AND type_code = OLD.type_code;
    UPDATE collection_versions SET version = version + 1 WHERE name = 'accounts';
END;

CREATE TRIGGER accounts_after_update AFTER UPDATE ON accounts BEGIN
    UPDATE account_counts SET n = n - 1 WHERE status_code = OLD.status_code AND type_code = OLD.type_code;
    UPDATE account_counts SET n = n + 1 WHERE status_code = NEW.status_code AND type_code = NEW.type_code;
    UPDATE collection_versions SET version = version + 1 WHERE name = 'accounts';
END;

-- The row at position n (0-based; every 256th) of sort order `sort` within partition `part`
-- (0 all; 100 + status; 200 + type; 1000 + 10 * status + type). `sort_key` is that row's key.
CREATE TABLE account_marks (
    sort     INTEGER NOT NULL,
    part     INTEGER NOT NULL,
    n        INTEGER NOT NULL,
    -- No type affinity (BLOB): keys are kept exactly as bound, INTEGER or TEXT.
    sort_key BLOB    NOT NULL,
    seq      INTEGER NOT NULL,
    PRIMARY KEY (sort, part, n)
) WITHOUT ROWID;

CREATE INDEX account_marks_by_key ON account_marks (sort, part, sort_key, seq);

-- Company user permissions: one API scope granted to one user of one company.
CREATE TABLE permissions (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      TEXT    NOT NULL,
    user_name    TEXT    NOT NULL,
    user_email   TEXT,
    company_id   TEXT    NOT NULL,
    company_name TEXT    NOT NULL,
    scope        TEXT    NOT NULL,
    granted_by   TEXT    NOT NULL,
    -- grantedAt in milliseconds since 1970-01-01T00:00:00 (UTC).
    granted_ms   INTEGER NOT NULL,
    UNIQUE (user_id, company_id, scope)
);

CREATE INDEX permissions_by_user_name ON permissions (user_name COLLATE NOCASE, id);
CREATE INDEX permissions_by_user_id   ON permissions (user_id, id);
CREATE INDEX permissions_by_company   ON permissions (company_name COLLATE NOCASE, id);
CREATE INDEX permissions_by_scope     ON permissions (scope, id);
CREATE INDEX permissions_by_granted   ON permissions (granted_ms, id);
CREATE INDEX permissions_by_grantor   ON permissions (granted_by COLLATE NOCASE, id);
