-- Values at and past the edges of what the ABI's kinds carry. A value a kind has no text for
-- (±infinity, a date before year 1 or after year 9999, NaN) is sent as NULL, never as some
-- other date or number; the smallest and largest values that do have one arrive exact.
DROP TABLE IF EXISTS tdg_conf_edges;
CREATE TABLE tdg_conf_edges (
    id    integer PRIMARY KEY,
    label text,
    ts    timestamp(6),
    tstz  timestamptz,
    day   date,
    num   numeric,
    dbl   double precision,
    flt   real
);
INSERT INTO tdg_conf_edges VALUES
    (1, 'infinity', 'infinity', 'infinity', 'infinity', 'Infinity', 'Infinity', 'Infinity'),
    (2, '-infinity', '-infinity', '-infinity', '-infinity', '-Infinity', '-Infinity',
     '-Infinity'),
    (3, 'before year 1, NaN', '0044-03-15 12:00:00 BC', '0044-03-15 12:00:00+00 BC',
     '0044-03-15 BC', 'NaN', 'NaN', 'NaN'),
    (4, 'after year 9999, the smallest', '10000-01-01 00:00:00', '10000-01-01 00:00:00+00',
     '10000-01-01', 0.00000000000000000001, 5e-324, 1e-45),
    (5, 'the first and last', '0001-01-01 00:00:00', '9999-12-31 23:59:59.999999+00',
     '9999-12-31', -0.0, '-0', 3.4028235e38);
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_edges TO PUBLIC;
