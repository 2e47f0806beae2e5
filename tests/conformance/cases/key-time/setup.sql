-- Keys of a time of day with microseconds, sent as "HH:MM:SS.ffffff"; a driver binds it as a
-- time.
DROP TABLE IF EXISTS tdg_conf_key_time;
CREATE TABLE tdg_conf_key_time (k time(6) PRIMARY KEY, n integer NOT NULL);
INSERT INTO tdg_conf_key_time VALUES
    ('10:00:00.0001', 1), ('00:00:00', 2), ('23:59:59.999999', 3), ('10:00:00', 4);
GRANT SELECT ON tdg_conf_key_time TO PUBLIC;
