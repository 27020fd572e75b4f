-- navsim's schema, step 7: nothing changes in SQLite.
--
-- The PostgreSQL schema's step 7 drops the children's ON DELETE CASCADE references so that its
-- store can remove a deleted session's rows in chunks, as this store already does by deleting
-- the session row with foreign keys off for that one transaction (step 5). The step is here so
-- that both folders keep the same numbers and names; SQLite's references stay.
SELECT 1;
