SET NAMES utf8mb4;
DROP TABLE IF EXISTS tdg_conf_composite;
CREATE TABLE tdg_conf_composite (
    order_id integer,
    line_no  varchar(10),
    qty      integer,
    PRIMARY KEY (order_id, line_no)
) DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_conf_composite VALUES
    (1, 'a', 10), (1, 'b', 11), (2, 'a', 20), (2, 'it''s', 21), (3, 'a', NULL);
