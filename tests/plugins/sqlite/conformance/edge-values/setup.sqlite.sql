-- The edges as SQLite stores them: dates and times are text, which the plugin sends as NULL
-- when it is no date of years 0000-9999 (infinity, BC, year 10000); 1e999 is a REAL infinity;
-- SQLite keeps no NaN. SQLite has no zone-aware type: tstz is a TIMESTAMP moved to UTC.
DROP TABLE IF EXISTS tdg_conf_edges;
CREATE TABLE tdg_conf_edges (
    id    INTEGER PRIMARY KEY,
    label TEXT,
    ts    TIMESTAMP,
    tstz  TIMESTAMP,
    day   DATE,
    num   NUMERIC,
    dbl   DOUBLE,
    flt   REAL
);
INSERT INTO tdg_conf_edges VALUES
    (1, 'infinity', 'infinity', 'infinity', 'infinity', 'Infinity', 1e999, 1e999),
    (2, '-infinity', '-infinity', '-infinity', '-infinity', '-Infinity', -1e999, -1e999),
    (3, 'before year 1, NaN', '0044-03-15 12:00:00 BC', '0044-03-15 12:00:00+00:00 BC',
     '0044-03-15 BC', 'NaN', NULL, NULL),
    (4, 'after year 9999, the smallest', '10000-01-01 00:00:00', '10000-01-01 00:00:00+00:00',
     '10000-01-01', 1e-20, 5e-324, 1e-45),
    (5, 'the first and last', '0001-01-01 00:00:00', '9999-12-31 23:59:59.999999+00:00',
     '9999-12-31', -0.0, -0.0, 3.4028235e38);
