"""Coverage-guided fuzz harnesses (atheris) and their seed corpus; see ``_harness``."""
