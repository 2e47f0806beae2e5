-- SQLite has no uuid type: a column declared UUID holds text in any case or 16 raw bytes, which
-- the plugin sends as the canonical lower-case text. A key compares as it is stored, so the
-- keys are stored in lower case.
DROP TABLE IF EXISTS tdg_conf_uuid;
CREATE TABLE tdg_conf_uuid (
    id   UUID PRIMARY KEY,
    ref  UUID,
    note TEXT
);
INSERT INTO tdg_conf_uuid VALUES
    ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', X'00000000000000000000000000000000',
     'written in upper case'),
    ('ffffffff-ffff-ffff-ffff-ffffffffffff', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 'the largest'),
    ('123e4567-e89b-12d3-a456-426614174000', NULL, NULL);
