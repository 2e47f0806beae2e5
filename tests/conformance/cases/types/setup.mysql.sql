-- As setup.sql in MySQL's spelling: DATETIME is the zone-less timestamp, BOOLEAN is
-- tinyint(1), and the emoji needs utf8mb4 on the table and the client.
SET NAMES utf8mb4;
DROP TABLE IF EXISTS tdg_conf_types;
CREATE TABLE tdg_conf_types (
    id     integer PRIMARY KEY,
    amount decimal(12,4),
    note   text,
    flag   boolean,
    day    date,
    at     datetime(6)
) DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_conf_types VALUES
    (1, 12345678.1234, 'café ☕ 😀', true, '2024-02-29', '2024-02-29 13:14:15.123456'),
    (2, -0.0001, '', false, '1970-01-01', '1999-12-31 23:59:59'),
    (3, 0, 'plain', NULL, NULL, NULL),
    (4, NULL, NULL, NULL, NULL, NULL);
