-- navsim's schema, step 3: what a storyboard's view controller classes do
-- (PUT /v1/storyboards/{name}/classes): JSON `{"<customClass>": {configuration fields}}`,
-- NULL when nothing is declared. Kept beside the custom segue declarations of the same row.
ALTER TABLE storyboards ADD COLUMN classes TEXT;
