-- navsim's schema for PostgreSQL, step 6 (migrations/0006_storyboard_revision.sql in SQLite).
--
-- One row: how many transactions have changed the storyboards table. PostgresSessionStore adds
-- one in every transaction that uploads, replaces, declares or deletes storyboards, so the
-- update's row lock also orders concurrent storyboard writes from several instances. Each
-- instance's catalog reads this number (one primary-key row) before it uses its in-memory
-- storyboards and reloads them from `storyboards` when it differs from the one it loaded at:
-- a change made through one instance is seen by every other on its next use.
CREATE TABLE storyboard_revision (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    revision BIGINT NOT NULL
);

INSERT INTO storyboard_revision (id, revision) VALUES (1, 0);
