"""Akari (Light Up): the names its puzzles go by, which grader.genres reads without importing
the model (an alias, a URL's puzzle type, a janko folder)."""
ALIASES = ("lightup", "light-up", "bijutsukan")
PUZZLINK_PIDS = ("lightup", "akari", "bijutsukan")
JANKO_NAMES = ("Akari",)
