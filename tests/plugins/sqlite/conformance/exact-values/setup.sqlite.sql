-- As setup.sql in SQLite's spelling, with the types SQLite's driver maps: 64-bit integers at
-- both ends, a NUMERIC(6,2) whose scale shows in its text, a text of 1 MiB and one holding NUL
-- characters, and times at both ends of the day.
DROP TABLE IF EXISTS tdg_conf_exact;
CREATE TABLE tdg_conf_exact (
    id     INTEGER PRIMARY KEY,
    big    BIGINT,
    money2 NUMERIC(6,2),
    body   TEXT,
    nul    TEXT,
    clock  TIME,
    ts     DATETIME,
    day    DATE
);
INSERT INTO tdg_conf_exact VALUES
    (1, -9223372036854775808, 0.1, replace(hex(zeroblob(524288)), '00', 'ab'),
     'a' || char(0) || 'b', '00:00:00', '0001-01-01 00:00:00', '0001-01-01'),
    (2, 9223372036854775807, 1.5, '', char(0), '23:59:59.999999', '9999-12-31 23:59:59.999',
     '9999-12-31'),
    (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
