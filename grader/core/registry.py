"""Heuristics are plugins: metadata (HeuristicInfo) plus a find function, validated on
registration (pluggy-style) and served sorted by (level, order, id).

A genre's techniques are found through the entry-point group `grader.techniques` (name: the
genre, value: the module that registers them, see pyproject.toml), loaded the first time the
genre's techniques are asked for: the engine knows no technique module by name."""
from __future__ import annotations

import string
import threading
from importlib.metadata import entry_points
from typing import Callable, Iterator, Mapping, Protocol

import attrs

from grader.core.model import Puzzle, State
from grader.core.resources import rules_origin, rules_yaml
from grader.core.steps import Deduction

LEVELS = range(1, 6)


class FindFn(Protocol):
    def __call__(self, puzzle: Puzzle, state: State, focus: frozenset[int] | None = None
                 ) -> Iterator[Deduction]: ...


def template_fields(template: str) -> frozenset[str]:
    return frozenset(name.split(".")[0].split("[")[0]
                     for _, name, _, _ in string.Formatter().parse(template) if name)


@attrs.frozen
class HeuristicInfo:
    """What a technique is called, how hard it is, and how it explains itself.

    template: the full explanation, with named fields the deduction fills in;
    nudge: a first hint that points at where to look without giving the answer.
    uses_uniqueness: the technique assumes the puzzle has exactly one solution.
    counted: whether the count that rates a step (how many deductions its level offers, see
    Solver._available) looks at it; a long case split or look-ahead is not seen at a glance.
    """
    id: str
    name: str
    genre: str
    level: int
    template: str
    nudge: str
    order: int = 50
    score: int = 0
    uses_uniqueness: bool = False
    catalogue: str = ""   # the catalogue entry it implements, or "" for our own additions
    counted: bool = True

    @property
    def fields(self) -> frozenset[str]:
        return template_fields(self.template)

    @property
    def effective_score(self) -> int:
        """Default scores grow steeply with level, HoDoKu-style."""
        return self.score or (1, 3, 10, 40, 150)[self.level - 1]


@attrs.frozen(eq=False)
class Heuristic:
    info: HeuristicInfo
    fn: FindFn

    def find(self, puzzle: Puzzle, state: State, focus: frozenset[int] | None = None
             ) -> Iterator[Deduction]:
        """Deductions in this state; `focus` (changed variables) lets it look only nearby.
        A find function may yield None (Deduction.build found nothing new): it is dropped
        here, in one place, so nobody reads it as "nothing more" (a Deduction is always true;
        filter is a third of the cost of a generator wrapper, and this runs for every look)."""
        return filter(None, self.fn(puzzle, state, focus))

    def first(self, puzzle: Puzzle, state: State, focus: frozenset[int] | None = None
              ) -> Deduction | None:
        return next(self.find(puzzle, state, focus), None)

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def level(self) -> int:
        return self.info.level


class RegistrationError(ValueError):
    pass


@attrs.frozen
class TechniqueRow:
    """A technique's row of its genre's table, rules/techniques/<genre>.yaml (HoDoKu's
    StepConfig, Tatham's tiers): how hard it is (level 1-5, the catalogue's key; order among
    the techniques of that level, lower tried first; score of a step, 0 for the level's
    default), how it reads (name, template, nudge, catalogue entry), whether it assumes a
    unique solution and whether the count that rates a step looks at it (HeuristicInfo). A
    wording left out is the shared family's own. `family` names the shared
    technique the row registers (see register_families); the genre's own have none."""
    level: int
    order: int = 50
    score: int = 0
    name: str | None = None
    template: str | None = None
    nudge: str | None = None
    catalogue: str | None = None
    uses_uniqueness: bool | None = None
    counted: bool = True
    family: str | None = None


def table_name(genre: str) -> str:
    return f"techniques/{genre}.yaml"


def technique_table(genre: str) -> dict[str, TechniqueRow] | None:
    """The genre's table: technique id -> TechniqueRow. None when the genre has none (Arrows:
    its rule file gives each rule's complexity and wording)."""
    try:
        rows = rules_yaml(table_name(genre)) or {}
    except FileNotFoundError:
        return None
    try:
        return {hid: TechniqueRow(**row) for hid, row in rows.items()}
    except TypeError as exc:
        raise RegistrationError(f"{rules_origin(table_name(genre))}: {exc}") from None


PLUGIN_GROUP = "grader.techniques"


class Registry:
    def __init__(self, plugin_group: str | None = None,
                 table: Callable[[str], Mapping[str, TechniqueRow] | None] = lambda genre: None) -> None:
        self._by_id: dict[str, Heuristic] = {}
        self._group = plugin_group
        self._table = table
        self._tables: dict[str, Mapping[str, TechniqueRow] | None] = {}
        self._loaded: set[str] = set()
        self._loading: set[str] = set()
        self._lock = threading.RLock()     # batch workers may ask from several threads
        self.broken: dict[str, str] = {}   # genre -> why its techniques failed to load
        # for_genre's answers, by (genre, max_level): every fill of a trial asks again
        self._sorted: dict[tuple[str, int], list[Heuristic]] = {}

    def load(self, genre: str) -> None:
        """Import the genre's technique plugins, once; a failure is kept in `broken`."""
        if self._group is None or genre in self._loaded:
            return
        with self._lock:                   # other threads wait until loading is complete
            if genre in self._loaded or genre in self._loading:
                return                     # a plugin asking for its own genre while it loads
            self._loading.add(genre)
            try:
                for ep in entry_points(group=self._group, name=genre):
                    ep.load()
            except Exception as exc:  # noqa: BLE001 - reported by `grader genres`
                self.broken[genre] = f"{type(exc).__name__}: {exc}"
                for hid in [k for k, h in self._by_id.items() if h.info.genre == genre]:
                    del self._by_id[hid]
                self._sorted.clear()
            finally:
                self._loading.discard(genre)
                self._loaded.add(genre)

    def register(self, info: HeuristicInfo, fn: FindFn) -> Heuristic:
        if info.id in self._by_id:
            raise RegistrationError(f"heuristic id {info.id!r} registered twice")
        if info.level not in LEVELS:
            raise RegistrationError(f"{info.id}: level {info.level} is not 1..5")
        if not info.name or not info.template or not info.nudge:
            raise RegistrationError(f"{info.id}: a technique needs a name, template and nudge "
                                    f"(rules/{table_name(info.genre)})")
        try:
            fields = info.fields
            extra = template_fields(info.nudge) - fields
        except ValueError as exc:
            raise RegistrationError(f"{info.id}: bad template: {exc}") from None
        if extra:
            raise RegistrationError(f"{info.id}: nudge uses fields not in the template: {sorted(extra)}")
        h = Heuristic(info, fn)
        self._by_id[info.id] = h
        self._sorted.clear()
        return h

    def table(self, genre: str) -> Mapping[str, TechniqueRow] | None:
        if genre not in self._tables:
            self._tables[genre] = self._table(genre)
        return self._tables[genre]

    def row(self, genre: str, hid: str, given: TechniqueRow | None) -> TechniqueRow:
        """The table's row for a technique. Code may give one only for a genre without a
        table (rules compiled with their own complexity, a test's own registry)."""
        table = self.table(genre)
        if table is None:
            if given is None:
                raise RegistrationError(f"{hid}: no level; add it to rules/{table_name(genre)}")
            return given
        if hid not in table:
            raise RegistrationError(f"{hid}: not in rules/{table_name(genre)}")
        return table[hid]

    def unlisted(self, genre: str) -> list[str]:
        """Rows of the genre's table that name no registered technique."""
        self.load(genre)
        return sorted(set(self.table(genre) or ()) - {h.id for h in self if h.info.genre == genre})

    def get(self, hid: str) -> Heuristic:
        self.load(hid.split(".")[0])
        if hid not in self._by_id and self._group is not None:
            for ep in entry_points(group=self._group):   # an id whose prefix is not its genre's name
                self.load(ep.name)
        return self._by_id[hid]

    def for_genre(self, genre: str, max_level: int = 5) -> list[Heuristic]:
        """The genre's techniques up to `max_level`, easiest first (a new list each time)."""
        self.load(genre)
        key = (genre, max_level)
        hs = self._sorted.get(key)
        if hs is None:
            hs = sorted((h for h in self._by_id.values() if h.info.genre == genre and h.level <= max_level),
                        key=lambda h: (h.level, h.info.order, h.id))
            if genre not in self._loading:      # a genre still registering is not cached
                self._sorted[key] = hs
        return list(hs)

    def __iter__(self):
        return iter(self._by_id.values())


REGISTRY = Registry(PLUGIN_GROUP, technique_table)


def heuristic(*, id: str, genre: str, name: str | None = None, template: str | None = None,
              nudge: str | None = None, catalogue: str = "", uses_uniqueness: bool = False,
              level: int | None = None, order: int = 50, score: int = 0, counted: bool = True,
              registry: Registry | None = None) -> Callable[[FindFn], Heuristic]:
    """Register a find function as technique `id` of `genre`: `@heuristic(id=..., genre=GENRE)`.
    Its row of the genre's table gives its level, order, score and wording; a wording the code
    gives (a shared family's own, or all of it for a genre without a table) is what the row
    may leave out."""
    def wrap(fn: FindFn) -> Heuristic:
        reg = registry or REGISTRY
        row = reg.row(genre, id, None if level is None else TechniqueRow(level, order, score, counted=counted))

        def pick(ours, theirs):
            return theirs if ours is None else ours
        info = HeuristicInfo(id=id, genre=genre, level=row.level, order=row.order, score=row.score,
                             name=pick(row.name, name), template=pick(row.template, template),
                             nudge=pick(row.nudge, nudge), catalogue=pick(row.catalogue, catalogue),
                             uses_uniqueness=pick(row.uses_uniqueness, uses_uniqueness),
                             counted=row.counted)
        return reg.register(info, fn)
    return wrap


Family = tuple[Mapping[str, str] | None, FindFn]   # a shared technique: its wording, its finder


def register_families(genre: str, families: Mapping[str, Family],
                      registry: Registry | None = None) -> list[Heuristic]:
    """Register each row of the genre's table whose `family` is one of `families` (key: the
    family's name), with that family's finder and, where the row leaves it out, its wording."""
    reg = registry or REGISTRY
    out = []
    for hid, row in (reg.table(genre) or {}).items():
        if row.family in families:
            wording, find = families[row.family]
            out.append(heuristic(id=hid, genre=genre, registry=reg, **(wording or {}))(find))
    return out


def check_params(info: HeuristicInfo, deduction: Deduction) -> None:
    """A deduction must fill every field of its heuristic's template."""
    missing = info.fields - deduction.params.keys()
    if missing:
        raise RegistrationError(f"{info.id}: deduction lacks template fields {sorted(missing)}")
