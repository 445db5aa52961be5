"""Picross (nonograms): the names its puzzles go by, which grader.genres reads without importing
the model (an alias, a URL's puzzle type, a janko folder)."""
ALIASES = ("nonogram", "nonograms", "griddlers", "pattern", "hanjie")
PUZZLINK_PIDS = ("nonogram",)
JANKO_NAMES = ("Nonograms", "Nonogramme")
