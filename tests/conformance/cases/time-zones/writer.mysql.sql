-- The server's time zone for new sessions: {time_zone} is each of server_time_zones in turn.
SET GLOBAL time_zone = '{time_zone}';
