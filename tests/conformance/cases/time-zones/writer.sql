-- The server's time zone for new sessions of this database: {time_zone} is each of
-- expected.json's server_time_zones in turn.
DO $$
BEGIN
    EXECUTE format('ALTER DATABASE %I SET timezone = %L', current_database(), '{time_zone}');
END
$$;
