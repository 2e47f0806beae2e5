-- As setup.sql in SQLite's spelling: no zone-aware timestamp (a value with an offset is moved
-- to UTC), bytes as a BLOB literal, and nothing to GRANT (a database file has no roles).
DROP TABLE IF EXISTS tdg_conf_kinds;
CREATE TABLE tdg_conf_kinds (
    id      integer PRIMARY KEY,
    ratio   real,
    measure double,
    clock   time,
    instant timestamp,
    payload blob,
    exact   numeric
);
INSERT INTO tdg_conf_kinds VALUES
    (1, 0.1, 0.1, '13:14:15.5', '2024-02-29 15:14:15.123456+02:00', X'00ff10', 123.123456789),
    (2, -2.25, -1234567.125, '00:00:00', '1999-12-31 23:59:59+00:00', X'', 0.000000001),
    (3, NULL, NULL, NULL, NULL, NULL, NULL);
