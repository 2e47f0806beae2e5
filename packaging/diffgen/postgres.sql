-- The diffgen pattern for PostgreSQL: one journal table, and for each journalled table a
-- trigger function of its own that diffgen_attach writes. The tap needs only SELECT on diffgen
-- and on the journalled tables. docs/journal-triggers.md has the design and what it costs the
-- application's writes. Running this file again upgrades an installation in place.
--
-- ts_created is timestamptz: the instant of the change, whatever the session's time zone.
-- The index serves the tap's page query (id after the bookmark, filtered by table name).
CREATE TABLE IF NOT EXISTS diffgen (
    id         bigserial   PRIMARY KEY,
    tablename  text        NOT NULL,
    table_id   text        NOT NULL,
    op         char(1)     NOT NULL CHECK (op IN ('i', 'u', 'd')),
    ts_created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS diffgen_tablename_id ON diffgen (tablename, id);

-- The prune record: the highest id ever deleted from diffgen, in one row. With it the tap
-- knows whether a retention job deleted events it had not read yet, instead of guessing from
-- a gap below the oldest event, which ids rolled back right after a prune also leave
-- (docs/journal.md). Its name is the journal's name with _pruned, in the journal's schema; the
-- tap reads it with SELECT. Installed on a log pruned before, it counts every id below the
-- oldest event (on an empty log, every id handed out) as pruned.
CREATE TABLE IF NOT EXISTS diffgen_pruned (
    highest_pruned_id bigint  NOT NULL,
    only_row          boolean NOT NULL DEFAULT true PRIMARY KEY CHECK (only_row)
);
INSERT INTO diffgen_pruned (highest_pruned_id)
SELECT COALESCE((SELECT min(id) - 1 FROM diffgen),
                pg_sequence_last_value(pg_get_serial_sequence('diffgen', 'id')::regclass), 0)
ON CONFLICT (only_row) DO NOTHING;

-- Keeps the record: once per DELETE statement on the log (the deleted rows' highest id, from
-- the statement's transition table), and before a TRUNCATE (the log's highest id). The record
-- only moves forward. It names the record after the table it fires on, so it serves a journal
-- of any name; DELETEs that delete nothing, and deletes below the record, write nothing.
CREATE OR REPLACE FUNCTION diffgen_note_pruned() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    highest bigint;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        EXECUTE format('SELECT max(id) FROM %I.%I', TG_TABLE_SCHEMA, TG_TABLE_NAME) INTO highest;
    ELSE
        SELECT max(id) INTO highest FROM pruned;
    END IF;
    IF highest IS NOT NULL THEN
        EXECUTE format('UPDATE %I.%I SET highest_pruned_id = $1 WHERE highest_pruned_id < $1',
                       TG_TABLE_SCHEMA, TG_TABLE_NAME || '_pruned') USING highest;
    END IF;
    RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER diffgen_pruned AFTER DELETE ON diffgen
    REFERENCING OLD TABLE AS pruned FOR EACH STATEMENT EXECUTE FUNCTION diffgen_note_pruned();
CREATE OR REPLACE TRIGGER diffgen_pruned_truncate BEFORE TRUNCATE ON diffgen
    FOR EACH STATEMENT EXECUTE FUNCTION diffgen_note_pruned();

-- The key as the compatible path below (diffgen_journal) writes it, for the row called
-- row_name: for one key column the value's text as JSON has it ('1001', 'A-7', '\x00ff'), for
-- several the JSON array of the values in key order ('[1001, "A-7"]'). The tap reads these
-- texts too; diffgen_attach's functions write the canonical ones (the three-argument form).
CREATE OR REPLACE FUNCTION diffgen_key_sql(row_name text, key_columns text[]) RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT CASE WHEN cardinality(key_columns) = 1
                THEN format('(to_jsonb(%s.%I) #>> ''{}'')', row_name, key_columns[1])
                ELSE format('jsonb_build_array(%s)::text',
                            (SELECT string_agg(format('%s.%I', row_name, k.name), ', '
                                               ORDER BY k.position)
                               FROM unnest(key_columns) WITH ORDINALITY AS k(name, position)))
           END
$$;

-- The SQL expression of one key value's canonical text (dialect_abi.h, "Key texts"; the
-- plugin README's "Keys" table), for the value value_sql of type value_type (typmod
-- value_typmod): bytea as lowercase hex, dates and times with a T and six fraction digits
-- whatever the session's DateStyle, a timestamptz as its UTC instant, a numeric without a
-- declared scale without trailing zeros. In a composite key (in_array) numbers and booleans
-- stay values, which jsonb_build_array writes bare; everything else is text.
CREATE OR REPLACE FUNCTION diffgen_key_value_sql(value_sql text, value_type oid,
                                                 value_typmod integer, in_array boolean)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT CASE
        WHEN value_type = 'numeric'::regtype AND value_typmod < 0
            THEN format(CASE WHEN in_array THEN 'trim_scale(%s)' ELSE 'trim_scale(%s)::text' END,
                        value_sql)
        WHEN value_type IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'oid'::regtype,
                            'numeric'::regtype, 'bool'::regtype)
            THEN CASE WHEN in_array THEN value_sql ELSE value_sql || '::text' END
        WHEN value_type = 'bytea'::regtype THEN format('encode(%s, ''hex'')', value_sql)
        WHEN value_type = 'date'::regtype THEN format('to_char(%s, ''YYYY-MM-DD'')', value_sql)
        WHEN value_type = 'time'::regtype THEN format('to_char(%s, ''HH24:MI:SS.US'')', value_sql)
        WHEN value_type = 'timestamp'::regtype
            THEN format('to_char(%s, ''YYYY-MM-DD"T"HH24:MI:SS.US'')', value_sql)
        WHEN value_type = 'timestamptz'::regtype
            THEN format('to_char(%s AT TIME ZONE ''UTC'', ''YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'')',
                        value_sql)
        WHEN in_array THEN value_sql
        ELSE format('(to_jsonb(%s) #>> ''{}'')', value_sql)
    END
$$;

-- The SQL expression of a row's key as diffgen.table_id, for the row called row_name of the
-- table journalled: for one key column its canonical text ('1001', 'A-7', '00ff'), for
-- several the JSON array of the values in key order ('[1001, "A-7"]'), which the tap's
-- pk_column list reads. A domain's values are written as its base type's.
CREATE OR REPLACE FUNCTION diffgen_key_sql(row_name text, key_columns text[], journalled regclass)
RETURNS text
LANGUAGE sql STABLE STRICT AS $$
    SELECT CASE WHEN count(*) = 1
                THEN min(diffgen_key_value_sql(format('%s.%I', row_name, k.name), t.base,
                                               t.typmod, false))
                ELSE format('jsonb_build_array(%s)::text',
                            string_agg(diffgen_key_value_sql(format('%s.%I', row_name, k.name),
                                                             t.base, t.typmod, true),
                                       ', ' ORDER BY k.position))
           END
      FROM unnest(key_columns) WITH ORDINALITY AS k(name, position)
      JOIN pg_attribute AS a ON a.attrelid = journalled AND a.attname = k.name
      JOIN pg_type AS ty ON ty.oid = a.atttypid
     CROSS JOIN LATERAL (SELECT CASE WHEN ty.typtype = 'd' THEN ty.typbasetype ELSE ty.oid END,
                                CASE WHEN ty.typtype = 'd' THEN ty.typtypmod ELSE a.atttypmod END)
                          AS t(base, typmod)
$$;

-- The SQL condition "the key of OLD differs from the key of NEW", byte for byte: 'Abc' ->
-- 'abc' under citext or a nondeterministic collation, and 'a' -> 'a ', are key changes. Types
-- whose equality is identity of the value compare as they are; the others compare their text
-- in the C collation, whose equality is byte equality.
CREATE OR REPLACE FUNCTION diffgen_key_changed_sql(journalled regclass, key_columns text[])
RETURNS text
LANGUAGE sql STABLE STRICT AS $$
    SELECT string_agg(
               CASE WHEN a.atttypid IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype,
                                        'uuid'::regtype, 'bool'::regtype, 'date'::regtype)
                    THEN format('OLD.%1$I IS DISTINCT FROM NEW.%1$I', k.name)
                    ELSE format('(OLD.%1$I::text COLLATE "C") IS DISTINCT FROM NEW.%1$I::text',
                                k.name) END,
               ' OR ' ORDER BY k.position)
      FROM unnest(key_columns) WITH ORDINALITY AS k(name, position)
      JOIN pg_attribute AS a ON a.attrelid = journalled AND a.attname = k.name
$$;

-- diffgen_attach(table, key_columns [, journal_name]) journals a table: it writes the table's
-- own trigger function, <table>_diffgen(), in the table's schema, and creates two triggers on
-- the table that run it: `diffgen`, after every row's INSERT, UPDATE and DELETE, and
-- `diffgen_truncate`, before a TRUNCATE. The function names the key columns and the journal
-- name in its text, so a write reads the key columns and nothing else of the row.
--   key_columns   the key column, or the columns of a composite key separated by commas, in
--                 the order of the tap's pk_column list
--   journal_name  what the triggers write into diffgen.tablename: by default the table's name
--                 without its schema, the tap's default journal_name; 'sales.invoices' where
--                 two schemas journal a table of the same name (the table's entry in the tap's
--                 config then says "journal_name": "sales.invoices")
-- Attached to a partitioned table, the triggers fire for the rows of every partition, present
-- and future, and journal them under the partitioned table's name: configure that table.
-- Calling it again replaces the function and the triggers (another key, another name); it
-- also drops the table's triggers that run diffgen_journal, the compatible path below.
-- The session's search_path must find diffgen; the function writes to it by its full name.
CREATE OR REPLACE FUNCTION diffgen_attach(journalled regclass, key_columns text,
                                          journal_name text DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $attach$
DECLARE
    journal text;
    target record;
    keys text[] := ARRAY(SELECT btrim(name) FROM unnest(string_to_array(key_columns, ',')) AS name);
    missing text;
    function_name text;
    old_trigger name;
BEGIN
    SELECT format('%I.%I', n.nspname, c.relname) INTO journal
      FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
     WHERE c.oid = 'diffgen'::regclass;
    SELECT c.relname, n.nspname, c.relkind INTO target
      FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
     WHERE c.oid = journalled;
    IF target.relkind NOT IN ('r', 'p') THEN
        RAISE EXCEPTION 'diffgen_attach: % is not a table', journalled;
    END IF;
    IF cardinality(keys) = 0 THEN
        RAISE EXCEPTION 'diffgen_attach: no key column given for table %', journalled;
    END IF;
    SELECT name INTO missing FROM unnest(keys) AS name
     WHERE NOT EXISTS (SELECT FROM pg_attribute AS a
                        WHERE a.attrelid = journalled AND a.attname = name
                          AND a.attnum > 0 AND NOT a.attisdropped)
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'diffgen_attach: table % has no column %', journalled, quote_ident(missing);
    END IF;

    -- <table>_diffgen; a long table name is cut and told apart by a hash, within 63 bytes.
    function_name := target.relname || '_diffgen';
    IF octet_length(function_name) > 63 THEN
        function_name := target.relname;
        WHILE octet_length(function_name) > 46 LOOP
            function_name := left(function_name, -1);
        END LOOP;
        function_name := function_name || '_' || left(md5(target.relname), 8) || '_diffgen';
    END IF;
    function_name := format('%I.%I', target.nspname, function_name);

    EXECUTE format($create$CREATE OR REPLACE FUNCTION %1$s() RETURNS trigger
LANGUAGE plpgsql AS $body$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO %2$s (tablename, table_id, op) VALUES (%3$L, %4$s, 'i');
    ELSIF TG_OP = 'UPDATE' THEN
        -- An update that changes the key removes the old row: journal that as a delete.
        IF %6$s THEN
            INSERT INTO %2$s (tablename, table_id, op) VALUES (%3$L, %5$s, 'd');
        END IF;
        INSERT INTO %2$s (tablename, table_id, op) VALUES (%3$L, %4$s, 'u');
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO %2$s (tablename, table_id, op) VALUES (%3$L, %5$s, 'd');
    ELSE
        -- TRUNCATE, before it empties the table: every row it removes, as a delete.
        INSERT INTO %2$s (tablename, table_id, op) SELECT %3$L, %7$s, 'd' FROM %8$s AS t;
    END IF;
    RETURN NULL;
END
$body$$create$,
        function_name, journal, COALESCE(journal_name, target.relname),
        diffgen_key_sql('NEW', keys, journalled), diffgen_key_sql('OLD', keys, journalled),
        diffgen_key_changed_sql(journalled, keys), diffgen_key_sql('t', keys, journalled),
        format('%I.%I', target.nspname, target.relname));

    FOR old_trigger IN SELECT t.tgname FROM pg_trigger AS t
                        WHERE t.tgrelid = journalled AND t.tgparentid = 0
                          AND t.tgfoid = 'diffgen_journal'::regproc LOOP
        RAISE NOTICE 'diffgen_attach: dropping trigger % on %, which ran diffgen_journal',
            quote_ident(old_trigger), journalled;
        EXECUTE format('DROP TRIGGER %I ON %s', old_trigger, journalled);
    END LOOP;
    EXECUTE format('CREATE OR REPLACE TRIGGER diffgen AFTER INSERT OR UPDATE OR DELETE ON %s '
                   'FOR EACH ROW EXECUTE FUNCTION %s()', journalled, function_name);
    EXECUTE format('CREATE OR REPLACE TRIGGER diffgen_truncate BEFORE TRUNCATE ON %s '
                   'FOR EACH STATEMENT EXECUTE FUNCTION %s()', journalled, function_name);
END
$attach$;

-- diffgen_detach(table) stops journalling a table that diffgen_attach journals: it drops the
-- table's trigger function, and with it both triggers.
CREATE OR REPLACE FUNCTION diffgen_detach(journalled regclass) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    journalling regprocedure;
BEGIN
    SELECT t.tgfoid INTO journalling FROM pg_trigger AS t
     WHERE t.tgrelid = journalled AND t.tgparentid = 0 AND t.tgname = 'diffgen';
    IF NOT FOUND OR journalling = 'diffgen_journal()'::regprocedure THEN
        RAISE EXCEPTION 'diffgen_detach: table % has no trigger of diffgen_attach', journalled;
    END IF;
    EXECUTE format('DROP FUNCTION %s CASCADE', journalling);
END
$$;

-- For each journalled table (here: invoices, keyed by id):
--   SELECT diffgen_attach('invoices', 'id');
-- A table with a composite key (order_lines, keyed by order_id and line_no):
--   SELECT diffgen_attach('order_lines', 'order_id,line_no');
-- Where sales.invoices and billing.invoices are both journalled:
--   SELECT diffgen_attach('sales.invoices', 'id', 'sales.invoices');
-- A partitioned table (events, partitioned by region, keyed by id and region), journalled as
-- events for the rows of all its partitions; an UPDATE that moves a row to another partition
-- journals the old key's delete and the new key's insert:
--   SELECT diffgen_attach('events', 'id,region');

-- TRUNCATE removes rows without row triggers. diffgen_attach's BEFORE TRUNCATE trigger
-- journals a delete for every row the TRUNCATE removes, so the replica follows, at the cost
-- of reading the table first. It is not there when a single partition is truncated on its own
-- (TRUNCATE events_eu): use DELETE there, or start the stream again from a snapshot
-- ("start_from": "snapshot"). ALTER TABLE ... DETACH PARTITION and DROP TABLE journal nothing
-- either: the replica keeps those rows.

-- The compatible path: diffgen_journal, the one trigger function shared by every table that
-- installations before diffgen_attach created triggers with. It works as it did, and is
-- slower than diffgen_attach's functions, for it finds the key columns by name on every write:
-- it converts the whole row to jsonb and takes the key from that, and where the row cannot be
-- converted (a json column holding \u0000 or a lone surrogate, which jsonb cannot hold) it
-- reads the key columns alone with a dynamic statement. docs/journal-triggers.md has the
-- figures. Move a table over with SELECT diffgen_attach('invoices', 'id'), which drops its old
-- trigger. The first argument names the key column(s) as diffgen_attach's key_columns do; a
-- second argument 'qualified' writes schema.table instead of the bare name. A partition's rows
-- are journalled under the name of the partitioned table at the root of its tree. The same
-- function as a BEFORE TRUNCATE ... FOR EACH STATEMENT trigger journals the rows a TRUNCATE
-- removes.
--   CREATE TRIGGER invoices_diffgen AFTER INSERT OR UPDATE OR DELETE ON invoices
--       FOR EACH ROW EXECUTE FUNCTION diffgen_journal('id');
--   CREATE TRIGGER invoices_diffgen_truncate BEFORE TRUNCATE ON invoices
--       FOR EACH STATEMENT EXECUTE FUNCTION diffgen_journal('id');
CREATE OR REPLACE FUNCTION diffgen_journal() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    key_columns text[] := string_to_array(TG_ARGV[0], ',');
    qualified boolean := TG_NARGS > 1 AND TG_ARGV[1] = 'qualified';
    root regclass := pg_partition_root(TG_RELID);
    journal_name text := CASE WHEN qualified THEN TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME
                              ELSE TG_TABLE_NAME END;
    new_row jsonb;
    old_row jsonb;
    new_key text COLLATE "C";
    old_key text COLLATE "C";
BEGIN
    IF root IS NOT NULL AND root <> TG_RELID THEN
        SELECT CASE WHEN qualified THEN n.nspname || '.' || c.relname ELSE c.relname END
          INTO journal_name
          FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
         WHERE c.oid = root;
    END IF;
    IF TG_OP = 'TRUNCATE' THEN
        EXECUTE format('INSERT INTO diffgen (tablename, table_id, op) SELECT $1, %s, ''d'' '
                       'FROM %I.%I AS t', diffgen_key_sql('t', key_columns),
                       TG_TABLE_SCHEMA, TG_TABLE_NAME) USING journal_name;
        RETURN NULL;
    END IF;
    BEGIN
        IF TG_OP <> 'DELETE' THEN
            new_row := to_jsonb(NEW);
        END IF;
        IF TG_OP <> 'INSERT' THEN
            old_row := to_jsonb(OLD);
        END IF;
        -- Inline, not through a function: a function call here costs more than the rest.
        IF cardinality(key_columns) = 1 THEN
            new_key := new_row ->> key_columns[1];
            old_key := old_row ->> key_columns[1];
        ELSE
            new_key := (SELECT jsonb_agg(new_row -> k.name ORDER BY k.position)
                          FROM unnest(key_columns) WITH ORDINALITY AS k(name, position)
                         WHERE new_row IS NOT NULL)::text;
            old_key := (SELECT jsonb_agg(old_row -> k.name ORDER BY k.position)
                          FROM unnest(key_columns) WITH ORDINALITY AS k(name, position)
                         WHERE old_row IS NOT NULL)::text;
        END IF;
    EXCEPTION WHEN untranslatable_character OR invalid_text_representation THEN
        IF TG_OP <> 'DELETE' THEN
            EXECUTE 'SELECT ' || diffgen_key_sql('($1)', key_columns) INTO new_key USING NEW;
        END IF;
        IF TG_OP <> 'INSERT' THEN
            EXECUTE 'SELECT ' || diffgen_key_sql('($1)', key_columns) INTO old_key USING OLD;
        END IF;
    END;
    -- An update that changes the key removes the old row: journal that as a delete.
    IF TG_OP = 'UPDATE' AND old_key IS DISTINCT FROM new_key THEN
        INSERT INTO diffgen (tablename, table_id, op) VALUES (journal_name, old_key, 'd');
    END IF;
    INSERT INTO diffgen (tablename, table_id, op)
    VALUES (journal_name, COALESCE(new_key, old_key), lower(left(TG_OP, 1)));
    RETURN NULL;
END
$$;

-- The journal of versions before diffgen_key_sql read keys with this function.
DROP FUNCTION IF EXISTS diffgen_key(jsonb, text[]);

-- Optional, for `follow` with `notify_channel`: wakes a following tap the moment a change
-- commits instead of at its next poll. The trigger is on diffgen itself and per statement, and
-- PostgreSQL folds identical notifications of one transaction into one, delivered at commit:
-- one pg_notify per transaction, however many rows it journals. The argument is the channel.
CREATE OR REPLACE FUNCTION diffgen_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_ARGV[0], '');
    RETURN NULL;
END
$$;

-- To use it (here with the channel diffgen_changes, the tap's "notify_channel"):
--   CREATE TRIGGER diffgen_notify AFTER INSERT ON diffgen
--       FOR EACH STATEMENT EXECUTE FUNCTION diffgen_notify('diffgen_changes');

-- Running this file again writes the trigger function of every table diffgen_attach journals
-- anew, with the same key columns and journal name (read from the function's text), so that
-- it journals the key texts of this version: in the same transaction as the function it
-- replaces, no write is left unjournalled.
DO $upgrade$
DECLARE
    attached record;
    insert_values text;
    keys text;
    journal_name text;
BEGIN
    FOR attached IN
        SELECT t.tgrelid::regclass AS journalled, p.prosrc
          FROM pg_trigger AS t JOIN pg_proc AS p ON p.oid = t.tgfoid
         WHERE t.tgname = 'diffgen' AND t.tgparentid = 0
           AND t.tgfoid <> 'diffgen_journal'::regproc
           AND p.prosrc LIKE '%INSERT INTO % (tablename, table_id, op) VALUES (%, ''i'');%'
    LOOP
        insert_values := substring(attached.prosrc
                                   FROM 'VALUES \(((?:''(?:[^'']|'''')*''), .*?), ''i''\);');
        journal_name := replace(substring(insert_values FROM '^''((?:[^'']|'''')*)'''), '''''',
                                '''');
        SELECT string_agg(CASE WHEN m[1] LIKE '"%'
                               THEN replace(substr(m[1], 2, length(m[1]) - 2), '""', '"')
                               ELSE m[1] END, ',' ORDER BY n)
          INTO keys
          FROM regexp_matches(insert_values, 'NEW\.("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)', 'g')
               WITH ORDINALITY AS found(m, n);
        IF keys IS NULL OR journal_name IS NULL THEN
            RAISE NOTICE 'diffgen: the trigger function of % was not written by diffgen_attach '
                         'as this file writes it; run diffgen_attach for it again', attached.journalled;
            CONTINUE;
        END IF;
        PERFORM diffgen_attach(attached.journalled, keys, journal_name);
    END LOOP;
END
$upgrade$;
