"""Soundness against planted solutions (grader.planted): random puzzles built around a random
valid solution, degenerate cases favoured. No step may remove a planted value and no solve may
end in a contradiction. The long soak is `grader benchmark --planted 10000`."""
from __future__ import annotations

import importlib

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from grader import planted

# Cases per genre in CI; a planter may lower it with CI_EXAMPLES when its puzzles are slow.
EXAMPLES = 200


def _examples(genre: str) -> int:
    module = importlib.import_module(f"grader.planted.{genre}")
    return getattr(module, "CI_EXAMPLES", EXAMPLES)


@pytest.mark.parametrize("genre", planted.genres_with_planters())
def test_no_step_removes_a_planted_value(genre):
    @settings(max_examples=_examples(genre), deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(seed=st.integers(0, 2**31))
    def run(seed):
        outcome = planted.check(genre, seed)
        assert outcome.finding is None, f"{outcome.finding}\n{outcome.finding.puzzle}"
    run()


def test_a_planted_puzzle_is_reproducible():
    a = planted.planter("akari")(planted.seeded("akari", 7))
    b = planted.planter("akari")(planted.seeded("akari", 7))
    assert a.puzzle == b.puzzle and a.solution.cands == b.solution.cands


def test_an_unsound_step_is_found():
    """The harness itself: a plant whose 'solution' is not the puzzle's is reported."""
    from grader.model import State
    p = planted.planter("akari")(planted.seeded("akari", 3))
    wrong = State(tuple(m ^ 3 if m in (1, 2) and i in p.puzzle.whites else m
                        for i, m in enumerate(p.solution.cands)))
    from grader.engine import Solver
    trace = Solver(p.puzzle, assume_unique=False).solve()
    if trace.steps:
        assert planted.first_unsound(p.puzzle, trace, wrong) is not None
