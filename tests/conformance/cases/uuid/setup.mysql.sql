-- As setup.sql with MariaDB's UUID type (10.7 and later; MySQL has none).
SET NAMES utf8mb4;
DROP TABLE IF EXISTS tdg_conf_uuid;
CREATE TABLE tdg_conf_uuid (
    id   UUID PRIMARY KEY,
    ref  UUID,
    note text
) DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_conf_uuid VALUES
    ('A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '00000000-0000-0000-0000-000000000000',
     'written in upper case'),
    ('FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'the largest'),
    ('123e4567-e89b-12d3-a456-426614174000', NULL, NULL);
