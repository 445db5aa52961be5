"""Masyu (Pearl): the names its puzzles go by, which grader.genres reads without importing
the model (an alias, a URL's puzzle type, a janko folder)."""
ALIASES = ("pearl", "mashu")
PUZZLINK_PIDS = ("mashu", "masyu", "pearl")
JANKO_NAMES = ("Masyu",)
