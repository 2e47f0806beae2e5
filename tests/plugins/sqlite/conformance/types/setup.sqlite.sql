-- As setup.sql in SQLite's spelling: a database file has no roles, so nothing to GRANT.
-- One column per common type, with the values whose text forms the ABI pins down.
DROP TABLE IF EXISTS tdg_conf_types;
CREATE TABLE tdg_conf_types (
    id     integer PRIMARY KEY,
    amount numeric(12,4),
    note   text,
    flag   boolean,
    day    date,
    at     timestamp(6)
);
INSERT INTO tdg_conf_types VALUES
    (1, 12345678.1234, 'café ☕ 😀', true, '2024-02-29', '2024-02-29 13:14:15.123456'),
    (2, -0.0001, '', false, '1970-01-01', '1999-12-31 23:59:59'),
    (3, 0, 'plain', NULL, NULL, NULL),
    (4, NULL, NULL, NULL, NULL, NULL);
