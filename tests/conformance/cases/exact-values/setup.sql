-- Values at the ends of their types' ranges, decimals whose scale shows in their text, and a
-- text of 1 MiB: what a driver that reads through a double, a signed 64-bit integer or a
-- fixed buffer gets wrong.
DROP TABLE IF EXISTS tdg_conf_exact;
CREATE TABLE tdg_conf_exact (
    id      integer PRIMARY KEY,
    big     bigint,
    num38   numeric(38,0),
    num3810 numeric(38,10),
    money2  numeric(6,2),
    body    text,
    clock   time(6),
    clocktz timetz(6),
    ts      timestamp(6),
    tstz    timestamptz(6),
    day     date
);
INSERT INTO tdg_conf_exact VALUES
    (1, -9223372036854775808, -99999999999999999999999999999999999999,
     -9999999999999999999999999999.9999999999, 0.10, repeat('ab', 524288), '00:00:00',
     '00:00:00+15:59', '0001-01-01 00:00:00', '0001-01-01 00:00:00+00', '0001-01-01'),
    (2, 9223372036854775807, 99999999999999999999999999999999999999,
     1234567890123456789012345678.0123456789, 1.50, '', '23:59:59.999999',
     '23:59:59.999999-15:59', '9999-12-31 23:59:59.999999', '9999-12-31 23:59:59.999999+00',
     '9999-12-31'),
    (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_exact TO PUBLIC;
