"""Heyawake: formats, rules, every technique (fires / does not fire) and soundness."""
from __future__ import annotations

import contextlib
import itertools
import random
from math import comb

import pytest

from grader.core import exact
from grader.core.engine import Solver
from grader.core.errors import InputError, Source
from grader.io.read import load
from grader.genres import get
from grader.core.registry import REGISTRY
from grader.core.model import Cell, State
from grader.kernels import shading
from grader.kernels.shading import B_SHADED, B_WHITE, FREE
from grader.genres.heyawake.model import crossing_lines, white_runs
from tests.support import (CORPUS, assert_all_sound, assert_each_finds_only_truths, assert_never_contradicted,
                           assert_solved_soundly, assert_sound_from_partial_states, cyclic_garbage_of_solve, decided_by, fires, janko, marks,
                           native, random_partial, reference, refusal, refused)

G = get("heyawake")
EXAMPLE_URL = "https://puzz.link/p?heyawake/6/6/lll155007rs12222j"
EXAMPLE_SOLUTION = """\
# 2 # 2 + #
+ + + # + +
# + # + # +
+ + + + + +
+ # + # + #
+ + # + + +"""


def puzzle(rooms: str, grid: str):
    block = lambda s: "".join(f"  {line.strip()}\n" for line in s.strip().splitlines())
    return native(f"genre: heyawake\nrooms: |\n{block(rooms)}grid: |\n{block(grid)}")


OPEN_3X3 = puzzle("a a a\na a a\na a a", ". . .\n. . .\n. . .")
COLUMNS = puzzle("a b c\na b c\na b c", ". . .\n. . .\n. . .")


# --- formats ------------------------------------------------------------------------------

def test_puzzlink_example_rooms_clues_and_unique_solution():
    p = load(EXAMPLE_URL)
    assert len(p.rooms) == 8
    assert [p.clues[k] for k in range(8)] == [2, 2, 2, 2, -1, -1, -1, -1]
    assert p.room_of[:6] == (0, 1, 1, 2, 2, 3)
    result = exact.solve(p)
    assert result.verdict is exact.Verdict.UNIQUE
    assert G.render_text(p, result.solution) == EXAMPLE_SOLUTION


def test_native_round_trip_keeps_rooms_numbers_and_solution():
    path = sorted((CORPUS / "heyawake").glob("*.yaml"))[0]
    p = load(str(path))
    from grader.io.read import load_native
    from grader.io.native import dump
    again = load_native(dump(G.to_native(p)), "<again>")
    assert (again.room_of, again.clues, again.solution) == (p.room_of, p.clues, p.solution)


def test_number_anywhere_in_its_room_and_disconnected_label_is_one_room(capsys):
    p = puzzle("a b a\nb b b\na b a", ". . .\n. . .\n. . 2")
    assert len(p.rooms) == 2 and p.clues[0] == 2 and p.clue_cells[0] == 8
    assert "not connected" in capsys.readouterr().err


@pytest.mark.parametrize("rooms, grid, message", [
    ("a a\na a", ". .\n. .\n. .", "rooms is 2x2 but grid is 3x2"),
    ("a b\na b", "3 .\n. .", "the 3 at r1c1 is larger than its room (2 cells)"),
    ("a a\na a", "1 .\n. 2", "already has the number 1"),
    ("a a\na a", "x .\n. .", "unexpected 'x' in grid"),
])
def test_bad_native_input_is_one_line(rooms, grid, message):
    assert message in refused(puzzle, rooms, grid)


@pytest.mark.parametrize("url, message", [
    ("https://puzz.link/p?heyawake/6/6/lll", "room borders need"),
    ("https://puzz.link/p?heyawake/6/6/lll1!5007rs12222j", "not a room-border digit"),
    ("https://puzz.link/p?heyawake/6/6/lll155007rs1fm", "larger than its room"),
    ("https://puzz.link/p?heyawake/6", "expected <columns>/<rows>"),
])
def test_bad_urls(url, message):
    assert message in refusal(load, url)


def test_janko_records_read_and_match_their_solutions():
    for p in janko("heyawake", 3, max_cells=120):
        assert G.solution_state(p) == reference(p)


def test_janko_bad_record():
    with pytest.raises(InputError, match="no 'areas'"):
        G.from_janko({"rows": 2, "cols": 2, "problem": [["-", "-"], ["-", "-"]]}, Source("<rec>"))
    with pytest.raises(InputError, match="larger than its room"):
        G.from_janko({"rows": 1, "cols": 2, "problem": [["2", "-"]], "areas": [["a", "b"]]}, Source("<rec>"))


def test_render_text_and_svg():
    p = load(EXAMPLE_URL)
    assert G.render_text(p).splitlines()[0] == "2 2 . 2 . 2"
    svg = G.render_svg(p, reference(p), [("target", [0])])
    assert svg.startswith("<svg") and "hl-target" in svg


# --- rules --------------------------------------------------------------------------------

def test_violations():
    assert any("touch" in v.message for v in G.violations(OPEN_3X3, marks(OPEN_3X3, "# # .\n. . .\n. . .")))
    assert any("cut off" in v.message or "connect" in v.message
               for v in G.violations(OPEN_3X3, marks(OPEN_3X3, "+ # .\n# . .\n. . +")))
    assert any("two room borders" in v.message for v in G.violations(COLUMNS, marks(COLUMNS, "+ + +\n. . .\n. . .")))
    p = puzzle("a a b\na a b\nc c c", "1 . .\n. . .\n. . .")
    assert any("holds 2 shaded" in v.message for v in G.violations(p, marks(p, "# . .\n. # .\n. . .")))
    assert G.violations(p, G.initial_state(p)) == []
    solved = load(EXAMPLE_URL)
    assert G.violations(solved, reference(solved)) == []


# --- techniques ---------------------------------------------------------------------------

def test_shaded_neighbours():
    s = marks(OPEN_3X3, ". . .\n. # .\n. . .")
    assert decided_by(fires("heyawake.shaded-neighbours", OPEN_3X3, s), OPEN_3X3, s) == {
        "r1c2": "is white", "r2c1": "is white", "r2c3": "is white", "r3c2": "is white"}
    assert not fires("heyawake.shaded-neighbours", OPEN_3X3)


ROOM_1 = puzzle("a a b\na a b\nc c c", "1 . .\n. . .\n. . .")


def test_room_full():
    s = marks(ROOM_1, "# . .\n. . .\n. . .")
    assert decided_by(fires("heyawake.room-full", ROOM_1, s), ROOM_1, s) == {
        "r1c2": "is white", "r2c1": "is white", "r2c2": "is white"}
    assert not fires("heyawake.room-full", ROOM_1)


def test_room_needs_all():
    p = puzzle("a a a\nb b b\nb b b", "2 . .\n. . .\n. . .")
    s = marks(p, ". + .\n. . .\n. . .")
    assert decided_by(fires("heyawake.room-needs-all", p, s), p, s) == {"r1c1": "is shaded", "r1c3": "is shaded"}
    assert not fires("heyawake.room-needs-all", p)


def test_room_pattern_2x2_with_2_in_a_corner():
    p = puzzle("a a b b\na a b b\nc c d d\nc c d d", "2 . . .\n. . . .\n. . . .\n. . . .")
    found = fires("heyawake.room-pattern", p)
    assert found[0].params["pattern"] == "2x2 room with 2"
    got = decided_by(found, p, G.initial_state(p))
    assert got["r1c1"] == got["r2c2"] == "is shaded" and got["r1c2"] == got["r2c1"] == "is white"


def test_room_pattern_3x3_with_5():
    p = puzzle("b b b b b\nb a a a b\nb a a a b\nb a a a b\nb b b b b", ". . . . .\n. 5 . . .\n. . . . .\n. . . . .\n. . . . .")
    got = decided_by(fires("heyawake.room-pattern", p), p, G.initial_state(p))
    assert [c for c, v in got.items() if v == "is shaded"] == ["r2c2", "r2c4", "r3c3", "r4c2", "r4c4"]


def test_room_pattern_does_not_fire_on_other_rooms():
    p = puzzle("a a b b\na a b b\nc c d d\nc c d d", "1 . . .\n. . . .\n. . . .\n. . . .")
    assert not fires("heyawake.room-pattern", p)


def test_strip():
    s = marks(COLUMNS, "+ . +\n. . .\n. . .")
    assert decided_by(fires("heyawake.strip", COLUMNS, s), COLUMNS, s) == {"r1c2": "is shaded"}
    assert not fires("heyawake.strip", COLUMNS, marks(COLUMNS, "+ . .\n. . .\n. . ."))


def test_single_exit():
    s = marks(OPEN_3X3, "# + #\n. . .\n. . .")
    assert decided_by(fires("heyawake.single-exit", OPEN_3X3, s), OPEN_3X3, s) == {"r2c2": "is white"}
    assert not fires("heyawake.single-exit", OPEN_3X3, marks(OPEN_3X3, "# + .\n. . .\n. . ."))


def test_room_combinations():
    p = puzzle("a a a a b\nc c c c b", "2 . . . .\n. . . . .")
    found = fires("heyawake.room-combinations", p)
    assert found[0].params["ways"] == 3
    assert decided_by(found, p, G.initial_state(p)) == {"r2c1": "is white", "r2c2": "is white"}
    assert not fires("heyawake.room-combinations", ROOM_1)


@pytest.mark.parametrize("rooms, grid, state, wrong", [
    # 1x2: r1c1 may be the only white cell ("+ #" is a solution), so it needs no way out.
    ("a b", "0 .", None, "r1c2"),
    # 1x3: the 1 shades r1c1, and r1c2 may then be the only white cell ("# + #").
    ("a b c", "1 . .", None, "r1c3"),
])
def test_room_ways_on_boards_where_a_white_cell_may_be_alone(rooms, grid, state, wrong):
    """Planted soak: a room's ways counted a lone white cell as walled in (or gave it its single
    way out) on boards where it may be the only white cell."""
    p = puzzle(rooms, grid)
    s = G.initial_state(p)
    for hid in ("heyawake.room-combinations", "heyawake.room-strips", "heyawake.single-exit"):
        assert wrong not in decided_by(fires(hid, p, s), p, s), hid


def test_single_exit_alone_on_a_1x2_board():
    p = puzzle("a b", "0 .")
    assert not fires("heyawake.single-exit", p, marks(p, "+ ."))


def test_room_pair_two_3x3_rooms_with_4():
    rooms = "\n".join(["c c c c c c c c"] + ["c a a a b b b c"] * 3 + ["c c c c c c c c"])
    grid = "\n".join([". . . . . . . ."] + [". 4 . . 4 . . ."] + [". . . . . . . ."] * 3)
    p = puzzle(rooms, grid)
    state = G.initial_state(p)
    while found := fires("heyawake.room-combinations", p, state):
        state = found[0].apply(state)
    pair = fires("heyawake.room-pair", p, state)
    assert pair and pair[0].params["ways"] == 2
    got = decided_by(pair, p, state)
    # the catalogue's picture: #  |  #  /   # | #   /  #  |  #
    assert [c for c, v in got.items() if v == "is shaded"] == ["r2c2", "r2c7", "r3c3", "r3c6", "r4c2", "r4c7"]
    assert not fires("heyawake.room-pair", ROOM_1)


def test_articulation():
    s = marks(OPEN_3X3, ". # .\n. . .\n. # .")
    got = decided_by(fires("heyawake.articulation", OPEN_3X3, s), OPEN_3X3, s)
    assert got == {"r2c1": "is white", "r2c2": "is white", "r2c3": "is white"}
    assert not fires("heyawake.articulation", OPEN_3X3)


def test_cut_off():
    s = marks(OPEN_3X3, ". # +\n# . .\n. . .")
    assert decided_by(fires("heyawake.cut-off", OPEN_3X3, s), OPEN_3X3, s) == {"r1c1": "is shaded"}
    assert not fires("heyawake.cut-off", OPEN_3X3, marks(OPEN_3X3, ". . +\n. . .\n. . ."))


def test_room_strips():
    p = load(str(CORPUS / "heyawake" / "heyawake-8x8-11-1.yaml"))
    state = marks(p, """\
+ + . . . + . .
+ + . . . + . .
+ + . . . . . .
. . . . + . . .
. . . + # + . +
. . . . + # + #
. . . . . + . +
. . . . . . . .""")
    assert not fires("heyawake.room-combinations", p, state)
    found = fires("heyawake.room-strips", p, state)
    # 19 ways keep shaded cells apart and leave no strip; 8 of them cut the white area
    assert found[0].params["ways"] == 11
    assert decided_by(found[:1], p, state) == {"r7c1": "is white", "r7c5": "is white", "r8c4": "is white"}
    assert not fires("heyawake.room-strips", ROOM_1)


def test_pocket_a_corner_cell_walled_in():
    s = marks(OPEN_3X3, ". # .\n. . .\n. . .")
    found = fires("heyawake.pocket", OPEN_3X3, s)
    assert decided_by(found, OPEN_3X3, s) == {"r2c1": "is white", "r2c3": "is white"}
    assert found[0].params["pocket"] == [Cell(0, 0)]
    assert not fires("heyawake.pocket", OPEN_3X3)
    assert not fires("heyawake.pocket", OPEN_3X3, marks(OPEN_3X3, ". . .\n. # .\n. . ."))


OPEN_5X5 = puzzle("\n".join(["a a a a a"] * 5), "\n".join([". . . . ."] * 5))


def test_enclosure_a_larger_area_closed_off():
    s = marks(OPEN_5X5, ". . . # .\n. . # . .\n. # . . .\n. . . . .\n. . . . .")
    found = fires("heyawake.enclosure", OPEN_5X5, s)
    by_cell = {d.params["cell"]: d for d in found}
    closing = by_cell[Cell(3, 0)]
    assert decided_by([closing], OPEN_5X5, s) == {"r4c1": "is white"}
    assert closing.params["pocket"] == [Cell(0, 0), Cell(0, 1), Cell(0, 2), Cell(1, 0), Cell(1, 1), Cell(2, 0)]
    # six cells are more than a glance takes in: not a level-2 pocket
    assert Cell(3, 0) not in {d.params["cell"] for d in fires("heyawake.pocket", OPEN_5X5, s)}
    assert not fires("heyawake.enclosure", OPEN_5X5)


def first_position(name: str, hid: str):
    """A generated puzzle at the state where the solve loop first uses `hid`, and that step."""
    p = load(str(CORPUS / "heyawake" / name))
    for step, before, _ in Solver(p).solve().states():
        if step.heuristic.id == hid:
            return p, before, step
    raise AssertionError(f"{name} never uses {hid}")


def test_nearby_what_if():
    p, state, _ = first_position("heyawake-8x8-11-1.yaml", "heyawake.nearby-what-if")
    found = fires("heyawake.nearby-what-if", p, state)
    assert decided_by(found[:1], p, state) == {"r1c8": "is white"}
    assert found[0].params["assumed"] == "is shaded" and "two room borders" in found[0].params["reason"]
    branch, = found[0].detail
    assert branch.refuted and len(branch.trace.steps) == 4 and found[0].params["after"] == "after 4 easy steps"
    assert all(s.level <= 2 for s in branch.trace.steps)
    assert not fires("heyawake.nearby-what-if", OPEN_3X3)


def test_what_if_minds_the_white_area():
    p, state, _ = first_position("heyawake-8x8-11-1.yaml", "heyawake.what-if")
    assert not fires("heyawake.nearby-what-if", p, state)
    found = fires("heyawake.what-if", p, state)
    assert decided_by(found[:1], p, state) == {"r3c4": "is white"}
    assert "can no longer connect" in found[0].params["reason"]
    assert not fires("heyawake.what-if", OPEN_3X3)
    # a state that already breaks a rule (inside a hypothesis) teaches nothing
    broken = marks(OPEN_3X3, "# # .\n. . .\n. . .")
    assert not fires("heyawake.what-if", OPEN_3X3, broken)
    assert not fires("heyawake.nearby-what-if", OPEN_3X3, broken)


def test_whites_cut_agrees_with_a_full_search():
    rng = random.Random(11)
    p = puzzle("\n".join(["a a a a a a"] * 6), "\n".join([". . . . . ."] * 6))
    nbrs = p.neighbours
    cut = 0
    for _ in range(400):
        cands = [FREE] * 36
        for i in rng.sample(range(36), 14):
            if all(cands[j] != B_SHADED for j in nbrs[i]):
                cands[i] = B_SHADED
        for i in rng.sample(range(36), 6):
            if cands[i] == FREE:
                cands[i] = B_WHITE
        if shading.whites_apart(nbrs, cands):
            continue
        new = [i for i in range(36) if cands[i] == FREE and rng.random() < 0.3
               and all(cands[j] != B_SHADED for j in nbrs[i])]
        new = [i for k, i in enumerate(new) if not any(j in new[:k] for j in nbrs[i])]
        after = [B_SHADED if i in new else m for i, m in enumerate(cands)]
        expected = shading.whites_apart(nbrs, after)
        cut += expected
        assert shading.whites_cut(p, State(tuple(cands)), new) == expected
    assert cut > 20     # the sample holds real cuts, not only harmless shading


def test_ring_joined_counts_the_runs_round_a_cell_that_hold_a_side():
    """ring_joined (joined_around's table): open cells round a cell, sides at even places."""
    t, f = True, False
    assert shading.ring_joined((t,) * 8)
    assert shading.ring_joined((t, t, t, f, f, f, f, f))         # one run, two sides in it
    assert not shading.ring_joined((t, f, t, f, t, f, t, f))     # four sides, corners shut
    assert not shading.ring_joined((t, t, t, f, t, f, f, f))     # a side alone past a shut one
    assert shading.ring_joined((f, t, f, f, f, t, f, f))         # corners alone hold no side
    assert len(shading.JOINED_RINGS) == 256


def test_neighbours_joined_round_a_cell_reach_the_same_area():
    """joined_around: a cell's open neighbours joined round it each reach, without it, the
    same cells (so pocket_white floods from one of them only); and the ring check does see
    both cases."""
    rng = random.Random(5)
    rows, cols = 5, 6
    p = puzzle("\n".join(["a a a a a a"] * rows), "\n".join([". . . . . ."] * rows))
    nbrs = p.neighbours
    seen = set()
    for _ in range(300):
        cands = [B_SHADED if rng.random() < 0.35 else FREE for _ in range(rows * cols)]
        for i in range(rows * cols):
            open_nbrs = [n for n in nbrs[i] if cands[n] != B_SHADED]
            if cands[i] != FREE or len(open_nbrs) < 2:
                continue
            areas = {frozenset(shading.small_area(nbrs, cands, n, i, rows * cols)) for n in open_nbrs}
            joined = shading.joined_around(rows, cols, cands, i)
            seen.add(joined)
            if joined:
                assert len(areas) == 1
            elif len(areas) == 1:
                seen.add("joined further off")
    assert seen == {True, False, "joined further off"}


def test_whites_cut_minds_cells_taken_as_white():
    """Cells a way whitens count as white cells that must stay joined."""
    p = puzzle("\n".join(["a a a a"] * 3), "\n".join([". . . ."] * 3))
    s = marks(p, ". . . .\n. . . .\n. . . +")
    assert not shading.whites_cut(p, s, [1, 4])              # only r1c1 shut in, and it may be shaded
    assert shading.whites_cut(p, s, [1, 4], white=[0])       # r1c1 taken as white: shut in the corner
    assert not shading.whites_cut(p, s, [1, 4], white=[10])


def test_room_listings_and_strip_checks_agree_with_a_fresh_look():
    """Listings reused from earlier states and the quick strip check give what listing the
    room afresh and scanning whole lines give."""
    from heuristics import heyawake as hw
    rng = random.Random(5)
    p = load(str(sorted((CORPUS / "heyawake").glob("*.yaml"))[0]))
    solution = reference(p)
    for _ in range(30):
        state = random_partial(p, solution, rng, rng.random() * 0.7)
        for k in p.numbered:
            fresh = hw.room_options(p, state.cands, [k], hw.ROOM_LIMIT)
            assert hw.options_of(p, state, k) == fresh
            assert hw.options_of(p, State(state.cands), k) == fresh
            for option in fresh or ():
                new = frozenset(i for i, v in option.items() if v == shading.WHITE and state.cands[i] == FREE)
                whole = any(crossed >= 2 for line in {k2 for i in new for k2 in p.lines_of(i)}
                            for _, _, crossed in white_runs(p, state.cands, line, new))
                assert hw.crosses_two_borders(p, state.cands, option) == whole


def test_crossing_lines_kept_per_pattern_agree_with_the_runs():
    p = load(str(sorted((CORPUS / "heyawake").glob("*.yaml"))[0]))
    rng = random.Random(12)
    found = 0
    for _ in range(300):
        cands = [rng.choice((B_WHITE, B_WHITE, B_WHITE, FREE, B_SHADED)) for _ in range(p.size)]
        expected = [k for k in range(len(p.lines)) if any(c >= 2 for _, _, c in white_runs(p, cands, k))]
        assert crossing_lines(p, cands) == expected
        assert crossing_lines(p, cands) == expected      # now from the memo
        found += len(expected)
    assert found > 50


def test_line_strips_in_one_pass_agree_with_the_runs_and_makers():
    from heuristics import heyawake as hw
    rng = random.Random(11)
    p = load(str(sorted((CORPUS / "heyawake").glob("*.yaml"))[0]))
    makers = 0
    for _ in range(300):
        cands = [rng.choice((B_WHITE, B_WHITE, B_WHITE, FREE, FREE, B_SHADED, 0)) for _ in range(p.size)]
        for k, (line, borders) in enumerate(p.lines):
            expected = (any(crossed >= 2 for _, _, crossed in white_runs(p, cands, k)),
                        tuple(i for i, _, _ in hw.strip_makers(p, cands, k)))
            assert hw.line_strips(p, cands, k) == expected
            makers += len(expected[1])
    assert makers > 100


@contextlib.contextmanager
def counting_fresh_screens():
    """While inside, every screen made afresh (heyawake._screen) is counted: yields the
    count (a one-item list) and the real screen, to ask without counting."""
    from heuristics import heyawake as hw
    real, made = hw._screen, [0]

    def counted(*args):
        made[0] += 1
        return real(*args)
    hw._screen = counted
    try:
        yield made, real
    finally:
        hw._screen = real


def test_remembered_what_if_screens_agree_with_a_fresh_screen():
    """Screens remembered from earlier states (past changes along the lines they read, or
    from the other what-if's rounds) answer as a fresh screen does, and some are reused."""
    from heuristics import heyawake as hw
    rng = random.Random(9)
    p = load(str(sorted((CORPUS / "heyawake").glob("*.yaml"))[-1]))
    solution = reference(p)
    asked = 0
    with counting_fresh_screens() as (fresh, real):
        for _ in range(6):
            state = random_partial(p, solution, rng, 0.2)
            for _ in range(4):      # a path of narrowing states, as a solve takes
                for i in [i for i, m in enumerate(state.cands) if m == FREE]:
                    for value in (shading.SHADED, shading.WHITE):
                        for rounds, connectivity in ((hw.NEARBY_ROUNDS, False), (hw.WHAT_IF_ROUNDS, True)):
                            asked += 1
                            _, broken, shaded, white, _ = real(p, state, i, value, rounds)
                            expected = broken or (connectivity and bool(shaded) and
                                                  shading.whites_cut(p, state, shaded, white))
                            assert hw.quick_refutes(p, state, i, value, rounds, connectivity) == expected
                state = State(tuple(m & solution.cands[j] if m == FREE and rng.random() < 0.05 else m
                                    for j, m in enumerate(state.cands)))
    assert fresh[0] < asked * 0.8


def test_screens_remembered_again_read_as_fresh_ones():
    """A remembered screen that holds in a later state, or in a state of a trial's other
    branch, is remembered as of that state (Read.as_of): what it says it read, and its
    answer, are a fresh screen's there."""
    from heuristics import heyawake as hw
    rng = random.Random(5)
    p = load(str(sorted((CORPUS / "heyawake").glob("*.yaml"))[-1]))
    solution = reference(p)
    again = 0

    def screen_all(state: State) -> int:
        for i in [i for i, m in enumerate(state.cands) if m == FREE]:
            for value in (shading.SHADED, shading.WHITE):
                hw.quick_refutes(p, state, i, value, hw.NEARBY_ROUNDS, False)
        checked = 0
        for (i, value, rounds), (then, read, *answer) in hw.ScreenCaches.of(p).screens.items():
            if then is state.cands and state.cands[i] == FREE:
                fresh, *fresh_answer = hw._screen(p, state, i, value, rounds)
                assert (read.cells, read.rooms, set(read.patterns)) == (fresh.cells, fresh.rooms, set(fresh.patterns))
                assert answer == fresh_answer
                checked += 1
        return checked

    for _ in range(3):
        state = random_partial(p, solution, rng, 0.2)
        for _ in range(4):      # a path of narrowing states, as a solve takes
            again += screen_all(state)
            state = State(tuple(m & solution.cands[j] if m == FREE and rng.random() < 0.05 else m
                                for j, m in enumerate(state.cands)))
        for _ in range(3):      # the two branches of a trial, one after the other
            trial = rng.choice([i for i, m in enumerate(state.cands) if m == FREE])
            for value in (shading.SHADED, shading.WHITE):
                again += screen_all(state.restrict(trial, 1 << value))
    assert again > 1000


def test_screens_remembered_on_one_branch_agree_on_the_other():
    """A trial's two branches differ from each other near its cell: a screen remembered on
    one branch is taken on the other when nothing it read differs, and answers as a fresh
    screen does."""
    from heuristics import heyawake as hw
    rng = random.Random(21)
    p = load(str(sorted((CORPUS / "heyawake").glob("*.yaml"))[-1]))
    solution = reference(p)
    asked = 0
    with counting_fresh_screens() as (fresh, real):
        for _ in range(4):
            root = random_partial(p, solution, rng, 0.2)
            trial = rng.choice([i for i, m in enumerate(root.cands) if m == FREE])
            for value in (shading.SHADED, shading.WHITE):      # the two branches, one after the other
                state = root.restrict(trial, 1 << value)
                for i in [i for i, m in enumerate(state.cands) if m == FREE]:
                    for screened in (shading.SHADED, shading.WHITE):
                        asked += 1
                        _, broken, shaded, white, _ = real(p, state, i, screened, hw.NEARBY_ROUNDS)
                        assert hw.quick_refutes(p, state, i, screened, hw.NEARBY_ROUNDS, False) == broken
    assert fresh[0] < asked * 0.8


def test_what_if_chain_asks_the_white_area_of_its_start():
    """whites_parted, from the start state's white area, agrees with the areas of the state."""
    from heuristics import heyawake as hw
    rng = random.Random(13)
    p = load(str(sorted((CORPUS / "heyawake").glob("*.yaml"))[0]))
    solution = reference(p)
    parted = 0
    for _ in range(60):
        state = random_partial(p, solution, rng, rng.random() * 0.5)
        if G.violations(p, state):
            continue
        cands = list(state.cands)
        changed = [i for i, m in enumerate(cands) if m == FREE and rng.random() < 0.3]
        for i in changed:
            cands[i] = rng.choice((B_SHADED, B_SHADED, B_WHITE))
        after = State(tuple(cands))
        expected = len(shading.open_side(p, after).hosts) > 1
        parted += expected
        assert hw.whites_parted(p, state, after.cands, changed) == expected
    assert parted > 5


def test_room_strips_ways_passed_over_change_nothing():
    """room-strips' ways, some passed over as they cannot change what the kept ways share,
    are those a judgement of every way in order keeps."""
    import math
    from heuristics import heyawake as hw
    rng = random.Random(17)
    p = load(str(sorted((CORPUS / "heyawake").glob("*.yaml"))[0]))
    solution = reference(p)
    shared = 0
    for _ in range(20):
        state = random_partial(p, solution, rng, rng.random() * 0.6)
        for k in p.numbered:
            if not hw.room_counts(p, state.cands, k)[1]:
                continue
            ways = hw.StripWays(p, state, k)
            found = ways.share_something()
            listed = hw.Listing(p, state.cands, [k], 40 * hw.ROOM_LIMIT).upto(math.inf)
            kept = None if listed is None else [o for o in listed if not (
                hw.crosses_two_borders(p, state.cands, o) or hw.splits_white(p, state, o))]
            assert found == bool(kept and hw.agreed(state, kept))
            assert ways.all() == (None if kept is None or len(kept) > hw.ROOM_LIMIT else kept)
            shared += found
    assert shared > 5


def _listed_by_turns(p, cands, k, turns):
    """Room k's ways as a listing that counts its turns as it goes (the search of
    heyawake._ways, one turn a node), and the turns left: None when they run out."""
    from heuristics import heyawake as hw
    shaded, free = hw.room_counts(p, cands, k)
    need = p.clues[k] - shaded
    if need < 0 or need > len(free):
        return [], turns
    if comb(len(free), need) > hw.COMB_LIMIT:
        return None, turns
    beside = {i for i in free if any(cands[j] == B_SHADED for j in p.neighbours[i])}
    ways, left = [], [turns]

    def choose(idx, need, picked):
        left[0] -= 1
        if left[0] < 0:
            return False
        if need == 0:
            option = hw.consequences(p, cands, free, sorted(picked))
            if option is not None:
                ways.append(option)
            return True
        for j in range(idx, len(free) - need + 1):
            i = free[j]
            if i not in beside and picked.isdisjoint(p.neighbours[i]) and \
                    not choose(j + 1, need - 1, picked | {i}):
                return False
        return True
    return (ways if choose(0, need, frozenset()) else None), left[0]


def test_listings_known_to_run_out_give_what_counting_the_turns_gives():
    """A listing whose search is known beforehand to need more turns than it has fails
    without listing a way; any other gives every way, in the order a listing that counts its
    turns as it goes gives them: on rooms of real puzzles, big and small, and tight turns."""
    import math
    from heuristics import heyawake as hw
    rng = random.Random(11)
    failed = listed = 0
    for p in janko("heyawake", 3, seed=5, max_cells=200):
        solution = G.solution_state(p) or reference(p)
        for _ in range(6):
            state = random_partial(p, solution, rng, rng.random() * 0.5)
            for k in p.numbered:
                turns = 40 * hw.ROOM_LIMIT
                nodes = turns - _listed_by_turns(p, state.cands, k, turns)[1]
                for turns in (30, nodes - 1, nodes, turns):     # the search's size, and just short of it
                    want = _listed_by_turns(p, state.cands, k, turns)[0]
                    listing = hw.Listing(p, state.cands, [k], turns)
                    assert listing.upto(math.inf) == want
                    assert listing.failed == (want is None)
                    failed += want is None
                    listed += bool(want)
    assert failed > 10 and listed > 10


def test_two_rooms_ways_together_are_their_consequences_worked_out_afresh():
    """list_pairs builds two rooms' ways together from each room's own (together): each is
    what consequences gives for both rooms' shaded cells at once (None alike when they wall a
    white cell in), on the neighbouring rooms of real puzzles in random partial states."""
    from heuristics import heyawake as hw
    rng = random.Random(3)
    pairs = 0
    for p in janko("heyawake", 3, seed=7, max_cells=200):
        solution = G.solution_state(p) or reference(p)
        for _ in range(6):
            state = random_partial(p, solution, rng, rng.random() * 0.6)
            cands = state.cands
            for k in p.numbered:
                for other in p.room_neighbours[k]:
                    first, second = hw.options_of(p, state, k), hw.options_of(p, state, other)
                    if p.clues[other] < 0 or not first or not second:
                        continue
                    free = [i for r in (k, other) for i in p.rooms[r] if cands[i] == FREE]
                    masks = hw.masks_of(p, state, k), hw.masks_of(p, state, other)
                    other_free = {i for i in p.rooms[other] if cands[i] == FREE}
                    for (a, (white, shaded, beside)), (b, (other_white, other_shaded, other_beside)) in \
                            itertools.product(enumerate(masks[0]), enumerate(masks[1])):
                        if white & other_shaded or shaded & other_white:
                            continue
                        picks = [i for way in (first[a], second[b]) for i, v in way.items() if v == hw.SHADED]
                        walled = beside & (other_free | other_beside) | other_beside & set(free) - other_free
                        got = hw.together(p, cands, first[a], second[b], shaded | other_shaded, walled)
                        assert got == hw.consequences(p, cands, free, picks)
                        pairs += 1
    assert pairs > 1000


BORDERED_7X7 = ("b b b b b b b b b\n" + "\n".join(["b a a a a a a a b"] * 7) + "\nb b b b b b b b b")


def bordered(n: int):
    return puzzle(BORDERED_7X7, "\n".join([". . . . . . . . .", f". {n} . . . . . . ."] + [". . . . . . . . ."] * 7))


def test_block_count_a_7x7_room_with_21():
    """36 blocks allow 35 extra counts; 21 shaded cells fit only as 12 on the room's rim,
    corners included (costing 0 and 1), and 9 inside (costing 3 each)."""
    p = bordered(21)
    got = decided_by(fires("heyawake.block-count", p), p, G.initial_state(p))
    assert {c for c, v in got.items() if v == "is shaded"} == {"r2c2", "r2c8", "r8c2", "r8c8"}
    assert got["r2c3"] == "is white" and got["r3c2"] == "is white"
    assert not fires("heyawake.block-count", bordered(20))


def single_room_solutions(rows: int, cols: int, n: int) -> list[State]:
    """Every valid shading of a one-room board with n shaded cells (brute force)."""
    p = puzzle("\n".join([" ".join("a" * cols)] * rows), "\n".join([" ".join("." * cols)] * rows))
    nbrs = p.neighbours
    out = []

    def grow(i: int, picked: list[int]) -> None:
        if len(picked) == n:
            cands = [B_SHADED if j in picked else B_WHITE for j in range(rows * cols)]
            if not shading.whites_apart(nbrs, cands):
                out.append(State(tuple(cands)))
            return
        for j in range(i, rows * cols):
            if all(k not in picked for k in nbrs[j]):
                grow(j + 1, picked + [j])
    grow(0, [])
    return out


def test_block_count_agrees_with_every_shading_of_small_rooms():
    rng = random.Random(3)
    fired = 0
    for rows, cols in ((3, 3), (3, 4), (4, 4), (4, 5)):
        for n in range(2, (rows * cols + 1) // 2 + 1):
            p = puzzle("\n".join([" ".join("a" * cols)] * rows),
                       "\n".join([" ".join([str(n)] + ["."] * (cols - 1))] + [" ".join("." * cols)] * (rows - 1)))
            for sol in single_room_solutions(rows, cols, n)[:40]:
                for fraction in (0.0, 0.2, 0.4):
                    fired += assert_all_sound(REGISTRY.get("heyawake.block-count"), p,
                                              random_partial(p, sol, rng, fraction), sol)
    assert fired > 10


def level5_position(name: str):
    """A generated puzzle at the state where the solve loop first needs level 5."""
    p = load(str(CORPUS / "heyawake" / name))
    for step, before, _ in Solver(p).solve().states():
        if step.level == 5:
            return p, before
    raise AssertionError(f"{name} needs no level 5")


def test_room_cases():
    p, state, _ = first_position("heyawake-10x10-21-2.yaml", "heyawake.room-cases")
    found = fires("heyawake.room-cases", p, state)
    d = found[0]
    assert d.params["room"] == Cell(4, 9) and d.params["cases"] == 2
    assert decided_by([d], p, state) == {"r5c9": "is white", "r5c10": "is shaded", "r6c10": "is white"}
    # shading r6c10 breaks a rule after a chain of direct steps; shading r5c10 is what is left
    refuted, = [b for b in d.detail if b.refuted]
    assert refuted.label == "shading r6c10"
    assert "1 of the 2 cases leads to a contradiction" in d.params["outcome"]
    for b in d.detail:
        steps = b.trace.steps
        assert len(steps) <= 20 and all(s.level <= 4 and "what-if" not in s.heuristic.id for s in steps)
    assert_each_finds_only_truths(p, state, G.solution_state(p), ("heyawake.room-cases",))
    assert not fires("heyawake.room-cases", OPEN_3X3)
    assert not fires("heyawake.room-cases", ROOM_1)     # four ways, but none decides a cell


def test_room_cases_leaves_long_cases_to_level_5():
    # a room with two ways, where telling them apart takes a what-if inside a case
    p, state = level5_position("heyawake-10x10-21-1.yaml")
    assert not fires("heyawake.room-cases", p, state)
    assert fires("heyawake.room-hypotheses", p, state)[0].params["cases"] == 2


def test_room_hypotheses_and_trial():
    p, state = level5_position("heyawake-10x10-21-1.yaml")
    assert_each_finds_only_truths(p, state, G.solution_state(p),
                                  ("heyawake.room-hypotheses", "heyawake.trial-and-error"))
    assert fires("heyawake.room-hypotheses", p, state)[0].params["cases"] == 2
    assert not fires("heyawake.room-hypotheses", puzzle("a a\na a", ". .\n. ."))
    assert not fires("heyawake.trial-and-error", puzzle("a a\na a", ". .\n. ."))


def test_big_room_hypotheses():
    p = load(str(CORPUS / "heyawake" / "heyawake-8x8-11-2.yaml"))
    state = marks(p, """\
. . . . + + + +
. . . . + + + +
. . . . . . . +
. . . . . . . +
. . . . . . + #
+ . . . . . . +
+ . . . . . . .
+ . . . . . . .""")
    found = fires("heyawake.big-room-hypotheses", p, state)
    assert found[0].params["cases"] == 24
    got = decided_by(found, p, state)
    # the cases are followed without case splits of their own (heyawake.CASE_SPLITS): all but
    # one break a rule, and the one left settles the rooms around it
    assert found[0].params["outcome"].startswith("23 of the 24 cases lead to a contradiction")
    assert {"r5c2": "is white", "r4c3": "is white", "r8c4": "is shaded"}.items() <= got.items()
    solution = G.solution_state(p)
    assert all(not mask & solution.cands[v] for v, mask in found[0].removals)
    assert not fires("heyawake.big-room-hypotheses", ROOM_1)


# --- soundness ----------------------------------------------------------------------------

def test_sound_and_solved_on_generated_puzzles():
    assert_solved_soundly(sorted((CORPUS / "heyawake").glob("*x[68]-*.yaml")))


def test_sound_on_real_puzzles():
    assert_never_contradicted(janko("heyawake", 5, seed=3, max_cells=100))


def test_every_technique_sound_from_random_partial_states():
    assert_sound_from_partial_states(janko("heyawake", 3, seed=7, max_cells=100),
                                     REGISTRY.for_genre("heyawake", 4), random.Random(5), (0.2, 0.5))


def test_trials_fill_in_without_the_case_splits():
    """Trials (room-hypotheses, trial-and-error) follow their branches with every technique
    below level 5 but the searches of CASE_SPLITS, which the fill overtakes a few steps later."""
    from grader.core.probing import trial_rules
    from grader.core.registry import REGISTRY
    from heuristics.heyawake import CASE_SPLITS
    every = [h.id for h in REGISTRY.for_genre("heyawake", 4)]
    left = [h.id for h in trial_rules("heyawake", 4, CASE_SPLITS)]
    assert CASE_SPLITS <= set(every) and not CASE_SPLITS & set(left)
    assert left == [i for i in every if i not in CASE_SPLITS]
    assert trial_rules("heyawake", 4) == REGISTRY.for_genre("heyawake", 4)


def test_cells_and_rooms_near_kept_for_the_last_focus_agree_with_a_fresh_look():
    from heuristics import heyawake as hw
    from heuristics.common import shading as common
    p = load(str(sorted((CORPUS / "heyawake").glob("*.yaml"))[0]))
    rng = random.Random(4)
    for _ in range(50):
        focus = frozenset(rng.sample(range(p.size), rng.randint(1, 4)))
        for steps in (1, 2, 1):
            near = shading.around(p, focus)
            for _ in range(steps - 1):
                near = shading.around(p, near)
            assert common.cells_near(p, focus, steps) == sorted(near)
        rooms = {p.room_of[j] for j in shading.around(p, focus)}
        assert hw.rooms_near(p, focus) == [k for k in p.numbered if k in rooms]
        assert hw.rooms_near(p, frozenset(focus)) == [k for k in p.numbered if k in rooms]


def test_pairs_across_gives_every_pair_once():
    from heuristics import heyawake as hw
    for n, m in ((1, 1), (1, 4), (3, 2), (4, 7)):
        pairs = list(hw.pairs_across(n, m))
        assert sorted(pairs) == [(a, b) for a in range(n) for b in range(m)]


def test_a_solve_leaves_no_cycles():
    """A solve's states, room listings and searches are freed as soon as they are dropped (a
    state's strip ways holding the state, a search or what-if rule that calls itself as a
    closure: each a cycle left to the collector)."""
    first, p = janko("heyawake", 2, seed=1, max_cells=100)
    assert cyclic_garbage_of_solve(p, warm_up=first) == 0


def test_broken_near_since_a_clean_state_agrees_with_all_changes():
    """A what-if's chain checks the local rules only at the cells changed since its last state
    that broke none (chain_rules, changed_since): the same answer as at every changed cell."""
    from heuristics import heyawake as hw
    rng = random.Random(13)
    p = load(str(sorted((CORPUS / "heyawake").glob("*.yaml"))[0]))
    broken = checked = 0
    for _ in range(60):
        start = tuple(rng.choice((FREE, FREE, FREE, B_WHITE, B_SHADED)) for _ in range(p.size))
        cands, clean = list(start), None
        for _ in range(12):
            for i in rng.sample([i for i, m in enumerate(cands) if m == FREE] or [0], 2):
                if cands[i] == FREE:
                    cands[i] = rng.choice((B_WHITE, B_SHADED))
            now = tuple(cands)
            changed = [i for i in range(p.size) if now[i] != start[i]]
            expected = hw.broken_near(p, now, changed)
            assert hw.broken_near(p, now, hw.changed_since(clean, now, changed)) == expected
            checked += clean is not None
            broken += expected
            if not expected:
                clean = now
    assert checked > 50 and broken > 50


def test_splits_round_agrees_with_the_pieces_left():
    """splits_round (a cell's ring and the walls) tells a cell whose shading splits the open
    cells apart exactly when pieces_without finds more than one piece."""
    rng = random.Random(14)
    p = puzzle("\n".join(["a a a a a a"] * 6), "\n".join([". . . . . ."] * 6))
    ring_of = shading.rings(6, 6)
    splits = whole = 0
    for _ in range(200):
        cands = [rng.choice((FREE, FREE, B_WHITE, B_SHADED)) for _ in range(36)]
        state = State(tuple(cands))
        w = shading.walls(p, state)
        for i in range(36):
            if cands[i] != FREE:
                continue
            open_ = tuple(j >= 0 and cands[j] != B_SHADED for j in ring_of[i])
            if shading.JOINED_RINGS[open_]:
                continue
            expected = len(shading.pieces_without(p, cands, i)) > 1
            assert shading.splits_round(w, ring_of[i], open_) == expected
            splits += expected
            whole += not expected
    assert splits > 50 and whole > 50
