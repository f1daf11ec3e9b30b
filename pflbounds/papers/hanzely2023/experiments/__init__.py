"""hanzely2023's own experiments: the synthetic ones of Section 5 (objectives (11) and (16))."""
