-- Keys of raw bytes. The host sends a bytes key as its canonical text, lowercase hex without a
-- prefix (dialect_abi.h, "Key texts"); a driver binds it as bytes. One that binds the hex as
-- text, or expects a "\x" prefix, finds no row (the engine would then write false deletes).
DROP TABLE IF EXISTS tdg_conf_key_bytes;
CREATE TABLE tdg_conf_key_bytes (k bytea PRIMARY KEY, n integer NOT NULL);
INSERT INTO tdg_conf_key_bytes VALUES
    ('\x00ff', 1), ('\x00', 2), ('\xff00', 3), ('\x2c27', 4), ('\x7b7d5c', 5);
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_key_bytes TO PUBLIC;
