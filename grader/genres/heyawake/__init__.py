"""Heyawake: the names its puzzles go by, which grader.genres reads without importing
the model (an alias, a URL's puzzle type, a janko folder)."""
ALIASES = ("heyawacky",)
PUZZLINK_PIDS = ("heyawake", "heyawacky")
JANKO_NAMES = ("Heyawake",)
