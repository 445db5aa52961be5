"""Nurikabe: the names its puzzles go by, which grader.genres reads without importing
the model (an alias, a URL's puzzle type, a janko folder)."""
PUZZLINK_PIDS = ("nurikabe",)
JANKO_NAMES = ("Nurikabe",)
