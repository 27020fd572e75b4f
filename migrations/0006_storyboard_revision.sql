-- navsim's schema, step 6: a counter of storyboard changes.
--
-- Every transaction that changes the storyboards table (an upload or replacement, a PUT of
-- customSegues or classes, a refactor's two documents, a delete that removed a row) adds one to
-- `revision` in the same transaction. A process that holds the storyboards in memory and shares
-- the database with other processes compares the number it loaded at with this one before a use,
-- and reloads when it moved. One SQLite file has one navsim process, whose catalog never checks;
-- the counter is kept here as well so that both schemas mean the same.
CREATE TABLE storyboard_revision (
    id       INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    revision INTEGER NOT NULL
) STRICT;

INSERT INTO storyboard_revision (id, revision) VALUES (1, 0);
