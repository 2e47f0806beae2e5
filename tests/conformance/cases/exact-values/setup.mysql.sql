-- As setup.sql in MySQL's spelling, with what MySQL adds: bigint unsigned up to 2^64-1, a
-- TIME that is a duration of up to 838 hours, and text holding NUL characters.
SET time_zone = '+00:00';
DROP TABLE IF EXISTS tdg_conf_exact;
CREATE TABLE tdg_conf_exact (
    id      integer PRIMARY KEY,
    big     bigint,
    ubig    bigint unsigned,
    num38   decimal(38,0),
    num3810 decimal(38,10),
    money2  decimal(6,2),
    body    longtext,
    nul     text,
    clock   time(6),
    ts      datetime(6),
    tstz    timestamp(6) NULL,
    day     date
) DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_conf_exact VALUES
    (1, -9223372036854775808, 0, -99999999999999999999999999999999999999,
     -9999999999999999999999999999.9999999999, 0.10, REPEAT('ab', 524288),
     CONCAT('a', CHAR(0), 'b'), '-838:59:59', '1000-01-01 00:00:00', '1970-01-01 00:00:01',
     '1000-01-01'),
    (2, 9223372036854775807, 18446744073709551615, 99999999999999999999999999999999999999,
     1234567890123456789012345678.0123456789, 1.50, '', CHAR(0), '838:59:59',
     '9999-12-31 23:59:59.999999', '2038-01-19 03:14:07.999999', '9999-12-31'),
    (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
