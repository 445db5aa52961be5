"""Slitherlink techniques, by level (spec/heuristics-catalogue.txt, SLITHERLINK).

basics: counting around clues and dots (every graph, level 1); patterns: the square-grid
patterns of the catalogue (levels 1-2); corners: what a dot says about the two edges a cell has
there (every graph, level 2); angles: those corner counts carried along chains (level 3,
Tatham's tricky); loop: never close a loop too early and a closed loop ends the drawing
(level 1, part of Tatham's easy), the forced moves that would close one (level 4), areas the
loop cannot reach, an area with one way in and edges any two of which cut the grid (level 3);
colouring: the Jordan curve rule (level 2) and parity, also carried by corners (grids, where
the faces are known; level 4, Tatham's hard); searcher: the general pattern searcher over
pairs of numbers (level 4); whatif: short what-ifs at a number with two or three ways left, at
a loose end or on one edge, followed a few steps with the simple rules, and ways of a number or
a loose end that fail further on (level 4, the recurring shapes of the level-5 trials);
probing: trial and error on one edge and every way to finish a number (level 5).
"""
from heuristics.slitherlink import (basics, patterns, corners, angles, loop, colouring, searcher, whatif,
                                    probing)  # noqa: F401
from grader.core.probing import register_nested
from grader.core.registry import REGISTRY
from heuristics.slitherlink.common import CLUES_ONLY, WHAT_IFS

# the deepening nested trial (grader.core.probing.register_last_resort), whose fill uses every
# other technique but the what-ifs of level 4: searches of their own, which inside trials inside
# trials cost much and find what the fill finds a few steps later; and the patterns of the clues
# alone, which find nothing in a fill (CLUES_ONLY)
_me: list = []
_me.append(register_nested("slitherlink", lambda: [x for x in REGISTRY.for_genre("slitherlink")
                                                   if x not in _me and x.id not in WHAT_IFS + CLUES_ONLY],
                           order=10_000, first_round=False))
