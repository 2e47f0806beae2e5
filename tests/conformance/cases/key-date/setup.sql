-- Keys of a date, sent as "YYYY-MM-DD" at both ends of the range RFC 3339 allows; a driver
-- binds it as a date.
DROP TABLE IF EXISTS tdg_conf_key_date;
CREATE TABLE tdg_conf_key_date (k date PRIMARY KEY, n integer NOT NULL);
INSERT INTO tdg_conf_key_date VALUES ('2024-02-29', 1), ('0001-01-01', 2), ('9999-12-31', 3);
GRANT SELECT ON tdg_conf_key_date TO PUBLIC;
