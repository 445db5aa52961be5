"""Minesweeper: the names its puzzles go by, which grader.genres reads without importing
the model (an alias, a URL's puzzle type, a janko folder)."""
ALIASES = ("mines",)
PUZZLINK_PIDS = ("mines",)
JANKO_NAMES = ("Minesweeper",)
