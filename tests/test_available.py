"""The count of what a step's level offers (Solver._available): it makes its looks cheapest
first, which may save time but never changes a count."""
from __future__ import annotations

from grader.core.engine import LookYield, Solver
from grader.core.registry import REGISTRY, Heuristic, HeuristicInfo
from grader.io.read import load
from support import CORPUS

PUZZLES = [CORPUS / "akari" / "lightup-7x7b20s2d2-grader-1.yaml",
           CORPUS / "yajilin" / "yajilin-6x6-grader-1.yaml",
           CORPUS / "masyu" / "pearl-10x10de-grader-1.yaml"]


class FixedOrder(dict):
    """Look costs that never learn: every count makes its looks in the order of rank(key)."""

    def __init__(self, rank):
        super().__init__()
        self.rank = rank

    def get(self, key, default=None):
        return LookYield(seconds=float(self.rank(key)), found=0.0)

    def __setitem__(self, key, value):
        pass


def counted_path(solver: Solver, rank=None) -> list:
    if rank is not None:
        solver._look_yields = FixedOrder(rank)
    return [(s.heuristic.id, s.deduction.removals, s.available) for s in solver.solve().steps]


def test_the_count_is_the_same_in_whatever_order_its_looks_are_made():
    # key: a later heuristic's index, or -1-k for the rest of the look that made the step
    for file in PUZZLES:
        learnt = counted_path(Solver(load(str(file)), count_available=True))
        as_listed = counted_path(Solver(load(str(file)), count_available=True), lambda key: key)
        backwards = counted_path(Solver(load(str(file)), count_available=True), lambda key: -key)
        assert any(a not in (None, 1) for _, _, a in learnt)
        assert learnt == as_listed == backwards


def test_a_count_that_reaches_the_cap_leaves_the_dearest_look_out():
    """A look that cost much for what it found comes last, so a count whose cheaper looks
    already offer AVAILABLE_CAP deductions never makes it; with nothing known about its cost
    it comes first and is made in every count that reaches it."""
    puzzle_file = str(PUZZLES[1])      # its first 17 counts reach the cap

    def spied(dear: bool) -> tuple[list, int]:
        calls = []

        def look(puzzle, state, focus=None):
            calls.append(focus)
            return iter(())
        info = HeuristicInfo(id="test.spy", name="Spy", genre="yajilin", level=1, order=99,
                             template="t", nudge="n")
        heuristics = sorted(REGISTRY.for_genre("yajilin") + [Heuristic(info, look)],
                            key=lambda h: (h.level, h.info.order))
        spy = next(i for i, h in enumerate(heuristics) if h.info is info)
        solver = Solver(load(puzzle_file), heuristics=heuristics, count_available=True)
        return counted_path(solver, lambda key: (1e9 if key == spy else 0) if dear else -1e9 * (key == spy)), len(calls)

    (dear_path, dear_calls), (cheap_path, cheap_calls) = spied(True), spied(False)
    assert dear_path == cheap_path
    assert dear_calls < cheap_calls


def test_a_look_that_finds_more_for_its_time_ranks_cheaper():
    fruitful = LookYield().after(0.002, 8)
    barren = LookYield().after(0.001, 0)
    assert fruitful.seconds_per_find < barren.seconds_per_find
    assert LookYield().seconds_per_find == 0.0          # never made yet: made first, to learn
    later = fruitful.after(0.003, 0)                    # half of what it knew is forgotten
    assert (later.seconds, later.found) == (0.002, fruitful.found / 2)
