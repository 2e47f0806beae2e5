-- As setup.sql in SQLite's spelling: a column declared JSON holds text that json_valid() takes.
DROP TABLE IF EXISTS tdg_conf_json;
CREATE TABLE tdg_conf_json (
    id   INTEGER PRIMARY KEY,
    doc  JSON,
    docb JSON
);
INSERT INTO tdg_conf_json VALUES
    (1, '{"b": [1, 2.50, {"c": null}], "a": "x"}', '{"a": "x", "b": [1, 2.50, {"c": null}]}'),
    (2, '"just a string"', '[]'),
    (3, 'null', '{"big": 18446744073709551616, "k": "é 😀"}'),
    (4, NULL, NULL),
    (5, '{' || char(10) || '  "spaced":  true,' || char(10) || '  "lines": "a\nb"' || char(10) || '}',
     '[false, -0.5e-3]');
