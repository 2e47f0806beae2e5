-- Keys of a numeric with a scale. The host sends such a key with exactly the column's scale
-- ("-1.500" for numeric(12,3)); a driver binds it as a number. One that reads the key through
-- a double, or compares it as text with another scale, loses rows.
DROP TABLE IF EXISTS tdg_conf_key_decimal;
CREATE TABLE tdg_conf_key_decimal (k numeric(12,3) PRIMARY KEY, n integer NOT NULL);
INSERT INTO tdg_conf_key_decimal VALUES
    (-1.5, 1), (0, 2), (12.345, 3), (999999999.999, 4), (-0.001, 5);
GRANT SELECT ON tdg_conf_key_decimal TO PUBLIC;
