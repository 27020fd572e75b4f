-- navsim's schema, step 4: a history entry keeps what it changed, so a past version is rebuilt
-- from stored states instead of by running its commands again with whatever rules the binary has
-- now (docs/history.md "Reading a past version").
--
-- All three columns are NULL in the rows written before this step; such an entry is read by
-- replaying its commands (as every release before did), so old databases keep answering.

-- JSON of the change the entry made (a `StoredChange`, in the row's `format`): the controllers
-- whose stored form changed, the ids that left, and the session shell when it changed.
ALTER TABLE history ADD COLUMN changes TEXT;

-- JSON of the whole stored state after the entry (a `StoredSessionState` with its controllers),
-- kept on every K-th entry (SessionHistory.checkpointInterval); NULL on the others. Entry 0's
-- `result` already holds the initial state and serves as its checkpoint.
ALTER TABLE history ADD COLUMN checkpoint TEXT;

-- The version of the navigation rules (RulesVersion.current) that produced the entry.
ALTER TABLE history ADD COLUMN rules_version INTEGER;
