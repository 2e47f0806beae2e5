DO $$
BEGIN
    EXECUTE format('ALTER DATABASE %I RESET timezone', current_database());
END
$$;
DROP TABLE IF EXISTS tdg_conf_zone;
