-- navsim's schema, step 2: every JSON column's row says which version of the persistence format
-- (Sources/NavSimService/Storage/StoredFormat.swift) it holds.
--
-- The version is per row, not per session: a commit rewrites the session row and only the
-- controllers that changed, and history entries are never rewritten, so one session can hold
-- rows written by two releases. Rows written before this step are format 1 (the DEFAULT), which
-- is the shape every release so far wrote. Adding a NOT NULL column with a constant DEFAULT
-- leaves the existing rows in place (https://sqlite.org/lang_altertable.html#altertabaddcol).

-- The format of `state`.
ALTER TABLE sessions ADD COLUMN format INTEGER NOT NULL DEFAULT 1;

-- The format of `body`.
ALTER TABLE controllers ADD COLUMN format INTEGER NOT NULL DEFAULT 1;

-- The format of `command`, and of `result` in entry 0 (the replay base). The other entries'
-- `result` is the reply's JSON as reported (docs/api.md), not a stored type.
ALTER TABLE history ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
