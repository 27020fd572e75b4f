-- navsim's schema for PostgreSQL, step 5 (migrations/0005_pending_deletions.sql in SQLite).
--
-- pending_deletions: the SQLite store removes a deleted session's controllers and history in
-- chunks after the reply and lists the id here meanwhile. PostgresSessionStore deletes the
-- session row and lets ON DELETE CASCADE remove the rest in the same transaction, so it leaves
-- this table empty; the table is here so that both schemas have the same tables.
CREATE TABLE pending_deletions (
    session_id TEXT PRIMARY KEY
);

-- Session listing pages by keyset on the primary key (WHERE id > $1 ORDER BY id). Under the
-- "C" collation the key's order is byte order, i.e. Unicode scalar order for UTF-8, as
-- SQLite's BINARY; under a database's default (e.g. en_US.UTF-8) it would follow that locale.
-- The referencing keys of controllers and history are rechecked by PostgreSQL.
ALTER TABLE sessions ALTER COLUMN id TYPE TEXT COLLATE "C";
