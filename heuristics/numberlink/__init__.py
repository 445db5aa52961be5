"""Numberlink techniques. The catalogue has no Numberlink list, so these follow its key:

level 1  one cell and its neighbours: do the lines join up, two different numbers side by
         side are never joined (lines.py); a drawn line that breaks a rule ends a trial at once.
level 2  the lines already drawn: different numbers never meet, no loops (also through a cell
         between two lines), a line never runs beside itself, two halves of one line side
         by side are joined (lines.py); the four cells of a 2x2 block together: no U-turn,
         no loop, no two numbers (blocks.py).
level 3  a larger area: the lines crossing the border of an area with one way out left
         (parity.py); where each pair can still go, over the whole board: cells and joins no
         pair can use, bottlenecks, cells a pair must pass and the no-touch rule with them
         (territory.py).
level 4  the pairwise product of the notes, spec/numberlink-notes.txt, where numbers or
         drawn lines reach both cells (product.py); every way on from a loose end, and every
         shape of a cell beside one, each followed up to 80 steps with the rules for lines of
         levels 1-2, and on from where it stopped once the board has changed; once those are
         quiet, the same again with the pairwise product in the fill (trials.py).
level 5  hypotheses: every way a line can go on from a loose end, or every shape of a cell,
         filled in with levels 1-4 (the look-ahead from the ends included, the territory
         only in the last-resort pass, trials.py); what a hypothesis led to is remembered,
         and taken up where it stopped once the board has changed.

A variable is a cell's shape. Most rules act on a join, the side between two cells: a line
crosses it from both cells or from neither.
"""
from __future__ import annotations

from heuristics.numberlink import blocks, lines, parity, product, territory, trials  # noqa: F401  (each registers its techniques)
from grader.core.probing import register_last_resort

register_last_resort("numberlink")      # the deepening nested trial, unless registered above
