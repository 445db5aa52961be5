"""Facts kept up to date from a recent state's (grader/kernels/recent.py) give what a fresh
computation gives, in valid and in broken states alike.

A fact updated from the cache of recent states and the same fact computed afresh must agree
on everything a reason or a contradiction can name: otherwise one position is explained at one
place by `grader explain` and at another by a hint, depending on what the cache held. Each
test walks random states of real puzzles (the evaluation corpus, else corpus/, so it never
skips): a few cells at a time, mostly their true values, some wrong and some emptied (a
trial's broken state), now and then back to an earlier state (a trial's next branch). Every
state's fact, computed with warm caches, is compared with the fact of the same candidates
computed with no cache at all; so are the genre's violations and the deductions of the
techniques that read it.
"""
from __future__ import annotations

import contextlib
import random
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from grader.core.model import Puzzle, State
from grader.core.registry import REGISTRY
from grader.io.read import load
from grader.kernels.recent import Recent
from support import CORPUS, SHARED, janko, reference

# --- the walk --------------------------------------------------------------------------------


def sample(genre: str, count: int = 2, max_cells: int = 100) -> list[Puzzle]:
    """Small janko puzzles of the genre, else the genre's files of corpus/ (never a skip)."""
    if (SHARED / "janko" / f"{genre}.jsonl").exists():
        return janko(genre, count, seed=7, max_cells=max_cells)
    files = sorted((CORPUS / genre).glob("*.yaml"))
    assert files, f"no puzzle of {genre} in corpus/"
    return [load(str(f)) for f in files[:count]]


def walk(puzzle: Puzzle, rng: random.Random, length: int = 40, wrong: float = 0.25) -> Iterator[State]:
    """Random states of a solve and its trials: each narrows the one before (made by
    State.remove, as a step makes it) or an earlier one; about one in five empties a
    variable (decided or not), a share `wrong` of the values set are wrong."""
    truth = puzzle.genre.solution_state(puzzle) or reference(puzzle)
    start = puzzle.genre.initial_state(puzzle)
    seen, state = [start], start
    for _ in range(length):
        if rng.random() < 0.2:
            state = rng.choice(seen)            # the start of a trial's next branch
        open_ = state.undecided()
        if not open_:
            state = start
            continue
        removals = []
        for var in rng.sample(open_, min(len(open_), rng.randint(1, 4))):
            m, r = state.cands[var], rng.random()
            if r < 0.02:
                keep = 0                        # emptied: a broken state
            elif r >= wrong:
                keep = m & truth.cands[var]
            else:
                keep = 1 << rng.choice([b for b in range(m.bit_length()) if m >> b & 1])
            removals.append((var, m & ~keep))
        decided = [v for v, m in enumerate(state.cands) if m and not m & (m - 1)]
        if decided and rng.random() < 0.15:
            var = rng.choice(decided)           # a decided variable emptied (a broken state)
            removals.append((var, state.cands[var]))
        state = state.remove(removals)
        if rng.random() < 0.1:
            state = State(state.cands)          # no origin: found among the recent states
        seen.append(state)
        yield state


@contextlib.contextmanager
def afresh() -> Iterator[None]:
    """Every Recent cache computes its fact in full (as with nothing cached)."""
    saved = Recent.get
    Recent.get = lambda self, state, full, update: full()
    try:
        yield
    finally:
        Recent.get = saved


def said(puzzle: Puzzle, state: State, hids: list[str]) -> list[Any]:
    """The genre's violations and what each technique deduces, in their order, as words."""
    out: list[Any] = [v.message for v in puzzle.genre.violations(puzzle, state)]
    for hid in hids:
        out.extend((hid, step_words(d), d.premises, d.cells, d.region)
                   for d in REGISTRY.get(hid).find(puzzle, state))
    return out


def step_words(d: Any) -> Any:
    """A deduction's removals and the words of its explanation (None: no deduction)."""
    return None if d is None else (d.removals, sorted((k, repr(v)) for k, v in dict(d.params).items()))


def assert_same_updated_and_fresh(genre: str, fact: Callable[[Puzzle, State], Any], hids: list[str],
                                  walks: int = 3, count: int = 2) -> None:
    """For random states of the genre's puzzles: fact and words with warm caches equal those
    computed afresh. Broken states must be among them."""
    broken = 0
    for p in sample(genre, count):
        rng = random.Random(Path(p.meta.origin).name)     # (the same walks wherever the corpus is)
        for _ in range(walks):
            for state in walk(p, rng):
                warm = fact(p, state), said(p, state, hids)
                with afresh():
                    fresh_state = State(state.cands)
                    fresh = fact(p, fresh_state), said(p, fresh_state, hids)
                assert warm == fresh, f"{p.meta.origin}: state {state.cands}"
                broken += state.broken or bool(warm[1] and isinstance(warm[1][0], str))
    assert broken, "no broken state was tried"


def techniques(genre: str, max_level: int) -> list[str]:
    return [h.id for h in REGISTRY.for_genre(genre, max_level)]


# --- the facts -------------------------------------------------------------------------------

def pieces_of_line(puzzle: Puzzle, state: State) -> Any:
    """kernels/loops.py paths, with its piece numbers (labels) replaced by the pieces' cells."""
    from grader.kernels.loops import paths
    ps = paths(puzzle.graph, state)
    cells = {c: tuple(sorted(m)) for c, m in ps.members.items()}
    return (ps.degree, sorted(ps.end_of.items()), sorted(cells[c] for c in ps.loops), ps.pieces,
            ps.lines, ps.branching, [cells[c][0] if c >= 0 else -1 for c in ps.comp],
            sorted((cells[c], ps.edges_in[c], ps.ends[c], c in ps.branched) for c in cells))


def corner_sides(puzzle: Puzzle, state: State) -> Any:
    """heuristics/common/cell_loops.py: the corners' groups and their sides within each."""
    from heuristics.common import cell_loops
    graph = puzzle.graph
    straight = tuple(puzzle.pearls_of[1]) if puzzle.genre.name == "masyu" else ()     # white pearls
    sides = cell_loops._shared_sides(puzzle.rows, puzzle.cols, graph.edge_vars[0], graph, state, straight)
    groups: dict[int, list[tuple[int, int]]] = {}
    for x, r in enumerate(sides.root):
        groups.setdefault(r, []).append(x)
    # a group's sides relative to its first corner (which name a group has is a label)
    rel = [sides.side[x] ^ sides.side[groups[sides.root[x]][0]] for x in range(len(sides.root))]
    return sorted(groups.values()), rel, bytes(sides.linked), sides.broken


def chains(puzzle: Puzzle, state: State) -> Any:
    """kernels/cell_shapes.py chains, pieces by their cells."""
    from grader.kernels import cell_shapes
    ch = cell_shapes.chains(puzzle, state)
    first = {r: min(m) for r, m in ch.members.items()}
    return (ch.can, ch.must, sorted(sorted(m) for m in ch.members.values()),
            [first.get(r, r) for r in ch.root], ch.labels,
            sorted((first.get(r, r), lab) for r, lab in ch.label_of_root.items()), ch.loop, ch.clash)


def territory(puzzle: Puzzle, state: State) -> Any:
    from heuristics.numberlink.territory import territory
    t = territory(puzzle, state)
    routes = {lab: None if r is None else (sorted(r.cells), r.bridges, r.cuts) for lab, r in t.routes.items()}
    return routes, t.owner, t.who, t.closed, t.finished, t.open


def akari_facts(puzzle: Puzzle, state: State) -> Any:
    """Every fact of heuristics/akari.py and the lit cells of its model, in their order."""
    from heuristics import akari
    from grader.genres.akari.model import lighting
    pairs, steps = akari.two_pairs_steps(puzzle, state)
    ways = akari.wall_combination_steps(puzzle, state)
    return (sorted(lighting(puzzle, state).lit), list(akari.counts_of_open_walls(puzzle, state).items()),
            sorted(akari.starved_walls(puzzle, state).items()), list(akari.darkening_bulbs(puzzle, state).items()),
            list(akari.choices(puzzle, state).items()), list(pairs.items()),
            [(k, [step_words(d) for d in found]) for k, (found, _) in steps.items()],
            [(w, ww.free, [(way.chosen, sorted(way.barred), way.broken) for way in ww.ways], step_words(ww.step))
             for w, ww in ways.items()],
            akari.interchangeable_pairs(puzzle, state))


def nurikabe_facts(puzzle: Puzzle, state: State) -> Any:
    """The island and wall sides of the model (components and all), and every island's reach."""
    from grader.genres.nurikabe.model import sides
    from heuristics.nurikabe import reach
    out = [(s.possible, s.decided, s.decided_parts, s.possible_parts, s.decided_cells)
           for s in sides(puzzle, state)]
    return out, sorted((k, sorted(dist.items()), sorted(support))
                       for k, (dist, support) in reach._entries(puzzle, state).items())


def corner_counts(puzzle: Puzzle, state: State) -> Any:
    """heuristics/slitherlink/angles.py: the count each corner may still have, and a corner
    with none (a broken position)."""
    from heuristics.slitherlink.angles import corner_facts
    facts = corner_facts(puzzle, state)
    return facts.X, facts.broken


def kuromasu_views(puzzle: Puzzle, state: State) -> Any:
    """Every number's view, and what a change at each cell can do to them (rays_at)."""
    from heuristics.kuromasu import rays_at, views_in
    views, rays = views_in(puzzle, state), rays_at(puzzle, state)
    return [views[k] for k in puzzle.numbered], [rays[j] for j in range(puzzle.rows * puzzle.cols)]


# --- the tests -------------------------------------------------------------------------------

@pytest.mark.parametrize("genre", ["slitherlink", "masyu", "yajilin"])
def test_pieces_of_line(genre):
    assert_same_updated_and_fresh(genre, pieces_of_line, [])


@pytest.mark.parametrize("genre", ["masyu", "yajilin"])
def test_corner_sides(genre):
    assert_same_updated_and_fresh(genre, corner_sides, [h for h in techniques(genre, 5) if h.endswith("inside-outside")])


def test_slitherlink_corner_chain():
    assert_same_updated_and_fresh("slitherlink", corner_counts, ["slitherlink.corner-chain"])


def test_numberlink_chains_and_territory():
    assert_same_updated_and_fresh("numberlink", lambda p, s: (chains(p, s), territory(p, s)),
                                  techniques("numberlink", 1) + [f"numberlink.{hid}" for hid in (
                                      "out-of-reach", "unused-join", "same-line", "bottleneck", "owned-no-touch")])


def test_numberlink_open_joins():
    from heuristics.numberlink.parity import open_joins
    assert_same_updated_and_fresh("numberlink", open_joins, ["numberlink.parity"])


def test_akari():
    assert_same_updated_and_fresh("akari", akari_facts, techniques("akari", 3) + ["akari.interchangeable-bulbs"])


def test_nurikabe():
    assert_same_updated_and_fresh("nurikabe", nurikabe_facts, techniques("nurikabe", 3))


def test_kuromasu():
    assert_same_updated_and_fresh("kuromasu", kuromasu_views, techniques("kuromasu", 3))


def shading_facts(puzzle: Puzzle, state: State) -> Any:
    """kernels/shading.py walls (with its labels replaced by the walls' members) and the
    open side's parts and cut cells."""
    from grader.kernels.shading import open_side, walls
    w = walls(puzzle, state)
    groups: dict[int, list[int]] = {}
    for x, r in enumerate(w.root):
        groups.setdefault(r, []).append(x)
    side = open_side(puzzle, state)
    return (sorted(groups.values()), side.possible_parts, side.decided_parts, side.decided_cells,
            side.possible_splits, side.stranded, side.apart)


def test_shading_walls_and_open_side():
    assert_same_updated_and_fresh("heyawake", shading_facts, techniques("heyawake", 2))


def test_numberlink_clash_named_alike_however_reached():
    """Two numbers' lines joined by one cell: the clash (and the label each cell carries) is
    the same when the chains are updated from a state with both pieces drawn as when they are
    found afresh (walks seldom join two lines; a look-ahead's fill often does)."""
    from grader.kernels.cell_shapes import SHAPES, E, W
    from support import native
    p = native("genre: numberlink\ngrid: |\n  1 . . . 2\n  1 . . . 2\n")
    ends, link = 1 << SHAPES.index(E), 1 << SHAPES.index(E | W)
    s = p.genre.initial_state(p)
    both_drawn = s.remove([(0, s.cands[0] & ~ends), (1, s.cands[1] & ~link), (3, s.cands[3] & ~link),
                           (4, s.cands[4] & ~(1 << SHAPES.index(W)))])
    chains(p, both_drawn)
    joined = both_drawn.restrict(2, link)
    updated = chains(p, joined)
    with afresh():
        assert updated == chains(p, State(joined.cands))
