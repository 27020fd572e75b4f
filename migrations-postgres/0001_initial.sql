-- navsim's schema for PostgreSQL, step 1. Same steps, numbers and names as migrations/ (the
-- SQLite schema), in PostgreSQL's dialect; a test compares the two folders' file lists.
-- PostgresSessionStore applies the steps it has not recorded in schema_migrations, all pending
-- ones in one transaction (PostgreSQL's DDL is transactional). Never edit a shipped step.
--
-- Dialect differences from the SQLite files:
-- * Integers that count (versions) are BIGINT; PostgreSQL's types are strict without STRICT.
-- * The document is BYTEA (SQLite's BLOB).
-- * A PRIMARY KEY column is NOT NULL by definition.
-- Timestamps stay TEXT in the service's ISO 8601 form and JSON stays TEXT (not jsonb), so that
-- both stores hold the same bytes and the server interprets neither.

CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    version    BIGINT NOT NULL,
    created_at TEXT NOT NULL,
    state      TEXT NOT NULL  -- JSON of the session minus its controllers
);

CREATE TABLE controllers (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    id         TEXT NOT NULL,
    parent     TEXT,
    presenting TEXT,
    presented  TEXT,
    body       TEXT NOT NULL,  -- JSON of the controller
    PRIMARY KEY (session_id, id)
);

CREATE INDEX controllers_by_parent ON controllers (session_id, parent);
CREATE INDEX controllers_by_presenting ON controllers (session_id, presenting);

-- The primary key makes a history page (version > $2 ORDER BY version LIMIT $3) one index range.
CREATE TABLE history (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    version    BIGINT NOT NULL,
    at         TEXT NOT NULL,
    method     TEXT NOT NULL,
    path       TEXT NOT NULL,
    body       TEXT,
    command    TEXT NOT NULL,
    result     TEXT NOT NULL,
    PRIMARY KEY (session_id, version)
);

CREATE TABLE storyboards (
    name          TEXT PRIMARY KEY,
    xml           BYTEA NOT NULL,  -- byte for byte as uploaded
    custom_segues TEXT,
    updated_at    TEXT NOT NULL
);
