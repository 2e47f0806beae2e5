-- Keys of a date (tests/conformance/cases/key-date): SQLite keeps the text as it was given.
DROP TABLE IF EXISTS tdg_conf_key_date;
CREATE TABLE tdg_conf_key_date (k DATE PRIMARY KEY, n INTEGER NOT NULL);
INSERT INTO tdg_conf_key_date VALUES ('2024-02-29', 1), ('0001-01-01', 2), ('9999-12-31', 3);
