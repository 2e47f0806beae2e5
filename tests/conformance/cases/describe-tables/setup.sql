-- A table whose columns the case alters one at a time (expected.json's alterations).
DROP TABLE IF EXISTS tdg_conf_described;
CREATE TABLE tdg_conf_described (
    id     integer PRIMARY KEY,
    note   text,
    qty    integer,
    amount numeric(12,4)
);
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_described TO PUBLIC;
