"""Yajilin: the names its puzzles go by, which grader.genres reads without importing
the model (an alias, a URL's puzzle type, a janko folder)."""
ALIASES = ("yajirin",)
PUZZLINK_PIDS = ("yajilin", "yajirin")
JANKO_NAMES = ("Yajilin",)
