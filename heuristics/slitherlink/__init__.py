"""Slitherlink techniques, by level (spec/heuristics-catalogue.txt, SLITHERLINK).

basics: counting around clues and dots (every graph, level 1); patterns: the square-grid
patterns of the catalogue (levels 1-2); corners: what a dot says about the two edges a cell has
there (every graph, level 2); angles: those corner counts carried along chains (level 3,
Tatham's tricky); loop: never close a loop too early (levels 2 and 4), areas the loop cannot
reach and the only way across (level 3); colouring: inside/outside colouring, the Jordan curve
rule and parity, also carried by corners (grids, where the faces are known; levels 2-3,
Tatham's hard); searcher: the general pattern searcher over pairs of numbers (level 4);
probing: trial and error on one edge and every way to finish a number (level 5).
"""
from . import basics, patterns, corners, angles, loop, colouring, searcher, probing  # noqa: F401
