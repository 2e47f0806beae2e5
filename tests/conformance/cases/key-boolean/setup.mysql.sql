-- Keys of a BIT(1), the kind BOOL (see setup.sql).
DROP TABLE IF EXISTS tdg_conf_key_boolean;
CREATE TABLE tdg_conf_key_boolean (k bit(1) PRIMARY KEY, n integer NOT NULL);
INSERT INTO tdg_conf_key_boolean VALUES (b'1', 1), (b'0', 2);
GRANT SELECT ON tdg_conf_key_boolean TO PUBLIC;
