-- Keys of a boolean, sent as "true" or "false"; a driver binds it as a boolean (PostgreSQL
-- reads "true" as one; MySQL's BIT(1) does not, and needs it bound as 1 or 0).
DROP TABLE IF EXISTS tdg_conf_key_boolean;
CREATE TABLE tdg_conf_key_boolean (k boolean PRIMARY KEY, n integer NOT NULL);
INSERT INTO tdg_conf_key_boolean VALUES (true, 1), (false, 2);
GRANT SELECT ON tdg_conf_key_boolean TO PUBLIC;
