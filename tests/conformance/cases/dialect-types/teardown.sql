DROP TABLE IF EXISTS tdg_conf_dialect_types;
