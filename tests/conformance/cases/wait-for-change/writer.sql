-- The signal a following run waits for: a commit's NOTIFY on the channel the plugin listens on.
NOTIFY tdg_conf_wake;
