-- As writer.sql in MySQL's spelling: KILL CONNECTION of the session whose statement reads the
-- case's view (PREPARE fails when there is none, as the case then ended nothing).
SET @session = (SELECT ID FROM information_schema.PROCESSLIST
                 WHERE INFO LIKE '%tdg\_conf\_lost%' AND ID <> CONNECTION_ID() LIMIT 1);
SET @kill = CONCAT('KILL CONNECTION ', @session);
PREPARE ending FROM @kill;
EXECUTE ending;
