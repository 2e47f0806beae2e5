-- A log committed before the case starts: the writer's transaction begins after this commit,
-- so a mark that counts only transactions older than the last commit misses it.
DROP TABLE IF EXISTS tdg_conf_horizon;
CREATE TABLE tdg_conf_horizon (
    id         bigint      PRIMARY KEY,
    tablename  text        NOT NULL,
    table_id   text        NOT NULL,
    op         char(1)     NOT NULL,
    ts_created timestamptz NOT NULL DEFAULT now()
);
INSERT INTO tdg_conf_horizon (id, tablename, table_id, op) VALUES
    (1, 'alpha', '10', 'i'), (2, 'alpha', '11', 'i'), (3, 'alpha', '10', 'u');
-- Setup runs as an administrator; the tap's login reads through PUBLIC, so no case names it.
GRANT SELECT ON tdg_conf_horizon TO PUBLIC;
