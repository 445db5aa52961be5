"""Japanese Arrows: every rule fires where it should (with what it finds) and not elsewhere;
the hypothesis rules; the formats; soundness against the unique solution on real puzzles."""
from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
from support import (
    CORPUS,
    SHARED,
    assert_sound_from_partial_states,
    assert_sound_path,
    cyclic_garbage_of_solve,
    fires,
    random_partial,
    reference,
)

from grader.core import exact
from grader.dsl.solver import Result, solve_with_rules
from grader.core.engine import Solver
from grader.core.errors import InputError, Source
from grader.io.read import load, load_native
from grader.io.native import dump
from grader.genres import get
from grader.core.registry import REGISTRY
from grader.core.model import State
from grader.core.steps import Status

ARROWS = get("arrows")


def puzzle(rows: str):
    body = "".join(f"  {row.strip()}\n" for row in rows.strip().splitlines())
    return load_native("genre: arrows\ngrid: |\n" + body, "<test>")


def state(p, **restrict: list[int]) -> State:
    """The start state with some cells narrowed: state(p, r1c2=[1, 2])."""
    cands = list(ARROWS.initial_state(p).cands)
    for name, values in restrict.items():
        r, c = (int(x) for x in name[1:].split("c"))
        mask = 0
        for v in values:
            mask |= 1 << v
        cands[(r - 1) * p.cols + c - 1] &= mask
    return State(tuple(cands))


def found(rule: str, p, s: State | None = None) -> dict[str, list[int]]:
    """{cell: values left} for every deduction the rule lists in this state."""
    s = s or ARROWS.initial_state(p)
    after, changed = s, set()
    for d in fires(f"arrows.{rule}", p, s):
        after = d.apply(after)
        changed |= set(d.targets)
    return {ARROWS.var_name(p, var): [v for v in range(p.n) if after.cands[var] >> v & 1]
            for var in sorted(changed)}


# --- complexity 1 ----------------------------------------------------------------------------

def test_edge_arrow():
    assert found("edge-arrow", puzzle("→. →.")) == {"r1c2": [0]}
    assert found("edge-arrow", puzzle("→. ←.")) == {}


def test_inner_arrow():
    assert found("inner-arrow", puzzle("→. →.")) == {"r1c1": [1]}
    assert found("inner-arrow", puzzle("↑. ↑.")) == {}


def test_room_ahead():
    assert found("room-ahead", puzzle("→. →. →.")) == {"r1c2": [0, 1], "r1c3": [0]}
    assert found("room-ahead", puzzle("→. ←.")) == {}


def test_already_seen():
    p = puzzle("→. →1 →0")
    assert found("already-seen", p) == {"r1c1": [2]}
    assert found("already-seen", puzzle("→. →. →.")) == {}


def test_line_complete():
    assert found("line-complete", puzzle("→. →1 →0")) == {"r1c1": [2]}
    assert found("line-complete", puzzle("→. →1 ←.")) == {}


# --- complexity 2 ----------------------------------------------------------------------------

def test_seen_and_free():
    p = puzzle("→. →1 →1 →. ↑.")
    assert found("seen-and-free", p)["r1c1"] == [0, 1, 2, 3]
    assert "r1c1" not in found("seen-and-free", puzzle("→. →. →. →. ↑."))


def test_one_number():
    assert found("one-number", puzzle("→1 →. →2 ↑.")) == {"r1c2": [2], "r1c4": [2]}
    assert found("one-number", puzzle("→2 →. →2 ↑.")) == {}


def test_same_way_next():
    assert found("same-way-next", puzzle("→. →2 →. ↑.")) == {"r1c1": [2, 3]}
    assert found("same-way-next", puzzle("↓. →2 →. ↑.")) == {}


def test_same_way_behind():
    assert found("same-way-behind", puzzle("→2 →. →. ↑.")) == {"r1c2": [1, 2]}
    assert found("same-way-behind", puzzle("→2 ↓. →. ↑.")) == {}


def test_same_way_repeat():
    assert found("same-way-repeat", puzzle("→. →1 →1 ↑.")) == {"r1c1": [1]}
    assert found("same-way-repeat", puzzle("→. →1 →. ↑.")) == {}


def test_same_way_ahead():
    assert found("same-way-ahead", puzzle("→. →. →2 ↑. ↑.")) == {"r1c1": [2, 3, 4], "r1c2": [2, 3, 4]}
    assert found("same-way-ahead", puzzle("↓. ↓. →2 ↑. ↑.")) == {}


def test_same_way_before():
    assert found("same-way-before", puzzle("→1 →. →. ↑.")) == {"r1c2": [0, 1], "r1c3": [0, 1]}
    assert found("same-way-before", puzzle("→. →. →. ↑.")) == {}


def test_all_different():
    assert found("all-different", puzzle("→3 →. →1 ↑.")) == {"r1c2": [0, 2, 3], "r1c4": [0, 2, 3]}
    assert found("all-different", puzzle("→2 →. →1 ↑.")) == {}


def test_one_number_shared():
    p = puzzle("→1 →. →. ↑.")
    assert found("one-number-shared", p, state(p, r1c3=[1, 2])) == {"r1c2": [1, 2], "r1c4": [1, 2]}
    assert found("one-number-shared", puzzle("→2 →. →. ↑."), None) == {}


def test_next_arrow_cases():
    """r1c2 holds 1 (then r1c3 is 0 like r1c4, and 1 is new: r1c1 is 2) or 2 (r1c1 is 2 or 3)."""
    p = puzzle("→. →. ←. →0")
    assert found("next-arrow-cases", p, state(p, r1c2=[1, 2])) == {"r1c1": [2, 3]}
    assert found("next-arrow-cases", puzzle("→. ←. →. ←.")) == {}


def test_behind_arrow_cases():
    """r1c4 holds 2; if r1c3 held 1 it would see 1 again at r1c2 and r1c4 would be 1 too."""
    assert found("behind-arrow-cases", puzzle("←. ←1 ←. ←2")) == {"r1c1": [0], "r1c3": [2]}
    assert found("behind-arrow-cases", puzzle("→. ←. →. ←.")) == {}


# --- complexity 3 ----------------------------------------------------------------------------

def test_saturated():
    # r1c2 (a 1 seeing a 2) and r1c1 (a 2 seeing 1 and 2) both leave r1c4 and r1c5 only 2
    assert found("saturated", puzzle("→2 →1 →2 →. ↑.")) == {"r1c4": [2], "r1c5": [2]}
    assert found("saturated", puzzle("→2 →1 →. →. ↑.")) == {}


def test_new_number_ahead():
    p = puzzle("→. →1 →. ↑.")
    assert found("new-number-ahead", p, state(p, r1c3=[0, 2])) == {"r1c1": [2, 3], "r1c3": [2]}
    assert found("new-number-ahead", puzzle("→. →1 ↑.")) == {}


def test_room_for_new():
    p = puzzle("→. →1 →. ←.")
    assert found("room-for-new", p, state(p, r1c3=[1, 2], r1c4=[1, 2])) == {"r1c1": [0, 1, 2], "r1c3": [1]}
    assert found("room-for-new", puzzle("→. ←.")) == {}


def test_hungry():
    assert found("hungry", puzzle("→3 →1 →. →.")) == {"r1c3": [0, 2, 3], "r1c4": [0, 2, 3]}
    assert found("hungry", puzzle("→2 →1 →. →.")) == {}


def test_reachable_bound():
    p = puzzle("→. →. →. ←.")
    assert found("reachable-bound", p, state(p, r1c2=[1], r1c3=[1], r1c4=[1, 2])) == {"r1c1": [0, 1, 2]}
    assert found("reachable-bound", p) == {}


def test_same_way_gap():
    assert found("same-way-gap", puzzle("→. ↓. →1 →. ↑.")) == {"r1c1": [0, 1, 2, 3]}
    assert found("same-way-gap", puzzle("→. ↓. →. →. ↑.")) == {}


def test_same_way_gap_back():
    assert found("same-way-gap-back", puzzle("→3 ↓. →. →. ↑.")) == {"r1c3": [1, 2, 3, 4]}
    assert found("same-way-gap-back", puzzle("→. ↓. →. →. ↑.")) == {}


def test_same_way_new():
    p = puzzle("→. →1 →. ↑.")
    assert found("same-way-new", p, state(p, r1c3=[2], r1c4=[2])) == {"r1c1": [2]}
    assert found("same-way-new", p, state(p, r1c3=[1, 2], r1c4=[2])) == {}


def test_must_show():
    p = puzzle("→2 →. →. ↑.")
    assert found("must-show", p, state(p, r1c2=[1, 3], r1c3=[1], r1c4=[1])) == {"r1c2": [3]}
    assert found("must-show", p, state(p, r1c2=[1, 3], r1c3=[1, 3], r1c4=[1])) == {}


def test_facing_ones():
    """r1c1 and r1c2 point at each other: if r1c1 held 1, r1c2 would see only that 1 and hold
    1, and the 1 at r1c1 would see the 0 at r1c3 as well."""
    p = puzzle("→. ←. ↑.")
    assert found("facing-ones", p, state(p, r1c3=[0])) == {"r1c1": [0, 2]}
    assert found("facing-ones", p) == {}                # r1c3 may still hold 1


def test_facing_ones_across_a_filled_cell():
    """r1c1 and r3c1 face each other across the 1 at r2c1; r1c1 sees only r2c1 besides r3c1,
    so both may be 1 (or both 2): nothing to conclude."""
    p = puzzle("↓. ↖. ↓.\n↗1 →. ↘.\n↑. ↑. ↗.")
    assert found("facing-ones", p, state(p, r1c1=[1, 2], r3c1=[1, 2])) == {}
    p = puzzle("↓. ↖. ↓.\n↗1 →. ↘.\n↑. ↑. ↗.\n↑. ↑. ↗.")
    assert found("facing-ones", p, state(p, r1c1=[1, 2], r3c1=[1, 2], r4c1=[2])) == {"r1c1": [2]}


def test_conclusion_that_contradicts_empties_the_cell():
    """set(p, 0) on an edge arrow that holds 1 leaves it no value: the engine's contradiction."""
    p = puzzle("→. →1")
    (d,) = fires("arrows.edge-arrow", p)
    assert d.apply(ARROWS.initial_state(p)).broken
    result, trace = solve_with_rules(p)
    assert result is Result.NO_SOLUTION and trace.status is Status.CONTRADICTION


def test_explanations_read_well():
    p = puzzle("→. →2 →. ↑.")
    (d,) = fires("arrows.same-way-next", p)
    text = REGISTRY.get("arrows.same-way-next").info.template.format(**d.params)
    assert "r1c1" in text and "r1c2" in text and "r1c1 cannot hold 0, 1" not in text


# --- hypotheses (BacktrackRule) ----------------------------------------------------------------

def _first_step(trace, rule_id):
    for step, before, after in trace.states():
        if step.heuristic.id == rule_id:
            return step, before
    return None, None


def _needs_trial():
    found = _trial_position()
    if found is None:
        pytest.skip("no puzzle in corpus/arrows needs a trial")
    return found


@functools.cache
def _trial_position():
    """The state before the first forcing chain in the smallest corpus puzzle that needs one."""
    path = CORPUS / "arrows"
    for f in sorted(path.glob("*.yaml"), key=lambda f: f.stat().st_size):
        p = load(str(f))
        trace = Solver(p).solve()
        step, before = _first_step(trace, "arrows.forcing-chain")
        if step is not None:
            return p, before, step
    return None


def test_forcing_chain_eliminates_by_contradiction_and_leaves_the_state_alone():
    p, before, _ = _needs_trial()
    cands = before.cands
    found_ = fires("arrows.forcing-chain", p, before)
    assert found_ and before.cands == cands            # mock mode: the real state is untouched
    d = found_[0]
    assert len(d.removals) == 1 and d.removals[0][1].bit_count() == 1
    assert "contradiction" in REGISTRY.get("arrows.forcing-chain").info.template.format(**d.params)
    # cells are tried fewest candidates first
    from grader.core.probing import probe_order
    order = probe_order(before)
    assert [before.cands[v].bit_count() for v in order] == sorted(m.bit_count() for m in before.cands
                                                                  if m & (m - 1))
    var = d.removals[0][0]
    solution = reference(p)
    assert not d.removals[0][1] & solution.cands[var]
    # nothing to try once every cell is decided
    assert fires("arrows.forcing-chain", p, solution) == []
    assert fires("arrows.long-trial", p, solution) == []


def test_forcing_chain_shows_its_chain():
    """Suppose r1c1 held 1: r3c1 would see only the 1s at r2c1 and r1c1 and hold 1, and r4c1
    would see only 1s too, but it cannot hold 1. The explanation names each step and its rule."""
    p = puzzle("↓. ↖. ↓.\n↗1 →. ↘.\n↑. ↑. ↗.\n↑. ↑. ↗.")
    h = REGISTRY.get("arrows.forcing-chain")
    assert h.level == 4 and not h.info.counted
    d = h.first(p, state(p, r1c1=[1, 2], r3c1=[1, 2], r4c1=[2, 3]))
    assert d.removals == ((0, 1 << 1),)
    assert h.info.template.format(**d.params) == (
        "Suppose r1c1 held 1: then r3c1 holds 1 (everything ahead is filled in); then r4c1 has "
        "no number left (everything ahead is filled in), a contradiction (no value is left for "
        "r4c1). So r1c1 cannot hold 1.")


def test_forcing_chain_finds_nothing_when_every_case_goes_on():
    """r1c1 and r3c1 face each other across a 1: both 1 or both 2, two solutions, so no
    hypothesis breaks a rule."""
    p = puzzle("↓. ↖. ↓.\n↗. →. ↘.\n↑. ↑. ↗.")
    s = state(p, r1c1=[1, 2], r1c2=[0], r1c3=[1], r2c1=[1], r2c2=[1], r2c3=[0], r3c1=[1, 2],
              r3c2=[2], r3c3=[0])
    assert fires("arrows.forcing-chain", p, s) == []
    assert fires("arrows.long-trial", p, s) == []


def test_long_trial_finds_what_the_forcing_chain_finds():
    p, before, _ = _needs_trial()
    assert fires("arrows.long-trial", p, before)


# --- the rule engine's results -----------------------------------------------------------------

def test_results_solved_and_underconstrained():
    solved = puzzle("→. →1 →0")
    assert solve_with_rules(solved)[0] is Result.SOLVED
    several = puzzle("↓. ↓.\n↑. ↑.")                   # every arrow points off the grid? no: down/up
    result, _ = solve_with_rules(several)
    assert result in (Result.SOLVED, Result.UNDERCONSTRAINED)
    loose = puzzle("→. ←.")                             # 1 and 1 (each sees the other)
    assert solve_with_rules(loose)[0] is Result.SOLVED
    assert exact.solve(loose).verdict is exact.Verdict.UNIQUE


# --- formats -----------------------------------------------------------------------------------

BOXED = """+----+----+----+
| →. | ↓2 | ↙. |
+----+----+----+
| ↑. | ↖. | ←1 |
+----+----+----+
| ↗0 | →. | ↑. |
+----+----+----+
"""


def test_boxed_grid(tmp_path: Path):
    f = tmp_path / "grid.txt"
    f.write_text(BOXED, encoding="utf-8")
    p = load(str(f))
    assert (p.rows, p.cols, p.kind) == (3, 3, "diagonal")
    assert p.givens == (None, 2, None, None, None, 1, 0, None, None)
    assert p.dirs[2] == (1, -1) and p.dirs[4] == (-1, -1)
    again = load_native(dump(ARROWS.to_native(p)), "<again>")
    assert (again.dirs, again.givens) == (p.dirs, p.givens)


def test_puzzle_folder_reads_its_solution(tmp_path: Path):
    (tmp_path / "puzzle.txt").write_text("| →. | →. | ↑. |\n", encoding="utf-8")
    (tmp_path / "solution.txt").write_text("| →2 | →1 | ↑0 |\n", encoding="utf-8")
    (tmp_path / "metadata.yaml").write_text("difficulty: Easy\n", encoding="utf-8")
    p = load(str(tmp_path / "puzzle.txt"))
    assert p.solution == (2, 1, 0) and p.meta.label == "Easy"
    trace = Solver(p).solve()
    assert trace.status is Status.SOLVED and trace.final == ARROWS.solution_state(p)


@pytest.mark.parametrize("text, where, words", [
    ("| →. | ↓22 |\n", ":1:8", "arrow"),
    ("| →. | x. |\n", ":1:8", "arrow"),
    ("| →. | ↓. |\n| →. |\n", ":2:1", "first row has 2"),
    ("+----+\n  →. |\n", ":2:3", "start and end with '|'"),
    ("| →. | ↓9 |\n", ":1:8", "allows 0..1"),
])
def test_bad_boxed_grid(tmp_path: Path, text: str, where: str, words: str):
    f = tmp_path / "bad.txt"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load(str(f))
    message = str(err.value)
    assert message.startswith(str(f) + where) and words in message and "\n" not in message


def test_bad_native_grid():
    with pytest.raises(InputError) as err:
        load_native("genre: arrows\ngrid: |\n  →. ↓.\n  →. ?.\n", "x.yaml")
    assert str(err.value).startswith("x.yaml:4:6") and "arrow" in str(err.value)


def test_marks_and_answer_text():
    p = puzzle("→. →. ↑.")
    s = ARROWS.parse_marks(p, "→. →1 ↑.", Source("<marks>"))
    assert s.value(1) == 1 and not s.decided(0)
    with pytest.raises(InputError):
        ARROWS.parse_marks(p, "←. →1 ↑.", Source("<marks>"))
    sol = exact.solve(p).solution
    assert ARROWS.answer_text(p, sol).splitlines()[1] == "| →2 | →1 | ↑0 |"


def test_exact_solver_matches_the_rules():
    p = puzzle("→. ↓. ←.\n↗. ↑. ↖.")
    result = exact.solve(p)
    assert result.verdict in (exact.Verdict.UNIQUE, exact.Verdict.SEVERAL)
    for s in result.solutions:
        assert ARROWS.violations(p, s) == []


# --- soundness on real puzzles ------------------------------------------------------------------

def shared_puzzles(count: int, max_side: int = 6):
    root = SHARED / "arrows"
    if not root.is_dir():
        pytest.skip(f"{root} is absent (the evaluation corpus is read at run time only)")
    folders = sorted(d for d in root.iterdir() if (d / "puzzle.txt").is_file())
    random.Random(3).shuffle(folders)
    out = []
    for d in folders:
        p = load(str(d / "puzzle.txt"))
        if max(p.rows, p.cols) <= max_side and exact.solve(p).verdict is exact.Verdict.UNIQUE:
            out.append(p)
        if len(out) == count:
            break
    return out


def test_sound_on_real_puzzles():
    for p in shared_puzzles(3, max_side=5):
        status = assert_sound_path(p)
        assert status is Status.SOLVED
        assert Solver(p).solve().final == ARROWS.solution_state(p)


def test_every_rule_sound_from_random_partial_states():
    rules = [h for h in REGISTRY.for_genre("arrows") if h.level <= 3]
    assert_sound_from_partial_states(shared_puzzles(2, max_side=5), rules, random.Random(7), (0.2, 0.5, 0.8),
                                     rounds=6)


def test_own_corpus_is_unique_and_solved_by_the_rules():
    files = sorted((CORPUS / "arrows").glob("*.yaml"))
    if not files:
        pytest.skip("corpus/arrows is empty")
    import yaml
    for f in sorted(files, key=lambda f: f.stat().st_size)[:4]:
        p = load(str(f))
        assert p.meta.provenance.startswith("grader generate --genre arrows")
        assert exact.solve(p).verdict is exact.Verdict.UNIQUE
        trace = Solver(p).solve()
        assert trace.status is Status.SOLVED and trace.final == ARROWS.solution_state(p)
        recorded = yaml.safe_load(f.read_text(encoding="utf-8"))["level"]
        assert max(s.level for s in trace.steps) == recorded, f"{f.name} is stale: regenerate it"


def test_trials_sound_from_random_partial_states():
    rng = random.Random(11)
    trials = [REGISTRY.get("arrows.forcing-chain"), REGISTRY.get("arrows.long-trial")]
    for p in shared_puzzles(1, max_side=5):
        solution = reference(p)
        for _ in range(2):
            s = random_partial(p, solution, rng, 0.4)
            for h in trials:
                d = h.first(p, s)
                if d is not None:
                    for var, mask in d.removals:
                        assert not mask & solution.cands[var]


# --- the generator -------------------------------------------------------------------------------

def test_generate_command(tmp_path: Path):
    from grader.app.cli import main
    out = tmp_path / "made.yaml"
    assert main(["generate", "--genre", "arrows", "--size", "4x4", "--level", "2", "--seed", "1",
                 "-o", str(out)]) == 0
    p = load(str(out))
    assert (p.rows, p.cols) == (4, 4) and "--level 2" in p.meta.provenance
    assert exact.solve(p).verdict is exact.Verdict.UNIQUE
    trace = Solver(p).solve()
    assert trace.status is Status.SOLVED and max(s.level for s in trace.steps) == 2
    assert trace.final == ARROWS.solution_state(p)


@pytest.mark.parametrize("argv, words", [
    (["--size", "4"], "not a size"), (["--size", "12x12"], "2 to 10"), (["--level", "7"], "not a level"),
])
def test_generate_bad_arguments(argv, words, capsys):
    from grader.app.cli import main
    assert main(["generate", "--genre", "arrows", *argv]) == 2
    assert words in capsys.readouterr().err


def test_focused_search_finds_what_a_full_search_finds():
    """A rule that was quiet before a step and looks only near what the step changed finds
    something exactly when a search of the whole board does (the engine relies on it)."""
    p = load(str(CORPUS / "arrows" / "arrows-5x5-straight-L4-s1.yaml"))
    rules = [h for h in REGISTRY.for_genre("arrows") if h.level <= 3]
    trace = Solver(p).solve()
    for step, before, after in list(trace.states())[::2]:
        changed = frozenset(step.deduction.targets)
        for h in rules:
            if h.first(p, before) is None:
                assert (h.first(p, after, changed) is None) == (h.first(p, after) is None), h.id


def test_a_solve_leaves_no_cycles():
    """A solve's states are freed as soon as they are dropped (a rule's world held its state,
    which keeps the world's evaluator: every state a cycle left to the collector)."""
    first = load(str(CORPUS / "arrows" / "arrows-4x4-straight-L1-s1.yaml"))
    p = load(str(CORPUS / "arrows" / "arrows-5x5-diagonal-L4-s1.yaml"))
    assert cyclic_garbage_of_solve(p, warm_up=first) == 0
