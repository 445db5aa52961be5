"""Nurikabe: each technique fires where it should (with what it finds) and not elsewhere; every
deduction agrees with the unique solution on real puzzles; formats and bad input."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from grader.core.engine import Solver
from grader.core.explain import sentence
from grader.core.errors import InputError, Source
from grader.io.read import load
from grader.genres import get
from grader.core.registry import REGISTRY
from support import (assert_all_sound, assert_sound_path, decided_by, fires, janko, native,
                     random_partial, reference, shared, states_of_solve)

NURIKABE = get("nurikabe")
CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "nurikabe"


def puzzle(grid: str):
    return native("genre: nurikabe\ngrid: |\n" + "".join(f"  {row}\n" for row in grid.strip().splitlines()))


def found(hid: str, grid: str, marks: str | None = None) -> dict[str, str]:
    p = puzzle(grid)
    state = NURIKABE.parse_marks(p, marks, Source("<marks>")) if marks else NURIKABE.initial_state(p)
    return decided_by(fires(hid, p, state), p, state)


WALL, ISLAND = "is wall", "is island"

FORCED_GRID = """. . . . . . . 6 . .
. . . . . . 4 . . .
. . . . . . . . . .
. 6 . . . . . . . .
5 . . . 6 . . . . .
. . . . . 4 . . . 2
. . . . . . . . 2 .
. . . . . . . . . .
. . . 6 . . . . . .
. . 3 . . . . . . ."""
FORCED_MARKS = """. . . . . # # 6 + +
. . . . . . 4 # . +
# . . . . . . # . .
# 6 . . . . . . # #
5 # . . 6 # . + # +
+ . . . # 4 . # # 2
. . . . . . # + 2 #
. . . . . . . # # #
# . # 6 . . . + + #
. + 3 # # . . . # #"""

# (technique, grid, marks or None, what it must find); an empty result means "must not fire".
CASES = [
    ("nurikabe.one", ". . .\n. 1 .\n. . .", None,
     {"r1c2": WALL, "r2c1": WALL, "r2c3": WALL, "r3c2": WALL}),
    ("nurikabe.one", ". . .\n. 2 .\n. . .", None, {}),
    ("nurikabe.pool-corner", ". . 3\n. . .\n. . .", "# # 3\n# . .\n. . .", {"r2c2": ISLAND}),
    ("nurikabe.pool-corner", ". . 3\n. . .\n. . .", "# # 3\n. . .\n. . .", {}),
    ("nurikabe.between-numbers", "2 . 2\n. . .\n. . .", None, {"r1c2": WALL}),
    ("nurikabe.between-numbers", "2 . .\n. . 2\n. . .", None, {}),
    ("nurikabe.walled-in", "3 . . .\n. . . .\n. . . .\n. . . .", "3 . . .\n. . # .\n. # . #\n. . # .",
     {"r3c3": WALL, "r4c4": WALL}),
    ("nurikabe.walled-in", "3 . . .\n. . . .\n. . . .\n. . . .", "3 . . .\n. . # .\n. # . .\n. . # .", {}),
    ("nurikabe.island-complete", "2 . .\n. . .\n. . .", "2 + .\n. . .\n. . .",
     {"r1c3": WALL, "r2c1": WALL, "r2c2": WALL}),
    ("nurikabe.island-complete", "3 . .\n. . .\n. . .", "3 + .\n. . .\n. . .", {}),
    ("nurikabe.surrounded-by-island", "5 . . .\n. . . .\n. . . .", "5 + + .\n+ . + .\n# + . .",
     {"r2c2": ISLAND}),
    ("nurikabe.surrounded-by-island", "5 . . .\n. . . .\n. . . .", "5 + + .\n+ . . .\n# + . .", {}),
    ("nurikabe.two-islands", "3 . . .\n. . . 3\n. . . .", "3 + . .\n. . + 3\n. . . .",
     {"r1c3": WALL, "r2c2": WALL}),
    ("nurikabe.two-islands", "3 . . .\n. . . 3\n. . . .", "3 . . .\n. . + 3\n. . . .", {}),
    ("nurikabe.wall-exit", "2 . .\n. . .\n. . .", "2 + #\n# . .\n. . .", {"r2c3": WALL}),
    ("nurikabe.wall-exit", "2 . .\n. . .\n. . .", "2 . #\n. . .\n. . .", {}),
    ("nurikabe.island-exit", "3 . .\n. . .\n. . .", "3 . .\n# . .\n. . .", {"r1c2": ISLAND}),
    ("nurikabe.island-exit", "3 . .\n. . .\n. . .", None, {}),
    ("nurikabe.enclosure", "3 . . .\n. . . .\n. . . .", "3 . # .\n. # . .\n# . . .",
     {"r1c2": ISLAND, "r2c1": ISLAND}),
    ("nurikabe.enclosure", "3 . . .\n. . . .\n. . . .", "3 . . .\n. # . .\n# . . .", {}),
    ("nurikabe.one-short", ". . . .\n. 2 . .\n. . . .\n. . . .", ". . . .\n. 2 # .\n. # . .\n. . . .",
     {"r1c1": WALL}),
    ("nurikabe.one-short", ". . . .\n. 3 . .\n. . . .\n. . . .", ". . . .\n. 3 # .\n. # . .\n. . . .", {}),
    ("nurikabe.unreachable", "2 . . .\n. . . .\n. . . 2", None,
     {"r1c3": WALL, "r1c4": WALL, "r2c2": WALL, "r2c3": WALL, "r3c1": WALL, "r3c2": WALL}),
    ("nurikabe.unreachable", "3 . . .\n. . . .\n. . . 3", None, {}),
    ("nurikabe.island-articulation", "4 . . . .\n. . . . .\n. . . . .", "4 . . . .\n# . # . .\n. . # . .",
     {"r1c2": ISLAND}),
    ("nurikabe.island-articulation", "4 . . . .\n. . . . .\n. . . . .", None, {}),
    ("nurikabe.exact-growth", "3 . . .\n. . . .\n. . . .", "3 . # .\n# . # .\n. # . .",
     {"r1c2": ISLAND, "r2c2": ISLAND}),
    ("nurikabe.exact-growth", "3 . . .\n. . . .\n. . . .", "3 . . .\n# . # .\n. # . .", {}),
    ("nurikabe.wall-cut-off", "5 . . . . .\n. . . . . .\n. . . . . 1", "5 + + + # .\n+ . . + # .\n. + + . . 1",
     {"r2c2": ISLAND, "r2c3": ISLAND, "r3c1": ISLAND}),
    ("nurikabe.wall-cut-off", "5 . . . . .\n. . . . . .\n. . . . . 1", "5 + . # . .\n. . . . . .\n. . . . . 1", {}),
    # only the 3 reaches r1c3-r2c4, through r1c2; then it cannot reach r3c1 as well
    ("nurikabe.pool-owner", "3 . . .\n. . . .", None, {"r1c2": ISLAND}),
    ("nurikabe.pool-owner", "3 . .\n. . .\n. . .", None, {"r3c1": WALL}),
    ("nurikabe.pool-owner", "3 . . .\n. . . .\n. . . 3", None, {}),
    # of the 3's ways, only the two through r2c2 break r2c2-r3c3, which only it can reach
    ("nurikabe.pool-owner-ways", "3 . .\n. . .\n. . .", None, {"r2c2": ISLAND, "r2c3": WALL, "r3c2": WALL}),
    ("nurikabe.pool-owner-ways", "3 . . .\n. . . .\n. . . 3", None, {}),
    # three blocks only the 4 reaches, three cells left: r1c2 and r2c1 lie outside every block
    ("nurikabe.pool-count", ". . . .\n. 4 . .\n. . . .\n. . . .", "# . . #\n. 4 . .\n. . . .\n# . . #",
     {"r1c2": WALL, "r2c1": WALL}),
    ("nurikabe.pool-count", ". . . .\n. 5 . .\n. . . .\n. . . .", "# . . #\n. 5 . .\n. . . .\n# . . #", {}),
    # the 2 and the 3 share r1c3-r2c4 and r3c4-r4c5 and have three cells for three blocks
    ("nurikabe.pool-count-shared", ". . . . .\n. . . . 2\n. . 3 . .\n1 . . . .",
     ". . . # .\n. . . . 2\n. . 3 # .\n1 . . . #", {"r1c5": WALL, "r3c2": WALL, "r4c3": WALL}),
    # the two 2s share no block: each is counted alone (pool-count), not together
    ("nurikabe.pool-count-shared", ". . . . 1 . 1\n2 . . 1 . . .\n. . . . . . 2",
     ". . . . 1 . 1\n2 . . 1 # . #\n. . # . . . 2", {}),
    ("nurikabe.wall-articulation", "4 . . .\n. . . .\n. . . 4", "4 + + #\n+ . . .\n# . + 4",
     {"r2c2": WALL, "r2c3": WALL, "r2c4": WALL, "r3c2": WALL}),
    ("nurikabe.wall-articulation", "2 . .\n. . .\n. . .", "2 . #\n. . .\n# . .", {}),
    ("nurikabe.growth-starves", "2 . . . 3", None, {"r1c2": WALL}),
    ("nurikabe.growth-starves", "2 . . . 2", None, {}),
    ("nurikabe.wall-starves", "4 . . . .\n. . . . .\n. . . . .", "4 . . . .\n# . # . .\n. . # . .",
     {"r1c2": ISLAND}),
    ("nurikabe.wall-starves", "4 . . . .\n. . . . .\n. . . . .", None, {}),
    ("nurikabe.unnumbered-match", "3 . . . . . 3", "3 . + . + . 3", {"r1c4": WALL}),
    ("nurikabe.unnumbered-match", "3 . . . . . 3", "3 . + . . . 3", {}),
    ("nurikabe.owned-island", "4 . . . . 2", "4 . . + . 2", {"r1c2": ISLAND}),
    ("nurikabe.owned-island", "4 . . . . .", None, {}),
    ("nurikabe.shape-intersection", "2 . .\n. . .\n. . .", None, {"r2c2": WALL}),
    ("nurikabe.shape-intersection", "3 . .\n. . .\n. . .", None, {}),
    ("nurikabe.owner-shapes", "4 . . . . . 2", "4 . . + . . 2",
     {"r1c2": ISLAND, "r1c3": ISLAND, "r1c5": WALL}),
    ("nurikabe.owner-shapes", "4 . . . . 2 .", "4 . . . . 2 .", {}),
    # One wall fits beside the 5, and r3c2 has no way out to the other walls.
    ("nurikabe.one-wall-inside", ". . . .\n. . . .\n5 . . .", "# # # #\n. . . #\n5 . . #", {"r3c2": ISLAND}),
    ("nurikabe.one-wall-inside", ". . . .\n. . . .\n4 . . .", "# # # #\n. . . #\n4 . . #", {}),
    # Exactly two walls fit beside the 8, and the walls at r1c1 and r1c4 must meet through them.
    ("nurikabe.enclosure-crossing", ". . . .\n. . . .\n. 8 . .", "# . . #\n. . . .\n. 8 . .",
     {"r2c1": ISLAND, "r2c2": ISLAND, "r2c3": ISLAND, "r2c4": ISLAND, "r3c1": ISLAND, "r3c3": ISLAND,
      "r3c4": ISLAND}),
    ("nurikabe.enclosure-crossing", ". . . .\n. . . .\n. 6 . .", "# . . #\n. . . .\n. 6 . .", {}),
    # 4 walls in all, 2 left: the walls at r1c1 and r1c4 take both to meet along the top row.
    ("nurikabe.wall-budget", ". . . .\n. . . .\n. 12 . .\n. . . .", "# . . #\n. . . .\n. 12 . .\n. . . .",
     {f"r{r}c{c}": ISLAND for r in (2, 3, 4) for c in (1, 2, 3, 4) if (r, c) != (3, 2)}),
    ("nurikabe.wall-budget", ". . . .\n. . . .\n. 8 . .\n. . . .", "# . . #\n. . . .\n. 8 . .\n. . . .", {}),
    # Between r2c1 and r2c5 the row above is blocked by the 2: the walls must pass r2c3 and r2c4.
    ("nurikabe.wall-budget", ". . . 2 .\n. . . . .", ". # . 2 .\n# . . . #", {"r2c3": WALL, "r2c4": WALL}),
    ("nurikabe.group-fillings", "2 . .\n. . .\n. . .", None, {"r2c2": WALL}),
    ("nurikabe.group-fillings", "3 . .\n. . .\n. . .", "3 . .\n. # .\n. . .", {}),
    # Either 3 takes the island at r2c3 in, and both ways wall r1c3 and r3c3.
    ("nurikabe.all-ways-to-reach", ". . . . .\n3 . . . 3\n. . . . .", ". . . . .\n3 . + . 3\n. . . . .",
     {"r1c3": WALL, "r3c3": WALL}),
    ("nurikabe.all-ways-to-reach", ". . . . .\n3 . . . 3\n. . . . .", None, {}),
    ("nurikabe.unnumbered-owner", ". . . . .\n3 . . . 3\n. . . . .", ". . . . .\n3 . + . 3\n. . . . .",
     {"r1c2": WALL, "r1c3": WALL, "r1c4": WALL, "r3c2": WALL, "r3c3": WALL, "r3c4": WALL}),
    ("nurikabe.unnumbered-owner", ". . . . .\n3 . . . 3\n. . . . .", None, {}),
    # Of the 3's ways, taking in r2c1 and r3c1 (or r2c3 and r3c3) cuts the top walls off at
    # once; every way left uses r2c2 and walls r2c1 and r2c3.
    ("nurikabe.island-cases", ". . .\n. . .\n. 3 .", "# # #\n. . .\n. 3 .",
     {"r2c1": WALL, "r2c2": ISLAND, "r2c3": WALL}),
    ("nurikabe.island-cases", "2 . . .\n. . . .\n. . . 2", None, {}),
    # The 3 has 7 ways: six of them leave a 2x2 block no island can reach (the rule check of
    # counting.too_few_cells), so it takes the way through r2c2 and r2c3.
    ("nurikabe.island-cases", ". . . .\n. . . .\n. . 3 .", ". . . .\n# . . .\n. . 3 .",
     {"r1c2": WALL, "r1c3": WALL, "r2c2": ISLAND, "r2c3": ISLAND, "r2c4": WALL, "r3c2": WALL, "r3c4": WALL}),
    # As island r1c5 would belong to the 4, in one of two ways: taking in r1c3-r1c5 parts
    # the walls at r1c2 and r2c4, and taking in r1c4, r1c5, r2c4 leaves too few walls.
    ("nurikabe.cell-owners", ". . . . .\n. . 4 . .\n. . . . .", ". . . . .\n. . 4 . #\n# . . . #",
     {"r1c5": WALL}),
    ("nurikabe.cell-owners", ". . . . .\n. . 5 . .\n. . . . .", None, {}),
    # As island r1c2 would join r1c1 or r1c3, and the two `?`, within two easy steps.
    ("nurikabe.forcing-chain", ". . .\n? . ?\n. . .", ". . .\n? # ?\n. . .", {"r1c2": WALL}),
    ("nurikabe.forcing-chain", "5 . . .\n. . . .\n. . . .\n. . . 5", None, {}),
    # janko 0033 where levels 1-4 stopped before: as island r8c4 would join the 6 at r9c4,
    # which then could no longer reach the island at r9c8, and no other number can (the rule
    # check of counting.too_few_cells)
    ("nurikabe.forcing-chain", FORCED_GRID, FORCED_MARKS, {"r8c4": WALL}),
]


@pytest.mark.parametrize("hid, grid, marks, expected", CASES, ids=[f"{c[0]}-{bool(c[3])}" for c in CASES])
def test_technique(hid, grid, marks, expected):
    assert found(hid, grid, marks) == expected


def test_every_technique_has_a_case():
    covered = {c[0] for c in CASES if c[3]} | {"nurikabe.island-growth", "nurikabe.pool-breaker",
                                               "nurikabe.trial-and-error", "nurikabe.deep-trial",
                                               "nurikabe.group-trials", "nurikabe.nested-trial",
                                               # on janko 0414: test_case_splits_follow_...
                                               "nurikabe.island-cases-longer"}
    assert {h.id for h in REGISTRY.for_genre("nurikabe")} == covered


CASE_SPLITS = ("nurikabe.island-cases", "nurikabe.forcing-chain", "nurikabe.cell-owners",
               "nurikabe.island-cases-longer")


def stuck_at_level_4():
    """Where the level-4 techniques other than the short case splits stop (with those, or
    with the 2x2 blocks only one island, or a few, can break, the puzzle is level 4)."""
    p = load(str(CORPUS / "nurikabe-9x9-hard-6.yaml"))
    left_out = (*CASE_SPLITS, "nurikabe.pool-owner", "nurikabe.pool-owner-ways", "nurikabe.pool-count",
                "nurikabe.pool-count-shared")
    trace = Solver(p, heuristics=[h for h in REGISTRY.for_genre("nurikabe", 4) if h.id not in left_out]).solve()
    assert trace.status.value == "stuck"
    return p, trace.final, reference(p)


@pytest.mark.parametrize("hid", ["nurikabe.island-growth", "nurikabe.trial-and-error",
                                 "nurikabe.deep-trial", "nurikabe.group-trials", *CASE_SPLITS])
def test_hypotheses_find_a_sound_step_where_level_4_stops(hid):
    p, state, solution = stuck_at_level_4()
    assert assert_all_sound(REGISTRY.get(hid), p, state, solution) == 1


POOL_STATE = """1 # # # 1 # 1 # # #
# # 1 # # # # 1 # 1
# 1 # 2 + # 1 # # #
# # # # # # # # 1 #
# 2 + # + + 3 # # .
# # # 2 # # # . . 2
# 1 # + # 1 # + # #
# # # # 1 # + 3 # 1
1 # 1 # # # # # # #
# # # 1 # + 2 # 1 #"""


def test_pool_breaker_tries_each_cell_of_a_block():
    p = load(str(CORPUS / "nurikabe-10x10-grader-1.yaml"))
    state = NURIKABE.parse_marks(p, POOL_STATE, Source("<marks>"))
    assert assert_all_sound(REGISTRY.get("nurikabe.pool-breaker"), p, state, reference(p)) == 1
    assert decided_by(fires("nurikabe.pool-breaker", p, state), p, state) == {
        "r5c10": "is wall", "r6c8": "is wall", "r6c9": "is island"}


def test_case_splits_stay_out_of_the_count_that_rates_a_step():
    """The long case splits are not seen at a glance: their rows leave them out of the count
    of what level 4 offers (engine.Solver._available)."""
    quiet = {h.id for h in REGISTRY.for_genre("nurikabe", 4) if not h.info.counted}
    assert {"nurikabe.island-cases", "nurikabe.forcing-chain", "nurikabe.cell-owners"} <= quiet


def test_a_case_is_followed_without_a_case_split_inside():
    from heuristics.nurikabe.cases import direct_steps
    inside = {h.id for h in direct_steps(4)}
    assert "nurikabe.wall-budget" in inside and inside.isdisjoint(CASE_SPLITS)


def test_hypotheses_stay_quiet_on_a_finished_island():
    p = puzzle("2 . .\n. . .\n. . 1")
    state = NURIKABE.parse_marks(p, "2 + #\n# # #\n# # 1", Source("<marks>"))
    for hid in ("nurikabe.island-growth", "nurikabe.pool-breaker", "nurikabe.group-trials",
                "nurikabe.unnumbered-owner", "nurikabe.nested-trial"):
        assert fires(hid, p, state) == []


@pytest.mark.corpus
def test_nested_trial_goes_on_where_every_other_technique_stops():
    """janko 300: single hypotheses filled with every other technique find nothing; a
    hypothesis that may try another inside it does, and soundly. (Janko 1013, the case
    before, needs no nested trial since the short case splits help the fill.)"""
    p = load(str(shared("janko/nurikabe.jsonl")) + "#nurikabe/0300")
    others = [h for h in REGISTRY.for_genre("nurikabe") if h.id != "nurikabe.nested-trial"]
    trace = Solver(p, heuristics=others).solve()
    assert trace.status.value == "stuck"
    assert assert_all_sound(REGISTRY.get("nurikabe.nested-trial"), p, trace.final, reference(p)) == 1



def before_step(p, hid: str, words: str):
    """The state of the level 1-4 solve of `p` just before the first step of `hid` whose
    explanation holds `words`."""
    trace = Solver(p, max_level=4).solve()
    state = trace.start
    for step in trace.steps:
        if step.heuristic.id == hid and words in sentence(step):
            return state
        state = step.deduction.apply(state)
    raise AssertionError(f"no step of {hid} says {words!r}")


@pytest.mark.corpus
@pytest.mark.parametrize("hid, words, expected", [
    # the 3 at r5c6 has 4 ways; taking in r4c7 and r5c7 walls in the 6 at r1c1 after 20 steps
    # of levels 1-4, and taking in r5c5 and r5c7 leaves the 7 at r1c3 short after 13 (once
    # group-fillings in the steps looked past its focus)
    ("nurikabe.island-cases-longer", "after 20 steps", {"r4c4": WALL, "r5c5": ISLAND, "r5c7": WALL}),
    # each of the 5 ways the 3 at r3c6 could take r3c5 in breaks a rule within 10 steps of
    # levels 1-3
    ("nurikabe.cell-owners", "short steps", {"r3c5": WALL}),
])
def test_case_splits_follow_a_few_ways_with_short_steps(hid, words, expected, monkeypatch):
    """janko 0414, where levels 1-4 stopped before: once 10 easy steps settle nothing (as they
    alone still do not here), the few ways are followed again with steps of levels 1-3 (how
    far an island can still grow), and an island of at most 4 ways for up to 20 direct steps
    of levels 1-4."""
    from heuristics.nurikabe import cases, owners
    p = load(str(shared("janko/nurikabe.jsonl")) + "#nurikabe/0414")
    state = before_step(p, hid, words)
    assert decided_by(fires(hid, p, state), p, state) == expected
    monkeypatch.setattr(cases, "SHORT_LEVEL", cases.CASE_LEVEL)
    monkeypatch.setattr(cases, "FEW_LEVEL", cases.CASE_LEVEL)
    monkeypatch.setattr(cases, "FEW_STEPS", cases.CASE_STEPS)
    monkeypatch.setattr(owners, "SHORT_LEVEL", cases.CASE_LEVEL)
    assert fires(hid, p, state) == []

# --- violations ------------------------------------------------------------------------------

@pytest.mark.parametrize("marks, message", [
    ("# # .\n# # .\n. . 2", "form a 2x2 block"),
    ("+ # .\n# . .\n. . 2", "walled in without a number"),
    ("# . #\n. . .\n# . 2", None),
    ("# + #\n+ + +\n. . 2", "can no longer connect"),
])
def test_violations(marks, message):
    p = puzzle(". . .\n. . .\n. . 2")
    found_ = [v.message for v in NURIKABE.violations(p, NURIKABE.parse_marks(p, marks, Source("<m>")))]
    if message is None:
        assert found_ == []
    else:
        assert any(message in m for m in found_), found_


def test_violations_on_islands():
    p = puzzle("2 . 2\n. . .\n. . .")
    two = NURIKABE.parse_marks(p, "2 + 2\n# # #\n. . .", Source("<m>"))
    assert any("holds 2 numbers" in v.message for v in NURIKABE.violations(p, two))
    big = NURIKABE.parse_marks(p, "2 # 2\n+ # #\n+ . .", Source("<m>"))
    assert any("has grown to 3 cells" in v.message for v in NURIKABE.violations(p, big))


def test_violations_count_the_walls():
    """With every number known, the walls are the cells no island takes: no more, no fewer."""
    p = puzzle("3 . .\n. . .\n. . .")
    many = NURIKABE.parse_marks(p, "3 # #\n# . #\n# # #", Source("<m>"))
    assert any("7 walls, more than the 6" in v.message for v in NURIKABE.violations(p, many))
    few = NURIKABE.parse_marks(p, "3 + +\n+ + .\n. . .", Source("<m>"))
    assert any("fewer than the 6" in v.message for v in NURIKABE.violations(p, few))
    fine = NURIKABE.parse_marks(p, "3 + +\n# # #\n. . .", Source("<m>"))
    assert not any("walls" in v.message for v in NURIKABE.violations(p, fine))


def test_the_quick_check_of_a_filling_finds_only_real_breaks_and_nearly_all():
    """Group fillings look only at what a filling can change; what they see broken is broken
    on the whole board, and they miss very little."""
    from heuristics.nurikabe.combinations import broken_near, fillings, groups
    rng = random.Random(1)
    seen = agree = 0
    for f in sorted(CORPUS.glob("*.yaml"))[:4]:
        p = load(str(f))
        solution = reference(p)
        for _ in range(8):
            state = random_partial(p, solution, rng, rng.random() * 0.8)
            if NURIKABE.violations(p, state):
                continue
            for cells in groups(p, state, None, range(2, 5))[:6]:
                for _, filled in fillings(state, cells):
                    quick, full = broken_near(p, state, filled, cells), NURIKABE.violations(p, filled)
                    assert not quick or full, quick
                    seen += 1
                    agree += bool(quick) == bool(full)
    assert seen > 300 and agree >= 0.98 * seen


def test_fillings_are_checked_in_opposite_pairs_and_the_answer_is_the_full_checks():
    """_checked_fillings checks a filling and its opposite first; what it answers is what
    checking every filling in order says."""
    from heuristics.nurikabe.combinations import _checked_fillings, broken_near, fillings, groups, in_pairs
    assert in_pairs(4) == [0, 3, 1, 2] and sorted(in_pairs(16)) == list(range(16))
    compared = 0
    for p, state in _partial_states(3):
        for cells in groups(p, state, None, range(2, 5))[:6]:
            checks = [(values, broken_near(p, state, filled, cells)) for values, filled in fillings(state, cells)]
            live = [(v, "") for v, bad in checks if not bad]
            full = [(v, bad) for v, bad in checks if bad]
            both = all(len({v[n] for v, _ in live}) == 2 for n in range(len(cells)))
            assert _checked_fillings(p, state, tuple(cells)) == (None if both else (live, full))
            compared += 1
    assert compared > 50


def _partial_states(seed: int):
    """(puzzle, a random partial state of its solution) for the first corpus puzzles."""
    rng = random.Random(seed)
    for f in sorted(CORPUS.glob("*.yaml"))[:4]:
        p = load(str(f))
        solution = reference(p)
        for _ in range(6):
            yield p, random_partial(p, solution, rng, rng.random() * 0.8)


def test_reach_is_the_fewest_cells_to_add():
    """reach (a bucket queue) gives each cell the fewest cells its island must add to get
    there, as a plain Dijkstra over the same moves does (cut short `until` a target, a part of
    it that meets a target when it does); and cut sizes kept with a reach are those worked
    out afresh."""
    import heapq
    from grader.genres.nurikabe.model import B_ISLAND, islands
    from grader.kernels import connectivity as cn
    from heuristics.nurikabe.common import members
    from heuristics.nurikabe.growth import cut_sizes_of_reach
    from heuristics.nurikabe.reach import reach, reaches
    compared = 0
    for p, state in _partial_states(4):
        isl = islands(p, state)
        for k in isl.numbered_parts():
            need = isl.need(k)
            dist = {i: 0 for i in isl.parts[k]}
            heap = [(0, i) for i in isl.parts[k]]
            while heap:
                d, i = heapq.heappop(heap)
                for n in p.graph.neighbours[i]:
                    if n in dist or not state.cands[n] & B_ISLAND or isl.blocked(k, n):
                        continue
                    group = isl.parts[isl.of[n]] if state.cands[n] == B_ISLAND else (n,)
                    if need is None or d + len(group) <= need:
                        for j in group:
                            dist[j] = d + len(group)
                            heapq.heappush(heap, (d + len(group), j))
            assert reach(isl, k) == dist
            for targets in (frozenset(list(dist)[-1:]), frozenset(range(0, len(state.cands), 7))):
                cut = reach(isl, k, until=targets)      # stopped at the first target met
                assert cut.items() <= dist.items() and targets.isdisjoint(cut) == targets.isdisjoint(dist)
            kept = reaches(p, state)[k]
            assert cut_sizes_of_reach(p, isl, k, kept) == sorted(cn.cut_sizes(
                p.graph, members(len(state.cands), kept), isl.parts[k][0]).items())
            compared += 1
    assert compared > 50


def test_shapes_from_a_wider_state_are_those_listed_afresh():
    """Narrowing the candidates only rules shapes out: checking again the shapes listed in a
    wider state gives exactly the shapes listed afresh."""
    import heuristics.nurikabe.shapes as sh
    from grader.genres.nurikabe.model import islands
    from grader.core.model import State
    rng = random.Random(2)
    compared = 0
    for f in sorted(CORPUS.glob("*.yaml"))[:4]:
        p = load(str(f))
        solution = reference(p)
        for _ in range(10):
            wide = random_partial(p, solution, rng, rng.random() * 0.6)
            narrow = State(tuple(m & solution.cands[i] if rng.random() < 0.15 else m
                                 for i, m in enumerate(wide.cands)))
            iw, i_n = islands(p, wide), islands(p, narrow)
            for kw in iw.numbered_parts():
                clue = iw.clues[kw][0]
                listed, kn = sh._local_shapes(iw, kw), i_n.of[clue]
                if listed is None or not i_n.need(kn) or i_n.need(kn) > sh.SHAPE_NEED:
                    continue
                p.__dict__["_nurikabe_wider"] = {clue: [(wide.cands, listed)]}
                assert set(sh._from_wider(i_n, kn)) == set(sh._local_shapes(i_n, kn, limit=10 ** 6))
                compared += 1
    assert compared > 100


def test_a_shape_assumed_is_the_island_walled_in_and_known_as_a_narrowing():
    """assume_shape finishes the island as the shape and walls its border, and says which
    cells it narrowed from which state (so facts kept for the state update to it)."""
    from grader.genres.nurikabe.model import B_ISLAND, B_WALL
    from heuristics.nurikabe.shapes import assume_shape, border, island_shapes
    p = load(str(CORPUS / "nurikabe-9x9-hard-1.yaml"))
    state = p.genre.initial_state(p)
    checked = 0
    for found in island_shapes(p, state).values():
        for s in found:
            assumed = assume_shape(p, state, s)
            wall = border(p, s)
            assert assumed.cands == tuple(m & B_ISLAND if i in s else m & B_WALL if i in wall else m
                                          for i, m in enumerate(state.cands))
            assert assumed.origin[0] is state.cands
            assert assumed.origin[1] == state.diff(assumed)
            checked += 1
    assert checked > 5


def test_sides_kept_from_a_recent_state_are_those_found_afresh():
    """Along a solve (with short chains tried on the way), each state's island and wall
    components are updated from a recent state's (model.sides): they must be those found
    afresh."""
    from grader.genres.nurikabe.model import B_ISLAND, B_WALL, sides
    from grader.kernels import connectivity as cn
    p = load(str(CORPUS / "nurikabe-9x9-hard-1.yaml"))
    trace = Solver(p).solve()
    checked = 0
    for _, before, _ in trace.states():
        for side, bit in zip(sides(p, before), (B_ISLAND, B_WALL)):
            fresh = cn.Side(p.graph, before.cands, bit)
            assert side.decided_parts == fresh.decided_parts and side.possible_parts == fresh.possible_parts
            checked += 1
    assert checked > 50


def test_reaches_kept_from_a_recent_state_are_those_found_afresh():
    """Along a solve (with short chains and trials on the way), each state's reaches are
    updated from a recent state's (reach._by_part): they must be those worked out afresh."""
    from grader.genres.nurikabe.model import islands
    from heuristics.nurikabe.reach import reach, reaches
    p = load(str(CORPUS / "nurikabe-9x9-hard-1.yaml"))
    trace = Solver(p).solve()
    checked = 0
    for _, before, _ in trace.states():
        isl = islands(p, before)
        for k, dist in reaches(p, before).items():
            assert dist == reach(isl, k)
            checked += 1
    assert checked > 500


def test_wall_starves_skips_only_cells_whose_wall_leaves_enough():
    """growth.cells_kept_without never counts more cells than an island's reach keeps once
    the cell is a wall (wall-starves then skips that cell's look), in every state of a
    solve; and it often spares the look."""
    from grader.genres.nurikabe.model import FREE, islands
    from heuristics.nurikabe.growth import cells_kept_without
    from heuristics.nurikabe.reach import reach, reaches
    p = load(str(CORPUS / "nurikabe-9x9-hard-1.yaml"))
    trace = Solver(p).solve()
    checked = spared = 0
    for _, before, _ in trace.states():
        isl = islands(p, before)
        for k, dist in reaches(p, before).items():
            if not isl.need(k):
                continue
            kept = cells_kept_without(dist, isl.parts[k])
            for v in dist:
                if before.cands[v] == FREE:
                    left = len(reach(isl, k, frozenset((v,)))) - len(isl.parts[k])
                    assert kept(v) <= left
                    checked += 1
                    spared += kept(v) >= isl.need(k)
    assert checked > 500 and spared > 50


def test_cells_within_two_steps_are_those_around_them():
    """reach._within_two, the support of a reach, is graph.around(cells, 2)."""
    import random
    from heuristics.nurikabe.reach import _within_two
    p = load(str(CORPUS / "nurikabe-9x9-hard-1.yaml"))
    rng = random.Random(7)
    for n in (1, 2, 5, 20):
        cells = rng.sample(range(p.graph.size), n)
        assert _within_two(p, cells) == p.graph.around(cells, 2)


def test_the_count_check_remembered_in_a_solve_is_the_one_made_afresh():
    """too_few_cells keeps its answers in the running solve by the candidates: asked of
    another State with the same candidates it gives what _too_few_cells finds afresh."""
    from grader.core.engine import remembering
    from grader.core.model import State
    from heuristics.nurikabe.counting import _too_few_cells, too_few_cells
    p = load(str(CORPUS / "nurikabe-9x9-hard-1.yaml"))
    trace = Solver(p).solve()
    with remembering():
        for _, before, _ in trace.states():
            too_few_cells(p, before)
        for _, before, _ in trace.states():
            assert too_few_cells(p, State(before.cands)) == _too_few_cells(p, State(before.cands))


def test_blocks_and_wall_checks_kept_between_states_are_those_found_afresh():
    """Along a solve (with short chains on the way): the 2x2 blocks kept with each reach give
    each block's owners as a look at its cells does, and a way's wall check remembered from
    an earlier state (the cells that joined its border) gives what a fresh check gives."""
    import heuristics.nurikabe.shapes as sh
    from grader.genres.nurikabe.model import B_ISLAND, FREE, islands
    from grader.kernels import connectivity as cn
    from heuristics.nurikabe.pools import block_owners
    from heuristics.nurikabe.reach import reach_index
    p = load(str(CORPUS / "nurikabe-9x9-hard-1.yaml"))
    blocks, checked = p.graph.blocks, 0
    for _, state in states_of_solve(p):
        owners, index, cands = block_owners(p, state), reach_index(p, state), state.cands
        for q, cells in enumerate(blocks):
            fresh = None if any(cands[i] == B_ISLAND for i in cells) else tuple(sorted(
                {k for i in cells if cands[i] == FREE for k in index.get(i, ())}))
            assert owners(q) == fresh
        isl = islands(p, state)
        for ways in sh.island_shapes(p, state).values():
            for s in ways:
                border = sh.border(p, s)
                assert sh._walls_meet(isl, s, set(border)) == (len(border) < 2 or not cn.splits_marked(
                    p.graph, isl.walls.possible, s, border, border, len(border)))
                checked += 1
    assert checked > 100


def test_teams_are_the_groups_and_the_joined_pairs_of_groups():
    """_teams joins only pairs of islands that share one (the other joins of two groups are
    a group already or too big): the same teams as joining every two groups that meet."""
    from heuristics.nurikabe.counting import MOST_TEAM, _teams
    rng = random.Random(5)
    for _ in range(300):
        islands_ = rng.randint(2, 9)
        groups = {tuple(sorted(rng.sample(range(islands_), rng.randint(1, min(islands_, 4))))): [0]
                  for _ in range(rng.randint(0, 20))}
        shared = [frozenset(w) for w in groups if len(w) > 1]
        for size in range(2, MOST_TEAM + 1):
            every = {w for w in shared if len(w) == size} | {a | b for a in shared for b in shared
                                                            if a != b and a & b and len(a | b) == size}
            assert _teams(groups, size) == sorted(tuple(sorted(t)) for t in every)


def test_a_teams_blocks_are_those_of_every_group_it_holds():
    """_blocks_of looks up each set of the team's islands: the blocks of every group whose
    owners all lie in the team, as a look through every group finds them."""
    from heuristics.nurikabe.counting import MOST_TEAM, _blocks_of
    rng = random.Random(7)
    for _ in range(300):
        islands_ = rng.randint(1, 9)
        groups: dict = {}
        for q in range(rng.randint(0, 30)):
            who = tuple(sorted(rng.sample(range(islands_), rng.randint(1, min(islands_, 3)))))
            groups.setdefault(who, []).append(q)
        team = tuple(sorted(rng.sample(range(islands_), rng.randint(1, min(islands_, MOST_TEAM)))))
        assert _blocks_of(groups, team) == sorted(q for who, qs in groups.items() if set(team).issuperset(who)
                                                  for q in qs)


def test_a_chain_followed_again_from_the_same_candidates_is_the_one_followed_first():
    """short_chain remembers its latest chains within a solve: asked again from the same
    candidates (another State) it gives the chain it found, the one followed afresh."""
    from grader.core.engine import remembering
    from grader.genres.nurikabe.model import ISLAND, WALL
    from heuristics.nurikabe.cases import _short_chain, short_chain
    p = load(str(CORPUS / "nurikabe-9x9-hard-1.yaml"))
    state = p.genre.initial_state(p)
    free = [i for i, m in enumerate(state.cands) if m == 3][:6]
    with remembering():
        for i in free:
            for value in (ISLAND, WALL):
                first = short_chain(p, state.assume({i: value}), (i,), 6, 3)
                again = short_chain(p, state.assume({i: value}), (i,), 6, 3)
                fresh = _short_chain(p, state.assume({i: value}), (i,), 6, 3).trace
                assert again is first
                assert [(s.heuristic.id, s.deduction.removals) for s in first.steps] == \
                    [(s.heuristic.id, s.deduction.removals) for s in fresh.steps]
                assert (first.status, first.reason, first.final.cands) == (fresh.status, fresh.reason, fresh.final.cands)


def _chain_facts(trace):
    return ([(s.heuristic.id, s.deduction.removals) for s in trace.steps], trace.status, trace.reason,
            trace.final.cands)


def test_a_chain_taken_from_its_easier_twin_is_the_one_followed_afresh():
    """A level-3 chain answered by the level-2 chain from the same start (one that found a
    step in every state it looked in) is the level-3 chain followed afresh."""
    from grader.core.engine import remembering
    from grader.genres.nurikabe.model import ISLAND, WALL
    from heuristics.nurikabe.cases import _short_chain, short_chain
    p = load(str(CORPUS / "nurikabe-9x9-hard-1.yaml"))
    state = p.genre.initial_state(p)
    free = [i for i, m in enumerate(state.cands) if m == 3][:8]
    twins = 0
    with remembering():
        for i in free:
            for value in (ISLAND, WALL):
                easy = short_chain(p, state.assume({i: value}), (i,), 4, 2)
                harder = short_chain(p, state.assume({i: value}), (i,), 4, 3)
                twins += harder is easy
                assert _chain_facts(harder) == _chain_facts(_short_chain(p, state.assume({i: value}), (i,), 4, 3).trace)
    assert twins


def test_a_chain_that_goes_on_from_a_stuck_easier_one_is_the_one_followed_afresh():
    """A level-3 (or level-4) chain whose level-2 twin from the same start got stuck goes on
    from where the twin stopped: the same steps, end, reason and states looked in as the
    chain followed afresh."""
    from grader.core.engine import remembering
    from grader.genres.nurikabe.model import ISLAND, WALL
    from heuristics.nurikabe.cases import _short_chain
    p = load(str(CORPUS / "nurikabe-9x9-hard-1.yaml"))
    state = p.genre.initial_state(p)
    went_on = 0
    with remembering():
        for i in [i for i, m in enumerate(state.cands) if m == 3][:12]:
            for value in (ISLAND, WALL):
                easy = _short_chain(p, state.assume({i: value}), (i,), 3, 2)
                for steps, level in ((4, 3), (2, 3), (6, 4)):
                    chain = _short_chain(p, state.assume({i: value}), (i,), steps, level, [easy])
                    fresh = _short_chain(p, state.assume({i: value}), (i,), steps, level)
                    went_on += bool(easy.looked) and len(easy.trace.steps) < steps
                    assert _chain_facts(chain.trace) == _chain_facts(fresh.trace)
                    assert (chain.stands, [s.cands for s in chain.looked]) == (fresh.stands, [s.cands for s in fresh.looked])
    assert went_on


def test_a_chain_that_breaks_a_rule_stops_where_a_check_before_every_step_would():
    """_short_chain cuts a chain that breaks a rule at the first state it looked in that
    breaks one: the chain a solve told to stop there follows."""
    from grader.core.engine import Budget, Solver, remembering
    from grader.genres.nurikabe.model import ISLAND, WALL
    from grader.core.steps import Status
    from heuristics.nurikabe.cases import _short_chain, broken_rule, direct_steps
    p = load(str(CORPUS / "nurikabe-9x9-hard-1.yaml"))
    state = p.genre.initial_state(p)
    refuted = 0
    with remembering():
        for i in [i for i, m in enumerate(state.cands) if m == 3][:12]:
            for value in (ISLAND, WALL):
                trace = _short_chain(p, state.assume({i: value}), (i,), 8, 2).trace
                if trace.status is not Status.CONTRADICTION:
                    continue
                refuted += 1
                checked = Solver(p, heuristics=direct_steps(2), greedy=True, budget=Budget.steps_only(8)).solve(
                    state.assume({i: value}), focus=frozenset((i,)), until=lambda s: broken_rule(p, s) is not None)
                assert _chain_facts(trace)[:1] + _chain_facts(trace)[3:] == \
                    _chain_facts(checked)[:1] + _chain_facts(checked)[3:]
    assert refuted


def test_shapes_remembered_by_their_neighbourhood_see_every_liberty_of_an_island_nearby():
    """A shape is rejected when it walls in an island nearby; that island's liberties lie one
    step beyond it, so the remembered list must be keyed by those cells too. Here r1c10 is a
    wall in one state and open in the other: only in the first would r1c5-r1c6 shut the island
    r1c8-r1c9 in, and in the second the 2 at r1c5 keeps all three ways."""
    p = puzzle(". . . . 2 . . . . . . 3\n" + ". . . . . . . . . . . .\n" * 2)
    rest = "\n. . . . . . . # # . . .\n. . . . . . . . . . . ."
    shut = NURIKABE.parse_marks(p, ". . . . 2 . . + + # . 3" + rest, Source("<marks>"))
    open_ = NURIKABE.parse_marks(p, ". . . . 2 . . + + . . 3" + rest, Source("<marks>"))
    assert decided_by(fires("nurikabe.shape-intersection", p, shut), p, shut) == {"r1c6": WALL, "r2c4": WALL}
    assert decided_by(fires("nurikabe.shape-intersection", p, open_), p, open_) == {}


# --- whole puzzles ---------------------------------------------------------------------------

def test_own_corpus_is_solved_soundly():
    for f in sorted(CORPUS.glob("*.yaml"))[:5]:
        p = load(str(f))
        assert assert_sound_path(p).value == "solved"


@pytest.mark.corpus
def test_every_deduction_agrees_with_the_solution_on_janko_puzzles():
    for p in janko("nurikabe", 6, max_cells=100):
        assert assert_sound_path(p).value in ("solved", "stuck")


@pytest.mark.corpus
def test_every_technique_is_sound_from_random_correct_states():
    rng = random.Random(7)
    for p in janko("nurikabe", 4, seed=3, max_cells=100):
        solution = reference(p)
        for fraction in (0.2, 0.5, 0.8):
            state = random_partial(p, solution, rng, fraction)
            for h in REGISTRY.for_genre("nurikabe", max_level=4):
                assert_all_sound(h, p, state, solution)


# --- formats ---------------------------------------------------------------------------------

def test_puzzlink_decodes_as_formats_md_says():
    p = load("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g")
    assert NURIKABE.render_text(p).splitlines() == [
        ". 5 . . .", ". . 2 . .", ". . . . .", ". . 1 . .", ". . . 3 ."]
    assert NURIKABE.answer_text(p, reference(p)).splitlines() == [
        ". 5 # # #", ". # 2 . #", ". # # # #", ". # 1 # .", "# # # 3 ."]
    assert load("https://puzz.link/p?nurikabe/2/1/.-10").clues == (-2, 16)


def test_janko_question_mark_and_round_trip(tmp_path):
    rec = {"file": "/Nurikabe/0001.a.x-janko", "data": {"rows": 1, "cols": 3,
           "problem": [["?", "-", "1"]], "solution": [["-", "x", "-"]]}}
    f = tmp_path / "n.jsonl"
    f.write_text(json.dumps(rec) + "\n")
    p = load(str(f))
    assert p.clues == (-2, 0, 1)
    assert not NURIKABE.violations(p, NURIKABE.solution_state(p))
    assert reference(p) == NURIKABE.solution_state(p)
    from grader.io.native import dump
    again = native(dump(NURIKABE.to_native(p)))
    assert again.clues == p.clues and again.solution == p.solution


@pytest.mark.parametrize("text, message", [
    ("genre: nurikabe\ngrid: |\n  . 2\n  x .\n", "<test>:4:3: unexpected 'x'"),
    ("genre: nurikabe\ngrid: |\n  . 0\n  . .\n", "<test>:3:5: unexpected '0'"),
    ("genre: nurikabe\ngrid: |\n  . 2\n  . .\nsolution: |\n  # 3\n  # .\n", "<test>:6:5: r1c2 holds the number 2"),
])
def test_bad_native_input_names_the_place(text, message):
    with pytest.raises(InputError) as err:
        native(text)
    assert message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("spec, message", [
    ("https://puzz.link/p?nurikabe/5/x/g5k2", "(size)"),
    ("https://puzz.link/p?nurikabe/2/1/-z1", "bad number '-z1'"),
    ("https://puzz.link/p?nurikabe/2/1/0g", "island size 0 at r1c1"),
])
def test_bad_urls_name_the_part(spec, message):
    with pytest.raises(InputError) as err:
        load(spec)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_janko_bad_token_is_one_line(tmp_path):
    rec = {"file": "/Nurikabe/0002.a.x-janko", "data": {"rows": 1, "cols": 2, "problem": [["-", "a"]]}}
    f = tmp_path / "n.jsonl"
    f.write_text(json.dumps(rec) + "\n")
    with pytest.raises(InputError) as err:
        load(str(f))
    assert "unexpected 'a' at r1c2 in 'problem'" in str(err.value)


@pytest.mark.parametrize("grid, marks, reason", [
    # three blocks only the 3 reaches, two cells left
    (". . . .\n. 3 . .\n. . . .\n. . . .", "# . . #\n. 3 . .\n. . . .\n# . . #",
     "the 2x2 blocks r1c3-r2c4, r3c1-r4c2 and r3c3-r4c4 need 3 island cells, and the 3 at r2c2 has only 2 left"),
    ("2 . . .\n. . . .\n. . . .", "2 . . .\n# . . .\n. . . .", "no island can reach the 2x2 block r1c3-r2c4"),
    ("3 . . .\n. . . .", "3 # . .\n. # . .", "the 3 at r1c1 can reach only 1 of the 2 cells it still needs"),
    ("3 . . .\n. . . .", "3 . . .\n. . . .", None),
])
def test_what_the_islands_reach_cannot_do_breaks_a_rule(grid, marks, reason):
    """The case splits' rule check: reach and the count of 2x2 blocks (counting.too_few_cells)."""
    from heuristics.nurikabe.counting import too_few_cells
    p = puzzle(grid)
    assert too_few_cells(p, NURIKABE.parse_marks(p, marks, Source("<marks>"))) == reason


def test_too_far_finds_what_every_distance_from_the_block_finds():
    """pool-owner's too-far cells, found with the block's distances only as far as asked,
    are those the distances to the whole reach give (along solves, every owned block)."""
    from grader.genres.nurikabe.model import FREE, islands
    from grader.kernels import connectivity as cn
    from heuristics.nurikabe.common import members
    from heuristics.nurikabe.pools import _Once, _too_far, owned_blocks
    from heuristics.nurikabe.reach import reach_index, reaches

    def afresh(p, state, isl, k, block):
        dist, index, g = reaches(p, state)[k], reach_index(p, state), p.graph
        in_reach = members(len(p.clues), dist)
        from_island = cn.reach(g, isl.parts[k], in_reach)
        targets = [i for i in block if i in dist]
        to_block = min(from_island[i] for i in targets)
        passable = [ok and i not in isl.parts[k] for i, ok in enumerate(in_reach)]
        from_block = cn.reach(g, targets, passable)
        ring = {x: from_island[x] + to_block for x in dist}
        return [x for x in sorted(dist) if state.cands[x] == FREE and index.get(x) == [k] and x not in block
                and (ring[x] + min(from_block.get(x, ring[x]), ring[x]) + 1) // 2 > isl.need(k)]
    checked = 0
    for name in ("nurikabe-9x9-hard-1.yaml", "nurikabe-10x10-grader-1.yaml", "nurikabe-10x10-grader-3.yaml"):
        p = load(str(CORPUS / name))
        for _, state in states_of_solve(p):
            isl = islands(p, state)
            for k in range(len(isl.parts)):
                if not isl.need(k):
                    continue
                once = _Once()
                for block in owned_blocks(p, state, k):
                    d = _too_far(p, state, isl, k, block, once)
                    assert ([] if d is None else sorted(v for v, _ in d.removals)) == afresh(p, state, isl, k, block)
                    checked += 1
    assert checked > 50
