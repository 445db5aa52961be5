"""Hitori: each technique fires where it should (with what it finds) and not elsewhere; every
deduction agrees with the unique solution on real puzzles; formats and bad input."""
from __future__ import annotations

import json
import random

import pytest

from grader.core.errors import InputError
from grader.io.read import load
from grader.genres import get
from grader.core.registry import REGISTRY
from support import (assert_all_sound, assert_puzzles_solved_soundly, decided_by, fires, found, janko, marks,
                     native, random_partial, reference, refused, shared, assert_sound_from_each_decided_cell)

HITORI = get("hitori")


def puzzle(grid: str):
    return native("genre: hitori\ngrid: |\n" + "".join(f"  {row}\n" for row in grid.strip().splitlines()))


# --- level 1 -------------------------------------------------------------------------------

def test_beside_shaded():
    p = puzzle("1 2 1\n3 1 2\n2 3 1")
    assert found("hitori.beside-shaded", p, marks(p, ". # .\n. . .\n. . .")) == {
        "r1c1": "is unshaded", "r1c3": "is unshaded", "r2c2": "is unshaded"}
    assert found("hitori.beside-shaded", p) == {}


def test_lone_number():
    p = puzzle("1 1\n2 3")
    assert found("hitori.lone-number", p) == {"r2c1": "is unshaded", "r2c2": "is unshaded"}
    assert found("hitori.lone-number", puzzle("1 1\n1 1")) == {}


def test_triple():
    p = puzzle("2 2 2 1\n1 3 4 2\n3 4 1 3\n4 1 3 2")
    assert found("hitori.triple", p) == {"r1c1": "is shaded", "r1c2": "is unshaded", "r1c3": "is shaded"}
    assert found("hitori.triple", puzzle("2 2 1 2\n1 3 4 2\n3 4 2 1\n4 1 3 3")) == {}


def test_sandwich():
    p = puzzle("2 1 2\n1 3 4\n3 4 1")
    assert found("hitori.sandwich", p) == {"r1c2": "is unshaded"}
    assert found("hitori.sandwich", puzzle("2 2 1\n1 3 4\n3 4 2")) == {}


# --- level 2 -------------------------------------------------------------------------------

def test_number_taken():
    p = puzzle("2 1 2 2\n1 3 4 3\n2 4 1 3\n4 2 3 1")
    assert found("hitori.number-taken", p, marks(p, "+ . . .\n. . . .\n. . . .\n. . . .")) == {
        "r1c3": "is shaded", "r1c4": "is shaded", "r3c1": "is shaded"}
    assert found("hitori.number-taken", p) == {}


def test_pair_in_line():
    p = puzzle("3 3 1 3\n1 2 3 4\n2 4 3 1\n4 1 2 3")
    assert found("hitori.pair-in-line", p) == {"r1c4": "is shaded"}
    assert found("hitori.pair-in-line", puzzle("3 1 3 2\n1 2 4 3\n2 3 1 4\n4 4 2 1")) == {}


def test_last_exit():
    p = puzzle("1 2 3\n4 5 6\n7 8 9")
    s = marks(p, "+ # .\n. . .\n. . +")
    assert found("hitori.last-exit", p, s) == {"r2c1": "is unshaded"}
    assert found("hitori.last-exit", p, marks(p, "+ . .\n. . .\n. . +")) == {}


# --- level 3 and 4 ---------------------------------------------------------------------------

def test_short_chain():
    # shading r1c2 would leave both 1s of row 1 unshaded
    p = puzzle("1 3 1\n2 1 3\n2 3 1")
    assert found("hitori.short-chain", p) == {"r1c2": "is unshaded"}
    assert found("hitori.short-chain", puzzle("1 2\n2 1")) == {}



def test_short_chain_walled_in_needs_a_cell_beyond_the_neighbours():
    # On 1x3 with r1c1 shaded, shading r1c3 too leaves r1c2 the only unshaded cell: valid.
    p = puzzle("1 2 3")
    assert found("hitori.short-chain", p, marks(p, "# + .")) == {}
    p = puzzle("1 2 3 4")       # here r1c4 would be unshaded too, cut off from r1c2
    assert found("hitori.short-chain", p, marks(p, "# + . .")) == {"r1c3": "is unshaded"}


def test_exact_solver_on_one_column_boards_allows_r1c1_shaded():
    from grader.core import exact
    result = exact.solve(puzzle("1\n1"))
    assert result.verdict is exact.Verdict.SEVERAL
    assert exact.solve(puzzle("1\n1\n2")).verdict is exact.Verdict.SEVERAL


def test_group_exit():
    p = puzzle("1 2 3\n4 5 6\n7 8 9")
    assert found("hitori.group-exit", p, marks(p, "+ + #\n# . .\n. . +")) == {"r2c2": "is unshaded"}
    assert found("hitori.last-exit", p, marks(p, "+ + #\n# . .\n. . +")) == {}
    assert found("hitori.group-exit", p, marks(p, "+ + .\n. . .\n. . +")) == {}


def test_keep_connected():
    p = puzzle("1 2 3\n4 5 6\n7 8 9")
    s = marks(p, "+ . #\n. . .\n# . +")
    assert found("hitori.keep-connected", p, s) == {"r2c2": "is unshaded"}
    assert found("hitori.keep-connected", p, marks(p, "+ . .\n. . .\n. . +")) == {}


def test_pocket_chain():
    # janko 043: an unshaded r4c1 would shade its twin 1 at r5c1, free r6c2, whose 6 shades
    # r4c2; with r1c1, r2c2 and r3c3 that closes the corner r2c1-r4c1 off.
    p = puzzle("3 2 6 4 1 5\n6 6 1 3 2 4\n2 3 6 1 4 3\n1 6 5 2 2 3\n1 5 1 6 3 2\n3 6 2 5 1 3")
    s = marks(p, "# + + + # +\n+ # + + + +\n+ + # + + #\n. . + + # +\n. + # + + +\n+ . + + + #")
    assert found("hitori.short-chain", p, s) == {}
    [d] = fires("hitori.pocket-chain", p, s)
    assert decided_by([d], p, s) == {"r4c1": "is shaded"}
    assert d.params["chain"] == "r5c1 shaded, r6c2 unshaded, r4c2 shaded"
    assert [str(c) for c in d.params["pocket"]] == ["r2c1", "r3c1", "r3c2", "r4c1"]
    h = REGISTRY.get("hitori.pocket-chain")       # it looks around what changed only
    assert list(h.find(p, s, frozenset({p.cols * 3 + 1}))) and not list(h.find(p, s, frozenset({35})))
    p = puzzle("1 2 3\n4 5 6\n7 8 9")
    assert found("hitori.pocket-chain", p, marks(p, "+ . .\n. . .\n. . +")) == {}


def test_chain_cuts_off():
    # janko 041, before its only trial: an unshaded r5c2 would shade r5c3 (its twin 2), free
    # r6c3, whose 3 shades r6c2; the shaded r1c5, r2c4, r3c3, r4c4, r5c3 and r6c2 would then
    # wall the board off from edge to edge.
    p = puzzle("2 1 1 3 1 6\n1 5 4 2 6 2\n6 4 6 2 3 5\n3 1 6 1 5 3\n5 2 2 6 4 3\n6 3 3 5 1 5")
    s = marks(p, "+ # + + # +\n+ + + # + +\n# + # + + +\n+ + + # + #\n+ . . + + +\n+ . . + + #")
    assert found("hitori.short-chain", p, s) == {} and found("hitori.keep-connected", p, s) == {}
    assert found("hitori.pocket-chain", p, s) == {}         # the cut is no small pocket
    [d] = fires("hitori.chain-cuts-off", p, s)
    assert decided_by([d], p, s) == {"r5c2": "is shaded"}
    assert d.params["chain"] == "r5c3 shaded, r6c3 unshaded, r6c2 shaded"
    assert d.params["broken"] == "the shaded cells would cut r1c1 off from r1c6"
    p = puzzle("1 2 3\n4 5 6\n7 8 9")
    assert found("hitori.chain-cuts-off", p, marks(p, "+ . .\n. . .\n. . +")) == {}


def test_chain_cuts_off_follows_a_group_out():
    # janko 063: an unshaded r3c5 shades its twin 7 at r5c5; the large unshaded group through
    # r4c5 then has only r4c4 left to get out, whose 5 shades r6c4, and that cuts the board.
    p = puzzle("4 1 5 7 5 2 4 6\n6 7 1 3 8 4 2 5\n4 6 8 1 7 5 4 2\n2 7 6 5 1 4 8 5\n"
               "4 5 4 6 7 1 4 8\n7 8 2 5 6 7 1 5\n4 3 5 2 5 6 7 1\n1 7 3 4 2 7 6 5")
    s = marks(p, "# + + + # + # +\n+ # + + + + + +\n+ + + + . + # +\n+ # + . + # + #\n"
                 "# + # + . + + +\n+ + + . + # + #\n# + # + . + + +\n+ + + + + # + #")
    [d] = fires("hitori.chain-cuts-off", p, s)
    assert decided_by([d], p, s) == {"r3c5": "is shaded"}
    assert d.params["chain"] == "r5c5 shaded, r4c4 unshaded (an unshaded group's only way out), r6c4 shaded"
    assert d.params["broken"] == "the shaded cells would cut r4c7 off from r1c2"


def test_trial_and_error_is_sound_where_easier_steps_stop():
    from grader.core.engine import Solver
    for p in janko("hitori", 40, seed=11, max_cells=100):
        trace = Solver(p, max_level=3).solve()      # (the level-4 chain what-if leaves few)
        if trace.status.value == "stuck":
            solution = reference(p)
            assert assert_all_sound(REGISTRY.get("hitori.trial-and-error"), p, trace.final, solution) == 1
            return
    pytest.skip("no sampled puzzle needs level 5")


@pytest.mark.corpus
def test_nested_trial_goes_on_where_every_other_technique_stops():
    """janko 609 (17x17): with the techniques up to level 3 and single hypotheses filled with
    them, the solve stops (since the chain what-if of level 4 no corpus puzzle needs the nested
    trial); one whose fill may try another goes on, soundly. With nothing left it is quiet."""
    from grader.core.engine import Solver
    p = load(str(shared("janko/hitori.jsonl")) + "#hitori/609")
    others = REGISTRY.for_genre("hitori", 3) + [REGISTRY.get("hitori.trial-and-error")]
    trace = Solver(p, heuristics=others).solve()
    assert trace.status.value == "stuck"
    solution = reference(p)
    assert assert_all_sound(REGISTRY.get("hitori.nested-trial"), p, trace.final, solution) == 1
    assert not list(REGISTRY.get("hitori.nested-trial").find(p, solution))


@pytest.mark.corpus
def test_deep_trial_finds_what_trials_with_level_3_fills_miss():
    """janko 525 (10x10): every technique up to the plain trial stops; a trial filled in with
    connectivity (level 4) goes on, soundly, and is quiet once the grid is done."""
    from grader.core.engine import Solver
    p = load(str(shared("janko/hitori.jsonl")) + "#hitori/525")
    others = [h for h in REGISTRY.for_genre("hitori") if h.id not in ("hitori.deep-trial", "hitori.nested-trial")]
    trace = Solver(p, heuristics=others).solve()
    assert trace.status.value == "stuck"
    solution = reference(p)
    assert assert_all_sound(REGISTRY.get("hitori.deep-trial"), p, trace.final, solution) == 1
    assert not list(REGISTRY.get("hitori.deep-trial").find(p, solution))


# --- whole puzzles ---------------------------------------------------------------------------

@pytest.mark.corpus
def test_every_deduction_agrees_with_the_solution_on_janko_puzzles():
    assert_puzzles_solved_soundly(janko("hitori", 12, max_cells=150))


@pytest.mark.corpus
def test_every_technique_is_sound_from_random_correct_states():
    rng = random.Random(7)
    for p in janko("hitori", 4, seed=3, max_cells=100):
        solution = reference(p)
        for fraction in (0.2, 0.5, 0.8):
            state = random_partial(p, solution, rng, fraction)
            for h in REGISTRY.for_genre("hitori", max_level=4):
                assert_all_sound(h, p, state, solution)


def test_singles_easy_grades_below_tricky():
    from pathlib import Path
    from grader.core.analysis import analyse
    levels = {}
    for tier in ("de", "dk"):
        files = sorted(Path(__file__).parent.parent.glob(f"corpus/hitori/singles-*{tier}-*.yaml"))
        assert files
        levels[tier] = [analyse(load(str(f)), check_unique=False).grade.level for f in files]
    assert max(levels["de"]) < min(levels["dk"])


# --- formats ---------------------------------------------------------------------------------

def test_tatham_game_id_decodes_as_formats_md_says():
    p = load("5x5de:2324351523255214531342354", "hitori")
    assert HITORI.render_text(p).splitlines()[0] == "2 3 2 4 3"
    assert p.meta.label == "easy"
    assert HITORI.answer_text(p, reference(p)).splitlines() == [
        "# 3 2 4 #", "5 1 # 2 3", "2 # 5 # 1", "4 5 3 1 #", "# 2 # 5 4"]


def test_puzzlink_decodes_as_formats_md_says():
    p = load("https://puzz.link/p?hitori/4/4/1114142333214213")
    assert HITORI.render_text(p).splitlines() == ["1 1 1 4", "1 4 2 3", "3 3 2 1", "4 2 1 3"]
    assert HITORI.answer_text(p, reference(p)).splitlines() == ["# 1 # 4", "1 4 2 3", "# 3 # 1", "4 2 1 #"]
    big = load("https://puzz.link/p?hitori/2/1/-1a.")
    assert big.numbers == (46, 0)


def test_janko_stray_characters_and_round_trip(tmp_path):
    rec = {"file": "/Hitori/770.a.x-janko", "data": {"rows": 2, "cols": 2,
           "problem": [["1", "2\">"], ["2", "1\">"]], "solution": [["-", "-"], ["-", "-"]]}}
    f = tmp_path / "h.jsonl"
    f.write_text(json.dumps(rec) + "\n")
    p = load(str(f))
    assert p.numbers == (1, 2, 2, 1)
    from grader.io.native import dump
    again = native(dump(HITORI.to_native(p)))
    assert again.numbers == p.numbers and again.solution == p.solution == frozenset()


def test_janko_non_number_is_one_line_error(tmp_path):
    rec = {"file": "/Hitori/001.a.x-janko", "data": {"rows": 1, "cols": 2, "problem": [["1", "a"]]}}
    f = tmp_path / "h.jsonl"
    f.write_text(json.dumps(rec) + "\n")
    with pytest.raises(InputError) as err:
        load(str(f))
    assert "'a' at r1c2 in 'problem' is not a number" in str(err.value)


@pytest.mark.parametrize("text, message", [
    ("genre: hitori\ngrid: |\n  1 2\n  2 x\n", "<test>:4:5: unexpected 'x'"),
    ("genre: hitori\ngrid: |\n  1 2\n  2\n", "<test>:4:3: grid row has 1 cells"),
    ("genre: hitori\ngrid: |\n  1 2\n  2 1\nsolution: |\n  # 2\n  2 5\n", "<test>:7:5: unexpected '5'"),
])
def test_bad_native_input_names_the_place(text, message):
    with pytest.raises(InputError) as err:
        native(text)
    assert message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("spec, message", [
    ("3x3:12312312", "covers 8 cells, 3x3 needs 9"),
    ("3x3:123123124", "'4' at character 9 is not a number from 1 to 3"),
    ("3x3dq:123123123", "unknown difficulty"),
    ("https://puzz.link/p?hitori/2/2/12", "covers 2 cells, 2x2 needs 4"),
    ("https://puzz.link/p?hitori/2/2/1-z", "bad number '-z'"),
    ("https://puzz.link/p?hitori/2/2/12!1", "unexpected '!' at character 3"),
])
def test_bad_ids_and_urls_name_the_part(spec, message):
    assert message in refused(load, spec, "hitori")


def test_every_shading_of_the_thinnest_boards_survives_the_solve():
    """Degenerate boards a fuzzer meets rarely, all of them: every valid shading of 1xN, Nx1
    and 2x2 boards, its shaded cells repeating an unshaded number, holding one of their own
    or none. No step may remove the shading's value and no solve may end in a contradiction."""
    import itertools
    from grader.genres.hitori.model import B_BLACK, B_WHITE, NO_NUMBER, HitoriPuzzle
    from grader.core.model import State
    from grader.core.genre import Plant
    from grader.app.soak import check_plant
    from grader.kernels.sparse_shading import one_area
    for rows, cols in ((1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (2, 1), (3, 1), (4, 1), (2, 2)):
        n = rows * cols
        shell = HitoriPuzzle(rows=rows, cols=cols, numbers=(NO_NUMBER,) * n)
        for bits in itertools.product((False, True), repeat=n):
            shaded = {i for i, b in enumerate(bits) if b}
            if any(m in shaded for i in shaded for m in shell.graph.neighbours[i]) \
                    or not one_area(shell.graph.neighbours, shaded):
                continue
            white = [i for i in range(n) if i not in shaded]
            own = {i: 1 + (i // cols + i % cols) % max(rows, cols) for i in white}     # a Latin square
            for kind in ("repeat", "own", "blank"):
                numbers = [own.get(i, NO_NUMBER) for i in range(n)]
                for i in shaded:
                    line = [j for j in shell.lines[i // cols] + shell.lines[rows + i % cols] if j in own]
                    numbers[i] = (own[line[0]] if kind == "repeat" and line
                                  else NO_NUMBER if kind == "blank" else max(rows, cols) + 1)
                p = HitoriPuzzle(rows=rows, cols=cols, numbers=tuple(numbers))
                planted = State(tuple(B_BLACK if i in shaded else B_WHITE for i in range(n)))
                outcome = check_plant("hitori", 0, Plant(p, planted))
                assert outcome.finding is None, f"{outcome.finding}\n{outcome.finding.puzzle}"
                assert_sound_from_each_decided_cell(p, planted)

