-- A key of two columns, an integer and a text, with rows that share either half: a fetch
-- must match both halves, and a scan in pages of two must page through the pair in key order.
DROP TABLE IF EXISTS tdg_conf_composite;
CREATE TABLE tdg_conf_composite (
    order_id integer,
    line_no  text,
    qty      integer,
    PRIMARY KEY (order_id, line_no)
);
INSERT INTO tdg_conf_composite VALUES
    (1, 'a', 10), (1, 'b', 11), (2, 'a', 20), (2, 'it''s', 21), (3, 'a', NULL);
GRANT SELECT ON tdg_conf_composite TO PUBLIC;
