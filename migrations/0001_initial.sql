-- navsim's schema, step 1. This folder is the only source of the schema: SessionStore applies
-- it through Migrator (PRAGMA user_version counts the applied steps). Never edit a shipped
-- step; add 0002_….sql instead.
--
-- Conventions:
-- * STRICT tables (SQLite >= 3.37): a value of the wrong type is an error instead of being
--   stored as whatever it happens to be (https://sqlite.org/stricttables.html).
-- * Text primary keys are declared NOT NULL: without it SQLite accepts NULL in a non-INTEGER
--   PRIMARY KEY, a legacy bug it keeps for compatibility (https://sqlite.org/lang_createtable.html).
-- * Timestamps are TEXT in the service's ISO 8601 form; JSON columns are TEXT written by the
--   service's encoder. SQLite interprets neither.
-- * Children reference their session with ON DELETE CASCADE (the store turns foreign_keys on
--   for every connection). session_id leads each child's primary key, so the cascade's lookup
--   of children by session uses that key's index rather than a table scan.

-- One row per session: its version (the number of accepted operations) and everything about
-- it except the controllers, as JSON.
CREATE TABLE sessions (
    id         TEXT NOT NULL PRIMARY KEY,
    version    INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    state      TEXT NOT NULL  -- JSON of the session minus its controllers
) STRICT;

-- One row per live view controller. The relations UIKit navigation walks are columns (not
-- only inside `body`) so that they are indexed and can be checked with plain SQL.
CREATE TABLE controllers (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    id         TEXT NOT NULL,
    parent     TEXT,           -- containment parent (navigation, tab bar, split, page, custom)
    presenting TEXT,           -- the controller that presented this one
    presented  TEXT,           -- the controller this one presents
    body       TEXT NOT NULL,  -- JSON of the controller
    PRIMARY KEY (session_id, id)
) STRICT;

-- "Children of X" and "what X presented" in one index range each.
CREATE INDEX controllers_by_parent ON controllers (session_id, parent);
CREATE INDEX controllers_by_presenting ON controllers (session_id, presenting);

-- One row per accepted operation: the request as received, the core command(s) to replay it
-- and the result as reported. The primary key orders a session's entries by version, so
-- paging (version > ? ORDER BY version LIMIT ?) is one index range.
CREATE TABLE history (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    at         TEXT NOT NULL,
    method     TEXT NOT NULL,
    path       TEXT NOT NULL,
    body       TEXT,           -- the request body, if it had one
    command    TEXT NOT NULL,  -- JSON of the core command(s), for replay
    result     TEXT NOT NULL,  -- JSON of the events/transition as reported
    PRIMARY KEY (session_id, version)
) STRICT;

-- Uploaded storyboards, kept byte for byte as uploaded (BLOB: the XML's encoding is the
-- document's business, not SQLite's).
CREATE TABLE storyboards (
    name          TEXT NOT NULL PRIMARY KEY,
    xml           BLOB NOT NULL,
    custom_segues TEXT,        -- JSON, if custom segue classes were declared
    updated_at    TEXT NOT NULL
) STRICT;
