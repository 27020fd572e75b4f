-- navsim's schema for PostgreSQL, step 7 (migrations/0007_chunked_deletes.sql in SQLite).
--
-- PostgresSessionStore deletes a session as SessionStore does: the session row goes at once and
-- its id is recorded in pending_deletions (step 5) in the same transaction; its controllers and
-- history are removed afterwards, a bounded chunk per transaction, so that a long session's
-- delete does not hold the one writer connection for the whole removal. The ON DELETE CASCADE of
-- step 1 would remove every child row in the session row's own DELETE, and PostgreSQL cannot turn
-- a cascade off for one transaction as SQLite's foreign_keys pragma can, so the two references
-- go. Every child row is written in the transaction that writes its session row (the row exists
-- or the commit is refused), and the sweep removes the children of deleted sessions.
ALTER TABLE controllers DROP CONSTRAINT controllers_session_id_fkey;
ALTER TABLE history DROP CONSTRAINT history_session_id_fkey;
