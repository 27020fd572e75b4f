-- Step 4: a history entry keeps its change-set, a checkpoint on every 64th entry, and the rules
-- version that produced it (docs/history.md). NULL in rows written before this step.
ALTER TABLE history ADD COLUMN changes TEXT;
ALTER TABLE history ADD COLUMN checkpoint TEXT;
ALTER TABLE history ADD COLUMN rules_version INTEGER;
