"""Kuromasu: formats, rules, every technique (fires / does not fire) and soundness."""
from __future__ import annotations

import random

import pytest

from grader.core.errors import InputError, Source
from grader.io.read import load
from grader.genres import get
from grader.core.registry import REGISTRY
from tests.support import (CORPUS, assert_never_contradicted, assert_solved_soundly,
                           assert_sound_from_partial_states, decided_by, fires, janko, marks, native, reference,
                           refused, assert_sound_from_each_decided_cell, states_of_solve)

G = get("kuromasu")


def puzzle(grid: str):
    return native("genre: kuromasu\ngrid: |\n" + "".join(f"  {line.strip()}\n" for line in grid.strip().splitlines()))


EMPTY_3X3 = puzzle(". . .\n. . .\n. . .")
CENTRE_8 = puzzle(". . . . .\n. . . . .\n. . 8 . .\n. . . . .\n. . . . .")


# --- formats ------------------------------------------------------------------------------

def test_tatham_example():
    p = load("5x5:a6_6b5a9i7a5b8_4a", "kuromasu")
    assert G.render_text(p) == ". 6 6 . .\n5 . 9 . .\n. . . . .\n. . 7 . 5\n. . 8 4 ."
    assert G.render_text(p, reference(p)) == "# 6 6 # +\n5 + 9 + +\n# + + + +\n+ + 7 # 5\n# + 8 4 +"


def test_puzzlink_example():
    p = load("https://puzz.link/p?kurodoko/5/5/i7g5l2l2g4i")
    assert G.render_text(p, reference(p)) == "+ # + 7 +\n5 + # + +\n+ # 2 + #\n+ + # + 2\n# 4 + + #"


def test_unknown_number_is_a_white_cell_without_count():
    p = load("https://puzz.link/p?kurodoko/3/3/.n")
    assert G.render_text(p).splitlines()[0] == "? . ."
    assert G.initial_state(p).cands[0] == 1 and not p.numbered


def test_native_round_trip():
    path = sorted((CORPUS / "kuromasu").glob("*.yaml"))[0]
    p = load(str(path))
    from grader.io.read import load_native
    from grader.io.native import dump
    again = load_native(dump(G.to_native(p)), "<again>")
    assert (again.clues, again.solution) == (p.clues, p.solution)


@pytest.mark.parametrize("spec, message", [
    ("5x5:a6_6b5a9i7a5b8_4", "covers 24 cells"),
    ("5x5:a6_6b5a9i7a5b8_4a!", "unexpected '!'"),
    ("3x3:a20g", "cannot be seen"),
    ("5x5#seed", "random seed"),
])
def test_bad_tatham_ids(spec, message):
    assert message in refused(load, spec, "kuromasu")


def test_bad_native_and_urls():
    with pytest.raises(InputError, match="unexpected 'x' in grid"):
        puzzle(". x\n. .")
    with pytest.raises(InputError, match="holds a number and cannot be shaded"):
        G.parse_marks(puzzle("2 .\n. ."), "# .\n. .", Source("<m>"))
    with pytest.raises(InputError, match="cannot be seen"):
        load("https://puzz.link/p?kurodoko/2/2/fi")
    with pytest.raises(InputError, match="expected <columns>/<rows>"):
        load("https://puzz.link/p?kurodoko/x")


def test_janko_records_match_their_solutions():
    for p in janko("kuromasu", 3, max_cells=100):
        assert G.solution_state(p) == reference(p)
    with pytest.raises(InputError, match="unexpected 'z'"):
        G.from_janko({"rows": 1, "cols": 2, "problem": [["z", "-"]]}, Source("<rec>"))


def test_render():
    p = load("5x5:a6_6b5a9i7a5b8_4a", "kuromasu")
    svg = G.render_svg(p, reference(p), [("premise", [1])])
    assert svg.startswith("<svg") and "hl-premise" in svg


# --- rules --------------------------------------------------------------------------------

def test_violations():
    p = puzzle("3 . .\n. . .\n. . .")
    assert any("already sees 4" in v.message for v in G.violations(p, marks(p, "3 + +\n+ . .\n. . .")))
    assert any("at most 2" in v.message for v in G.violations(p, marks(p, "3 # .\n. . .\n# . .")))
    assert any("touch" in v.message for v in G.violations(p, marks(p, "3 . .\n. # #\n. . .")))
    assert any("connect" in v.message for v in G.violations(p, marks(p, "3 # +\n# . .\n. . .")))
    assert G.violations(p, G.initial_state(p)) == []


# --- techniques ---------------------------------------------------------------------------

def test_shaded_neighbours():
    s = marks(EMPTY_3X3, ". . .\n. # .\n. . .")
    assert len(decided_by(fires("kuromasu.shaded-neighbours", EMPTY_3X3, s), EMPTY_3X3, s)) == 4
    assert not fires("kuromasu.shaded-neighbours", EMPTY_3X3)


def test_all_visible():
    p = puzzle("3 . .\n. . .\n. . .")
    s = marks(p, "3 . #\n. . .\n# . .")
    assert decided_by(fires("kuromasu.all-visible", p, s), p, s) == {"r1c2": "is white", "r2c1": "is white"}
    assert not fires("kuromasu.all-visible", p)


def test_already_seen():
    p = puzzle("2 . .\n. . .\n. . .")
    s = marks(p, "2 + .\n. . .\n. . .")
    assert decided_by(fires("kuromasu.already-seen", p, s), p, s) == {"r1c3": "is shaded", "r2c1": "is shaded"}
    assert not fires("kuromasu.already-seen", p)


def test_last_direction():
    p = puzzle(". . . .\n. 3 . .\n. . . .")
    s = marks(p, ". # . .\n+ 3 . .\n. # . .")
    assert decided_by(fires("kuromasu.last-direction", p, s), p, s) == {"r2c3": "is white", "r2c4": "is shaded"}
    assert not fires("kuromasu.last-direction", p, marks(p, ". # . .\n. 3 . .\n. # . ."))


def test_counting():
    found = fires("kuromasu.counting", CENTRE_8)
    assert found[0].params["need"] == "1 cell"
    assert decided_by(found, CENTRE_8, G.initial_state(CENTRE_8)) == {"r2c3": "is white"}
    assert not fires("kuromasu.counting", puzzle(". . . . .\n. . . . .\n. . 5 . .\n. . . . .\n. . . . ."))


def test_single_exit():
    s = marks(EMPTY_3X3, "# + #\n. . .\n. . .")
    assert decided_by(fires("kuromasu.single-exit", EMPTY_3X3, s), EMPTY_3X3, s) == {"r2c2": "is white"}
    assert not fires("kuromasu.single-exit", EMPTY_3X3, marks(EMPTY_3X3, "# + .\n. . .\n. . ."))
    # On 1x2, and in the middle of 1x3 with one end shaded, the white cell may be the only one.
    for grid, state in ((". .", "+ ."), (". . .", "# + .")):
        p = puzzle(grid)
        assert not fires("kuromasu.single-exit", p, marks(p, state))
    p = puzzle(". . . .")
    s = marks(p, "# + . .")
    assert decided_by(fires("kuromasu.single-exit", p, s), p, s) == {"r1c3": "is white"}


def test_would_break():
    p = puzzle("2 . . .\n. . . .")
    s = marks(p, "2 . + .\n. . . .")
    found = fires("kuromasu.would-break", p, s)
    assert decided_by(found, p, s) == {"r1c2": "is shaded"}
    assert found[0].params["seen"] == 3
    assert not fires("kuromasu.would-break", puzzle("3 . . .\n. . . ."), marks(p, "2 . + .\n. . . ."))


def test_articulation():
    s = marks(EMPTY_3X3, ". # .\n. . .\n. # .")
    assert decided_by(fires("kuromasu.articulation", EMPTY_3X3, s), EMPTY_3X3, s) == {
        "r2c1": "is white", "r2c2": "is white", "r2c3": "is white"}
    assert not fires("kuromasu.articulation", EMPTY_3X3)


def test_cut_off():
    s = marks(EMPTY_3X3, ". # +\n# . .\n. . .")
    assert decided_by(fires("kuromasu.cut-off", EMPTY_3X3, s), EMPTY_3X3, s) == {"r1c1": "is shaded"}
    assert not fires("kuromasu.cut-off", EMPTY_3X3, marks(EMPTY_3X3, ". . +\n. . .\n. . ."))


def test_extensions():
    p = puzzle("2 . .\n. . .\n. . .")
    found = fires("kuromasu.extensions", p)
    assert found[0].params["ways"] == "2 ways" and found[0].params["every"] == "all of them"
    assert decided_by(found, p, G.initial_state(p)) == {"r2c2": "is white"}
    assert not fires("kuromasu.extensions", puzzle(". . . . .\n. . . . .\n. . 5 . .\n. . . . .\n. . . . ."))
    # nor where the number has no way left at all (a broken board is for `violations` to say)
    p = puzzle("3 . .\n. . .\n. . .")
    assert not fires("kuromasu.extensions", p, marks(p, "3 # .\n# . .\n. . ."))


def every_sixth_state():
    """A 13x13 Range puzzle and every sixth state along its solve."""
    p = load(str(CORPUS / "kuromasu" / "range-13x13-grader-1.yaml"))
    return p, [state for n, state in states_of_solve(p) if n % 6 == 0]


def test_ways_are_checked_against_every_number_in_their_lines():
    """`legal` checks only the numbers whose rays reach a changed cell, on those rays: all
    along a solve it keeps the same ways as a check of every number in the lines touched."""
    import heuristics.kuromasu as K
    from grader.genres.kuromasu.model import clue_range
    from grader.kernels.shading import B_WHITE, SHADED, WHITE

    def every_number(p, cands, option):
        trial = list(cands)
        for j, v in option.items():
            trial[j] &= 1 << v
            if not trial[j]:
                return None
        out = dict(option)
        for j, v in option.items():
            if v == SHADED:
                for u in p.neighbours[j]:
                    if not trial[u] & B_WHITE:
                        return None
                    trial[u], out[u] = B_WHITE, WHITE
        for c in {c for j in out if trial[j] != cands[j] for c in p.seen_by[j]}:
            los, his = clue_range(p, trial, c)
            if not 1 + sum(los) <= p.clues[c] <= 1 + sum(his):
                return None
        return out

    p, states = every_sixth_state()
    compared = 0
    for state in states:
        for k in p.numbered:
            los, his = clue_range(p, state.cands, k)
            n = p.clues[k]
            for a in range(los[0], his[0] + 1):
                for b in range(los[1], his[1] + 1):
                    for c in range(los[2], min(his[2], n - 1 - a - b) + 1):
                        d = n - 1 - a - b - c
                        if los[3] <= d <= his[3]:
                            option = K.extension(p, k, (a, b, c, d))
                            assert K.legal(p, state, option) == every_number(p, state.cands, option)
                            compared += 1
    assert compared > 100


def test_ways_are_listed_and_filtered_as_the_plain_product_would_be():
    """length_choices keeps the product's order and drops only choices that cannot add up;
    legal_ways drops before the whole check only ways that legal() would refuse."""
    import itertools
    import heuristics.kuromasu as K
    from grader.genres.kuromasu.model import clue_range

    p, states = every_sixth_state()
    compared = 0
    for state in states:
        for k in p.numbered:
            los, his = clue_range(p, state.cands, k)
            total = p.clues[k] - 1
            plain = [t for t in itertools.product(*(range(lo, hi + 1) for lo, hi in zip(los, his)))
                     if sum(t) == total]
            assert K.length_choices(los, his, total) == plain
            kept = [(t, K.legal(p, state, K.extension(p, k, t))) for t in plain]
            assert list(K.legal_ways(p, state, k, plain)) == [(t, o) for t, o in kept if o is not None]
            compared += len(plain)
    assert compared > 100


def test_remembered_ways_still_agree_on_nothing_and_settled_numbers_give_nothing():
    """covering_ways keeps, of the ways that narrowed an agreement to nothing, some that still
    agree on nothing; a number whose view is settled gives no extension."""
    import heuristics.kuromasu as K
    from grader.genres.kuromasu.model import clue_range

    p, states = every_sixth_state()
    covered = settled = 0
    for state in states:
        for k in p.numbered:
            los, his = clue_range(p, state.cands, k)
            if K.settled(p, state, k, los, his):
                assert K.agreement(p, state, k, K.length_choices(los, his, p.clues[k] - 1))[0] in ({}, None)
                settled += 1
                continue
            agreed, _, narrowing = K.agreement(p, state, k, K.length_choices(los, his, p.clues[k] - 1))
            if agreed == {}:
                kept = K.covering_ways(state, narrowing)
                assert kept[0] == narrowing[0][0] and set(kept) <= {way for way, _ in narrowing}
                assert K.agreement(p, state, k, kept)[0] == {}
                covered += 1
    assert covered > 10 and settled > 10


def test_level5_hypotheses_are_sound_and_quiet_when_nothing_follows():
    p = load(str(sorted((CORPUS / "kuromasu").glob("*7x7*.yaml"))[0]))
    solution = G.solution_state(p)
    for hid in ("kuromasu.extension-hypotheses", "kuromasu.trial-and-error"):
        found = fires(hid, p)
        assert found
        assert all(not mask & solution.cands[v] for d in found for v, mask in d.removals)
        assert not fires(hid, EMPTY_3X3)


# --- soundness ----------------------------------------------------------------------------

def test_generated_puzzles_solve_soundly():
    assert_solved_soundly(sorted((CORPUS / "kuromasu").glob("*.yaml")))


def test_sound_on_real_puzzles():
    assert_never_contradicted(janko("kuromasu", 5, seed=2, max_cells=150))


def test_every_technique_sound_from_random_partial_states():
    assert_sound_from_partial_states(janko("kuromasu", 3, seed=4, max_cells=100),
                                     REGISTRY.for_genre("kuromasu", 4), random.Random(3), (0.2, 0.5))


def test_every_solution_of_the_thinnest_boards_survives_the_solve():
    """Degenerate boards a fuzzer meets rarely, all of them: every valid shading of 1xN, Nx1
    and 2x2 boards, with every count, with none, and with one count at a time. No step may
    remove the shading's value and no solve may end in a contradiction."""
    import itertools
    from grader.genres.kuromasu.model import KuromasuPuzzle, NO_CLUE
    from grader.core.model import State
    from grader.core.genre import Plant
    from grader.app.soak import check_plant
    from grader.kernels.sparse_shading import one_area
    from grader.genres.kuromasu.planted import seen
    from grader.kernels.shading import B_SHADED, B_WHITE
    for rows, cols in ((1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (2, 1), (3, 1), (4, 1), (2, 2)):
        shell = KuromasuPuzzle(rows=rows, cols=cols, clues=(NO_CLUE,) * (rows * cols))
        for bits in itertools.product((False, True), repeat=rows * cols):
            shaded = {i for i, b in enumerate(bits) if b}
            if any(n in shaded for i in shaded for n in shell.neighbours[i]) or not one_area(shell.graph.neighbours, shaded):
                continue
            counts = [NO_CLUE if i in shaded else 1 + sum(seen(r, shaded) for r in shell.rays[i])
                      for i in range(rows * cols)]
            whites = [i for i in range(rows * cols) if i not in shaded]
            for keep in [set(whites), set()] + [{w} for w in whites]:
                p = KuromasuPuzzle(rows=rows, cols=cols,
                                   clues=tuple(counts[i] if i in keep else NO_CLUE for i in range(rows * cols)))
                planted = State(tuple(B_SHADED if i in shaded else B_WHITE for i in range(rows * cols)))
                outcome = check_plant("kuromasu", 0, Plant(p, planted))
                assert outcome.finding is None, f"{outcome.finding}\n{outcome.finding.puzzle}"
                assert_sound_from_each_decided_cell(p, planted)



def test_seen_at_places_each_cell_on_the_rays_of_the_numbers_that_see_it():
    p = load("5x5:a6_6b5a9i7a5b8_4a", "kuromasu")
    for j, places in enumerate(p.seen_at):
        assert [c for c, _, _ in places] == sorted(p.seen_by[j])
        assert all(p.rays[c][d][at] == j for c, d, at in places)


def test_views_after_a_change_are_the_views_of_the_new_state():
    """views_after reads again only the directions a change lies within: every number's
    view is what clue_range reads off the new state, along a solve."""
    import heuristics.kuromasu as K
    from grader.genres.kuromasu.model import clue_range

    p, states = every_sixth_state()
    for old, new in zip(states, states[1:]):
        views = K.fresh_views(p, old.cands)
        for k in p.numbered:
            views[k]
        changed = [j for j in range(len(p.clues)) if old.cands[j] != new.cands[j]]
        after = K.views_after(p, new.cands, views, changed)
        assert all(tuple(map(tuple, after[k])) == tuple(map(tuple, clue_range(p, new.cands, k)))
                   for k in p.numbered)
