"""Hitori (Singles): the names its puzzles go by, which grader.genres reads without importing
the model (an alias, a URL's puzzle type, a janko folder)."""
ALIASES = ("singles",)
PUZZLINK_PIDS = ("hitori",)
JANKO_NAMES = ("Hitori",)
