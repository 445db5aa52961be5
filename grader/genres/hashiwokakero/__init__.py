"""Hashiwokakero (Bridges): the names its puzzles go by, which grader.genres reads without importing
the model (an alias, a URL's puzzle type, a janko folder)."""
ALIASES = ("hashi", "bridges", "hashikake")
PUZZLINK_PIDS = ("hashikake", "hashi", "bridges")
JANKO_NAMES = ("Hashi",)
