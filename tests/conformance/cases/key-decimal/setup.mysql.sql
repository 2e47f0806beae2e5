-- Keys of a decimal with a scale (see setup.sql).
DROP TABLE IF EXISTS tdg_conf_key_decimal;
CREATE TABLE tdg_conf_key_decimal (k decimal(12,3) PRIMARY KEY, n integer NOT NULL);
INSERT INTO tdg_conf_key_decimal VALUES
    (-1.5, 1), (0, 2), (12.345, 3), (999999999.999, 4), (-0.001, 5);
GRANT SELECT ON tdg_conf_key_decimal TO PUBLIC;
