-- The edges in MySQL's spelling: zero dates and dates with a zero month or day (sql_mode ''
-- admits them) have no day at all; DATETIME, TIMESTAMP and DATE at their first and last
-- values; a DECIMAL of 65 digits; the smallest double; FLOAT's largest and smallest normal
-- values, which only a single-precision formatter writes back as they were given. MySQL keeps
-- no NaN or infinity.
SET SESSION sql_mode = '', SESSION time_zone = '+00:00';
DROP TABLE IF EXISTS tdg_conf_edges;
CREATE TABLE tdg_conf_edges (
    id    integer PRIMARY KEY,
    label text,
    ts    datetime(6),
    tstz  timestamp(6) NULL,
    day   date,
    num   decimal(65,30),
    dbl   double,
    flt   float
) DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_conf_edges VALUES
    (1, 'zero dates', '0000-00-00 00:00:00', '0000-00-00 00:00:00', '0000-00-00', NULL, NULL,
     NULL),
    (2, 'zero month or day', '2024-00-10 00:00:00', NULL, '2024-02-00', NULL, NULL, NULL),
    (3, 'the smallest', '1000-01-01 00:00:00', '1970-01-01 00:00:01', '1000-01-01',
     0.000000000000000000000000000001, 5e-324, 1.17549435e-38),
    (4, 'the largest', '9999-12-31 23:59:59.999999', '2038-01-19 03:14:07.999999', '9999-12-31',
     -99999999999999999999999999999999999.999999999999999999999999999999, -0, 3.4028235e38);
