"""Masyu: each technique fires where it should (with what it finds) and not elsewhere; the
rules (violations) on partial and complete states; Pearl tiers grade in order."""
from __future__ import annotations

import pytest

from grader.core.engine import Solver
from grader.core.errors import Source
from grader.io.read import load
from grader.genres import get
from grader.core.registry import REGISTRY
from grader.core.model import State
from support import (CORPUS, FOUR_ENDS, ROWS_APART, assert_all_sound, cyclic_garbage_of_solve, fires, found, janko, marks,
                     native, reference)

MASYU = get("masyu")
LINE, CROSS = "carries the loop", "is crossed out"


def puzzle(grid: str):
    return native("genre: masyu\ngrid: |\n" + "".join(f"  {row}\n" for row in grid.strip().splitlines()))


EMPTY5 = "\n".join([". . . . ."] * 5)


# --- level 1: pearls ---------------------------------------------------------------------------

def test_black_leg_blocked_by_the_border():
    p = puzzle("B . . . .\n" + "\n".join([". . . . ."] * 4))
    assert found("masyu.black-leg-blocked", p) == {
        "r1c1-r1c2": LINE, "r1c2-r1c3": LINE, "r1c1-r2c1": LINE, "r2c1-r3c1": LINE}
    assert found("masyu.black-leg-blocked", puzzle(". . . . .\n. . . . .\n. . B . .\n. . . . .\n. . . . .")) == {}


def test_pearl_rules_read_only_their_inputs():
    """A pearl rule's answer is remembered per the candidates of its inputs (leg_inputs,
    axis_inputs, pearl_inputs): whatever the other edges hold, a fresh answer is the same."""
    import random
    from grader.kernels import pearls
    from grader.kernels.loops import B_CROSS, B_LINE, OPEN
    p = puzzle("B . W . W B\n. W . B . .\nW . B W . W\n. B . . W .\nW . W B . B\n. . B . W .")
    questions = [(pearls._pearl_problem, i, (), pearls.pearl_inputs(p, i)) for i in p.pearl_cells]
    for i in p.pearl_cells:
        if p.pearls[i] == pearls.BLACK:
            questions += [(pearls._leg_blocker, i, (d,), pearls.leg_inputs(p, i, d)) for d in "nesw"]
        else:
            questions += [(pearls._axis_blocker, i, (a,), pearls.axis_inputs(p, i, a)) for a in ("ew", "ns")]
    rng, values = random.Random(3), (OPEN, B_LINE, B_CROSS)
    for _ in range(200):
        weights = [rng.random() for _ in values]
        cands = rng.choices(values, weights, k=p.graph.n_edges)
        for rule, i, args, inputs in questions:
            other = [m if v in inputs else rng.choice(values) for v, m in enumerate(cands)]
            assert rule(p, State(tuple(cands)), i, *args) == rule(p, State(tuple(other)), i, *args)


def test_pearl_questions_keep_no_puzzle():
    """A puzzle keeps its pearl questions, so they must not keep it (a cycle would leave the
    puzzle and all it keeps to the collector): dropped, it is freed at once."""
    import gc
    import weakref
    from grader.kernels import pearls
    p = puzzle("B . W . W B\n. W . B . .\nW . B W . W\n. B . . W .\nW . W B . B\n. . B . W .")
    state = MASYU.initial_state(p)
    for i in p.pearl_cells:
        pearls.pearl_problem(p, state, i)
    gone = weakref.ref(p)
    gc.disable()
    try:
        del p
        assert gone() is None
    finally:
        gc.enable()


def test_pearl_rules_skip_what_is_already_drawn():
    """A blocked side whose consequences are all drawn gives nothing (the rules test the put
    before reading the pearl's surroundings); the pearls near a focus follow the focus."""
    from grader.kernels.pearls import BLACK
    from heuristics.masyu import pearls_to_check
    p = puzzle("B . . . .\n" + "\n".join([". . . . ."] * 4))
    done = draw(p, lines=["r1c1-r1c2", "r1c2-r1c3", "r1c1-r2c1", "r2c1-r3c1"])
    assert found("masyu.black-leg-blocked", p, done) == {}
    far = frozenset([p.graph.edge_vars[p.graph.edge_names.index("r5c4-r5c5")]])
    near = frozenset([p.graph.edge_vars[p.graph.edge_names.index("r1c2-r1c3")]])
    assert pearls_to_check(p, BLACK, near) == [0]
    assert pearls_to_check(p, BLACK, far) == []
    assert pearls_to_check(p, BLACK, near) == [0]


def test_black_leg_blocked_by_a_black_neighbour():
    # two blacks side by side: neither can send its line through the other
    p = puzzle(". . . . . .\n. . . . . .\n. . B B . .\n. . . . . .\n. . . . . .")
    got = found("masyu.black-leg-blocked", p)
    assert got["r3c2-r3c3"] == LINE and got["r3c1-r3c2"] == LINE
    assert got["r3c4-r3c5"] == LINE and got["r3c5-r3c6"] == LINE
    assert got["r3c3-r3c4"] == CROSS


def test_black_leg_extend():
    p = puzzle(". . . . .\n. . . . .\n. . B . .\n. . . . .\n. . . . .")
    s = marks(p, ". . . . .\n. . . . .\n. . e w .\n. . . . .\n. . . . .")
    assert found("masyu.black-leg-extend", p, s) == {
        "r3c4-r3c5": LINE, "r3c2-r3c3": CROSS, "r2c4-r3c4": CROSS, "r3c4-r4c4": CROSS}
    assert found("masyu.black-leg-extend", p) == {}


def test_white_axis_by_the_border():
    p = puzzle(". . W . .\n" + "\n".join([". . . . ."] * 4))
    assert found("masyu.white-axis", p) == {"r1c2-r1c3": LINE, "r1c3-r1c4": LINE, "r1c3-r2c3": CROSS}
    assert found("masyu.white-axis", puzzle(". . . . .\n. . . . .\n. . W . .\n. . . . .\n. . . . .")) == {}


def test_white_axis_three_whites_in_a_row():
    p = puzzle(". . . . .\n. . . . .\n. W W W .\n. . . . .\n. . . . .")
    got = found("masyu.white-axis", p)
    assert got["r2c3-r3c3"] == LINE and got["r3c3-r4c3"] == LINE
    assert got["r3c2-r3c3"] == CROSS and got["r3c3-r3c4"] == CROSS


def test_white_turn():
    p = puzzle(". . . . .\n. . . . .\n. . W . .\n. . . . .\n. . . . .")
    s = marks(p, ". . . . .\n. . . . .\ne ew ew w .\n. . . . .\n. . . . .")
    assert found("masyu.white-turn", p, s) == {"r3c4-r3c5": CROSS}
    s = marks(p, ". . . . .\n. . . . .\n. e ew w .\n. . . . .\n. . . . .")
    assert found("masyu.white-turn", p, s) == {}


# --- level 1: the loop ---------------------------------------------------------------------------

def test_cell_full():
    p = puzzle(EMPTY5)
    s = marks(p, ". . . . .\n. . sw . .\n. . . . .\n. . . . .\n. . . . .")
    assert found("masyu.cell-full", p, s) == {"r1c3-r2c3": CROSS, "r2c3-r2c4": CROSS}
    assert found("masyu.cell-full", p, marks(p, ". . . . .\n. . s . .\n. . . . .\n. . . . .\n. . . . .")) == {}


def test_loose_end():
    p = puzzle(EMPTY5)
    s = marks(p, "e w . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .")
    assert found("masyu.loose-end", p, s) == {"r1c1-r2c1": LINE}
    assert found("masyu.loose-end", p) == {}


def test_pearl_two_ways():
    p = puzzle(". . . . .\n. . . . .\n. . W . .\n. . . . .\n. . . . .")
    s = marks(p, ". . . . .\n. . - . .\n. . . . .\n. . - . .\n. . . . .")
    assert found("masyu.pearl-two-ways", p, s) == {"r3c2-r3c3": LINE, "r3c3-r3c4": LINE}
    assert found("masyu.pearl-two-ways", p) == {}


def test_dead_end():
    p = puzzle(EMPTY5)
    s = marks(p, ". - . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .")
    assert found("masyu.dead-end", p, s) == {"r1c1-r2c1": CROSS}
    assert found("masyu.dead-end", p) == {}


def test_loop_closed():
    p = puzzle(". . .\n. . .\n. . .")
    ring = ["r1c1-r1c2", "r1c2-r2c2", "r2c1-r2c2", "r1c1-r2c1"]
    got = found("masyu.loop-closed", p, draw(p, lines=ring))
    assert len(got) == 8 and set(got.values()) == {CROSS}
    assert found("masyu.loop-closed", p, draw(p, lines=ring[:3])) == {}


# --- level 2 ---------------------------------------------------------------------------------

def test_cell_shapes():
    # the line leaves the black pearl at r3c3 to the east (not yet extended); if r2c4 sent
    # its line south, r3c4 would get three lines, so that edge is crossed out
    p = puzzle(". . . . .\n. . . . .\n. . B . .\n. . . . .\n. . . . .")
    s = draw(p, lines=["r3c3-r3c4", "r3c4-r3c5"])
    assert found("masyu.cell-shapes", p, s)["r2c4-r3c4"] == CROSS
    free = puzzle(". . .\n. . .\n. . .")
    assert found("masyu.cell-shapes", free) == {}


def test_cell_shapes_remembered_answers_equal_fresh_ones():
    """cell-shapes remembers each cell's answer per the edges it reads: over many random
    correct states, the remembered answers equal those of a fresh puzzle object."""
    import random
    from support import random_partial
    rng = random.Random(11)
    name = "pearl-10x10dt-grader-1.yaml"
    p = load(str(CORPUS / "masyu" / name))
    solution = MASYU.solution_state(p)
    h = REGISTRY.get("masyu.cell-shapes")
    fired = 0
    for _ in range(6):
        state = random_partial(p, solution, rng, rng.choice((0.3, 0.5, 0.7)))
        again = [(d.removals, d.params["refuted"]) for d in h.find(p, state)]
        fresh = load(str(CORPUS / "masyu" / name))
        assert again == [(d.removals, d.params["refuted"]) for d in h.find(fresh, state)]
        fired += len(again)
    assert fired


# --- level 3 ---------------------------------------------------------------------------------

def test_closed_off():
    p = puzzle(". . . .\n. . . .\n. . . .\n. . . .")
    s = marks(p, ". . - .\n. . - .\n- - . .\n. . e w")
    assert found("masyu.closed-off", p, s) == {
        "r1c1-r1c2": CROSS, "r1c1-r2c1": CROSS, "r1c2-r2c2": CROSS, "r2c1-r2c2": CROSS}
    assert found("masyu.closed-off", p, marks(p, ". . - .\n. . - .\n- - . .\n. . . .")) == {}


POCKET = ["r1c2-r1c3", "r2c2-r2c3", "r2c4-r3c4"]      # r1c3, r1c4, r2c3 and r2c4 open only downwards


def test_dead_end_area():
    # the top right 2x2 block is joined to the rest only by r2c3-r3c3: a loop that went in
    # could not come back out
    p = puzzle(". . . .\n. . . .\n. . . .\n. . . .")
    assert found("masyu.dead-end-area", p, draw(p, crosses=POCKET)) == {"r2c3-r3c3": CROSS}
    assert found("masyu.dead-end-area", p, draw(p, crosses=POCKET[:2])) == {}


SPLIT = ["r2c2-r2c3", "r3c2-r3c3"]          # columns 1-2 and 3-4 meet only in rows 1 and 4


def test_two_ways_across():
    # lines on both sides of the split: the loop crosses it there and back, by both ways left
    p = puzzle(". . . .\n. . . .\n. . . .\n. . . .")
    s = draw(p, lines=["r2c1-r3c1", "r2c4-r3c4"], crosses=SPLIT)
    assert found("masyu.two-ways-across", p, s) == {"r1c2-r1c3": LINE, "r4c2-r4c3": LINE}
    d = fires("masyu.two-ways-across", p, s)[0]
    assert {d.params["a"], d.params["b"]} & {"r2c1", "r3c1"} and {d.params["a"], d.params["b"]} & {"r2c4", "r3c4"}
    # a pearl counts as a place the loop must visit
    q = puzzle(". . . .\n. . . W\n. . . .\n. . . .")
    assert found("masyu.two-ways-across", q, draw(q, lines=["r2c1-r3c1"], crosses=SPLIT)) == {
        "r1c2-r1c3": LINE, "r4c2-r4c3": LINE}
    # only one side has anything the loop must visit: it may stay there
    assert found("masyu.two-ways-across", p, draw(p, lines=["r2c1-r3c1"], crosses=SPLIT)) == {}
    assert found("masyu.two-ways-across", p, draw(p, lines=["r2c1-r3c1", "r2c4-r3c4"])) == {}


def test_no_early_loop():
    p = puzzle(". . . .\n. . . .\n. . . .\n. . . B")
    s = marks(p, "se sw . .\nn n . .\n. . . .\n. . . .")
    assert found("masyu.no-early-loop", p, s) == {"r2c1-r2c2": CROSS}
    free = puzzle(". . . .\n. . . .\n. . . .\n. . . .")
    assert found("masyu.no-early-loop", free, marks(free, "se sw . .\nn n . .\n. . . .\n. . . .")) == {}


def test_parity():
    p = puzzle(". . .\n. . .\n. . .")
    s = marks(p, "s - .\nn . .\n. . .")
    assert found("masyu.parity", p, s) == {"r1c3-r2c3": LINE}
    assert found("masyu.parity", p) == {}


def test_inside_outside():
    # the decided edges around r2c2 and r3c2 link the corners on both sides of r3c2-r3c3 (and
    # of r2c2-r3c2) with two lines on the way: the corners are on the same side, so both edges
    # are crossed out; no straight cut and no single cell decides r3c2-r3c3
    p = puzzle(EMPTY5)
    s = draw(p, lines=["r2c2-r2c3", "r1c2-r2c2"], crosses=["r2c1-r2c2", "r3c1-r3c2", "r3c2-r4c2"])
    assert found("masyu.inside-outside", p, s) == {"r3c2-r3c3": CROSS, "r2c2-r3c2": CROSS}
    assert found("masyu.parity", p, s) == {} and found("masyu.cell-shapes", p, s).get("r3c2-r3c3") is None
    # with one line on the way, the corners are on opposite sides
    odd = draw(p, lines=["r2c2-r2c3"], crosses=["r1c2-r2c2", "r2c1-r2c2", "r3c1-r3c2", "r3c2-r4c2"])
    assert found("masyu.inside-outside", p, odd)["r3c2-r3c3"] == LINE
    # beyond the border is outside: with r1c1-r1c2 and r1c2-r2c2 crossed out, so are the corners
    # below them, and the border edges beside them are crossed out too
    assert found("masyu.inside-outside", p, draw(p, crosses=["r1c1-r1c2", "r1c2-r2c2"])) == {
        "r1c2-r1c3": CROSS, "r1c1-r2c1": CROSS}
    assert found("masyu.inside-outside", p) == {}
    assert found("masyu.inside-outside", p, draw(p, lines=["r2c2-r2c3"], crosses=["r3c1-r3c2"])) == {}


def test_inside_outside_across_a_white_pearl():
    # r1c1-r1c2 crossed out puts the corner at the top left of the white pearl r2c2 outside;
    # the loop runs straight through the pearl, so the opposite corner is inside, and the border
    # edges beside it carry the loop
    p = puzzle(". . .\n. W .\n. . .")
    s = draw(p, crosses=["r1c1-r1c2"])
    assert found("masyu.inside-outside", p, s) == {"r1c1-r2c1": CROSS, "r3c2-r3c3": LINE, "r2c3-r3c3": LINE}
    assert "white pearl at r2c2" in REGISTRY.get("masyu.inside-outside").info.template.format(
        **next(d for d in fires("masyu.inside-outside", p, s) if d.params["via"]).params)
    assert found("masyu.inside-outside", puzzle(". . .\n. . .\n. . ."), s) == {"r1c1-r2c1": CROSS}


def test_small_loop():
    # r1c2 and r2c1 are the two ends of one line; running through r1c1 would close it while the
    # line r5c4-r5c5 is outside, so r1c1 stays empty
    p = puzzle(EMPTY5)
    s = marks(p, ". s . . .\ns ns . . .\nne nw . . .\n. . . . .\n. . . e w")
    assert found("masyu.small-loop", p, s) == {"r1c1-r1c2": CROSS, "r1c1-r2c1": CROSS}
    one = marks(p, ". s . . .\ns ns . . .\nne nw . . .\n. . . . .\n. . . . .")
    assert found("masyu.small-loop", p, one) == {}


# --- levels 4 and 5: found on the solve path of generated puzzles -------------------------------

def path_step(hid: str, paths: list[str]):
    """The first step of technique `hid` when solving our corpus puzzles, with the state before."""
    for name in paths:
        p = load(str(CORPUS / "masyu" / name))
        trace = Solver(p).solve()
        for step, before, _ in trace.states():
            if step.heuristic.id == hid:
                return p, before, step
    return None


def run_to_level(p, level: int):
    return Solver(p, max_level=level).solve().final


@pytest.mark.parametrize("hid,level", [("masyu.end-lookahead", 4), ("masyu.black-cases", 5),
                                       ("masyu.white-cases", 5), ("masyu.end-cases", 5),
                                       ("masyu.trial-and-error", 5), ("masyu.deep-cases", 5)])
def test_deep_techniques_fire_soundly(hid, level):
    """On the stuck state of a tricky puzzle (levels below exhausted), the technique finds
    something, and all of it agrees with the solution; on a fresh empty board it finds nothing."""
    h = REGISTRY.get(hid)
    p = load(str(CORPUS / "masyu" / "pearl-8x8dt-grader-2.yaml"))
    solution = MASYU.solution_state(p)
    stuck = run_to_level(p, 2)
    assert not stuck.complete
    n = assert_all_sound(h, p, stuck, solution)
    assert n >= 1, f"{hid} found nothing on the stuck state"
    empty = puzzle(EMPTY5)
    assert list(h.find(empty, MASYU.initial_state(empty))) == []


def test_case_analyses_remember_their_failures():
    """A case analysis remembers which subjects told nothing; after a step it forgets those
    near what changed, and a state that is not a later one recalls nothing."""
    from grader.core.engine import remembering
    from heuristics.common import cell_loops
    h = REGISTRY.get("masyu.white-cases")
    p = load(str(CORPUS / "masyu" / "pearl-10x10dt-grader-2.yaml"))
    stuck = run_to_level(p, 2)
    with remembering() as memory:       # one solve's memory, as the solver gives each solve
        d = h.first(p, stuck)
        cands, (short, long_), where = memory["_masyu_white_cases"]
        assert d is not None and cands == stuck.cands and short
        after = d.apply(stuck)
        kept, _ = cell_loops._recall(p, after, "_masyu_white_cases", 2)
        changed = {divmod(v, p.cols) for var, _ in d.removals for v in p.graph.vertices_of_var[var]}
        for name in short - kept:       # forgotten: within four steps of a change
            assert any(abs(r - a) + abs(c - b) <= 4 for v in where[name] for r, c in [divmod(v, p.cols)]
                       for a, b in changed)
        assert cell_loops._recall(p, MASYU.initial_state(p), "_masyu_white_cases", 2) == [set(), set()]
    assert cell_loops._recall(p, after, "_masyu_white_cases", 2) == [set(), set()]   # a new solve starts afresh


def draw(p, lines=(), crosses=()):
    """A state with the named edges drawn or crossed out."""
    names = {n: i for i, n in enumerate(p.graph.edge_names)}
    cands = list(MASYU.initial_state(p).cands)
    for n in lines:
        cands[p.graph.edge_vars[names[n]]] = 2
    for n in crosses:
        cands[p.graph.edge_vars[names[n]]] = 1
    return State(tuple(cands))


def test_end_lookahead():
    # from the loose end at r2c2, going north forces the line round r1c2 and r1c1 until it
    # breaks a rule; east is crossed out; so it goes south
    p = puzzle(". . .\n. . .\n. . .")
    s = draw(p, lines=["r2c1-r2c2", "r3c2-r3c3"], crosses=["r1c2-r1c3", "r2c2-r2c3"])
    assert found("masyu.end-lookahead", p, s) == {"r2c2-r3c2": LINE}
    assert any("r1c2-r2c2" in str(d.params["refuted"]) for d in fires("masyu.end-lookahead", p, s))
    assert found("masyu.end-lookahead", p, draw(p, lines=["r2c1-r2c2", "r3c2-r3c3"])) == {}


def test_pearl_lookahead():
    # running up and down through the white pearl at r2c2, the line is forced round r1c1, r2c1
    # (r1c2-r1c3 and r3c1-r4c1 are crossed out) and back into r3c2: a small loop, with the line
    # r4c3-r4c4 outside it. So the line runs across the pearl
    p = puzzle(". . . .\n. W . .\n. . . .\n. . . .")
    s = draw(p, lines=["r4c3-r4c4"], crosses=["r1c2-r1c3", "r3c1-r4c1"])
    assert found("masyu.pearl-lookahead", p, s) == {
        "r2c1-r2c2": LINE, "r2c2-r2c3": LINE, "r1c2-r2c2": CROSS, "r2c2-r3c2": CROSS}
    assert found("masyu.pearl-lookahead", p, draw(p, lines=["r4c3-r4c4"])) == {}


def test_enclosure():
    # row 1 between r1c1 and r1c5 is closed off; those two loose ends can only be tied through it
    p = puzzle("\n".join([". . . . ."] * 4))
    s = draw(p, lines=FOUR_ENDS, crosses=ROWS_APART)
    assert found("masyu.enclosure", p, s) == {"r1c1-r1c2": LINE, "r1c2-r1c3": LINE, "r1c3-r1c4": LINE,
                                              "r1c4-r1c5": LINE}
    assert found("masyu.enclosure", p, draw(p, lines=FOUR_ENDS)) == {}


def test_enclosure_unique():
    # the catalogue's pattern: four loose ends r2c1, r3c1 (side by side) and r2c5, r3c5 around an
    # empty area; tying r2c1 to r3c1 can be drawn in several ways, so the ends tie across
    p = puzzle("\n".join([". . . . ."] * 4))
    s = draw(p, lines=FOUR_ENDS, crosses=ROWS_APART)
    assert found("masyu.enclosure-unique", p, s) == {
        "r2c1-r2c2": LINE, "r2c2-r2c3": LINE, "r2c3-r2c4": LINE, "r2c4-r2c5": LINE,
        "r3c1-r3c2": LINE, "r3c2-r3c3": LINE, "r3c3-r3c4": LINE, "r3c4-r3c5": LINE,
        "r2c2-r3c2": CROSS, "r2c3-r3c3": CROSS, "r2c4-r3c4": CROSS}
    # a white pearl beside a loose end could tell the drawings apart: no uniqueness argument
    q = puzzle(". . . . .\nW . . . .\n. . . . .\n. . . . .")
    assert found("masyu.enclosure-unique", q, draw(q, lines=FOUR_ENDS, crosses=ROWS_APART)) == {}


# --- degenerate loops (issue 20): the planted loop is the only answer, or one of many ------------

TINY_LOOPS = {
    "the 2x2 loop on a 2x2 board": "se sw\nne nw",
    "the 2x2 loop in a corner": "se sw - -\nne nw - -\n- - - -\n- - - -",
    "a loop of 6 cells, a row left over": "se ew sw\nne ew nw\n- - -",
    "a loop of 8 cells round one cell": "se ew sw\nns - ns\nne ew nw",
    "the border of a thin board": "se ew ew ew ew sw\nne ew ew ew ew nw",
    "the border of a 4x4 board": "se ew ew sw\nns - - ns\nns - - ns\nne ew ew nw",
    "a loop through every cell": "se ew ew sw\nne sw se nw\nse nw ne sw\nne ew ew nw",
}

# (the 2x2 loops allow no pearl, and the pearls of the loop through every cell allow others)
PINNED = {"a loop of 6 cells, a row left over", "a loop of 8 cells round one cell",
          "the border of a thin board", "the border of a 4x4 board"}


def planted_loop(loop: str, with_pearls: bool):
    """A board whose only drawn loop is `loop`, with every pearl it allows (or none), and
    that loop as a complete state."""
    from grader.genres.masyu.planted import valid_pearls
    rows = [r.split() for r in loop.splitlines()]
    blank = "\n".join(" ".join("." for _ in r) for r in rows)
    p = native("genre: masyu\ngrid: |\n" + "".join(f"  {r}\n" for r in blank.splitlines())
               + "solution: |\n" + "".join(f"  {' '.join(r)}\n" for r in rows))
    cols = p.cols
    dirs = {r * cols + c: set(t) for r, row in enumerate(rows) for c, t in enumerate(row) if t != "-"}
    if with_pearls:
        import attrs
        pearls = [0] * (p.rows * cols)
        for i, kind in valid_pearls(cols, dirs).items():
            pearls[i] = kind
        p = attrs.evolve(p, pearls=tuple(pearls))
    return p, MASYU.solution_state(p)


@pytest.mark.parametrize("with_pearls", [True, False])
@pytest.mark.parametrize("name", sorted(TINY_LOOPS))
def test_tiny_loops_are_kept(name, with_pearls):
    """No step removes part of a small or whole-board loop, and no solve ends in a
    contradiction, whether the pearls pin the loop down or there are none at all."""
    from grader.app import soak as planted
    from grader.core.steps import Status
    p, solution = planted_loop(TINY_LOOPS[name], with_pearls)
    assert MASYU.violations(p, solution) == []
    trace = Solver(p, validate=True, assume_unique=False).solve()
    assert planted.first_unsound(p, trace, solution) is None
    assert trace.status is not Status.CONTRADICTION
    if with_pearls and name in PINNED:
        assert trace.status is Status.SOLVED


def test_exact_solver_counts_loops_not_roots_without_pearls():
    """Without pearls the exact solver used to pick the loop's root freely, so one loop made
    one answer per cell on it: the 2x2 board, whose only loop is the ring, had 'several'."""
    from grader.core import exact
    assert exact.solve(puzzle(". .\n. .")).verdict is exact.Verdict.UNIQUE
    three = exact.solve(puzzle(". . .\n. . ."), limit=10)
    assert len(three.solutions) == 3 and len(set(three.solutions)) == 3
    assert exact.solve(puzzle(". . .")).verdict is exact.Verdict.NONE


# --- rules ---------------------------------------------------------------------------------------

def test_violations():
    p = puzzle(". . . .\n. B . .\n. . W .\n. . . .")
    assert MASYU.violations(p, MASYU.initial_state(p)) == []
    straight = marks(p, ". . . .\ne ew w .\n. . . .\n. . . .")
    assert any("black pearl" in v.message for v in MASYU.violations(p, straight))
    turn = marks(p, ". . . .\n. . . .\n. . se .\n. . . .")
    assert any("white pearl" in v.message for v in MASYU.violations(p, turn))
    small = marks(p, "se sw . .\nne nw . .\n. . . .\n. . . .")
    assert any("closed loop" in v.message or "leaves out" in v.message for v in MASYU.violations(p, small))


def test_solution_is_valid_and_unique():
    p = load(str(CORPUS / "masyu" / "pearl-6x6dt-grader-1.yaml"))
    assert MASYU.violations(p, reference(p)) == []


def test_tiers_grade_in_order():
    """Pearl easy puzzles need only level 1; tricky ones need level 3 (closing the loop early)."""
    levels = {}
    for f in sorted((CORPUS / "masyu").glob("pearl-*x*d?-grader-[12].yaml")):
        p = load(str(f))
        trace = Solver(p).solve()
        assert trace.status.value == "solved"
        levels.setdefault(p.meta.label, []).append(max(s.level for s in trace.steps))
    assert max(levels["easy"]) < min(levels["tricky"])


# --- soundness on real puzzles -------------------------------------------------------------------

def test_sound_on_janko_sample():
    from support import assert_sound_path, janko
    for p in janko("masyu", 5, seed=4, max_cells=64):
        assert_sound_path(p)


def test_every_technique_sound_from_random_partial_states():
    import random
    from support import assert_sound_from_partial_states
    puzzles = [load(str(CORPUS / "masyu" / name))
               for name in ("pearl-8x8dt-grader-1.yaml", "pearl-6x6dt-grader-3.yaml")]
    assert_sound_from_partial_states(puzzles, REGISTRY.for_genre("masyu", 4), random.Random(7),
                                     (0.2, 0.5), rounds=3, solution=MASYU.solution_state)


def test_new_rules_sound_on_nearly_solved_states():
    from support import assert_sound_when_nearly_solved
    assert_sound_when_nearly_solved("masyu", "enclosure enclosure-unique small-loop pearl-lookahead inside-outside")


def test_what_ifs_sound_on_nearly_solved_states():
    from support import assert_sound_when_nearly_solved
    assert_sound_when_nearly_solved("masyu", "white-what-if black-what-if end-what-if white-way-fails "
                                             "black-way-fails end-way-fails")


# --- formats ---------------------------------------------------------------------------------------

def test_puzzlink_example():
    p = load("https://puzz.link/p?mashu/6/6/1063000i3000")
    assert MASYU.render_text(p).split("\n") == [
        ". . W . . .", ". B . . W .", ". . . . . .", ". . . B . .", ". W . . . .", ". . . . . ."]


def test_tatham_example():
    p = load("6x6:cWaBWeWBhWiBBb", "masyu")
    assert MASYU.render_text(p).split("\n")[:3] == [". . . W . B", "W . . . . .", "W B . . . ."]


def test_janko_german_east():
    data = {"size": 2, "problem": [["w", "-"], ["-", "-"]],
            "solution": [["so", "sw"], ["no", "nw"]]}
    p = MASYU.from_janko(data, Source("<record>"))
    assert MASYU.render_text(p, MASYU.solution_state(p)).split("\n") == ["se sw", "ne nw"]


def test_native_round_trip():
    from grader.io.native import dump
    p = load(str(CORPUS / "masyu" / "pearl-6x6dt-grader-1.yaml"))
    again = native(dump(MASYU.to_native(p)))
    assert again.pearls == p.pearls and again.solution == p.solution


@pytest.mark.parametrize("spec,where", [
    ("https://puzz.link/p?mashu/6/6/10630", "body"),
    ("https://puzz.link/p?mashu/6/6/1063000i30!0", "body"),
    ("https://puzz.link/p?mashu/f/6/6/1063000i3000", "flags"),
])
def test_bad_urls(spec, where):
    from grader.core.errors import InputError
    with pytest.raises(InputError) as exc:
        load(spec)
    assert f"({where})" in str(exc.value) and "\n" not in str(exc.value)


def test_bad_tatham_and_native():
    from grader.core.errors import InputError
    with pytest.raises(InputError, match="description"):
        load("6x6:cWaBWeWBhWiBB", "masyu")
    with pytest.raises(InputError, match="character 3"):
        load("6x6:cWQ", "masyu")
    with pytest.raises(InputError) as exc:
        native("genre: masyu\ngrid: |\n  . . W\n  . X .\n")
    assert ":4:5" in str(exc.value)
    with pytest.raises(InputError, match="off the loop but a line reaches it"):
        native("genre: masyu\ngrid: |\n  . .\n  . .\nsolution: |\n  se sw\n  ne -\n")


# --- level 4: short what-ifs and ways that fail further on ---------------------------------------

# Two 10x10 puzzles (janko.de Masyu) that levels 1-3 leave stuck
STUCK_A = """\
. . . . . . . . . .
. . W . . B . . . W
. B . W . . . . . .
. . B . . . . B . .
. . . . . W . . . B
W . . . B . . . . .
. . W . . . . W . .
. . . . . . B . W .
B . . . W . . B . .
. . . . . . . . . ."""

STUCK_B = """\
. . . B . B . . . .
W . . W . . . . . W
. . . . . . . . . .
W B . . B . . B . .
. W . B . B . W . W
. . . . B . . . . .
. . . . . . W . . .
B . . . . . . . . B
W . W . W . W . . .
. . . . B . . W . ."""

LONE_WHITE = ". . . . .\n. . . . .\n. . W . .\n. . . . .\n. . . . ."
LONE_BLACK = ". . . . .\n. . . . .\n. . B . .\n. . . . .\n. . . . ."


@pytest.mark.parametrize("hid,grid,expected", [
    ("masyu.white-what-if", STUCK_A, {"r4c5-r4c6": CROSS}),
    ("masyu.black-what-if", STUCK_A, {"r5c4-r5c5": CROSS}),
    ("masyu.end-what-if", STUCK_A, {"r4c5-r4c6": CROSS}),
    ("masyu.end-way-fails", STUCK_A, {"r3c10-r4c10": LINE}),
    ("masyu.white-way-fails", STUCK_B, {"r9c2-r9c3": LINE, "r9c3-r9c4": LINE, "r8c3-r9c3": CROSS,
                                        "r9c3-r10c3": CROSS}),
    ("masyu.black-way-fails", STUCK_B, {"r1c2-r1c3": LINE, "r1c3-r1c4": LINE, "r1c4-r1c5": CROSS}),
])
def test_what_ifs_on_stuck_puzzles(hid, grid, expected):
    """Each fires where levels 1-3 are stuck, finds exactly this, and agrees with the solution."""
    p = puzzle(grid)
    stuck = run_to_level(p, 3)
    assert not stuck.complete
    assert found(hid, p, stuck) == expected
    solution = Solver(p).solve().final
    assert solution.complete and assert_all_sound(REGISTRY.get(hid), p, stuck, solution) == 1


@pytest.mark.parametrize("hid,grid", [
    ("masyu.white-what-if", LONE_WHITE), ("masyu.white-way-fails", LONE_WHITE),
    ("masyu.black-what-if", LONE_BLACK), ("masyu.black-way-fails", LONE_BLACK),
    ("masyu.end-what-if", EMPTY5), ("masyu.end-way-fails", EMPTY5)])
def test_what_ifs_quiet_where_every_way_is_open(hid, grid):
    """A lone pearl in the middle of an empty board (or a lone short line): every way stays
    open a few steps on, and the ways share nothing."""
    p = puzzle(grid)
    s = MASYU.initial_state(p)
    if hid.startswith("masyu.end"):
        s = draw(p, lines=["r3c2-r3c3"])
    assert found(hid, p, s) == {}


def test_what_if_explanations_show_the_ways():
    from grader.core.explain import sentence
    from grader.core.steps import Step
    p = puzzle(STUCK_B)
    stuck = run_to_level(p, 3)
    h = REGISTRY.get("masyu.white-way-fails")
    d, = fires(h.id, p, stuck)      # the shortest failure first: 4 steps to a small loop
    assert [b.label for b in d.detail] == ["the line runs up and down through r9c3"]
    assert sentence(Step(1, h.info, d)) == (
        "The line runs across or up and down through the white pearl at r9c3. Followed with the pearl "
        "rules and the loop patterns (small loops, parity, areas with one way in): if the line runs up "
        "and down through r9c3, 4 steps lead to a contradiction (a closed loop leaves other lines "
        "outside it). So r9c2-r9c3 and r9c3-r9c4 carry the loop and r8c3-r9c3 and r9c3-r10c3 are "
        "crossed out.")
    d, = fires("masyu.white-what-if", p, stuck)
    assert [b.label for b in d.detail] == ["the line runs across through r9c3",
                                           "the line runs up and down through r9c3"]
    assert all(s.level == 1 for b in d.detail for s in b.trace.steps)


def test_what_ifs_remember_what_told_nothing():
    """A pearl whose ways told nothing is not followed again until an edge near them changes."""
    from grader.core.engine import remembering
    from grader.kernels.recent import Remembered
    p = puzzle(LONE_WHITE)
    s = MASYU.initial_state(p)
    with remembering():
        assert fires("masyu.white-way-fails", p, s) == []
        seen = Remembered.in_solve("masyu.way-fails.pearl", s)
        assert seen.get(p.cell(12), False)
        near = Remembered.in_solve("masyu.way-fails.pearl", draw(p, crosses=["r2c3-r3c3"]))
        assert not near.get(p.cell(12), False)
        far = Remembered.in_solve("masyu.way-fails.pearl", draw(p, crosses=["r5c4-r5c5"]))
        assert far.get(p.cell(12), False)
        assert fires("masyu.white-what-if", p, s) == []
        assert Remembered.in_solve("masyu.what-if.pearl", s).get(p.cell(12), False)


def test_longer_what_ifs_look_at_the_nearest_few():
    """Ways that fail further on are followed from the few pearls or ends nearest a change."""
    from heuristics import masyu as plugin
    p = puzzle(EMPTY5)
    subjects = [(p.cell(i), [("a", {}), ("b", {})]) for i in range(25)]
    near = plugin._nearest(p, subjects, frozenset([p.graph.edge_vars[0]]))
    assert len(near) == plugin.FAILS_SUBJECTS and near[0][0] == p.cell(0)
    assert all(c.r + c.c <= 3 for c, _ in near)
    assert len(plugin._nearest(p, subjects[:3], None)) == 3


def test_pearl_rules_with_a_focus_find_what_they_find_everywhere():
    """The level-1 pearl rules look only at pearls where they read a changed edge: after a
    state where a rule found nothing, it finds with the changes as focus exactly what it finds
    looking at every pearl (along the solve path of a few puzzles)."""
    ids = ("masyu.black-leg-blocked", "masyu.black-leg-extend", "masyu.white-axis", "masyu.white-turn")
    rules = [h for h in REGISTRY.for_genre("masyu", 1) if h.id in ids]
    assert len(rules) == len(ids)
    for f in ("pearl-8x8dt-grader-1.yaml", "pearl-6x6dt-grader-3.yaml"):
        p = load(str(CORPUS / "masyu" / f))
        trace = Solver(p).solve()
        states, state = [trace.start], trace.start
        for step in trace.steps:
            states.append(state := step.deduction.apply(state))
        for before, after in zip(states, states[1:]):
            focus = frozenset(before.diff(after))
            for h in rules:
                if not list(h.find(p, before)):
                    everywhere = [d.removals for d in h.find(p, after)]
                    assert [d.removals for d in h.find(p, after, focus)] == everywhere, h.id


def test_a_solve_leaves_no_cycles():
    """A solve leaves nothing to the collector (the enclosures' tying search was nested
    functions calling each other: a cycle holding every tying's state)."""
    puzzles = janko("masyu", 6, seed=7, max_cells=100)
    assert cyclic_garbage_of_solve(puzzles[5], warm_up=puzzles[0]) == 0
