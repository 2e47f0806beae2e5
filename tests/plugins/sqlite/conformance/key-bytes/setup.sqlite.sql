-- Keys of raw bytes (tests/conformance/cases/key-bytes): a BLOB key, bound as a blob from the
-- host's lowercase hex.
DROP TABLE IF EXISTS tdg_conf_key_bytes;
CREATE TABLE tdg_conf_key_bytes (k BLOB PRIMARY KEY, n INTEGER NOT NULL);
INSERT INTO tdg_conf_key_bytes VALUES
    (X'00ff', 1), (X'00', 2), (X'ff00', 3), (X'2c27', 4), (X'7b7d5c', 5);
