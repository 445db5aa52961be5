"""Whether a technique's focused look misses what its whole-board look finds.

The engine asks a technique that found nothing last time to look only at what changed since
(its focus). That is exact only when every deduction it could make reads nothing outside what
the focus expands to. This runs real solves with every technique wrapped: whenever a focused
look finds nothing, the same technique looks at the whole board in the same state, and a find
there is a miss. The solve itself is not changed (the wrapper only looks again).

    python tests/focus_check.py [--genre heyawake] [--stride 10] [--max-cells 150] [--max-level 4]

prints every miss (genre, puzzle, step, technique) and exits 1 when there is one.
"""
from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path
from typing import Iterator

import attrs

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.core.engine import Budget, Solver  # noqa: E402
from grader.core.model import Puzzle, State  # noqa: E402
from grader.core.registry import REGISTRY, Heuristic  # noqa: E402
from grader.core.resources import evaluation_corpus  # noqa: E402
from grader.core.steps import Deduction  # noqa: E402
from grader.io.janko import read_records  # noqa: E402
from grader.io.read import from_record  # noqa: E402

BUDGET = Budget(max_steps=2000, max_seconds=120)

# Techniques seen to miss finds: the test over the corpus lets their misses pass, and names
# every other. Nurikabe forcing-chain's steps read past the focus (how far an island can grow,
# who owns a block), and its focused look missed on janko 1021 step 45; trying the cells near
# the focus first, then the whole board's, mended that but doubled the cost of deep trials,
# whose fills run it (janko 0943: 15 -> 30 CPU s for its first 12 steps; 0976 15.7 -> 29.8 s),
# so it was taken back (stop 43). A mend must keep the narrow look inside trials.
KNOWN_MISSES: frozenset[str] = frozenset({"nurikabe.forcing-chain"})


@attrs.frozen
class Miss:
    """A focused look of `technique` found nothing where the whole board gives a deduction:
    in the state before step `step` (1-based) of the solve of `puzzle`."""
    puzzle: str
    step: int
    technique: str
    focus: int                  # how many changed variables the look was given

    def __str__(self) -> str:
        return f"{self.puzzle}: step {self.step}, {self.technique} (focus of {self.focus})"


@attrs.define
class CheckedHeuristic:
    """A heuristic whose empty focused looks are checked against a whole-board look; the
    states where the whole board found something are kept in `missed` (cands, focus size)."""
    heuristic: Heuristic
    missed: list[tuple[tuple[int, ...], int]] = attrs.field(factory=list)

    @property
    def info(self):
        return self.heuristic.info

    @property
    def id(self) -> str:
        return self.heuristic.id

    @property
    def level(self) -> int:
        return self.heuristic.level

    def find(self, puzzle: Puzzle, state: State, focus: frozenset[int] | None = None
             ) -> Iterator[Deduction]:
        found = self.heuristic.find(puzzle, state, focus)
        first = next(found, None)
        if first is not None:
            return itertools.chain([first], found)
        if focus is not None and self.heuristic.first(puzzle, state, None) is not None:
            self.missed.append((state.cands, len(focus)))
        return iter(())

    def first(self, puzzle: Puzzle, state: State, focus: frozenset[int] | None = None
              ) -> Deduction | None:
        return next(self.find(puzzle, state, focus), None)


def focus_misses(name: str, puzzle: Puzzle, max_level: int = 4, count_available: bool = True,
                 budget: Budget = BUDGET) -> list[Miss]:
    """Every miss of a solve of `puzzle` (as a grade solves it, counts included), among the
    techniques up to `max_level` (the others run unchecked: a whole look of a trial is dear)."""
    checked = [CheckedHeuristic(h) if h.level <= max_level else h
               for h in REGISTRY.for_genre(puzzle.genre.name, 5)]
    solver = Solver(puzzle, heuristics=checked, budget=budget, count_available=count_available)
    trace = solver.solve()
    step_of = {}
    for step, before, _ in trace.states():
        step_of.setdefault(before.cands, step.number)
    step_of.setdefault(trace.final.cands, len(trace.steps) + 1)
    return [Miss(name, step_of.get(cands, 0), h.id, size)
            for h in checked if isinstance(h, CheckedHeuristic) for cands, size in h.missed]


def janko_sample(genre: str, stride: int, max_cells: int, first: int = 0
                 ) -> Iterator[tuple[str, Puzzle]]:
    """Every `stride`-th janko puzzle of `genre` up to `max_cells` cells (none without the
    evaluation corpus)."""
    path = evaluation_corpus(ROOT) / "janko" / f"{genre}.jsonl"
    if not path.exists():
        return
    small = []
    for rec in read_records(path):
        if isinstance(rec, Exception):
            continue
        d = rec.data
        if int(d.get("rows", d.get("size", 0))) * int(d.get("cols", d.get("size", 0))) <= max_cells:
            small.append(rec)
    for rec in small[first::stride]:
        yield f"{genre}/{rec.id}", from_record(rec)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--genre", action="append", help="only this genre (repeatable)")
    ap.add_argument("--stride", type=int, default=10, help="every n-th janko puzzle")
    ap.add_argument("--first", type=int, default=0, help="start at this puzzle of the sample")
    ap.add_argument("--max-cells", type=int, default=150)
    ap.add_argument("--max-level", type=int, default=4, help="check techniques up to this level")
    args = ap.parse_args()
    shared = evaluation_corpus(ROOT) / "janko"
    genres = args.genre or sorted(p.stem for p in shared.glob("*.jsonl"))
    misses = 0
    for genre in genres:
        for name, puzzle in janko_sample(genre, args.stride, args.max_cells, args.first):
            for miss in focus_misses(name, puzzle, args.max_level):
                misses += 1
                print(miss, flush=True)
            print(f"checked {name}", file=sys.stderr, flush=True)
    print(f"{misses} misses", file=sys.stderr)
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
