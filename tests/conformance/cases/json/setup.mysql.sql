-- As setup.sql in MySQL's spelling. MariaDB's JSON is LONGTEXT with a json_valid() check; docb
-- spells that out.
SET NAMES utf8mb4;
DROP TABLE IF EXISTS tdg_conf_json;
CREATE TABLE tdg_conf_json (
    id   integer PRIMARY KEY,
    doc  JSON,
    docb LONGTEXT CHECK (json_valid(docb))
) DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_conf_json VALUES
    (1, '{"b": [1, 2.50, {"c": null}], "a": "x"}', '{"b": [1, 2.50, {"c": null}], "a": "x"}'),
    (2, '"just a string"', '[]'),
    (3, 'null', '{"big": 18446744073709551616, "k": "é 😀"}'),
    (4, NULL, NULL),
    (5, '{\n  "spaced":  true,\n  "lines": "a\\nb"\n}', '[false, -0.5e-3]');
