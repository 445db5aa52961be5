"""Kuromasu (Kurodoko, Range): the names its puzzles go by, which grader.genres reads without
importing the model (an alias, a URL's puzzle type, a janko folder)."""
ALIASES = ("kurodoko", "range")
PUZZLINK_PIDS = ("kurodoko",)
JANKO_NAMES = ("Kuromasu",)
