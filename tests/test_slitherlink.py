"""Slitherlink techniques: each fires where it must (and finds exactly that) and stays quiet
where it must not."""
from __future__ import annotations

import pytest

from grader.core.engine import Solver
from grader.core.errors import Source
from grader.genres import get
from grader.core.model import State
from grader.core.steps import Status
from support import cyclic_garbage_of_solve, decided_by, fires, found, janko, native

G = get("slitherlink")


def grid(*rows: str):
    body = "\n".join("  " + r for r in rows)
    return native(f"genre: slitherlink\ngrid: |\n{body}\n")


def marks(puzzle, drawing: str) -> State:
    return G.parse_marks(puzzle, drawing.strip("\n"), Source("<marks>"))


def test_zero():
    p = grid(". . .", ". 0 .", ". . .")
    assert found("slitherlink.zero", p) == {e: "is crossed" for e in
                                            ("r1c2|r2c2", "r2c2|r3c2", "r2c1|r2c2", "r2c2|r2c3")}
    assert found("slitherlink.zero", grid(". 1", ". .")) == {}


def test_clue_satisfied_and_needs_all():
    p = grid("1 .", ". .")
    s = marks(p, """
+-+ +
     
+ + +
     
+ + +""")
    assert found("slitherlink.clue-satisfied", p, s) == {
        "the left of r1c1": "is crossed", "r1c1|r2c1": "is crossed", "r1c1|r1c2": "is crossed"}
    assert found("slitherlink.clue-satisfied", p) == {}
    p = grid("3 .", ". .")
    s = marks(p, """
+x+ +
     
+ + +
     
+ + +""")
    assert found("slitherlink.clue-needs-all", p, s) == {
        "the left of r1c1": "carries the line", "r1c1|r2c1": "carries the line",
        "r1c1|r1c2": "carries the line"}
    assert found("slitherlink.clue-needs-all", p) == {}


def test_dot_rules():
    p = grid(". .", ". .")
    s = marks(p, """
+-+ +
|    
+ + +
     
+ + +""")
    assert found("slitherlink.dot-full", p, s) == {}
    s2 = marks(p, """
+ +-+
  |  
+ + +
     
+ + +""")
    assert found("slitherlink.dot-full", p, s2) == {"the top of r1c1": "is crossed"}
    assert found("slitherlink.dot-extend", p) == {}
    s4 = marks(p, """
+ +-+
  x  
+ + +
     
+ + +""")
    assert found("slitherlink.dot-extend", p, s4) == {"the top of r1c1": "carries the line",
                                                       "the right of r1c2": "carries the line"}
    s5 = marks(p, """
+x+ +
     
+ + +
     
+ + +""")
    assert found("slitherlink.dot-dead-end", p, s5) == {"the left of r1c1": "is crossed"}
    assert found("slitherlink.dot-dead-end", p) == {}


def test_adjacent_threes():
    # the 1 in r1c1 rules out the loop being just the outline of r2c2 and r2c3
    p = grid("1 . .", ". 3 3", ". . .")
    assert found("slitherlink.adjacent-threes", p) == {
        "r2c1|r2c2": "carries the line", "r2c2|r2c3": "carries the line", "the right of r2c3": "carries the line",
        "r1c2|r1c3": "is crossed", "r3c2|r3c3": "is crossed"}
    assert found("slitherlink.adjacent-threes", grid("3 2", ". .")) == {}


def test_adjacent_threes_whose_outline_is_the_whole_loop():
    """The loop may be just the outline of the two 3s (every clue then holds): the edge
    between them stays open, and the solve must not end in a contradiction."""
    p = grid(". . .", ". 3 3", ". . .")
    assert found("slitherlink.adjacent-threes", p) == {
        "r2c1|r2c2": "carries the line", "the right of r2c3": "carries the line",
        "r1c2|r1c3": "is crossed", "r3c2|r3c3": "is crossed"}
    # 0s and 1s round a loop of two cells (as the published puzzle that ended in a contradiction)
    p = grid("0 1 1 0", "1 3 3 1", "0 1 1 0")
    assert found("slitherlink.adjacent-threes", p) == {
        "r2c1|r2c2": "carries the line", "r2c3|r2c4": "carries the line",
        "r1c2|r1c3": "is crossed", "r3c2|r3c3": "is crossed"}
    trace = Solver(p, assume_unique=False).solve()
    assert trace.status is Status.SOLVED
    assert G.solution_from_state(p, trace.final) == frozenset(
        e for e in range(len(p.ends)) if e in set(p.cells[5]) ^ set(p.cells[6]))
    # a 1x2 board of 3s: the outline is the border
    assert found("slitherlink.adjacent-threes", grid("3 3")) == {
        "the left of r1c1": "carries the line", "the right of r1c2": "carries the line"}


def test_diagonal_threes():
    p = grid("3 .", ". 3")
    assert found("slitherlink.diagonal-threes", p) == {
        "the top of r1c1": "carries the line", "the left of r1c1": "carries the line",
        "the bottom of r2c2": "carries the line", "the right of r2c2": "carries the line"}
    assert found("slitherlink.diagonal-threes", grid("3 .", ". 2")) == {}


def test_diagonal_three_two_three():
    p = grid(". . . .", ". 3 . .", ". . 2 .", ". . . 3")
    assert found("slitherlink.diagonal-three-two-three", p) == {
        "r1c2|r2c2": "carries the line", "r2c1|r2c2": "carries the line",
        "the bottom of r4c4": "carries the line", "the right of r4c4": "carries the line"}
    assert found("slitherlink.diagonal-three-two-three", grid("3 .", ". 3")) == {}
    assert found("slitherlink.diagonal-three-two-three", grid("3 . .", ". 2 .", ". . 2")) == {}


def test_three_line_in():
    p = grid(". . .", ". 3 .", ". . .")
    s = marks(p, """
+ + + +
  |    
+ + + +
       
+ + + +
       
+ + + +""")
    assert found("slitherlink.three-line-in", p, s) == {
        "r2c2|r3c2": "carries the line", "r2c2|r2c3": "carries the line"}
    assert found("slitherlink.three-line-in", p) == {}


def test_blocked_corners():
    p = grid(". . .", ". 3 1", ". . .")
    s = marks(p, """
+ + + +
  x   x
+x+ + +
       
+ + + +
       
+ + + +""")
    assert found("slitherlink.three-blocked-corner", p, s) == {
        "r1c2|r2c2": "carries the line", "r2c1|r2c2": "carries the line"}
    assert found("slitherlink.one-blocked-corner", p, s) == {
        "r1c3|r2c3": "is crossed", "the right of r2c3": "is crossed"}
    assert found("slitherlink.three-blocked-corner", p) == {}
    assert found("slitherlink.one-blocked-corner", p) == {}


def test_three_one_border():
    p = grid("3 1 .", ". . .", ". . .")
    assert found("slitherlink.three-one-border", p) == {"the top of r1c1": "carries the line"}
    assert found("slitherlink.three-one-border", grid(". . .", "3 1 .", ". . .")) == {}


def test_two_in_corner():
    p = grid("2 . .", ". . .", ". . .")
    assert found("slitherlink.two-in-corner", p) == {
        "the top of r1c2": "carries the line", "the left of r2c1": "carries the line"}
    assert found("slitherlink.two-in-corner", grid(". 2 .", ". . .", ". . .")) == {}


def test_corner_pair():
    # a line comes into the corner of a 1 from outside: the 1's far edges are crossed
    p = grid(". . .", ". 1 .", ". . .")
    s = marks(p, """
+ + + +
  |    
+x+ + +
       
+ + + +
       
+ + + +""")
    got = found("slitherlink.corner-pair", p, s)
    assert got == {"r2c2|r3c2": "is crossed", "r2c2|r2c3": "is crossed"}
    assert found("slitherlink.corner-pair", p) == {}


def test_no_premature_loop():
    p = grid(". . .", ". 2 .", ". . .")
    s = marks(p, """
+ + + +
       
+-+ + +
|   |  
+-+-+ +
       
+ + + +""")
    (d,) = fires("slitherlink.no-premature-loop", p, s)
    assert decided_by([d], p, s) == {"r1c2|r2c2": "is crossed"}
    assert "other lines" not in d.params["reason"]
    # closing it completes a valid loop around the 2 (both clues met): allowed
    p2 = grid(". . .", ". . .", ". . .")
    s2 = marks(p2, """
+ + + +
       
+-+ + +
|   |  
+-+-+ +
       
+ + + +""")
    assert fires("slitherlink.no-premature-loop", p2, s2) == []


def test_loop_finished():
    p = grid(". . .", ". 2 .", ". . .")
    s = marks(p, """
+ + + +
       
+ +-+ +
  | |  
+ +-+ +
       
+ +x+ +""")
    got = found("slitherlink.loop-finished", p, s)
    assert len(got) == 19 and set(got.values()) == {"is crossed"}
    # a loop with a gap is not finished
    s2 = marks(p, """
+ + + +
       
+ +-+ +
  | |  
+ + + +
       
+ + + +""")
    assert fires("slitherlink.loop-finished", p, s2) == []


def test_illegal_loop():
    p = grid(". . .", ". . .", ". . .")
    s = marks(p, """
+ + + +
  x    
+ + + +
| x |  
+-+-+ +
       
+ + +-+""")
    got = found("slitherlink.illegal-loop", p, s)
    assert got and set(got.values()) == {"is crossed"}
    assert found("slitherlink.illegal-loop", p) == {}


def test_illegal_loop_allows_a_small_loop_that_is_the_whole_answer():
    """Drawing the right of r1c1 forces its bottom and closes the loop round the one cell:
    that is the answer on a board without clues."""
    drawing = """
+-+
|  
+ +"""
    p = grid(".")
    assert fires("slitherlink.illegal-loop", p, marks(p, drawing)) == []
    # beside another line the same small loop is illegal
    p2 = grid(". .")
    got = found("slitherlink.illegal-loop", p2, marks(p2, """
+-+ +
|   |
+ +x+"""))
    assert set(got.values()) == {"is crossed"}


def test_illegal_loop_follows_numbers():
    # drawing r1c2's top crosses r1c1|r1c2 at the dot; the 3 then needs r1c1's bottom, and the
    # crossed top of r1c3 turns the line down: a small loop closes while r1c3's right is drawn
    p = grid("3 . .")
    s = marks(p, """
+-+ +x+
|     |
+ + + +""")
    assert found("slitherlink.illegal-loop", p, s) == {"the top of r1c2": "is crossed"}
    # without the 3 the forced moves stop short of a loop
    assert found("slitherlink.illegal-loop", grid(". . ."), s) == {}


def test_forced_lines_joining_pieces():
    """Lines drawn by forced moves join the pieces of line: closing one into a loop is seen
    without following it, and so are the pieces left outside."""
    from grader.kernels.loops import paths
    from heuristics.slitherlink.loop import _joins
    p = grid(". . .")
    label = {p.edge_label(e): e for e in range(len(p.graph.ends))}
    box = [label["the left of r1c1"], label["the bottom of r1c1"], label["r1c1|r1c2"]]
    alone = marks(p, "+-+ + +\n       \n+ + + +")
    assert _joins(p.graph, paths(p.graph, alone), box) == (True, 1)
    other = marks(p, "+-+ + +\n       \n+ + +-+")
    assert _joins(p.graph, paths(p.graph, other), box) == (True, 2)
    assert _joins(p.graph, paths(p.graph, alone), box[:2]) == (False, 1)


def test_jordan():
    p = grid(". . .", ". . .", ". . .")
    # r2c2 is cut off from the outside by crosses except one edge path: colours tie up
    s = marks(p, """
+ + + +
       
+ +x+ +
  x x  
+ +-+ +
       
+ + + +""")
    # top of r2c2 crossed: r1c2 ~ r2c2; r2c2|r3c2 line: r3c2 differs; left/right crossed.
    got = found("slitherlink.jordan", p, s)
    assert got == {}
    s2 = marks(p, """
+x+x+x+
x     x
+x+ + +
x      
+ + + +
       
+ + + +""")
    # r1c1 is outside (its top and left are crossed): r1c1|r2c1 ... r1c1|r1c2 link faces already known
    got = found("slitherlink.jordan", p, s2)
    assert got == {"r1c1|r1c2": "is crossed"}


def test_clue_parity():
    # a 2 whose neighbours above and left are both outside (same colour group): they move together
    p = grid("1 .", ". .")
    s = marks(p, """
+ +x+
    x
+ + +
     
+ + +""")
    got = found("slitherlink.clue-parity", p, s)
    assert got == {"the top of r1c1": "is crossed", "the left of r1c1": "is crossed",
                   "r1c1|r1c2": "is crossed", "r1c1|r2c1": "carries the line"}
    # a 1 in a corner: its two border edges both face the outside, so both are crossed
    assert found("slitherlink.clue-parity", p) == {"the top of r1c1": "is crossed",
                                                   "the left of r1c1": "is crossed"}
    assert found("slitherlink.clue-parity", grid(". . .", ". 1 .", ". . .")) == {}


@pytest.mark.parametrize("hid", ["slitherlink.trial-and-error"])
def test_probing_registered(hid):
    from grader.core.registry import REGISTRY
    assert REGISTRY.get(hid).level == 5


def test_corner_chain():
    # 3, 2, 2, 3 on a diagonal: the corners carry "at least one" / "at most one" down the chain
    p = grid(". . . . .", ". 3 . . .", ". . 2 . .", ". . . 2 .", ". . . . 3")
    # the first corner it settles: the 3 in r2c2 takes both edges at its outer corner, so the
    # other two edges at that dot are crossed
    assert found("slitherlink.corner-chain", p) == {"r1c1|r1c2": "is crossed", "r1c1|r2c1": "is crossed"}
    assert found("slitherlink.corner-chain", grid(". . . . .", ". 3 . . .", ". . 2 . .",
                                                   ". . . . .", ". . . . .")) == {}


def test_isolated_area():
    p = grid(". . .", ". . .", ". . .")
    s = marks(p, """
+-+ + +
       
+ + + +
      x
+ + +x+
    x  
+ +x+ +""")
    assert found("slitherlink.isolated-area", p, s) == {"the bottom of r3c3": "is crossed",
                                                       "the right of r3c3": "is crossed"}
    assert found("slitherlink.isolated-area", p) == {}


def test_dead_end_area():
    # the four dots around r1c3 hang on the rest of the grid by the right of r2c3 only
    p = grid(". . .", ". . .", ". . .")
    s = marks(p, """
+ +x+ +
       
+ +x+ +
    x  
+ + + +
       
+ + + +""")
    assert found("slitherlink.dead-end-area", p, s) == {"the right of r2c3": "is crossed"}
    assert found("slitherlink.dead-end-area", p) == {}


def test_areas_when_the_loop_lies_on_one_side():
    """The loop may lie wholly on one side of a one-way link (here round r1c1): only edges
    off every cycle, and then the side the loop cannot reach, are crossed, never one round r1c1."""
    p = grid(". . .")
    s = marks(p, """
+ +x+ +
|   x  
+ + + +""")
    got = found("slitherlink.dead-end-area", p, s)
    assert len(got) == 1 and set(got.values()) == {"is crossed"}
    assert set(got) <= {"the bottom of r1c2", "the top of r1c3", "the right of r1c3", "the bottom of r1c3"}
    s2 = marks(p, """
+ +x+ +
|   x  
+ +x+ +""")
    assert found("slitherlink.isolated-area", p, s2) == {
        "the top of r1c3": "is crossed", "the right of r1c3": "is crossed", "the bottom of r1c3": "is crossed"}


def test_two_ways_across():
    # the top and the bottom are joined only by the outer edges of row 2; lines above and below
    p = grid(". . .", ". . .", ". . .")
    s = marks(p, """
+ +-+ +
       
+ + + +
  x x  
+ + + +
       
+ +-+ +""")
    assert found("slitherlink.two-ways-across", p, s) == {
        "the left of r2c1": "carries the line", "the right of r2c3": "carries the line"}
    assert found("slitherlink.two-ways-across", p) == {}
    # a line above only: the loop may stay above (round r1c2 alone), nothing is forced across
    s2 = marks(p, """
+ +-+ +
       
+ + + +
  x x  
+ + + +
       
+ + + +""")
    assert found("slitherlink.two-ways-across", p, s2) == {}


def test_corner_colours():
    # on a Loopy tricky puzzle of our corpus, the solve path needs it once: replay to that state
    from grader.core.engine import solve
    from grader.io.read import load
    from support import CORPUS
    p = load(str(CORPUS / "slitherlink" / "loopy-7x7t0dt-grader-1.yaml"))
    trace = solve(p)
    (step, before, after) = next(x for x in trace.states() if x[0].heuristic.id == "slitherlink.corner-colours")
    (d,) = fires("slitherlink.corner-colours", p, before)
    assert d.removals == step.deduction.removals
    assert "opposite sides" in d.params["detail"] or "same side" in d.params["detail"] \
        or "ways to make" in d.params["detail"]
    q = grid(". .", ". .")
    assert fires("slitherlink.corner-colours", q, G.initial_state(q)) == []


def test_pattern_search():
    # a 3 beside a 1 on the border: the search finds the 3's border edge by itself
    p = grid("3 1 .", ". . .", ". . .")
    got = found("slitherlink.pattern-search", p)
    assert got.get("the top of r1c1") == "carries the line"
    assert found("slitherlink.pattern-search", grid("2 . .", ". . .", ". . 2")) == {}


def test_colour_groups_updated_step_by_step_equal_recounted():
    import random
    from grader.kernels.loops import B_CROSS, B_LINE, OPEN
    from grader.kernels.face_colouring import full_colouring
    from heuristics.slitherlink import colouring as col
    p = grid("3 . . 2", ". 1 . .", ". . 0 .")
    rng = random.Random(3)

    def groups(c):
        out = {}
        for f, r in enumerate(c.root):
            out.setdefault(r, []).append((f, c.flip[f]))
        return sorted(tuple((f, x ^ fs[0][1]) for f, x in fs) for fs in out.values())

    for _ in range(10):
        cands = [OPEN] * len(p.ends)
        for e in rng.sample(range(len(p.ends)), len(p.ends)):
            cands[e] = rng.choice([B_LINE, B_CROSS])
            s = State(tuple(cands))
            fast, full = col.colouring(p, s), full_colouring(p, s)
            assert (fast.conflict >= 0) == (full.conflict >= 0)
            assert fast.known_open == full.known_open
            if full.conflict < 0:
                assert groups(fast) == groups(full)


def test_a_broken_colouring_is_explained_the_same_however_it_was_reached():
    import random
    from grader.kernels.loops import B_CROSS, B_LINE, OPEN
    rows = ("3 . . 2", ". 1 . .", ". . 0 .")
    p = grid(*rows)                     # its colourings are updated step by step
    rng = random.Random(3)
    for _ in range(40):
        cands = [OPEN] * len(p.ends)
        for e in rng.sample(range(len(p.ends)), len(p.ends)):
            cands[e] = rng.choice([B_LINE, B_CROSS])
            updated = [v.message for v in G.violations(p, State(tuple(cands)))]
            fresh = [v.message for v in G.violations(grid(*rows), State(tuple(cands)))]
            assert updated == fresh

def test_trial_and_error_fires_and_not():
    from grader.io.read import load
    from support import reference
    # a hard 7x7 Loopy puzzle generated with sgt-loopy (MIT)
    p = load("7x7t0:c213a2a1a3b2101b33b22f2a322a2b33a1b23", "slitherlink")
    (d,) = fires("slitherlink.trial-and-error", p)
    sol = reference(p)
    assert d.removals and all(not sol.cands[v] & m for v, m in d.removals)
    assert fires("slitherlink.trial-and-error", p, sol) == []


def test_every_way_for_a_clue_fires_and_not():
    from grader.io.read import load
    from support import reference
    # the same sgt-loopy puzzle: of the ways to finish the 1 in r1c5, the wrong ones break down
    p = load("7x7t0:c213a2a1a3b2101b33b22f2a322a2b33a1b23", "slitherlink")
    (d,) = fires("slitherlink.every-way-for-a-clue", p)
    assert d.params["cell"] == "r1c5" and any(b.refuted for b in d.detail)
    sol = reference(p)
    assert d.removals and all(not sol.cands[v] & m for v, m in d.removals)
    assert fires("slitherlink.every-way-for-a-clue", p, sol) == []


def test_corner_counts_updated_step_by_step_equal_recomputed():
    import random
    from grader.kernels.loops import B_CROSS, B_LINE, OPEN
    from heuristics.slitherlink import angles
    p = grid("3 2 . 2", ". 2 1 .", "2 . 2 3")
    rng = random.Random(8)
    for _ in range(10):
        cands = [OPEN] * len(p.ends)
        for e in rng.sample(range(len(p.ends)), len(p.ends)):
            cands[e] = rng.choice([B_LINE, B_CROSS])
            s = State(tuple(cands))
            fast, full = angles.corner_facts(p, s), angles.CornerFacts(p, s)
            # a broken position names the same corner however it was reached (its reason)
            assert fast.broken == full.broken
            if full.broken < 0:
                assert fast.X == full.X and fast.initial == full.initial


def _stuck_below_level_4(p):
    return Solver(p, max_level=3).solve(G.initial_state(p)).final


def test_clue_what_if_fires_and_not():
    from support import reference
    # janko's 4x4 "NotEasy 03" (Oleg Andrushko): after the easier levels, the 3 in r2c2 has two
    # ways left (its top or its left); followed a few steps, both cross r2c1|r3c1
    p = grid(". 2 . .", ". 3 . .", ". . 2 .", "3 . . 2")
    s = _stuck_below_level_4(p)
    (d,) = fires("slitherlink.clue-what-if", p, s)
    assert d.params["cell"] == "r2c2" and d.params["cases"] == 2
    assert decided_by([d], p, s) == {"r2c1|r3c1": "is crossed"}
    assert all(b.trace.steps and len(b.trace.steps) <= 12 for b in d.detail)
    sol = reference(p)
    assert fires("slitherlink.clue-what-if", p, sol) == []
    assert fires("slitherlink.clue-what-if", grid(". .", ". .")) == []


def test_end_what_if_fires_and_not():
    from support import reference
    p = grid(". 2 . .", ". 3 . .", ". . 2 .", "3 . . 2")
    s = _stuck_below_level_4(p)
    (d,) = fires("slitherlink.end-what-if", p, s)
    # the line stopping at dot (2,3) cannot turn down: it would close a loop too early
    assert d.params["end"] == "dot (2,3)"
    assert decided_by([d], p, s) == {"r2c4|r3c4": "is crossed", "r2c3|r2c4": "carries the line"}
    assert [b.refuted for b in d.detail] == [True]
    assert fires("slitherlink.end-what-if", p, reference(p)) == []


def test_ways_that_fail_further_on():
    from grader.io.read import load
    from support import reference
    # the hard sgt-loopy 7x7 of test_trial_and_error_fires_and_not
    p = load("7x7t0:c213a2a1a3b2101b33b22f2a322a2b33a1b23", "slitherlink")
    s = _stuck_below_level_4(p)
    sol = reference(p)
    (d,) = fires("slitherlink.clue-way-fails", p, s)
    assert d.params["cell"] == "r6c2" and d.params["count"] == 2
    assert decided_by([d], p, s) == {"r6c2|r7c2": "is crossed", "r6c1|r6c2": "carries the line"}
    (e,) = fires("slitherlink.end-way-fails", p, s)
    assert e.params["end"] == "dot (5,0)"
    assert decided_by([e], p, s) == {"r5c1|r6c1": "is crossed", "the left of r6c1": "carries the line"}
    for x in (d, e):
        assert all(not sol.cands[v] & m for v, m in x.removals)
        assert all(b.refuted and len(b.trace.steps) <= 30 for b in x.detail)
    assert fires("slitherlink.clue-way-fails", p, sol) == []
    assert fires("slitherlink.end-way-fails", p, sol) == []


def test_failing_ways_follows_each_way_further_and_drops_the_broken_ones():
    """The shared "ways that fail" (grader.core.probing.failing_ways) on the 2 in r6c2 of the
    hard 7x7 above: a short look tells nothing, a longer one (going on from it, exactly or at
    what changed) breaks the way along the bottom; on the solution it finds nothing."""
    from grader.core.probing import failing_ways
    from grader.core.registry import REGISTRY
    from grader.io.read import load
    from heuristics.slitherlink.whatif import clue_subjects
    from support import reference
    p = load("7x7t0:c213a2a1a3b2101b33b22f2a322a2b33a1b23", "slitherlink")
    s = _stuck_below_level_4(p)
    rules = REGISTRY.for_genre("slitherlink", 3)
    ((_, key, options),) = [x for x in clue_subjects(p, s) if x[0] == "r6c2"]
    found = {}
    for exact in (True, False):
        looks: dict = {}
        assert failing_ways(p, s, key, options, rules, 2, looks, exact=exact) is None
        d = found[exact] = failing_ways(p, s, key, options, rules, 30, looks, exact=exact)
        assert d.params["count"] == 2 and d.params["refuted"].startswith("if ")
        assert decided_by([d], p, s) == {"r6c2|r7c2": "is crossed", "r6c1|r6c2": "carries the line"}
        assert all(b.refuted and len(b.trace.steps) <= 30 for b in d.detail)
    # going on exactly tells what one fresh look of 30 steps tells, word for word
    assert found[True].params == failing_ways(p, s, key, options, rules, 30, {}).params
    assert failing_ways(p, reference(p), key, options, rules, 30, {}) is None


def test_failing_ways_go_on_from_a_remembered_fill():
    """The longer look at what changed (exact=False) made by Slitherlink's remembered fill
    (heuristics/slitherlink/fills.py, as _ways_that_fail does) says word for word what the
    plain fill says, step for step; asked again in the same solve it is the fill kept."""
    from grader.core.engine import remembering
    from grader.core.probing import failing_ways
    from grader.io.read import load
    from heuristics.slitherlink.common import fill_rules
    from heuristics.slitherlink.fills import remembered_fill
    from heuristics.slitherlink.whatif import clue_subjects
    p = load("7x7t0:c213a2a1a3b2101b33b22f2a322a2b33a1b23", "slitherlink")
    s = _stuck_below_level_4(p)
    rules = fill_rules(3, p, s)
    ((_, key, options),) = [x for x in clue_subjects(p, s) if x[0] == "r6c2"]

    def longer(fill_with=None):
        looks: dict = {}
        failing_ways(p, s, key, options, rules, 2, looks, exact=False)
        d = failing_ways(p, s, key, options, rules, 30, looks, exact=False, fill_with=fill_with)
        return d, [looks[key, i].trace for i in range(len(options))]

    plain, plain_looks = longer()
    with remembering():
        kept, kept_looks = longer(remembered_fill)
        again, again_looks = longer(remembered_fill)
    assert kept.params == plain.params == again.params and kept.removals == plain.removals
    def steps(trace):
        return [(st.number, st.heuristic.id, st.deduction.removals, st.deduction.params) for st in trace.steps]

    for a, b, c in zip(plain_looks, kept_looks, again_looks):
        assert steps(a) == steps(b) == steps(c) and len(a.steps) > 2
        assert a.final == b.final == c.final and a.status is b.status and a.reason == b.reason
        assert c.steps[-1].deduction is b.steps[-1].deduction      # (the kept fill's own step)


def test_edge_what_if_fires_and_not():
    from grader.io.read import load
    from support import reference
    # the hard sgt-loopy 7x7: r6c4|r6c5 drawn or crossed, a dozen simple steps each cross
    # r6c4|r7c4 and the bottom of r7c3 (edges that are one of only two ways at a number or a
    # loose end are left to the what-ifs there)
    p = load("7x7t0:c213a2a1a3b2101b33b22f2a322a2b33a1b23", "slitherlink")
    s = _stuck_below_level_4(p)
    (d,) = fires("slitherlink.edge-what-if", p, s)
    assert d.params["edge"] == "r6c4|r6c5"
    assert decided_by([d], p, s) == {"r6c4|r7c4": "is crossed", "the bottom of r7c3": "is crossed"}
    assert [b.label for b in d.detail] == ["r6c4|r6c5 carries the line", "r6c4|r6c5 is crossed"]
    for b in d.detail:
        assert len(b.trace.steps) <= 12 and max(st.level for st in b.trace.steps) <= 2
    sol = reference(p)
    assert all(not sol.cands[v] & m for v, m in d.removals)
    assert fires("slitherlink.edge-what-if", p, sol) == []
    assert fires("slitherlink.edge-what-if", grid(". .", ". .")) == []      # no number, no line


def test_illegal_loop_reuses_only_chains_whose_reads_are_unchanged():
    """A forced chain followed earlier in the solve is reused in any state (a narrower one or
    another branch's) where the edges at the dots and numbers it read are as they were; then
    it is the chain a fresh look follows. Otherwise it is followed afresh."""
    from grader.kernels.loops import B_CROSS, B_LINE, OPEN
    from heuristics.slitherlink.loop import _chain, follow
    p = grid("3 . . .", ". . . .", ". . . 1")
    cands = [OPEN] * len(p.ends)
    cands[p.h(0, 0)] = B_LINE
    first = State(tuple(cands))
    ends = (p.dot(0, 0), p.dot(0, 1))
    edges = sorted({e for d in ends for e in p.graph.incident[d] if first.cands[e] == OPEN})
    kept: dict = {}
    chains = {e: _chain(p, first, e, kept) for e in edges}
    assert all(chains[e] == follow(p, first, e) for e in edges)
    far = first.restrict(p.h(3, 3), B_CROSS)             # an edge of the 1 in the far corner
    reused = [e for e in edges if _chain(p, far, e, kept) is chains[e]]
    assert reused and all(chains[e] == follow(p, far, e) for e in reused)
    near = first.restrict(p.h(0, 1), B_CROSS)            # beside the line's end at dot (0, 1)
    for e in edges:
        chain = _chain(p, near, e, kept)
        assert chain == follow(p, near, e)
        read = {f for v in chains[e].dots for f in p.graph.incident[v]}.union(*(p.cells[k] for k in chains[e].cells))
        assert (chain is chains[e]) == (p.h(0, 1) not in read)
    assert any(_chain(p, near, e, kept) is not chains[e] for e in edges)


def test_pattern_search_ways_meet_both_clues():
    """The window's ways, made from each clue's own ways, are exactly those of all 2^n masks
    that give each clue its count."""
    from itertools import product
    from heuristics.slitherlink.searcher import _both_clues_met
    for mask1, mask2 in ((0b0001111, 0b1111000), (0b0000111, 0b0111100), (0b0001111, 0b0011110)):
        full = mask1 | mask2
        for need1, need2 in product(range(-1, 5), repeat=2):
            every = {w for w in range(full + 1) if w & ~full == 0 and (w & mask1).bit_count() == need1
                     and (w & mask2).bit_count() == need2}
            made = list(_both_clues_met(need1, mask1, need2, mask2))
            assert sorted(made) == sorted(every) and len(made) == len(set(made))


def test_corner_pair_keep_table():
    """corner-chain's table of what a pair of edges keeps for a mask of counts."""
    from heuristics.slitherlink.angles import PAIR_KEEP
    from grader.kernels.loops import B_CROSS, B_LINE, OPEN
    assert PAIR_KEEP[OPEN][OPEN][0b001] == (B_CROSS, B_CROSS)        # neither
    assert PAIR_KEEP[OPEN][OPEN][0b100] == (B_LINE, B_LINE)          # both
    assert PAIR_KEEP[B_LINE][OPEN][0b010] == (B_LINE, B_CROSS)       # exactly one, one drawn
    assert PAIR_KEEP[OPEN][OPEN][0b010] == (OPEN, OPEN)              # exactly one: either
    assert PAIR_KEEP[B_LINE][B_LINE][0b011] == (0, 0)                # nothing fits


def test_a_fill_is_made_once_per_solve():
    """The same hypothesis from the same state with the same rules of levels 1-3 gives the
    trace made the first time (heuristics/slitherlink/fills.py); with a level-4 rule it is
    filled again."""
    from grader.core.engine import remembering
    from grader.core.probing import fill
    from grader.core.registry import REGISTRY
    from heuristics.slitherlink.fills import remembered_fill
    p = grid("3 . .", ". 2 .", ". . 1")
    state = G.initial_state(p).assume({p.h(0, 0): 1})
    easy = REGISTRY.for_genre("slitherlink", 2)
    with remembering():
        first = remembered_fill(p, state, [p.h(0, 0)], 2, 12, easy)
        assert remembered_fill(p, State(state.cands), (p.h(0, 0),), 4, 12, list(easy)) is first
        assert remembered_fill(p, state, [p.h(0, 0)], 2, 11, easy) is not first
        hard = REGISTRY.for_genre("slitherlink", 4)
        assert remembered_fill(p, state, [p.h(0, 0)], 4, 12, hard) is not remembered_fill(
            p, state, [p.h(0, 0)], 4, 12, hard)
    again = fill(p, state, [p.h(0, 0)], 2, 12, easy)
    assert [s.deduction.removals for s in again.steps] == [s.deduction.removals for s in first.steps]
    assert again.final == first.final and again.status is first.status


@pytest.mark.parametrize("hid, rows", [
    ("slitherlink.diagonal-threes", ("3 .", ". 3")),
    ("slitherlink.three-one-border", ("3 1 .", ". . .", ". . .")),
    ("slitherlink.two-in-corner", ("2 . .", ". . .", ". . .")),
    ("slitherlink.diagonal-three-two-three", (". . . .", ". 3 . .", ". . 2 .", ". . . 3"))])
def test_clue_patterns_find_nothing_in_a_fill(hid, rows):
    # left out of every fill's rules (common.CLUES_ONLY): a fill always looks with a focus,
    # and these patterns find what they find only when looking at the whole board
    from grader.core.registry import REGISTRY
    from heuristics.slitherlink.common import CLUES_ONLY, fill_rules
    p = grid(*rows)
    h = REGISTRY.get(hid)
    assert hid in CLUES_ONLY and h not in fill_rules(4)
    state = G.initial_state(p)
    assert list(h.find(p, state, None))
    assert list(h.find(p, state, frozenset(range(len(state.cands))))) == []


def test_zero_is_left_out_of_fills_once_every_zero_is_done():
    # common.DONE_FOR_GOOD: `zero` reads only the edges of the 0s, which never open again, so
    # once none is open it finds nothing in any state a fill reaches and fills leave it out
    from grader.core.registry import REGISTRY
    from grader.kernels.loops import CROSS
    from heuristics.slitherlink.common import fill_rules
    p = grid("0 . .", ". 2 .", ". . 3")
    zero = REGISTRY.get("slitherlink.zero")
    start = G.initial_state(p)
    assert zero in fill_rules(2, p, start) and list(zero.find(p, start))
    done = start.assume({e: CROSS for e in p.cells[0]})
    assert zero not in fill_rules(2, p, done) and fill_rules(2, p, done) == [
        h for h in fill_rules(2, p, start) if h is not zero]
    later = Solver(p, max_level=2).solve(done).final
    assert not list(zero.find(p, later)) and zero not in fill_rules(2, p, later)


def test_adjacent_threes_are_left_out_of_fills_once_every_pair_is_settled():
    # common.DONE_FOR_GOOD: the pattern passes a pair whose lines are drawn and crosses made,
    # which a narrowing keeps so; until then it stays in the fills
    from grader.core.registry import REGISTRY
    from heuristics.slitherlink.common import fill_rules
    p = grid("1 . .", ". 3 3", ". . .")
    threes = REGISTRY.get("slitherlink.adjacent-threes")
    start = G.initial_state(p)
    assert threes in fill_rules(2, p, start)
    settled = start.remove(next(threes.find(p, start)).removals)
    assert threes not in fill_rules(2, p, settled) and not list(threes.find(p, settled))
    later = Solver(p, max_level=2).solve(settled).final
    assert not list(threes.find(p, later)) and threes not in fill_rules(2, p, later)


def test_cells_near_and_edges_around_read_their_tables_as_spelled_out():
    """cells_near's one-edge shortcut and the per-edge table of edges_around give what their
    definitions say (the cells with an edge in the focus; the edges at the dots and in the
    cells of each edge)."""
    from heuristics.slitherlink.common import cells_near, edges_around
    p = grid("3 . 1", ". 2 .", "0 . .")
    g = p.graph
    for focus in [frozenset([e]) for e in range(len(g.ends))] + [frozenset([0, 5, 9]), frozenset([2, 3])]:
        cells = {k for e in focus for k in p.cells_of_edge[e]}
        assert tuple(cells_near(p, focus, clued_only=False)) == tuple(sorted(cells))
        assert tuple(cells_near(p, focus)) == tuple(sorted(k for k in cells if p.clues[k] is not None))
        assert edges_around(p, focus) == ({f for e in focus for v in g.ends[e] for f in g.incident[v]}
                                          | {f for e in focus for k in p.cells_of_edge[e] for f in p.cells[k]})


def test_shape_tables_are_shared_by_puzzles_of_one_size():
    """SlitherPuzzle.shape_once: the size of a square grid alone decides its corners and the
    other tables of its shape, so puzzles of one size share them (and get what they would
    have made themselves)."""
    from grader.genres.slitherlink.model import Angles
    a, b, c = grid("3 . 1", ". 2 .", "0 . ."), grid(". . .", "1 . 3", ". . ."), grid("1 .", ". 2")
    assert a.angles is b.angles and a.angles == Angles.build(b) and c.angles == Angles.build(c)
    assert c.angles is not a.angles
    assert a.faces_of_edge is b.faces_of_edge and a.cells_of_edge is b.cells_of_edge
    made = []
    assert a.shape_once("_test_shape_table", lambda: made.append(1) or len(made)) == 1
    assert b.shape_once("_test_shape_table", lambda: made.append(1) or len(made)) == 1 and made == [1]


def test_a_solve_leaves_no_cycles():
    """A solve's states are freed as soon as they are dropped (their corner facts held them:
    every state a cycle left to the collector)."""
    first, p = janko("slitherlink", 2, seed=7, max_cells=60)
    assert cyclic_garbage_of_solve(p, warm_up=first) == 0
