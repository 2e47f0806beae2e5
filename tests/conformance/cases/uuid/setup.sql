-- uuid as the key and as a value: the canonical lower-case text, whatever case it was written
-- in, and a key given in upper case still finds its row.
DROP TABLE IF EXISTS tdg_conf_uuid;
CREATE TABLE tdg_conf_uuid (
    id   uuid PRIMARY KEY,
    ref  uuid,
    note text
);
INSERT INTO tdg_conf_uuid VALUES
    ('A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '00000000-0000-0000-0000-000000000000',
     'written in upper case'),
    ('FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'the largest'),
    ('123e4567-e89b-12d3-a456-426614174000', NULL, NULL);
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_uuid TO PUBLIC;
