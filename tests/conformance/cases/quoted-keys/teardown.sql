DROP TABLE IF EXISTS tdg_conf_quoted_keys;
