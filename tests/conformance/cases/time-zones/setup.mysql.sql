-- As setup.sql in MySQL's spelling: the values written from a session in UTC, so that the
-- timestamp column holds the instants expected.json names.
SET time_zone = '+00:00';
DROP TABLE IF EXISTS tdg_conf_zone;
CREATE TABLE tdg_conf_zone (
    id    integer PRIMARY KEY,
    ts    datetime(6),
    tstz  timestamp(6) NULL,
    clock time(6),
    day   date
);
INSERT INTO tdg_conf_zone VALUES
    (1, '2024-01-01 00:00:00', '2024-01-01 00:00:00', '00:00:00', '2024-01-01'),
    (2, '2024-07-01 23:59:59.999999', '2024-07-01 00:30:00', '23:59:59.999999', '2024-02-29'),
    (3, NULL, NULL, NULL, NULL);
