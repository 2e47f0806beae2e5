-- JSON documents, sent as JSON (not as text holding JSON): objects whose members json keeps in
-- their order and jsonb sorts, numbers whose digits must stay (2.50, 2^64), a document that is
-- a string, one that is JSON's null (not SQL's), and one spread over several lines.
DROP TABLE IF EXISTS tdg_conf_json;
CREATE TABLE tdg_conf_json (
    id   integer PRIMARY KEY,
    doc  json,
    docb jsonb
);
INSERT INTO tdg_conf_json VALUES
    (1, '{"b": [1, 2.50, {"c": null}], "a": "x"}', '{"b": [1, 2.50, {"c": null}], "a": "x"}'),
    (2, '"just a string"', '[]'),
    (3, 'null', '{"big": 18446744073709551616, "k": "é 😀"}'),
    (4, NULL, NULL),
    (5, E'{\n  "spaced":  true,\n  "lines": "a\\nb"\n}', '[false, -0.5e-3]');
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_json TO PUBLIC;
