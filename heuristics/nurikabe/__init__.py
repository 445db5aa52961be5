"""Nurikabe techniques, by level (spec/heuristics-catalogue.txt, NURIKABE).

Islands are the decided island groups of a state (grader.genres.nurikabe.Islands); how far an
island can still grow is its *reach* (reach.py). Walls use grader.kernels.connectivity.

basics: levels 1-2; growth: reach, island articulation points, unreachable cells, starving
(levels 3-4); pools: a 2x2 block only one island can break (level 3); counting: island cells
counted against 2x2 blocks (levels 3-4, and a rule check for the case splits); walls: cut-off walls
and wall articulation points; unnumbered: which number an unnumbered island belongs to; shapes: every way to finish an island; combinations: every
filling of a 2x2 block; cases and owners: short case splits (level 4); hypotheses: level 5.
"""
from heuristics.nurikabe import basics, cases, combinations, counting, growth, hypotheses, owners, pools, shapes, unnumbered, walls  # noqa: F401
from grader.core.probing import register_last_resort

register_last_resort("nurikabe")      # the deepening nested trial, unless registered above
