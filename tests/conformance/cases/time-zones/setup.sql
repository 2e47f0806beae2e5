-- Every time type, written with its offsets spelled out; writer.sql then sets the server's time
-- zone for new sessions east and west of UTC ("server_time_zones"), and a plugin must read the
-- same values in each (it puts its own session in UTC).
DROP TABLE IF EXISTS tdg_conf_zone;
CREATE TABLE tdg_conf_zone (
    id      integer PRIMARY KEY,
    ts      timestamp(6),
    tstz    timestamptz(6),
    clock   time(6),
    clocktz timetz(6),
    day     date
);
INSERT INTO tdg_conf_zone VALUES
    (1, '2024-01-01 00:00:00', '2024-01-01 00:00:00+00', '00:00:00', '00:00:00+00',
     '2024-01-01'),
    (2, '2024-07-01 23:59:59.999999', '2024-06-30 23:30:00-01:00', '23:59:59.999999',
     '23:59:59.999999+05:30', '2024-02-29'),
    (3, NULL, NULL, NULL, NULL, NULL);
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_zone TO PUBLIC;
