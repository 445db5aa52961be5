"""Hashiwokakero: each technique fires where it should (with what it finds) and not elsewhere;
every deduction agrees with the unique solution on real puzzles; formats and bad input."""
from __future__ import annotations

import random

import pytest

from grader.core.engine import Solver
from grader.io.read import load
from grader.genres import get
from grader.core.registry import REGISTRY
from support import (states_of_solve, CORPUS, assert_all_sound, assert_puzzles_solved_soundly, cyclic_garbage_of_solve, decided_by, fires, found, janko, marks,
                     native, random_partial, reference, refused)

HASHI = get("hashiwokakero")


def puzzle(grid: str, extra: str = ""):
    return native("genre: hashiwokakero\n" + extra + "grid: |\n"
                  + "".join(f"  {row}\n" for row in grid.strip().splitlines()))


def slot(p, a: str, b: str) -> int:
    return next(s for s in range(len(p.slots)) if p.slot_name(s) == f"{a}–{b}")


# --- level 1 -------------------------------------------------------------------------------

def test_crossing():
    p = puzzle(". 1 .\n2 . 2\n. 1 .")
    assert found("hashi.crossing", p, marks(p, ". 1 .\n2 - 2\n. 1 .")) == {"r1c2–r3c2": "has no bridge"}
    assert found("hashi.crossing", p) == {}


def test_only_one_way():
    p = puzzle("4 . 2\n. . .\n2 . .")
    assert found("hashi.only-one-way", p) == {"r1c1–r1c3": "has two bridges", "r1c1–r3c1": "has two bridges"}
    assert found("hashi.only-one-way", puzzle("3 . 3\n. . .\n3 . 3")) == {}
    full = puzzle("2 . 2\n. . .\n2 . 2")
    assert found("hashi.only-one-way", full, marks(full, "2 = 2\n. . .\n2 . 2")) == {
        "r1c1–r3c1": "has no bridge", "r1c3–r3c3": "has no bridge"}


def test_one_each_way():
    p = puzzle("3 . 2\n. . .\n2 . .")
    assert found("hashi.one-each-way", p) == {"r1c1–r1c3": "narrowed", "r1c1–r3c1": "narrowed"}
    assert found("hashi.one-each-way", puzzle("2 . 2\n. . .\n2 . 2")) == {}


def test_small_neighbour():
    assert found("hashi.small-neighbour", puzzle("1 . 3\n. . .\n. . 2")) == {"r1c1–r1c3": "narrowed"}
    assert found("hashi.small-neighbour", puzzle("2 . 3\n. . .\n. . 2")) == {}


# --- level 2 -------------------------------------------------------------------------------

def test_must_reach():
    p = puzzle("3 . 1\n. . .\n2 . .")
    state = HASHI.initial_state(p).restrict(slot(p, "r1c1", "r1c3"), 0b011)
    assert found("hashi.must-reach", p, state) == {"r1c1–r3c1": "has two bridges", "r1c1–r1c3": "has one bridge"}
    assert found("hashi.must-reach", puzzle("2 . 2\n. . .\n2 . 2")) == {}


def test_two_beside_two():
    assert found("hashi.two-beside-two", puzzle("2 . 2\n. . .\n3 . 2")) == {
        "r1c1–r1c3": "narrowed", "r1c1–r3c1": "narrowed", "r1c3–r3c3": "narrowed", "r3c1–r3c3": "narrowed"}
    assert found("hashi.two-beside-two", puzzle("2 . 3\n. . .\n3 . 2")) == {}


def test_one_to_a_bigger():
    assert found("hashi.one-to-a-bigger", puzzle("1 . 1\n. . .\n3 . 2")) == {
        "r1c1–r3c1": "has one bridge", "r1c3–r3c3": "has one bridge"}
    assert found("hashi.one-to-a-bigger", puzzle("1 . 2\n. . .\n3 . 2")) == {}


def test_no_loop_only_in_the_variant():
    grid = "2 . 2\n. . .\n2 . 2"
    drawn = "2 - 2\n| . |\n2 . 2"
    p = puzzle(grid, "no_loops: true\n")
    assert found("hashi.no-loop", p, marks(p, drawn)) == {"r3c1–r3c3": "has no bridge"}
    q = puzzle(grid)
    assert found("hashi.no-loop", q, marks(q, drawn)) == {}


# --- level 3 -------------------------------------------------------------------------------

def test_not_too_many():
    p = puzzle("2 . 2\n. . .\n2 . .")
    assert found("hashi.not-too-many", p, marks(p, "2 . 2\n| . .\n2 . .")) == {"r1c1–r1c3": "narrowed"}
    assert found("hashi.not-too-many", p) == {}



def test_not_too_many_on_an_island_already_overfilled():
    # planted soak seed 100771: inside a trial a 1 already had three bridges (a negative shift)
    from grader.genres.hashiwokakero.model import HashiPuzzle
    p = HashiPuzzle(rows=1, cols=3, board=(3, 1, 3), max_bridges=3)
    state = HASHI.initial_state(p).restrict(slot(p, "r1c1", "r1c2"), 0b1000)
    assert found("hashi.not-too-many", p, state) == {"r1c2–r1c3": "narrowed"}
    assert [d.apply(state).cands[slot(p, "r1c2", "r1c3")] for d in fires("hashi.not-too-many", p, state)] == [0]


def test_would_starve():
    ring = "2 . {} . 2\n. . . . .\n2 . . . 2\n. . . . .\n2 . 2 . 2"
    assert found("hashi.would-starve", puzzle(ring.format(5))) == {"r3c1–r3c5": "has no bridge"}
    assert found("hashi.would-starve", puzzle(ring.format(4))) == {}
    p = load("7x7m2:1b4b2g3a1a1a3c3q2b4b4", "hashiwokakero")
    assert decided_by(fires("hashi.would-starve", p, HASHI.initial_state(p)), p, HASHI.initial_state(p)) == {
        "r3c3–r3c5": "has no bridge"}


def test_no_closed_group():
    assert found("hashi.no-closed-group", puzzle("1 . 1 . 2 . 1")) == {"r1c1–r1c3": "narrowed"}
    assert found("hashi.no-closed-group", puzzle("1 . 2 . 1")) == {}


def test_only_link():
    assert found("hashi.only-link", puzzle("2 . 3 . 1")) == {"r1c1–r1c3": "narrowed", "r1c3–r1c5": "narrowed"}
    assert found("hashi.only-link", puzzle("2 . 2\n. . .\n2 . 2")) == {}


def test_all_distributions():
    p = puzzle("2 . 3\n. . .\n1 . 2")
    state = HASHI.initial_state(p).restrict(slot(p, "r1c1", "r1c3"), 0b101).restrict(slot(p, "r1c1", "r3c1"), 0b011)
    assert decided_by(fires("hashi.all-distributions", p, state)[:1], p, state) == {
        "r1c1–r1c3": "has two bridges", "r1c1–r3c1": "has no bridge"}
    q = load("5x5m2:2c3b1l3a4a3", "hashiwokakero")
    assert found("hashi.all-distributions", q, reference(q)) == {}


@pytest.mark.parametrize("hid, memory", [("hashi.all-distributions", "_hashi_island_answers"),
                                         ("hashi.pair-ways", "_hashi_quiet_pairs"),
                                         ("hashi.would-starve", "_hashi_quiet_starving"),
                                         ("hashi.no-closed-group", "_hashi_quiet_closing")])
def test_remembering_techniques_find_only_what_a_fresh_look_finds(hid, memory):
    """What islands (pairs of islands, slots) gave is remembered with the puzzle until a slot
    that told changes: all along a solve, and from each state's own recent ones,
    the technique finds what it finds on a fresh copy of the puzzle, where nothing is
    remembered (every other state is looked at, so what is remembered comes from a state some
    steps back)."""
    h = REGISTRY.get(hid)

    def said(p, s):
        return [(d.removals, d.params) for d in h.find(p, s)]

    for path in ("corpus/hashiwokakero/bridges-10x10i30e10m2d0-grader-1.yaml", "corpus/hashiwokakero/grown-9x9-grader-2.yaml"):
        p, looked = load(path), 0
        for n, state in states_of_solve(p):
            if n % 2 == 0:
                continue
            assert said(p, state) == said(load(path), state), f"{path}, after step {n}"
            looked += 1
        assert looked >= 10 and p.__dict__.get(memory)


def test_diffs_made_from_the_state_before_are_a_fresh_look():
    """What changed since each earlier state, as the remembering techniques' diffs give it
    from the previous state's (new diffs every step, asked about every earlier state, and
    about a state it does not narrow), is what a look along the board gives."""
    from grader.kernels.recent import narrowed
    from heuristics.hashiwokakero import remembered
    p = load("corpus/hashiwokakero/grown-9x9-grader-2.yaml")
    earlier = [HASHI.initial_state(p).cands]
    chained = 0
    for n, state in states_of_solve(p):
        diffs = remembered(p, "_test_diffs", state).diffs
        for then in earlier + [tuple(reversed(state.cands))]:
            changed = narrowed(then, state.cands, len(then))
            got = diffs.get(id(then))
            chained += got is not None
            if got is None:
                got = diffs[id(then)] = (then, None if changed is None else frozenset(changed))
            assert got[1] == (None if changed is None else frozenset(changed)), f"after step {n}"
        earlier.append(state.cands)
    assert chained > 10


# --- level 4 -------------------------------------------------------------------------------

def test_pair_ways():
    p = load("corpus/hashiwokakero/grown-9x9-grader-2.yaml")
    stuck = Solver(p, max_level=3).solve()
    assert stuck.status.value == "stuck"
    assert found("hashi.pair-ways", p, stuck.final) == {"r6c3–r6c7": "has one bridge"}
    assert assert_all_sound(REGISTRY.get("hashi.pair-ways"), p, stuck.final, reference(p)) == 1
    deeper = load("corpus/hashiwokakero/grown-9x9-grader-1.yaml")
    assert found("hashi.pair-ways", deeper, Solver(deeper, max_level=4).solve().final) == {}


def below_island_cases():
    return [h for h in REGISTRY.for_genre("hashiwokakero", 4) if h.id != "hashi.island-cases"]


def test_island_cases():
    # r1c4 needs 4 and has two ways left; one meets a contradiction within a few easy steps,
    # the other settles the right-hand side of the board
    p = load("corpus/hashiwokakero/grown-9x9-grader-1.yaml")
    stuck = Solver(p, heuristics=below_island_cases()).solve()
    assert stuck.status.value == "stuck"
    d = fires("hashi.island-cases", p, stuck.final)[0]
    assert (str(d.params["island"]), d.params["n"], d.params["cases"]) == ("r1c4", 4, 2)
    assert "1 of the 2 cases leads to a contradiction" in d.params["outcome"]
    assert found("hashi.island-cases", p, stuck.final)["r3c4–r3c9"] == "has two bridges"
    assert assert_all_sound(REGISTRY.get("hashi.island-cases"), p, stuck.final, reference(p)) == 1
    assert Solver(p, max_level=4).solve().status.value == "solved"
    # nothing to split where easier steps still finish the board, or on the solution
    easy = load("corpus/hashiwokakero/bridges-7x7i30e10m2d2-grader-2.yaml")
    assert fires("hashi.island-cases", easy, reference(easy)) == []
    assert fires("hashi.island-cases", p, reference(p)) == []


def test_grown_puzzles_have_one_answer_and_need_level_4():
    from grader.core.analysis import analyse
    for path in sorted((CORPUS / "hashiwokakero").glob("grown-*.yaml")):
        p = load(str(path))
        assert reference(p) == HASHI.solution_state(p)
        assert analyse(p, check_unique=False).grade.level >= 4, path.name


# --- level 5 -------------------------------------------------------------------------------

def test_island_ways_and_trial_are_sound_where_easier_steps_stop():
    p = load("corpus/hashiwokakero/bridges-7x7i30e10m2d2-grader-2.yaml")
    trace = Solver(p, max_level=2).solve()
    assert trace.status.value == "stuck"
    solution = reference(p)
    for hid in ("hashi.island-ways", "hashi.trial-and-error"):
        assert assert_all_sound(REGISTRY.get(hid), p, trace.final, solution) == 1
        assert fires(hid, p, solution) == []
    deeper = load("corpus/hashiwokakero/grown-9x9-grader-1.yaml")
    trace = Solver(deeper, heuristics=below_island_cases()).solve()
    assert trace.status.value == "stuck"
    assert assert_all_sound(REGISTRY.get("hashi.island-ways"), deeper, trace.final, reference(deeper)) == 1


def test_tatham_tiers_are_ordered():
    """Bridges' easy solver counts per island (level 1), medium adds "it cannot be finished
    without this direction" (level 2), hard reasons about groups and what other islands still
    need (level 3; the catalogue's 2-beside-2 and 1-beside-1 isolation rules are level 2)."""
    from grader.core.analysis import analyse
    levels: dict[str, list[int]] = {"easy": [], "medium": [], "hard": []}
    scores: dict[str, list[int]] = {"easy": [], "medium": [], "hard": []}
    for path in sorted((CORPUS / "hashiwokakero").glob("bridges-*.yaml")):
        p = load(str(path))
        grade = analyse(p, check_unique=False).grade
        assert grade.status.value == "solved", path.name
        levels[p.meta.label].append(grade.level)
        scores[p.meta.label].append(grade.score)
    assert set(levels["easy"]) == {1} and set(levels["medium"]) == {2}
    assert min(levels["hard"]) >= 2 and levels["hard"].count(3) >= 0.75 * len(levels["hard"])
    mean = {tier: sum(v) / len(v) for tier, v in scores.items()}
    assert mean["easy"] < mean["medium"] < mean["hard"]


# --- soundness on real puzzles ---------------------------------------------------------------

@pytest.mark.corpus
def test_every_deduction_agrees_with_the_solution_on_janko_puzzles():
    assert_puzzles_solved_soundly(janko("hashiwokakero", 8, max_cells=150))


@pytest.mark.corpus
def test_every_technique_is_sound_from_random_correct_states():
    rng = random.Random(7)
    for p in janko("hashiwokakero", 4, seed=3, max_cells=100):
        solution = reference(p)
        for fraction in (0.2, 0.5):
            state = random_partial(p, solution, rng, fraction)
            for h in REGISTRY.for_genre("hashiwokakero", 4):
                assert_all_sound(h, p, state, solution)


# --- formats and bad input -------------------------------------------------------------------

def test_tatham_game_id_decodes_as_formats_md_says():
    p = load("5x5m2:2c3b1l3a4a3", "hashiwokakero")
    assert HASHI.render_text(p).splitlines() == [
        "2 . . . 3", ". . 1 . .", ". . . . .", ". . . . .", "3 . 4 . 3"]
    answer = HASHI.answer_json(p, reference(p))["bridges"]
    assert {(b["from"], b["to"], b["count"]) for b in answer} == {
        ("r1c1", "r1c5", 1), ("r1c1", "r5c1", 1), ("r1c5", "r5c5", 2), ("r2c3", "r5c3", 1),
        ("r5c1", "r5c3", 2), ("r5c3", "r5c5", 1)}


def test_tatham_variant_flags():
    p = load("5x5m3L:2c3b1l3a4a3", "hashiwokakero")
    assert p.max_bridges == 3 and p.no_loops


def test_puzzlink_decodes_as_formats_md_says():
    for pid in ("hashikake", "hashi", "bridges"):
        p = load(f"https://puzz.link/p?{pid}/5/5/4g2i3h23k3g1g3g4g3")
        assert HASHI.render_text(p).splitlines() == [
            "4 . 2 . .", ". 3 . . 2", "3 . . . .", ". 3 . 1 .", "3 . 4 . 3"]


def test_janko_records_load_with_their_solutions():
    for p in janko("hashiwokakero", 20):
        assert HASHI.violations(p, HASHI.solution_state(p)) == []


def test_native_round_trip():
    from grader.io.native import dump
    p = load("corpus/hashiwokakero/bridges-7x7i30e10m2d1-grader-1.yaml")
    again = native(dump(HASHI.to_native(p)))
    assert again.board == p.board and again.solution == p.solution
    assert HASHI.violations(p, HASHI.solution_state(p)) == []


@pytest.mark.parametrize("text, message", [
    ("genre: hashiwokakero\ngrid: |\n  9 . 2\n", ":3:3: unexpected '9' in grid"),
    ("genre: hashiwokakero\ngrid: |\n  1 . 1\n  . . .\n  . . 3\n",
     ":5:7: island r3c3 needs 3 bridges but its neighbours allow at most 1"),
    ("genre: hashiwokakero\ngrid: |\n  2 . 2\nsolution: |\n  2 | 2\n", "no bridge '|' can run through r1c2"),
    ("genre: hashiwokakero\nmax_bridges: 7\ngrid: |\n  2 . 2\n", "max_bridges must be 1 to 4"),
])
def test_bad_native_input_names_the_place(text, message):
    assert message in refused(native, text)


@pytest.mark.parametrize("spec, message", [
    ("5x5m2:2c3b1l3a4a", "covers 24 cells, 5x5 needs 25"),
    ("5x5m2:2c3b1l3a4aV", "unexpected 'V' at character 11"),
    ("5x5m9:2c3b1l3a4a3", "m9"),
    ("5x5m2:9c3b1l3a4a3", "(description): island r1c1 needs 9"),
    ("https://puzz.link/p?hashikake/5/5/.g2i3h23k3g1g3g4g3", "unknown count"),
])
def test_bad_ids_and_urls_name_the_part(spec, message):
    assert message in refused(load, spec, "hashiwokakero")


def test_svg_draws_single_and_double_bridges():
    p = load("5x5m2:2c3b1l3a4a3", "hashiwokakero")
    picture = HASHI.render_svg(p, reference(p), [("target", [0])])
    assert picture.count("<line") == 8 and picture.startswith("<svg")


@pytest.mark.parametrize("grid, answer", [("1 1", "1 1"), ("2 . 2", "2 = 2")])   # a single pair
def test_degenerate_boards_solve(grid, answer):
    from grader.core.steps import Status
    p = puzzle(grid)
    trace = Solver(p, assume_unique=False).solve()
    assert trace.status is Status.SOLVED and HASHI.render_text(p, trace.final) == answer


def test_remembered_reads_hold_while_the_ends_read_stay():
    from grader.core.model import State
    from heuristics.hashiwokakero import Reads, RememberedReads
    start, entries = State((7, 7, 7, 7)), {}
    RememberedReads(entries, start).put("answer", Reads({0}, least={1}, most={2}), "kept")

    def after(var: int, gone: int):
        return RememberedReads(entries, start.remove(((var, gone),))).get("answer")
    assert after(1, 4) == "kept" and after(2, 1) == "kept" and after(3, 1) == "kept"
    assert after(0, 4) is None          # read in full
    assert after(1, 1) is None          # its least count went up
    assert after(2, 4) is None          # its most count went down


def test_shares_are_the_combinations_that_add_up():
    """shares lists, in order, every count per slot (each within its slot's candidates) that
    sums to the need."""
    import itertools
    from grader.core.model import values_of
    from heuristics.hashiwokakero import shares
    assert shares(3, (0b011, 0b111)) == ((1, 2),) and shares(2, (0b111, 0b111)) == ((0, 2), (1, 1), (2, 0))
    assert shares(0, ()) == ((),) and shares(1, ()) == ()
    for masks in itertools.product(range(1, 8), repeat=3):
        for need in range(7):
            got = shares(need, masks)
            assert list(got) == sorted(got)
            assert set(got) == {w for w in itertools.product(*map(values_of, masks)) if sum(w) == need}


def test_a_solve_leaves_no_cycles():
    """A solve leaves nothing to the collector (a closure that calls itself is a cycle)."""
    first, p = janko("hashiwokakero", 2, seed=1, max_cells=100)
    assert cyclic_garbage_of_solve(p, warm_up=first) == 0
