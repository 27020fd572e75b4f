-- Step 3: a storyboard's declared view controller classes (PUT /v1/storyboards/{name}/classes),
-- JSON, NULL when none are declared.
ALTER TABLE storyboards ADD COLUMN classes TEXT;
