"""Slitherlink techniques, by level (spec/heuristics-catalogue.txt, SLITHERLINK).

basics: counting around clues and dots (every graph); patterns: the square-grid patterns of
the catalogue; corners: what a dot says about the two edges a cell has there (every graph);
loop: never close a loop too early; colouring: inside/outside colouring, the Jordan curve rule
and parity (grids, where the faces are known); probing: level 5.
"""
from . import basics, patterns, corners, angles, loop, colouring, searcher, probing  # noqa: F401
