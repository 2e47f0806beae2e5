-- As setup.sql in SQLite's spelling: a database file has no roles, so nothing to GRANT.
DROP TABLE IF EXISTS tdg_conf_composite;
CREATE TABLE tdg_conf_composite (
    order_id integer,
    line_no  text,
    qty      integer,
    PRIMARY KEY (order_id, line_no)
);
INSERT INTO tdg_conf_composite VALUES
    (1, 'a', 10), (1, 'b', 11), (2, 'a', 20), (2, 'it''s', 21), (3, 'a', NULL);
