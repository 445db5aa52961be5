"""Yajilin: each technique fires where it should (with what it finds) and not elsewhere; the
rules (violations) on partial and complete states; soundness; formats."""
from __future__ import annotations

import random

import pytest

from grader.core.engine import Solver
from grader.core.errors import InputError, Source
from grader.io.read import load
from grader.genres import get
from grader.genres.yajilin.model import B_LOOP, B_SHADED
from grader.core.registry import REGISTRY
from grader.core.model import State
from support import (CORPUS, FOUR_ENDS, ROWS_APART, assert_all_sound, assert_sound_from_partial_states,
                     assert_sound_path, cyclic_garbage_of_solve, assert_sound_when_nearly_solved, decided_by, fires, found, janko, marks, native,
                     reference)

YAJILIN = get("yajilin")
LINE, CROSS, LOOP, SHADED = "carries the loop", "is crossed out", "is on the loop", "is shaded"


def puzzle(grid: str):
    return native("genre: yajilin\ngrid: |\n" + "".join(f"  {row}\n" for row in grid.strip().splitlines()))


def draw(p, shaded=(), loop=(), lines=(), crosses=()):
    """A state with cells (r1c2 names) shaded or on the loop and edges drawn or crossed out."""
    names = {n: i for i, n in enumerate(p.graph.edge_names)}
    cells = {str(p.cell(i)): i for i in range(p.rows * p.cols)}
    cands = list(YAJILIN.initial_state(p).cands)
    for c in shaded:
        cands[cells[c]] = B_SHADED
    for c in loop:
        cands[cells[c]] = B_LOOP
    for n in lines:
        cands[p.graph.edge_vars[names[n]]] = 2
    for n in crosses:
        cands[p.graph.edge_vars[names[n]]] = 1
    return State(tuple(cands))


FREE3 = ". . .\n. . .\n. . ."



def test_fewer_than_two_ways():
    """_fewer_than_two_ways counts the edges not crossed out as open_edges lists them, also
    at a clue's neighbour with fewer than two edges."""
    from heuristics.yajilin import _edge_getters, _fewer_than_two_ways, open_edges
    for p in (puzzle(FREE3), puzzle(". 2s .\n. . .")):
        getters = _edge_getters(p)
        for crosses in ([], ["r1c1-r1c2"], ["r1c2-r2c2", "r2c1-r2c2"], ["r1c2-r2c2", "r2c1-r2c2", "r2c2-r2c3"]):
            crosses = [c for c in crosses if c in p.graph.edge_names]
            state = draw(p, crosses=crosses)
            for i in range(p.rows * p.cols):
                assert _fewer_than_two_ways(getters, state.cands, i) == (len(open_edges(p, state, i)) < 2)
    p = puzzle(FREE3)
    state = draw(p, crosses=["r1c1-r1c2"])
    cells = {str(p.cell(i)): i for i in range(9)}
    assert _fewer_than_two_ways(_edge_getters(p), state.cands, cells["r1c1"])
    assert not _fewer_than_two_ways(_edge_getters(p), state.cands, cells["r2c2"])

# --- level 1 ----------------------------------------------------------------------------------

def test_shaded_neighbours():
    p = puzzle(FREE3)
    assert found("yajilin.shaded-neighbours", p, draw(p, shaded=["r2c2"])) == {
        "r1c2": LOOP, "r2c1": LOOP, "r2c3": LOOP, "r3c2": LOOP}
    assert found("yajilin.shaded-neighbours", p) == {}


def test_shaded_no_lines():
    p = puzzle(FREE3)
    assert found("yajilin.shaded-no-lines", p, draw(p, shaded=["r2c2"])) == {
        "r1c2-r2c2": CROSS, "r2c1-r2c2": CROSS, "r2c2-r2c3": CROSS, "r2c2-r3c2": CROSS}
    assert found("yajilin.shaded-no-lines", p) == {}


def test_line_visits():
    p = puzzle(FREE3)
    assert found("yajilin.line-visits", p, draw(p, lines=["r1c1-r1c2"])) == {"r1c1": LOOP, "r1c2": LOOP}
    assert found("yajilin.line-visits", p) == {}


def test_no_way_through():
    p = puzzle(". #\n. .")
    assert found("yajilin.no-way-through", p) == {"r1c1": SHADED, "r2c2": SHADED}
    assert found("yajilin.no-way-through", puzzle(FREE3)) == {}


def test_loop_two_ways():
    p = puzzle(FREE3)
    assert found("yajilin.loop-two-ways", p, draw(p, loop=["r1c1"])) == {"r1c1-r1c2": LINE, "r1c1-r2c1": LINE}
    assert found("yajilin.loop-two-ways", p) == {}


def test_cell_full():
    p = puzzle(FREE3)
    assert found("yajilin.cell-full", p, marks(p, ". . .\n. sw .\n. . .")) == {
        "r1c2-r2c2": CROSS, "r2c2-r2c3": CROSS}
    assert found("yajilin.cell-full", p, marks(p, ". . .\n. s .\n. . .")) == {}


def test_loose_end():
    p = puzzle(FREE3)
    assert found("yajilin.loose-end", p, draw(p, lines=["r1c1-r1c2"])) == {"r1c1-r2c1": LINE}
    assert found("yajilin.loose-end", p) == {}


def test_shading_strands():
    p = puzzle(". . .\n# . #")
    assert found("yajilin.shading-strands", p) == {"r1c2": LOOP}
    free = puzzle(FREE3)
    assert found("yajilin.shading-strands", free, draw(free, loop=["r1c2", "r2c1", "r2c3", "r3c2"])) == {}


def test_clue_done():
    p = puzzle("1e . . .\n. . . .")
    assert found("yajilin.clue-done", p, draw(p, shaded=["r1c4"])) == {"r1c2": LOOP, "r1c3": LOOP}
    assert found("yajilin.clue-done", p) == {}


def test_loop_closed():
    p = puzzle(FREE3)
    ring = ["r1c1-r1c2", "r1c2-r1c3", "r1c3-r2c3", "r2c3-r3c3", "r3c2-r3c3", "r3c1-r3c2", "r2c1-r3c1",
            "r1c1-r2c1"]
    got = found("yajilin.loop-closed", p, draw(p, lines=ring))
    assert got["r2c2"] == SHADED and got["r1c2-r2c2"] == CROSS and got["r1c1"] == LOOP
    assert found("yajilin.loop-closed", p, draw(p, lines=ring[:-1])) == {}


# --- level 2 ----------------------------------------------------------------------------------

def test_clue_line():
    p = puzzle("2e . . .\n. . . .")
    assert found("yajilin.clue-line", p) == {"r1c2": SHADED, "r1c3": LOOP, "r1c4": SHADED}
    assert found("yajilin.clue-line", puzzle("1e . . .\n. . . .")) == {}


def test_clue_line_between_two_arrows():
    # the 3 sees the 1's shaded cell too, so exactly 2 lie between them
    p = puzzle("3e . . . 1e . .\n. . . . . . .")
    got = found("yajilin.clue-line", p)
    assert {k: got[k] for k in ("r1c2", "r1c3", "r1c4")} == {"r1c2": SHADED, "r1c3": LOOP, "r1c4": SHADED}


def test_clue_line_remembers_per_candidates():
    """line_options is remembered per line and its cells' candidates: the same line asked again
    in a narrower state gets that state's answer, not the first one."""
    from heuristics.yajilin import line_options
    p = puzzle("1e . . .\n. . . .")
    cells = (1, 2, 3)
    assert line_options(p, draw(p), cells, 1) == ((True,) * 3, (True,) * 3)
    assert found("yajilin.clue-line", p) == {}
    narrower = draw(p, loop=["r1c2", "r1c3"])
    assert line_options(p, narrower, cells, 1) == ((False, False, True), (True, True, False))
    assert found("yajilin.clue-line", p, narrower) == {"r1c4": SHADED}
    assert line_options(p, draw(p, shaded=["r1c2", "r1c4"]), cells, 1) is None


# --- level 3 ----------------------------------------------------------------------------------

def test_no_early_loop():
    p = puzzle(". . . .\n. . . .\n. . . .")
    s = draw(p, lines=["r1c1-r1c2", "r1c1-r2c1", "r1c2-r2c2"])
    assert found("yajilin.no-early-loop", p, s) == {"r2c1-r2c2": CROSS}
    small = puzzle(". .\n. .")
    assert found("yajilin.no-early-loop", small, draw(small, lines=["r1c1-r1c2", "r1c1-r2c1", "r1c2-r2c2"])) == {}


def test_dead_end_area():
    # the top right 2x2 block is joined to the rest only by r2c3-r3c3
    p = puzzle(". . . .\n. . . .\n. . . .\n. . . .")
    pocket = ["r1c2-r1c3", "r2c2-r2c3", "r2c4-r3c4"]
    assert found("yajilin.dead-end-area", p, draw(p, crosses=pocket)) == {"r2c3-r3c3": CROSS}
    assert found("yajilin.dead-end-area", p, draw(p, crosses=pocket[:2])) == {}


def test_two_ways_across():
    # r2c1 and r3c4 are on the loop, on either side of a split with two ways across left
    p = puzzle(". . . .\n. . . .\n. . . .\n. . . .")
    split = ["r2c2-r2c3", "r3c2-r3c3"]
    assert found("yajilin.two-ways-across", p, draw(p, loop=["r2c1", "r3c4"], crosses=split)) == {
        "r1c2-r1c3": LINE, "r4c2-r4c3": LINE}
    assert found("yajilin.two-ways-across", p, draw(p, loop=["r2c1"], crosses=split)) == {}


def test_parity():
    p = puzzle(FREE3)
    s = draw(p, lines=["r1c1-r2c1"], crosses=["r1c2-r2c2"])
    assert found("yajilin.parity", p, s) == {"r1c3-r2c3": LINE}
    assert found("yajilin.parity", p) == {}


def test_inside_outside():
    # the same chain as Masyu's test: two lines on the way between the corners on either side
    # of r3c2-r3c3, so they are on the same side of the loop and it is crossed out
    p = puzzle("\n".join([". . . . ."] * 5))
    s = draw(p, lines=["r2c2-r2c3", "r1c2-r2c2"], crosses=["r2c1-r2c2", "r3c1-r3c2", "r3c2-r4c2"])
    assert found("yajilin.inside-outside", p, s) == {"r3c2-r3c3": CROSS, "r2c2-r3c2": CROSS}
    assert found("yajilin.inside-outside", p) == {}
    assert found("yajilin.inside-outside", p, draw(p, lines=["r2c2-r2c3"], crosses=["r3c1-r3c2"])) == {}


def test_self_loop():
    # r1c2 and r2c1 are the two ends of one line; filling the corner r1c1 with the loop would
    # close it while the line r1c4-r2c4 is outside, so r1c1 is shaded
    p = puzzle(". . . .\n. . . .\n. . . .")
    s = draw(p, lines=["r1c2-r2c2", "r2c2-r3c2", "r3c1-r3c2", "r2c1-r3c1", "r1c4-r2c4"])
    assert found("yajilin.self-loop", p, s) == {"r1c1": SHADED, "r1c1-r1c2": CROSS, "r1c1-r2c1": CROSS}
    one = draw(p, lines=["r1c2-r2c2", "r2c2-r3c2", "r3c1-r3c2", "r2c1-r3c1"])
    assert found("yajilin.self-loop", p, one) == {}       # closing the only line is another rule's job


# --- level 4 ----------------------------------------------------------------------------------

def test_end_lookahead():
    p = puzzle(FREE3)
    s = draw(p, lines=["r2c1-r2c2", "r3c2-r3c3"], crosses=["r1c2-r1c3", "r2c2-r2c3"])
    assert found("yajilin.end-lookahead", p, s) == {"r2c2-r3c2": LINE}
    assert found("yajilin.end-lookahead", p, draw(p, lines=["r2c1-r2c2", "r3c2-r3c3"])) == {}


SMALL = ". . . .\n1e . . .\n. . . ."    # unique: r2c3 shaded


def test_clue_verify():
    # shading r2c4 leaves r1c4 and r3c4 with one way out each; r2c2 and r2c3 both pass the check
    p = puzzle(SMALL)
    got = found("yajilin.clue-verify", p)
    assert got == {"r2c4": LOOP, "r2c2-r2c3": CROSS}
    assert found("yajilin.clue-verify", puzzle("0e . . .\n. . . .")) == {}


def test_cell_lookahead():
    # if the loop at r1c2 ran west and south, the line would be forced round r1c1, r2c1 and into
    # r2c2 (r2c1-r3c1 is crossed out): a small loop, with the line r4c3-r4c4 outside it. Both
    # other ways run east
    p = puzzle("\n".join([". . . ."] * 4))
    s = draw(p, loop=["r1c2"], lines=["r4c3-r4c4"], crosses=["r2c1-r3c1"])
    assert found("yajilin.cell-lookahead", p, s) == {"r1c2-r1c3": LINE}
    assert found("yajilin.cell-lookahead", p, draw(p, loop=["r1c2", "r4c3", "r4c4"], lines=["r4c3-r4c4"])) == {}


def test_way_count():
    # way_count counts cell_ways without making them, on cells of every kind
    from heuristics.yajilin import cell_ways, way_count
    p = puzzle("\n".join([". . . ."] * 4))
    states = [YAJILIN.initial_state(p), draw(p, loop=["r1c2"], lines=["r4c3-r4c4"], crosses=["r2c1-r3c1"]),
              draw(p, shaded=["r2c2"], loop=["r3c3"], lines=["r3c3-r3c4", "r3c3-r4c3"])]
    for s in states:
        for i in p.free_cells:
            assert way_count(p, s, i) == len(cell_ways(p, s, i))


def test_enclosure():
    # row 1 between r1c1 and r1c5 is closed off; those two loose ends can only be tied through it
    p = puzzle("\n".join([". . . . ."] * 4))
    s = draw(p, lines=FOUR_ENDS, crosses=ROWS_APART)
    assert found("yajilin.enclosure", p, s) == {
        "r1c2": LOOP, "r1c3": LOOP, "r1c4": LOOP,
        "r1c1-r1c2": LINE, "r1c2-r1c3": LINE, "r1c3-r1c4": LINE, "r1c4-r1c5": LINE}
    assert found("yajilin.enclosure", p, draw(p, lines=FOUR_ENDS)) == {}


def test_enclosure_unique():
    # rows 2-3 are closed off with four loose ends r2c1, r3c1, r2c5, r3c5; tying r2c1 to r3c1
    # (and r2c5 to r3c5) can be drawn in two ways, so by uniqueness the rows run straight across
    p = puzzle("\n".join([". . . . ."] * 4))
    s = draw(p, lines=FOUR_ENDS, crosses=ROWS_APART)
    got = found("yajilin.enclosure-unique", p, s)
    assert {k: v for k, v in got.items() if "-" in k} == {
        "r2c1-r2c2": LINE, "r2c2-r2c3": LINE, "r2c3-r2c4": LINE, "r2c4-r2c5": LINE,
        "r3c1-r3c2": LINE, "r3c2-r3c3": LINE, "r3c3-r3c4": LINE, "r3c4-r3c5": LINE,
        "r2c2-r3c2": CROSS, "r2c3-r3c3": CROSS, "r2c4-r3c4": CROSS}
    assert found("yajilin.enclosure-unique", p, draw(p, lines=FOUR_ENDS)) == {}


# --- level 5: on the stuck state of a generated puzzle -------------------------------------------

def stuck_state():
    """A generated puzzle stopped where levels 1-2 run out, with its solution."""
    for f in sorted((CORPUS / "yajilin").glob("*.yaml")):
        p = load(str(f))
        state = Solver(p, max_level=2).solve().final
        if not state.complete:
            return p, state, YAJILIN.solution_state(p)
    pytest.skip("no generated puzzle needs more than level 2")


@pytest.mark.parametrize("hid", ["yajilin.cell-cases", "yajilin.clue-cases", "yajilin.end-cases",
                                 "yajilin.deep-cases"])
def test_cases_fire_soundly(hid):
    p, state, solution = stuck_state()
    n = assert_all_sound(REGISTRY.get(hid), p, state, solution)
    if hid in ("yajilin.cell-cases", "yajilin.deep-cases"):
        assert n >= 1
    done = puzzle(SMALL)
    assert list(REGISTRY.get(hid).find(done, reference(done))) == []


def test_deep_cases_solve_a_hard_janko_puzzle_soundly():
    """yajilin/332 (7x7, four clues) needs case analyses followed with level 4: every step of
    the solve keeps the true values, and it ends solved."""
    from grader.core.steps import Status
    from support import shared
    p = load(f"{shared('janko/yajilin.jsonl')}#yajilin/332")
    assert assert_sound_path(p, YAJILIN.solution_state(p)) is Status.SOLVED


def test_clue_cases_on_a_small_board():
    p = puzzle(SMALL)
    (d,) = fires("yajilin.clue-cases", p)
    got = decided_by([d], p, YAJILIN.initial_state(p))
    assert got["r2c2"] == LOOP and got["r1c1"] == SHADED


def test_clue_few_ways_on_a_small_board():
    # the 1 at r2c1 sees r2c2, r2c3 and r2c4: three ways, two of which break a rule within a
    # few direct steps
    p = puzzle(SMALL)
    (d,) = fires("yajilin.clue-few-ways", p)
    assert d.params["subject"] == "the 1 at r2c1" and d.params["cases"] == 3
    assert [b.label for b in d.detail if b.refuted] == ["r2c2 shaded", "r2c4 shaded"]
    for b in d.detail:
        assert len(b.trace.steps) <= 20 and all(s.level <= 3 for s in b.trace.steps)
    got = decided_by([d], p, YAJILIN.initial_state(p))
    assert got["r2c3"] == SHADED and got["r2c2"] == LOOP and got["r2c4"] == LOOP
    # one way only (a 0), or more than four ways: not this technique's
    assert not fires("yajilin.clue-few-ways", puzzle("0e . . .\n. . . ."))
    assert not fires("yajilin.clue-few-ways", puzzle(". . . . . . . . .\n2e . . . . . . . .\n. . . . . . . . ."))


def test_end_cases_on_a_small_board():
    p = puzzle(FREE3)
    s = draw(p, lines=["r2c1-r2c2", "r3c2-r3c3"], crosses=["r1c2-r1c3", "r2c2-r2c3"])
    assert found("yajilin.end-cases", p, s)


# --- degenerate loops (issue 20): tiny loops, the whole board, clues that count nothing -------------

TINY = {   # name: (grid, the planted solution, whether it is the only one)
    "the 2x2 loop on a 2x2 board": (". .\n. .", "se sw\nne nw", True),
    "the 2x2 loop, clues pointing at the border": (". . 0e\n. . 0e\n0s 0s 0s",
                                                    "se sw -\nne nw -\n- - -", True),
    "the 2x2 loop, every other cell shaded": (". . .\n. . 1n\n. 1w .", "se sw x\nne nw -\nx - x", True),
    "the border round a clue that sees nothing": (". . .\n. 0n .\n. . .",
                                                   "se ew sw\nns - ns\nne ew nw", True),
    "the border of a thin board": (". . . . .\n. . . . .", "se ew ew ew sw\nne ew ew ew nw", True),
    "a free board with many answers": (". . .\n. . .\n. . .", "se ew sw\nns x ns\nne ew nw", False),
}


@pytest.mark.parametrize("name", sorted(TINY))
def test_tiny_loops_are_kept(name):
    """No step removes part of a tiny or whole-board loop, and no solve ends in a contradiction;
    where the planted loop is the only answer, the solve finds it."""
    from grader.app import soak as planted
    from grader.core.steps import Status
    grid, answer, only = TINY[name]
    p = native("genre: yajilin\ngrid: |\n" + "".join(f"  {r}\n" for r in grid.splitlines())
               + "solution: |\n" + "".join(f"  {r}\n" for r in answer.splitlines()))
    solution = YAJILIN.solution_state(p)
    assert YAJILIN.violations(p, solution) == []
    trace = Solver(p, validate=True, assume_unique=False).solve()
    assert planted.first_unsound(p, trace, solution) is None
    assert trace.status is not Status.CONTRADICTION
    if only:
        assert trace.status is Status.SOLVED


def test_a_board_with_no_room_for_a_loop_has_no_solution():
    """Yajilin draws a loop: shading every free cell (here two cells apart) is not an answer,
    for the rules, the solve and the exact solver alike (clingo used to accept it)."""
    from grader.core import exact
    from grader.core.steps import Status
    p = puzzle("1e .\n. 1w")
    assert exact.solve(p).verdict is exact.Verdict.NONE
    assert Solver(p, assume_unique=False).solve().status is Status.CONTRADICTION
    assert exact.solve(puzzle(". .\n. .")).verdict is exact.Verdict.UNIQUE


# --- rules, soundness ------------------------------------------------------------------------------

def test_violations():
    p = puzzle("1e . . .\n. . . .")
    assert YAJILIN.violations(p, YAJILIN.initial_state(p)) == []
    touching = draw(p, shaded=["r2c1", "r2c2"])
    assert any("touch" in v.message for v in YAJILIN.violations(p, touching))
    over = draw(p, shaded=["r1c2", "r1c4"])
    assert any("already sees 2" in v.message for v in YAJILIN.violations(p, over))
    under = draw(p, loop=["r1c2", "r1c3", "r1c4"])
    assert any("can no longer see" in v.message for v in YAJILIN.violations(p, under))


def test_sound_on_janko_sample():
    from grader.core.engine import Budget
    for p in janko("yajilin", 6, seed=3, max_cells=100):
        assert_sound_path(p, budget=Budget(max_steps=5000, max_seconds=6))   # one of them stays stuck


def test_every_technique_sound_from_random_partial_states():
    assert_sound_from_partial_states(janko("yajilin", 2, seed=11, max_cells=100),
                                     REGISTRY.for_genre("yajilin", 4), random.Random(5), (0.2, 0.5), rounds=3)


def test_new_rules_sound_on_nearly_solved_states():
    assert_sound_when_nearly_solved("yajilin", "enclosure enclosure-unique self-loop cell-lookahead inside-outside")


# --- formats ------------------------------------------------------------------------------------------

def test_puzzlink_example():
    p = load("https://puzz.link/p?yajilin/5/5/m32j10")
    assert p.clues[2 * 5 + 3].token() == "2w" and p.clues[4 * 5 + 4].token() == "0n"
    assert sum(c is not None for c in p.clues) == 2


def test_janko_record():
    data = {"size": 3, "problem": [["-", "-", "-"], ["-", "1w", "-"], ["-", "-", "-"]],
            "solution": [["se", "ew", "sw"], ["x", "-", "ns"], ["ne", "ew", "nw"]]}
    # r2c1 shaded and off the loop: the loop cannot close round it, so this record is invalid
    p = YAJILIN.from_janko(data, Source("<record>"))
    assert YAJILIN.violations(p, YAJILIN.solution_state(p))


def test_native_round_trip():
    from grader.io.native import dump
    p = puzzle(SMALL)
    sol = reference(p)
    import attrs
    p = attrs.evolve(p, solution=YAJILIN.solution_from_state(p, sol))
    again = native(dump(YAJILIN.to_native(p)))
    assert again.clues == p.clues and again.solution == p.solution


@pytest.mark.parametrize("spec", ["https://puzz.link/p?yajilin/5/5/m3", "https://puzz.link/p?yajilin/5/5/m3g",
                                  "https://puzz.link/p?yajilin/o/5/5/m32j10", "https://puzz.link/p?yajilin/5/5/m!2"])
def test_bad_urls(spec):
    with pytest.raises(InputError) as exc:
        load(spec)
    assert "\n" not in str(exc.value) and "(" in str(exc.value)


def test_bad_native():
    with pytest.raises(InputError) as exc:
        native("genre: yajilin\ngrid: |\n  . 2q\n  . .\n")
    assert ":3:5" in str(exc.value)



def test_a_later_pass_goes_on_from_the_earlier_fill():
    """heuristics/common/cell_loops.PassFills: a case filled with levels 1-2, then with more
    levels, goes on from the first fill, step for step as a fresh fill."""
    from grader.core.probing import fill
    from grader.core.steps import Status
    from heuristics.common.cell_loops import PassFills
    p = janko("yajilin", 1, max_cells=100)[0]
    start = YAJILIN.initial_state(p)

    def steps(trace):
        return [s.deduction.removals for s in trace.steps], trace.final, trace.status, trace.start
    stuck = 0
    for cell in p.free_cells[::3]:
        for value in (2, 3):        # on the loop, shaded
            state, changed = start.assume({cell: value}), (cell,)
            fills = PassFills()
            short = fills.fill(p, state, changed, 2, 12)
            stuck += short.status is not Status.BUDGET
            assert steps(short) == steps(fill(p, state, changed, 2, 12))
            assert steps(fills.fill(p, state, changed, 4, 400)) == steps(fill(p, state, changed, 4, 400))
    assert stuck


def test_a_solve_leaves_no_cycles():
    """A solve leaves nothing to the collector (the shading-pattern walk and the enclosures'
    tying search were nested functions calling themselves: a cycle each call)."""
    puzzles = janko("yajilin", 7, seed=7, max_cells=100)
    assert [cyclic_garbage_of_solve(p, warm_up=puzzles[0]) for p in (puzzles[1], puzzles[6])] == [0, 0]
