-- Keys of a timestamp with microseconds. The host sends such a key as
-- "YYYY-MM-DDTHH:MM:SS.ffffff" (six fraction digits, a T, no offset); a driver binds it as a
-- timestamp. One that compares it as text, or drops the fraction, loses rows.
DROP TABLE IF EXISTS tdg_conf_key_timestamp;
CREATE TABLE tdg_conf_key_timestamp (k timestamp(6) PRIMARY KEY, n integer NOT NULL);
INSERT INTO tdg_conf_key_timestamp VALUES
    ('2024-01-01 10:00:00.0001', 1), ('1970-01-01 00:00:00', 2),
    ('2024-02-29 23:59:59.999999', 3), ('2024-01-01 10:00:00', 4);
GRANT SELECT ON tdg_conf_key_timestamp TO PUBLIC;
