-- Keys of a date (see setup.sql); MySQL's DATE starts at 1000-01-01 in its documented range.
DROP TABLE IF EXISTS tdg_conf_key_date;
CREATE TABLE tdg_conf_key_date (k date PRIMARY KEY, n integer NOT NULL);
INSERT INTO tdg_conf_key_date VALUES ('2024-02-29', 1), ('1000-01-01', 2), ('9999-12-31', 3);
GRANT SELECT ON tdg_conf_key_date TO PUBLIC;
