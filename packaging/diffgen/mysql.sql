-- The diffgen pattern for MySQL and MariaDB: one journal table and three triggers per
-- journalled table, which the view diffgen_triggers writes out. The tap needs only SELECT on
-- diffgen and on the journalled tables (plus PROCESS, so it can see running transactions and
-- never skip an id they still hold). docs/journal-triggers.md has the design and what the
-- triggers cost the application's writes.
--
-- ts_created is TIMESTAMP(6), not DATETIME: TIMESTAMP stores the instant, so the value does
-- not depend on the time zone of the session that made the change. table_id is LONGTEXT: a
-- key of any length journals, where a VARCHAR would make the application's own INSERT fail
-- ("Data too long for column 'table_id'") for a longer key.
CREATE TABLE IF NOT EXISTS diffgen (
    id         BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tablename  VARCHAR(128) NOT NULL,
    table_id   LONGTEXT     NOT NULL,
    op         CHAR(1)      NOT NULL,
    ts_created TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    KEY diffgen_tablename_id (tablename, id)
);
-- An installation made before had table_id VARCHAR(255). Widen it once (InnoDB copies the
-- table to do so, so at a quiet time):
--   ALTER TABLE diffgen MODIFY table_id LONGTEXT NOT NULL;

-- The prune record: the highest id ever deleted from diffgen, in one row, kept by a trigger on
-- diffgen's DELETE. With it the tap knows whether a retention job deleted events it had not
-- read yet, instead of guessing from a gap below the oldest event, which ids rolled back
-- right after a prune also leave (docs/journal.md). Its name is the journal's name with
-- _pruned, in the journal's database; the tap reads it with SELECT. Installed on a log pruned
-- before, it counts every id below the oldest event (on an empty log, every id handed out) as
-- pruned. TRUNCATE TABLE diffgen fires no trigger; it also starts the ids again at 1, which
-- the tap sees as a reset.
CREATE TABLE IF NOT EXISTS diffgen_pruned (
    only_row          TINYINT NOT NULL DEFAULT 1 PRIMARY KEY CHECK (only_row = 1),
    highest_pruned_id BIGINT  NOT NULL
);
INSERT IGNORE INTO diffgen_pruned (only_row, highest_pruned_id)
SELECT 1, COALESCE(MIN(id) - 1,
                   (SELECT AUTO_INCREMENT - 1 FROM information_schema.TABLES
                     WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'diffgen'), 0)
  FROM diffgen;
-- Row by row (MySQL and MariaDB have no statement trigger that sees the rows); a delete below
-- the record writes nothing.
DROP TRIGGER IF EXISTS diffgen_note_pruned;
CREATE TRIGGER diffgen_note_pruned AFTER DELETE ON diffgen FOR EACH ROW
    UPDATE diffgen_pruned SET highest_pruned_id = OLD.id WHERE highest_pruned_id < OLD.id;

-- diffgen_triggers: the CREATE TRIGGER statements that journal each table of the current
-- database that has a primary key, three rows per table, in the columns table_name,
-- trigger_name and trigger_sql. The triggers name the key columns and the journal name in
-- their text, and each writes diffgen with one INSERT ... VALUES, the cheapest form:
-- - INSERT and DELETE journal the new or the old key. UPDATE journals the new key, after a
--   delete of the old one when the update changed the key.
-- - The key is the primary key's column, or for a composite key the JSON array of its values
--   in key order ([1001, "A-7"]), which the tap's pk_column list reads, each value in its
--   canonical key text (dialect_abi.h, "Key texts"; the plugin README's "Keys" table):
--   binary strings as LOWER(HEX(k)), never their raw bytes (which LONGTEXT refuses, failing
--   the application's INSERT), BIT as k + 0, DATETIME and TIME formatted to
--   'YYYY-MM-DDTHH:MM:SS.ffffff', a TIMESTAMP as its UTC instant.
-- - A key changes when its bytes change: a key column that is not an integer compares by its
--   bytes (CAST AS BINARY), so 'Abc' -> 'abc' and 'a' -> 'a ', equal under the usual
--   collations, journal the old key's delete. <=> alone would follow the column's collation
--   and leave the old row in the replica.
-- - The journal name is the table's name, the tap's default journal_name. Where two databases
--   journalled into one diffgen share a table name, edit the literal to 'sales.invoices' (and
--   write the journal's database in front of diffgen), and set "journal_name":
--   "sales.invoices"; for a key other than the primary key, edit the column names.
-- The UPDATE trigger is a compound statement: the mariadb and mysql clients need another
-- delimiter to send it, e.g.
--   mariadb -N -r -e "SELECT CONCAT(trigger_sql, ' //') FROM diffgen_triggers
--                     WHERE table_name = 'invoices'" app | mariadb --delimiter=// app
-- On MariaDB, CALL diffgen_attach('invoices') (below) runs them on the server instead.
-- The statements for invoices, keyed by id, and for the UPDATE of order_lines, keyed by
-- order_id and line_no:
--   CREATE TRIGGER `invoices_diffgen_i` AFTER INSERT ON `invoices` FOR EACH ROW
--       INSERT INTO diffgen (tablename, table_id, op) VALUES ('invoices', NEW.`id`, 'i')
--   CREATE TRIGGER `invoices_diffgen_u` AFTER UPDATE ON `invoices` FOR EACH ROW
--       IF OLD.`id` <=> NEW.`id` THEN
--           INSERT INTO diffgen (tablename, table_id, op) VALUES ('invoices', NEW.`id`, 'u');
--       ELSE
--           INSERT INTO diffgen (tablename, table_id, op)
--           VALUES ('invoices', OLD.`id`, 'd'), ('invoices', NEW.`id`, 'u');
--       END IF
--   CREATE TRIGGER `invoices_diffgen_d` AFTER DELETE ON `invoices` FOR EACH ROW
--       INSERT INTO diffgen (tablename, table_id, op) VALUES ('invoices', OLD.`id`, 'd')
--   CREATE TRIGGER `order_lines_diffgen_u` AFTER UPDATE ON `order_lines` FOR EACH ROW
--       IF OLD.`order_id` <=> NEW.`order_id`
--          AND CAST(OLD.`line_no` AS BINARY) <=> CAST(NEW.`line_no` AS BINARY) THEN
--           INSERT INTO diffgen (tablename, table_id, op)
--           VALUES ('order_lines', JSON_ARRAY(NEW.`order_id`, NEW.`line_no`), 'u');
--       ELSE
--           INSERT INTO diffgen (tablename, table_id, op)
--           VALUES ('order_lines', JSON_ARRAY(OLD.`order_id`, OLD.`line_no`), 'd'),
--                  ('order_lines', JSON_ARRAY(NEW.`order_id`, NEW.`line_no`), 'u');
--       END IF
CREATE OR REPLACE SQL SECURITY INVOKER VIEW diffgen_triggers AS
SELECT k.table_name,
       CONCAT(k.trigger_stem, '_diffgen_', e.op) AS trigger_name,
       CONCAT('CREATE TRIGGER `', REPLACE(CONCAT(k.trigger_stem, '_diffgen_', e.op), '`', '``'),
              '` AFTER ', e.event, ' ON `', REPLACE(k.table_name, '`', '``'), '` FOR EACH ROW',
              CASE e.op
                  WHEN 'i' THEN CONCAT(k.journal, 'VALUES (', k.name, ', ', k.new_key, ', ''i'')')
                  WHEN 'd' THEN CONCAT(k.journal, 'VALUES (', k.name, ', ', k.old_key, ', ''d'')')
                  ELSE CONCAT(k.nl, 'IF ', k.unchanged, ' THEN', k.journal,
                              'VALUES (', k.name, ', ', k.new_key, ', ''u'');', k.nl, 'ELSE',
                              k.journal, 'VALUES (', k.name, ', ', k.old_key, ', ''d''), (',
                              k.name, ', ', k.new_key, ', ''u'');', k.nl, 'END IF')
              END) AS trigger_sql
  FROM (SELECT c.table_name,
               QUOTE(c.table_name) AS name,
               CONCAT(CHAR(10 USING utf8mb4), '    ') AS nl,
               CONCAT(CHAR(10 USING utf8mb4), '    INSERT INTO diffgen (tablename, table_id, op) ')
                   AS journal,
               -- A trigger name has at most 64 characters: a long table name is cut and told
               -- apart by a hash.
               IF(CHAR_LENGTH(c.table_name) > 54,
                  CONCAT(LEFT(c.table_name, 45), '_', LEFT(MD5(c.table_name), 8)),
                  c.table_name) AS trigger_stem,
               IF(COUNT(*) = 1,
                  MIN(REPLACE(COALESCE(c.single_template, c.template), '{}',
                              CONCAT('NEW.`', REPLACE(c.column_name, '`', '``'), '`'))),
                  CONCAT('JSON_ARRAY(',
                         GROUP_CONCAT(REPLACE(c.template, '{}',
                                              CONCAT('NEW.`', REPLACE(c.column_name, '`', '``'),
                                                     '`'))
                                      ORDER BY u.ordinal_position SEPARATOR ', '), ')'))
                   AS new_key,
               IF(COUNT(*) = 1,
                  MIN(REPLACE(COALESCE(c.single_template, c.template), '{}',
                              CONCAT('OLD.`', REPLACE(c.column_name, '`', '``'), '`'))),
                  CONCAT('JSON_ARRAY(',
                         GROUP_CONCAT(REPLACE(c.template, '{}',
                                              CONCAT('OLD.`', REPLACE(c.column_name, '`', '``'),
                                                     '`'))
                                      ORDER BY u.ordinal_position SEPARATOR ', '), ')'))
                   AS old_key,
               -- Integers compare as they are; everything else by its bytes.
               GROUP_CONCAT(
                   IF(c.data_type IN ('tinyint', 'smallint', 'mediumint', 'int', 'bigint'),
                      CONCAT('OLD.`', REPLACE(c.column_name, '`', '``'), '` <=> NEW.`',
                             REPLACE(c.column_name, '`', '``'), '`'),
                      CONCAT('CAST(OLD.`', REPLACE(c.column_name, '`', '``'),
                             '` AS BINARY) <=> CAST(NEW.`', REPLACE(c.column_name, '`', '``'),
                             '` AS BINARY)'))
                   ORDER BY u.ordinal_position SEPARATOR ' AND ') AS unchanged
          FROM information_schema.key_column_usage AS u
          JOIN (SELECT table_schema, table_name, column_name,
                       -- The canonical key text of the column {} (dialect_abi.h, "Key texts"):
                       -- binary strings as lowercase hex, BIT as its number, dates and times
                       -- with a T and six fraction digits, a TIMESTAMP as its UTC instant
                       -- (UNIX_TIMESTAMP does not depend on the session's time zone); other
                       -- values as CAST gives them (decimals with their scale).
                       CASE WHEN data_type = 'bit' THEN '({} + 0)'
                            WHEN data_type IN ('binary', 'varbinary') THEN 'LOWER(HEX({}))'
                            WHEN data_type = 'datetime'
                                THEN 'DATE_FORMAT({}, ''%Y-%m-%dT%H:%i:%s.%f'')'
                            WHEN data_type = 'timestamp'
                                THEN CONCAT('CONCAT(DATE_FORMAT(TIMESTAMP''1970-01-01 00:00:00'' ',
                                            '+ INTERVAL UNIX_TIMESTAMP({}) SECOND, ',
                                            '''%Y-%m-%dT%H:%i:%s.%f''), ''+00:00'')')
                            WHEN data_type = 'time' THEN 'TIME_FORMAT({}, ''%H:%i:%s.%f'')'
                            ELSE '{}' END AS template,
                       -- A one-column key of tinyint(1), a boolean, journals true or false.
                       IF(data_type = 'tinyint' AND column_type LIKE 'tinyint(1)%',
                          'IF({}, ''true'', ''false'')', NULL) AS single_template,
                       data_type
                  FROM information_schema.columns
                 WHERE table_schema = DATABASE()) AS c
            ON c.table_schema = u.table_schema AND c.table_name = u.table_name
               AND c.column_name = u.column_name
         WHERE u.table_schema = DATABASE()
           AND u.constraint_name = 'PRIMARY' AND u.table_name <> 'diffgen'
         GROUP BY c.table_name) AS k
 CROSS JOIN (SELECT 'i' AS op, 'INSERT' AS event
             UNION ALL SELECT 'u', 'UPDATE'
             UNION ALL SELECT 'd', 'DELETE') AS e;

-- MariaDB: diffgen_attach(table_name) journals a table of this database: it creates, or
-- replaces, the three triggers diffgen_triggers writes for it. MySQL cannot run CREATE TRIGGER
-- as a prepared statement; there, send diffgen_triggers' statements with the client.
--   CALL diffgen_attach('invoices');
DROP PROCEDURE IF EXISTS diffgen_attach;
DELIMITER //
CREATE PROCEDURE diffgen_attach(IN journalled VARCHAR(64))
SQL SECURITY INVOKER
BEGIN
    DECLARE done BOOLEAN DEFAULT FALSE;
    DECLARE problem VARCHAR(200);
    DECLARE create_trigger LONGTEXT;
    DECLARE triggers CURSOR FOR
        SELECT trigger_sql FROM diffgen_triggers
         WHERE CAST(table_name AS BINARY) = CAST(journalled AS BINARY);
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = TRUE;
    OPEN triggers;
    FETCH triggers INTO create_trigger;
    IF done THEN
        SET problem = CONCAT('diffgen_attach: this database has no table ', QUOTE(journalled),
                             ' with a primary key');
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = problem;
    END IF;
    WHILE NOT done DO
        SET @diffgen_attach_sql = REPLACE(create_trigger, 'CREATE TRIGGER', 'CREATE OR REPLACE TRIGGER');
        PREPARE diffgen_attach_statement FROM @diffgen_attach_sql;
        EXECUTE diffgen_attach_statement;
        DEALLOCATE PREPARE diffgen_attach_statement;
        FETCH triggers INTO create_trigger;
    END WHILE;
    CLOSE triggers;
    SET @diffgen_attach_sql = NULL;
END //
DELIMITER ;

-- MariaDB: running this file again writes the triggers of every table that journals with
-- diffgen_triggers' statements anew (CALL diffgen_attach for each), so that they journal the
-- key texts of this version. A table whose triggers were edited (another journal name, another
-- journal table) is left alone: send its statements again with the edit. CREATE OR REPLACE TRIGGER takes the
-- table's metadata lock, so no write runs between the old trigger and the new one. On MySQL,
-- send diffgen_triggers' statements again with the client (DROP TRIGGER first).
DROP PROCEDURE IF EXISTS diffgen_upgrade_triggers;
DELIMITER //
CREATE PROCEDURE diffgen_upgrade_triggers()
SQL SECURITY INVOKER
BEGIN
    DECLARE done BOOLEAN DEFAULT FALSE;
    DECLARE journalled VARCHAR(64);
    DECLARE attached CURSOR FOR SELECT table_name FROM diffgen_attached;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = TRUE;
    IF VERSION() LIKE '%MariaDB%' THEN
        CREATE OR REPLACE TEMPORARY TABLE diffgen_attached AS
        SELECT DISTINCT t.table_name
          FROM diffgen_triggers AS t
          JOIN information_schema.triggers AS g
            ON g.trigger_schema = DATABASE() AND g.event_object_table = t.table_name
               AND g.trigger_name = t.trigger_name
         WHERE t.trigger_name LIKE '%\_diffgen\_i'
           AND g.action_statement LIKE '%INSERT INTO diffgen (tablename, table_id, op) %'
           AND g.action_statement LIKE CONCAT('%VALUES (', QUOTE(t.table_name), ', %');
        OPEN attached;
        FETCH attached INTO journalled;
        WHILE NOT done DO
            CALL diffgen_attach(journalled);
            FETCH attached INTO journalled;
        END WHILE;
        CLOSE attached;
        DROP TEMPORARY TABLE diffgen_attached;
    END IF;
END //
DELIMITER ;
CALL diffgen_upgrade_triggers();

-- TRUNCATE TABLE removes rows without firing triggers, so it journals nothing and the replica
-- keeps every row. Empty a journalled table with DELETE FROM instead (its triggers journal
-- every row), or start the stream again from a snapshot ("start_from": "snapshot"). DROP
-- TABLE and partition maintenance (ALTER TABLE ... TRUNCATE/DROP PARTITION) journal nothing
-- either.
--
-- Foreign-key actions fire no triggers: ON DELETE CASCADE, ON DELETE SET NULL, ON UPDATE
-- CASCADE and ON UPDATE SET NULL change the child rows inside InnoDB, whose triggers never
-- run: diffgen never hears of those changes, and the replica keeps the children as they were.
-- Where a journalled table is the child of such a key, let a trigger on the parent make the
-- change first, with a statement that runs the children's own triggers; the foreign key keeps
-- its action, which then finds nothing left to do. For order_lines.order_id REFERENCES
-- orders (id) ON DELETE CASCADE:
--   CREATE TRIGGER orders_delete_lines BEFORE DELETE ON orders FOR EACH ROW
--       DELETE FROM order_lines WHERE order_id = OLD.id;
-- For invoices.customer_id REFERENCES customers (id) ON DELETE SET NULL:
--   CREATE TRIGGER customers_unlink_invoices BEFORE DELETE ON customers FOR EACH ROW
--       UPDATE invoices SET customer_id = NULL WHERE customer_id = OLD.id;
-- ON UPDATE CASCADE cannot go first (the children's new parent key does not exist yet); an
-- AFTER UPDATE trigger on the parent journals what the cascade did instead, the children's
-- old keys as deletes and their new keys as updates:
--   CREATE TRIGGER orders_journal_lines AFTER UPDATE ON orders FOR EACH ROW
--       INSERT INTO diffgen (tablename, table_id, op)
--       SELECT 'order_lines', JSON_ARRAY(OLD.id, line_no), 'd' FROM order_lines
--        WHERE order_id = NEW.id AND NOT (OLD.id <=> NEW.id)
--       UNION ALL SELECT 'order_lines', JSON_ARRAY(order_id, line_no), 'u' FROM order_lines
--        WHERE order_id = NEW.id AND NOT (OLD.id <=> NEW.id);
-- ON UPDATE SET NULL goes first like SET NULL on delete, in a BEFORE UPDATE trigger whose
-- UPDATE of the children has "AND NOT (OLD.id <=> NEW.id)".
