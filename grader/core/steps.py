"""What heuristics find (Deduction) and what the solve loop records (Step, Trace, Status)."""
from __future__ import annotations

import enum
import functools
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence

import attrs

from grader.core.model import Cell, State

if TYPE_CHECKING:
    from grader.core.registry import HeuristicInfo


class Later(Mapping[str, Any]):
    """Explanation fields worked out only when something reads them: most deductions are
    made inside the fills of trials and look-aheads, and never explained."""
    __slots__ = ("_make", "_args", "_fields")

    def __init__(self, make: Callable[..., Mapping[str, Any]], *args: Any):
        self._make, self._args, self._fields = make, args, None

    def _get(self) -> Mapping[str, Any]:
        if self._fields is None:
            self._fields = self._make(*self._args)
            self._make = self._args = None
        return self._fields

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return f"Later({dict(self._get())!r})"


@attrs.frozen(eq=False)
class Deduction:
    """Candidates a heuristic proves impossible, with the reasons, for one explained step.

    removals: (variable, mask of candidates removed), non-empty, each mask new.
    premises: the decided variables the reasoning used; cells: clue cells it used;
    region: other cells worth highlighting (a lane, a room, an island).
    params: the fields of the heuristic's explanation template (a dict, or Later).
    detail: sub-steps, for hypotheses (what happened in each branch).
    resume: for the solve loop, not the explanation: where the heuristic's next look may go on
    from, as a focus (worked out only when asked for) whose look visits every site (number,
    pearl, line...) that this look would still visit after this deduction's, this one
    included, in the same order. The sites before it gave nothing, and give nothing again
    until something they read changes. None: look where this look looked again.
    """
    removals: tuple[tuple[int, int], ...]
    params: Mapping[str, Any] = attrs.field(factory=dict)
    premises: tuple[int, ...] = ()
    cells: tuple[Cell, ...] = ()
    region: tuple[int, ...] = ()
    detail: tuple[Any, ...] = ()
    # not part of what the deduction says, so two deductions differing only here are equal
    resume: Callable[[], Iterable[int]] | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def targets(self) -> tuple[int, ...]:
        return tuple(v for v, _ in self.removals)

    @staticmethod
    def build(state: State, *, put: Mapping[int, int] | None = None,
              exclude: Mapping[int, int] | None = None, keep: Mapping[int, int] | None = None,
              params: Mapping[str, Any] | None = None, premises: Iterable[int] = (),
              cells: Iterable[Cell] = (), region: Iterable[int] = (),
              detail: Iterable[Any] = ()) -> "Deduction | None":
        """A deduction from what must hold, keeping only what is new; None if nothing is.

        put: var -> the value it must take; exclude: var -> a value it cannot take;
        keep: var -> mask of the values it may still take.
        Putting a value that is no longer a candidate empties the variable: that is how a
        heuristic reports a contradiction, and the engine detects it.
        """
        cands = state.cands
        removed: dict[int, int] = {}
        if put:
            for var, value in put.items():
                m = cands[var]
                # every other candidate; all of them when the value is no longer one
                removed[var] = removed.get(var, 0) | (m & ~(1 << value) if m >> value & 1 else m)
        if exclude:
            for var, value in exclude.items():
                removed[var] = removed.get(var, 0) | (cands[var] & (1 << value))
        if keep:
            for var, mask in keep.items():
                removed[var] = removed.get(var, 0) | (cands[var] & ~mask)
        removals = tuple(sorted([(v, m) for v, m in removed.items() if m]))
        if not removals:
            return None
        fields = params if isinstance(params, Later) else dict(params or {})
        return Deduction(removals, fields, tuple(premises), tuple(cells), tuple(region), tuple(detail))

    def apply(self, state: State) -> State:
        return state.remove(self.removals)

    def highlights(self) -> list[tuple[str, tuple[int | Cell, ...]]]:
        """(role, variables or cells) for renderers: what changed, what it used, where it looked."""
        out: list[tuple[str, tuple[int | Cell, ...]]] = [("target", self.targets)]
        if self.premises or self.cells:
            out.append(("premise", tuple(self.premises) + tuple(self.cells)))
        if self.region:
            out.append(("region", tuple(self.region)))
        return out


def resuming(d: Deduction | None, sites: Sequence[int], at: int,
             key: Sequence[int] | Mapping[int, int] | None = None) -> Deduction | None:
    """d, found at sites[at] by a look that visits `sites` in order, resuming from there
    (Deduction.resume): at those sites themselves, or at a variable `key[site]` of each whose
    focused look visits that site."""
    if d is None:
        return None
    # built afresh rather than by attrs.evolve, which costs twice as much (this runs
    # for every deduction of a trial's fill)
    return Deduction(d.removals, d.params, d.premises, d.cells, d.region, d.detail,
                     resume=functools.partial(_sites_from, sites, at, key))


def _sites_from(sites: Sequence[int], at: int, key: Sequence[int] | Mapping[int, int] | None
                ) -> Iterable[int]:
    rest = sites[at:]
    return rest if key is None else [key[s] for s in rest]


class Status(str, enum.Enum):
    SOLVED = "solved"                # every variable decided, no rule broken
    STUCK = "stuck"                  # no technique applies: harder than level 5, or not unique
    CONTRADICTION = "contradiction"  # the marks or clues admit no solution
    BUDGET = "budget"                # the step or time budget ran out first


# Beyond this many deductions on offer, more of them no longer make a step easier to find.
AVAILABLE_CAP = 8


@attrs.frozen(eq=False)
class Step:
    """One deduction taken by the solve loop, with the level it needed and, where the solve
    counted them (Solver count_available: steps of levels 1-4 as hard as any before them), how
    many deductions that level offered at that moment, 1 to AVAILABLE_CAP: a lone step is
    harder to find than one of many."""
    number: int
    heuristic: "HeuristicInfo"
    deduction: Deduction
    available: int | None = None

    @property
    def level(self) -> int:
        return self.heuristic.level


@attrs.frozen(eq=False)
class Trace:
    """A solve path: the start, every step, and how it ended."""
    start: State
    steps: tuple[Step, ...]
    status: Status
    final: State
    seconds: float
    reason: str = ""                 # for contradiction/stuck: what was seen

    def states(self) -> Iterable[tuple[Step, State, State]]:
        """Replay the path: (step, state before, state after) for every step."""
        state = self.start
        for step in self.steps:
            after = step.deduction.apply(state)
            yield step, state, after
            state = after
