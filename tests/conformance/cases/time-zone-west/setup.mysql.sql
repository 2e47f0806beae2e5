-- As setup.sql in MySQL's spelling: the server's time zone for new sessions, and the session
-- that writes the values, at -03:00.
SET GLOBAL time_zone = '-03:00';
SET time_zone = '-03:00';
DROP TABLE IF EXISTS tdg_conf_zone;
CREATE TABLE tdg_conf_zone (
    id    integer PRIMARY KEY,
    ts    datetime(6),
    tstz  timestamp(6) NULL,
    clock time(6),
    day   date
);
-- timestamp values are written as UTC instants moved into the session's zone, so that the
-- table holds the instants the expectations name.
INSERT INTO tdg_conf_zone VALUES
    (1, '2024-01-01 00:00:00', CONVERT_TZ('2024-01-01 00:00:00', '+00:00', '-03:00'),
     '00:00:00', '2024-01-01'),
    (2, '2024-07-01 23:59:59.999999', CONVERT_TZ('2024-07-01 00:30:00', '+00:00', '-03:00'),
     '23:59:59.999999', '2024-02-29'),
    (3, NULL, NULL, NULL, NULL);
