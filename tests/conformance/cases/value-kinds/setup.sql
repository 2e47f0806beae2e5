-- The value kinds the types case leaves out: single and double floating point, a time of day
-- with a fraction, an instant given in another zone, raw bytes (a NUL and a byte above 0x7f
-- included), and a numeric declared without precision whose values have nine decimals.
DROP TABLE IF EXISTS tdg_conf_kinds;
CREATE TABLE tdg_conf_kinds (
    id      integer PRIMARY KEY,
    ratio   real,
    measure double precision,
    clock   time(6),
    instant timestamptz,
    payload bytea,
    exact   numeric
);
INSERT INTO tdg_conf_kinds VALUES
    (1, 0.1, 0.1, '13:14:15.5', '2024-02-29 15:14:15.123456+02', '\x00ff10', 123.123456789),
    (2, -2.25, -1234567.125, '00:00:00', '1999-12-31 23:59:59+00', '\x', 0.000000001),
    (3, NULL, NULL, NULL, NULL, NULL, NULL);
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_kinds TO PUBLIC;
