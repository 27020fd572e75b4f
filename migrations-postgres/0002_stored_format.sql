-- Step 2: each JSON column's row records its persistence format version (StoredFormat.swift);
-- rows from before are format 1. PostgreSQL 11+ adds a column with a constant DEFAULT without
-- rewriting the table.
ALTER TABLE sessions ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
ALTER TABLE controllers ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
ALTER TABLE history ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
