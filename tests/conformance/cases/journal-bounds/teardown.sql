DROP TABLE IF EXISTS tdg_conf_journal;
DROP TABLE IF EXISTS tdg_conf_journal_emptied;
DROP TABLE IF EXISTS tdg_conf_journal_fresh;
