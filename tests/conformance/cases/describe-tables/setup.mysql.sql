-- As setup.sql in MySQL's spelling.
DROP TABLE IF EXISTS tdg_conf_described;
CREATE TABLE tdg_conf_described (
    id     integer PRIMARY KEY,
    note   text,
    qty    integer,
    amount decimal(12,4)
) DEFAULT CHARSET = utf8mb4;
