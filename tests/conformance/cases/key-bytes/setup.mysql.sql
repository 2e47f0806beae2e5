-- Keys of raw bytes (see setup.sql): bound as bytes from their lowercase hex.
DROP TABLE IF EXISTS tdg_conf_key_bytes;
CREATE TABLE tdg_conf_key_bytes (k varbinary(8) PRIMARY KEY, n integer NOT NULL);
INSERT INTO tdg_conf_key_bytes VALUES
    (X'00ff', 1), (X'00', 2), (X'ff00', 3), (X'2c27', 4), (X'7b7d5c', 5);
GRANT SELECT ON tdg_conf_key_bytes TO PUBLIC;
