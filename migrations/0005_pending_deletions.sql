-- navsim's schema, step 5: sessions whose rows are still being removed.
--
-- DELETE /v1/sessions/{sid} removes the session row and records its id here in one transaction,
-- so the session is gone (404) as soon as the reply says so, and after a crash. Its controllers
-- and history are then removed a bounded chunk per transaction (SessionStore.sweepDeletion), so
-- a 10,000-entry session does not hold the single writer for the whole cascade. The id's row here
-- goes in the transaction that removes the last of them; at start-up every id still listed is
-- swept again, so a crash between chunks leaves nothing behind.
--
-- The children reference sessions(id) with ON DELETE CASCADE (step 1); the store deletes the
-- session row with foreign keys off for that one transaction, so the cascade does not run there.
CREATE TABLE pending_deletions (
    session_id TEXT NOT NULL PRIMARY KEY
) STRICT;
