"""Numberlink (Arukone): the names its puzzles go by, which grader.genres reads without importing
the model (an alias, a URL's puzzle type, a janko folder)."""
ALIASES = ("arukone", "numlin", "flow")
PUZZLINK_PIDS = ("numlin", "numberlink", "arukone")
JANKO_NAMES = ("Arukone",)
