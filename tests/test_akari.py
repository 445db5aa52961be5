"""Akari: each technique must fire where it should (with what it finds) and not elsewhere;
every deduction agrees with the unique solution on real puzzles; formats round-trip."""
from __future__ import annotations

import random

import pytest

from grader.io.read import load
from grader.genres import get
from grader.core.registry import REGISTRY
from support import (states_of_solve, assert_all_sound, assert_puzzles_solved_soundly, fires, found, janko, marks, native, random_partial,
                     reference, refused)

AKARI = get("akari")


def sentence_of(hid: str, p, state=None) -> str:
    """The explanation of the first deduction a technique finds."""
    from grader.core.explain import fill
    return fill(REGISTRY.get(hid).info.template, fires(hid, p, state)[0].params)


def puzzle(grid: str):
    return native("genre: akari\ngrid: |\n" + "".join(f"  {row}\n" for row in grid.strip().splitlines()))


# --- level 1 -------------------------------------------------------------------------------

def test_bulb_lights_lines():
    p = puzzle(". . .\n. # .\n. . .")
    s = marks(p, "* . .\n. # .\n. . .")
    assert found("akari.bulb-lights-lines", p, s) == {
        "r1c2": "is empty", "r1c3": "is empty", "r2c1": "is empty", "r3c1": "is empty"}
    assert found("akari.bulb-lights-lines", p) == {}


def test_wall_satisfied():
    p = puzzle(". . .\n. 1 .\n. . .")
    s = marks(p, ". * .\n. 1 .\n. . .")
    assert found("akari.wall-satisfied", p, s) == {"r2c1": "is empty", "r2c3": "is empty", "r3c2": "is empty"}
    assert found("akari.wall-satisfied", p) == {}
    zero = puzzle(". . .\n. 0 .\n. . .")
    assert set(found("akari.wall-satisfied", zero)) == {"r1c2", "r2c1", "r2c3", "r3c2"}


def test_wall_needs_all():
    assert found("akari.wall-needs-all", puzzle(". . .\n. 4 .\n. . .")) == {
        "r1c2": "holds a bulb", "r2c1": "holds a bulb", "r2c3": "holds a bulb", "r3c2": "holds a bulb"}
    assert found("akari.wall-needs-all", puzzle(". . .\n. 3 .\n. . .")) == {}


# --- level 2 -------------------------------------------------------------------------------

def test_only_one_lighter():
    p = puzzle(". . #")
    assert found("akari.only-one-lighter", p, marks(p, "+ . #")) == {"r1c2": "holds a bulb"}
    q = puzzle(". . .")
    assert found("akari.only-one-lighter", q, marks(q, "+ . .")) == {}


def test_isolated_cell():
    assert found("akari.isolated-cell", puzzle(". #\n# .")) == {"r1c1": "holds a bulb", "r2c2": "holds a bulb"}
    assert found("akari.isolated-cell", puzzle(". .")) == {}


def test_bulb_starves_wall():
    assert found("akari.bulb-starves-wall", puzzle(". . .\n. 1 #\n. # .")) == {"r1c1": "is empty"}
    assert found("akari.bulb-starves-wall", puzzle(". . .\n. # #\n. # .")) == {}


# --- level 3 -------------------------------------------------------------------------------

def test_bulb_darkens_cell():
    p = puzzle(". . #\n. . .\n# . .")
    assert found("akari.bulb-darkens-cell", p, marks(p, "+ . #\n. . .\n# . .")) == {"r2c2": "is empty"}
    assert found("akari.bulb-darkens-cell", p) == {}


def test_wall_combinations():
    # The 2 at r2c2 has three free neighbours; bulbs at r2c1 and r2c3 would leave r1c2 dark,
    # so both remaining ways use r1c2.
    p = puzzle("# . #\n. 2 .\n. # .")
    assert found("akari.wall-combinations", p) == {"r1c2": "holds a bulb"}
    assert found("akari.wall-combinations", puzzle(". . .\n. 2 .\n. . .")) == {}


def test_two_pairs():
    p = puzzle("1 . . .\n. . . .\n. . . 1")
    result = found("akari.two-pairs", p)
    assert result.get("r2c3") == "is empty"
    assert all(v == "is empty" for v in result.values())
    assert found("akari.two-pairs", puzzle("1 . . .\n. . . .\n. . . .")) == {}


def test_bulb_chain():
    # A bulb at r3c3 lights r1c3 and r2c3, so each 1 needs the cell to its left: two bulbs in
    # one column.
    p = puzzle(". 1 . .\n. 1 . .\n1 . . .\n. . . .")
    assert found("akari.bulb-chain", p) == {"r3c3": "is empty"}
    assert sentence_of("akari.bulb-chain", p) == (
        "If r3c3 held a bulb: r3c3 would light r1c3, r2c3 and r3c2; the 1 at r1c2 would need r1c1; "
        "the 1 at r2c2 would need r2c1; then the bulbs at r1c1 and r2c1 would light each other. "
        "A chain of 2 links breaks a rule, so r3c3 is empty.")
    assert found("akari.bulb-chain", puzzle(". # . .\n. # . .\n# . . .\n. . . .")) == {}


# The 0 at r2c2 has kept its neighbours empty; r2c3 and r1c3 are still dark.
CHAIN = ". 1 . .\n. 0 . .\n. . # .\n. . . #"
CHAIN_MARKS = ". 1 . .\n+ 0 + .\n. + # .\n. . . #"


def test_empty_chain():
    p = puzzle(CHAIN)
    s = marks(p, CHAIN_MARKS)
    assert found("akari.empty-chain", p, s) == {"r1c3": "holds a bulb"}
    assert sentence_of("akari.empty-chain", p, s) == (
        "If r1c3 stayed empty: only r1c4 could light r1c3; only r2c4 could light r2c3; then the bulbs "
        "at r1c4 and r2c4 would light each other. A single link breaks a rule, so r1c3 holds a bulb.")
    assert found("akari.empty-chain", puzzle(". . . .\n. . . .\n. . . .")) == {}


# --- level 4 -------------------------------------------------------------------------------

def test_interchangeable_bulbs():
    p = puzzle("# 1 # #\n. . . .\n# # # #")
    assert found("akari.interchangeable-bulbs", p) == {"r2c1": "is empty", "r2c3": "is empty", "r2c4": "is empty"}
    assert found("akari.interchangeable-bulbs", puzzle(". . .\n. . .\n. . .")) == {}


def test_long_chain():
    # Five links from r3c1 to the clash of r1c4 and r2c4; the shorter chains are tried first.
    p = puzzle(CHAIN)
    s = marks(p, CHAIN_MARKS)
    assert found("akari.long-chain", p, s) == {"r3c1": "holds a bulb"}
    assert "A chain of 5 links breaks a rule" in sentence_of("akari.long-chain", p, s)
    assert found("akari.long-chain", puzzle(". 1 . .\n. 1 . .\n1 . . .\n. . . .")) == {}


# --- level 5 and the whole path --------------------------------------------------------------

def test_sight_orders_hold_the_cells_of_its_lines():
    p = puzzle(". . # .\n. . . .\n# . 1 .")
    for i in p.whites:
        assert p.sight[i] == frozenset(p.sight.lines(i)) and i not in p.sight[i]
        assert p.sight.cell_and_lines(i) == (i, *p.sight.lines(i))
        assert p.sight.in_board_order(i) == tuple(sorted(p.sight[i]))


def test_a_grid_cell_is_made_once_and_names_its_row_and_column():
    from grader.core.model import Cell
    p = puzzle(". . .\n. # .\n. . .")
    assert [p.cell(i) for i in range(9)] == [Cell(r, c) for r in range(3) for c in range(3)]
    assert p.cell(5) is p.cell(5)


def test_way_shape_is_what_the_bulbs_light_and_the_cells_left_out():
    from heuristics.akari import WayShape
    p = puzzle(". . 1\n. . .\n# . .")
    a, b = p.index(0, 1), p.index(1, 2)          # the 1's neighbours: a bulb on r1c2, none on r2c3
    shape = WayShape.of(p, (a,), (b,))
    assert shape.shone == {p.index(0, 0), p.index(1, 1), p.index(2, 1)} == p.sight[a]
    assert shape.barred == shape.shone | {b}
    assert shape.walls == (p.index(0, 2),) and not shape.clash
    assert WayShape.of(p, (a,), (b,)) is shape    # kept with the puzzle
    assert WayShape.of(p, (a, p.index(1, 1)), ()).clash       # r1c2 and r2c2 light each other


def test_trial_and_error_finds_a_sound_step_on_a_hard_puzzle():
    p = load("corpus/akari/lightup-7x7b20s2d2-grader-2.yaml")
    from grader.core.engine import Solver
    trace = Solver(p, max_level=2).solve()     # the chains of levels 3 and 4 finish it now
    assert trace.status.value == "stuck"
    solution = reference(p)
    assert assert_all_sound(REGISTRY.get("akari.trial-and-error"), p, trace.final, solution) == 1


def test_tatham_tiers_are_ordered():
    from grader.core.analysis import analyse
    levels = {}
    for tier in ("d0", "d1", "d2"):
        levels[tier] = max(analyse(load(f"corpus/akari/lightup-10x10b20s2{tier}-grader-{n}.yaml"),
                                   check_unique=False).grade.level for n in (1, 2))
    assert levels["d0"] <= levels["d1"] <= levels["d2"]
    assert levels["d0"] < levels["d2"]


def test_facts_kept_up_to_date_agree_with_a_fresh_look():
    """The per-state facts that are updated from a recent state's (only where a changed cell
    can reach) are what a look at the whole board finds, all along a solve: from each state's
    own origin, from a state a few steps back, and from a board given without one."""
    import heuristics.akari as A
    from grader.core.model import State
    from grader.genres.akari.model import lighting

    def said(d):        # deductions compare by identity: by what they say here
        return d and (d.removals, d.params, d.premises, d.cells, d.region)

    def facts(p, s):
        return (lighting(p, s).lit, A.starved_walls(p, s), A.choices(p, s), A.darkening_bulbs(p, s),
                {w: said(ways.step) for w, ways in A.wall_combination_steps(p, s).items()},
                {k: [said(d) for d in found] for k, (found, _) in A.two_pairs_steps(p, s)[1].items()},
                A.interchangeable_pairs(p, s), list(A.counts_of_open_walls(p, s).items()),
                [lighting(p, s).lighters(i) for i in p.whites])

    for path in ("corpus/akari/lightup-14x14b20s2d2-grader-1.yaml", "corpus/akari/lightup-10x10b20s2d2-grader-2.yaml"):
        p, kept = load(path), 0
        for n, state in states_of_solve(p):
            if n % 3 == 0:
                continue                    # updated later from further back
            looked_at = state if (n - 1) % 5 else State(state.cands)    # no origin: compared to recent boards
            assert facts(p, looked_at) == facts(load(path), State(state.cands)), f"{path}, after step {n}"
            kept += 1
        assert kept >= 20


def test_remembered_chains_find_what_a_fresh_look_finds():
    """Chains that broke no rule are remembered with the puzzle until a cell they read changes:
    all along a solve, the chain techniques find what they find on a fresh copy of the puzzle,
    where nothing is remembered."""
    chains = [REGISTRY.get(f"akari.{name}") for name in ("bulb-chain", "empty-chain", "long-chain")]

    def said(p, s):
        return [[(d.removals, d.params) for d in h.find(p, s)] for h in chains]

    path = "corpus/akari/lightup-10x10b20s2d2-grader-2.yaml"
    p, looked = load(path), 0
    for n, state in states_of_solve(p):
        if n % 4 == 1:
            assert said(p, state) == said(load(path), state), f"after step {n}"
            looked += 1
    assert looked >= 10 and p.__dict__.get("_akari_quiet_chains")


@pytest.mark.corpus
def test_every_deduction_agrees_with_the_solution_on_janko_puzzles():
    assert_puzzles_solved_soundly(janko("akari", 8, max_cells=100))


@pytest.mark.corpus
def test_every_technique_is_sound_from_random_correct_states():
    rng = random.Random(7)
    for p in janko("akari", 4, seed=3, max_cells=100):
        solution = reference(p)
        for fraction in (0.2, 0.5, 0.8):
            state = random_partial(p, solution, rng, fraction)
            for h in REGISTRY.for_genre("akari", max_level=4):
                assert_all_sound(h, p, state, solution)


# --- formats ---------------------------------------------------------------------------------

TATHAM = "7x7:a2bBfBa300qB0Ba0f0bBa"
TATHAM_GRID = """. 2 . . # . .
. . . . # . 3
0 0 . . . . .
. . . . . . .
. . . . . # 0
# . 0 . . . .
. . 0 . . # ."""


def test_tatham_game_id_decodes_as_formats_md_says():
    p = load(TATHAM, "akari")
    assert AKARI.render_text(p) == TATHAM_GRID
    assert (p.rows, p.cols) == (7, 7)


def test_puzzlink_decodes_as_formats_md_says():
    p = load("https://puzz.link/p?lightup/6/6/nekcakbl")
    assert AKARI.render_text(p).splitlines() == [
        ". . . . . .", ". . 4 . . .", ". . . . 2 .", ". 0 . . . .", ". . . 1 . .", ". . . . . ."]


def test_native_round_trip():
    from grader.io.native import dump
    p = load("corpus/akari/lightup-7x7b20s2d1-grader-1.yaml")
    again = native(dump(AKARI.to_native(p)))
    assert again.board == p.board and again.solution == p.solution


@pytest.mark.parametrize("text, message", [
    ("genre: akari\ngrid: |\n  . . .\n  . Q .\n", "<test>:4:5: unexpected 'Q'"),
    ("genre: akari\ngrid: |\n  . . .\n  . .\n", "<test>:4:3: grid row has 2 cells"),
    ("genre: akari\n", "missing key 'grid'"),
    ("genre: nosuch\ngrid: .\n", "unknown genre 'nosuch'"),
    ("genre: [akari\n", "not valid YAML"),
])
def test_bad_native_input_names_the_place(text, message):
    assert message in refused(native, text)


@pytest.mark.parametrize("spec, message", [
    ("7x7:a2bB", "covers 5 cells, 7x7 needs 49"),
    ("7x7:a2bB?", "unexpected '?' at character 5"),
    ("7x7b20#seed", "random seed"),
    ("https://puzz.link/p?lightup/6/x/nekcakbl", "(size)"),
    ("https://puzz.link/p?nosuch/6/6/abc", "'nosuch' is not supported"),
])
def test_bad_ids_and_urls_name_the_part(spec, message):
    assert message in refused(load, spec, "akari")


@pytest.mark.corpus
def test_janko_records_load_with_their_solutions():
    for p in janko("akari", 20):
        assert AKARI.solution_state(p) is not None
        assert not AKARI.violations(p, AKARI.solution_state(p))


def test_every_solution_of_the_thinnest_boards_survives_the_solve():
    """Degenerate boards a fuzzer meets rarely, all of them: every wall pattern of 1xN, Nx1
    and 2x2 boards (no white cell, a single one, rows without walls), every valid placement
    of bulbs, walls numbered or not. No step may remove a planted value, also from every start
    with one cell decided as planted, and no solve may end in a contradiction."""
    import itertools
    from grader.core.engine import Solver
    from grader.genres.akari.model import B_BULB, B_EMPTY, WALL, WHITE, AkariPuzzle
    from grader.core.model import State
    from grader.core.genre import Plant
    from grader.app.soak import BUDGET, check_plant, first_unsound
    for rows, cols in ((1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (2, 1), (3, 1), (4, 1), (2, 2)):
        n = rows * cols
        for walls in itertools.product((False, True), repeat=n):
            board = [WALL if w else WHITE for w in walls]
            shell = AkariPuzzle(rows=rows, cols=cols, board=tuple(board))
            for bulbs in itertools.product((False, True), repeat=len(shell.whites)):
                on = {w for w, b in zip(shell.whites, bulbs) if b}
                lit = on | {j for b in on for j in shell.sight[b]}
                if any(j in on for b in on for j in shell.sight[b]) or set(shell.whites) - lit:
                    continue
                planted = State(tuple(B_BULB if i in on else B_EMPTY for i in range(n)))
                for numbered in (False, True):
                    p = AkariPuzzle(rows=rows, cols=cols, board=tuple(
                        sum(1 for m in shell.neighbours[i] if m in on) if b == WALL and numbered else b
                        for i, b in enumerate(board)))
                    outcome = check_plant("akari", 0, Plant(p, planted))
                    assert outcome.finding is None, f"{outcome.finding}\n{outcome.finding.puzzle}"
                    start = Solver(p).initial_state()
                    for i in shell.whites:
                        trace = Solver(p, budget=BUDGET, validate=True, assume_unique=False).solve(
                            start.restrict(i, planted.cands[i]))
                        assert first_unsound(p, trace, planted) is None, (first_unsound(p, trace, planted), i)


def test_a_solve_leaves_no_cycles():
    """Every state and chain of a solve is freed as soon as it is dropped: a cycle (a state's
    Lighting holding the state, a broken chain's traceback) would leave each one to the
    collector, whose passes cost a solve about a fifth of its time."""
    import gc
    from grader.core.engine import Solver
    first, p = janko("akari", 2, seed=5, max_cells=100)
    Solver(first).solve()           # (loads what a first solve loads)
    gc.collect()
    gc.disable()
    try:
        Solver(p).solve()
        assert gc.collect() == 0
    finally:
        gc.enable()
