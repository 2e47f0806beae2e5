-- Ends, from the server side, the session whose statement reads the case's view; the
-- statement fails if there is none, as the case then ended nothing.
DO $$
DECLARE
    ended integer;
BEGIN
    SELECT count(pg_catalog.pg_terminate_backend(pid)) INTO ended
      FROM pg_catalog.pg_stat_activity
     WHERE query LIKE '%tdg\_conf\_lost%' AND pid <> pg_catalog.pg_backend_pid();
    IF ended = 0 THEN
        RAISE EXCEPTION 'no session reads tdg_conf_lost';
    END IF;
END
$$;
