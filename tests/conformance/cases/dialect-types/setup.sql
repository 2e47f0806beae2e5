-- Types the ABI has no kind of their own for, as the postgres plugin sends them: arrays as JSON
-- arrays (NULL elements kept, NaN as the string "NaN") with an items schema, timetz as a TIME
-- with its offset, and money, interval and inet as the server's own text (money under the
-- server's lc_monetary, C.UTF-8 here).
DROP TABLE IF EXISTS tdg_conf_dialect_types;
CREATE TABLE tdg_conf_dialect_types (
    id    integer PRIMARY KEY,
    ints  integer[],
    texts text[][],
    nums  numeric(6,2)[],
    cash  money,
    clock timetz,
    span  interval,
    addr  inet
);
INSERT INTO tdg_conf_dialect_types VALUES
    (1, '{1,NULL,3}', E'{{a,NULL},{"b\\"c",""}}', '{1.5,NULL,-0.01}', 12.5, '13:14:15.5+02',
     '1 day 02:03:04.5', '192.168.0.1/24'),
    (2, '{}', '{}', '{NaN}', -1.5, '23:59:59.999999-03:30', '-1 years -2 mons +3 days -04:05:06',
     '::1'),
    (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_dialect_types TO PUBLIC;
