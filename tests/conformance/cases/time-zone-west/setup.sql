-- Times read with a server and its sessions at -03:00, west of UTC: the server's default time
-- zone set so that every new session starts in it (a plugin must put its own session in UTC),
-- and the values written from a session in that zone with their offsets spelled out.
DO $$
BEGIN
    EXECUTE format('ALTER DATABASE %I SET timezone = %L', current_database(), 'America/Sao_Paulo');
END
$$;
SET timezone = 'America/Sao_Paulo';
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
