DROP TABLE IF EXISTS tdg_conf_diffgen;
DROP TABLE IF EXISTS tdg_conf_diffgen_empty;
