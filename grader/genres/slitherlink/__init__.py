"""Slitherlink (square grid and general graphs): the names its puzzles go by, which
grader.genres reads without importing the model (an alias, a URL's puzzle type, a janko
folder)."""
ALIASES = ("slither", "loopy", "generalized-slitherlink")
PUZZLINK_PIDS = ("slither", "slitherlink")
JANKO_NAMES = ("Slitherlink",)
