"""The shared loop machinery (grader/kernels/loops.py, heuristics/common/loops.py) on small
hand-made graphs."""
from __future__ import annotations

import random

import attrs
import pytest

from grader.genres import get
from grader.core.registry import REGISTRY
from grader.core.model import State
from grader.kernels import loops as kernel
from grader.kernels.loops import B_CROSS, B_LINE, CROSS, LINE, OPEN, LoopGraph
from grader.kernels.recent import narrowed
from heuristics.common import loops
from support import assert_all_sound, janko, random_partial


def square_2x2() -> LoopGraph:
    """A 3x3 grid of cells as a cell graph: 12 edges, 9 vertices."""
    return LoopGraph.cell_grid(3, 3)


def state_of(g: LoopGraph, lines=(), crosses=()) -> State:
    cands = [OPEN] * g.n_edges
    for e in lines:
        cands[g.edge_vars[e]] = B_LINE
    for e in crosses:
        cands[g.edge_vars[e]] = B_CROSS
    return State(tuple(cands))


def edge(g: LoopGraph, a: str, b: str) -> int:
    names = list(g.vertex_names)
    return g.edges_between(names.index(a), names.index(b))[0]


def test_cell_grid_shape():
    g = square_2x2()
    assert g.n_vertices == 9 and g.n_edges == 12
    assert g.edge_names[0] == "r1c1-r1c2"
    assert sorted(len(i) for i in g.incident) == [2, 2, 2, 2, 3, 3, 3, 3, 4]


def test_cycle_through():
    """The vertices of the closed loop through an edge, in order from its first end; None on
    an open path or where a line branches."""
    g = square_2x2()
    square = [edge(g, "r1c1", "r1c2"), edge(g, "r1c2", "r2c2"), edge(g, "r2c2", "r2c1"), edge(g, "r2c1", "r1c1")]
    names = g.vertex_names
    cycle = kernel.cycle_through(g, state_of(g, lines=square), square[0])
    assert [names[v] for v in cycle] == ["r1c1", "r2c1", "r2c2", "r1c2"]
    assert kernel.cycle_through(g, state_of(g, lines=square[:3]), square[0]) is None
    branched = state_of(g, lines=square + [edge(g, "r2c2", "r3c2")])
    assert kernel.cycle_through(g, branched, square[0]) is None


def test_local_loop_problem_closing_and_open_lines():
    """Several new lines of one open piece say nothing (the piece is walked once); a new line
    that closes the loop with another line left outside is named."""
    g = square_2x2()
    square = [edge(g, "r1c1", "r1c2"), edge(g, "r1c2", "r2c2"), edge(g, "r2c2", "r2c1"), edge(g, "r2c1", "r1c1")]
    never = lambda state, v: None       # noqa: E731
    assert kernel.local_loop_problem(g, state_of(g, lines=square[:3]), [g.edge_vars[e] for e in square[:3]],
                                     never) == ""
    outside = edge(g, "r3c2", "r3c3")
    closed = state_of(g, lines=square + [outside])
    assert kernel.local_loop_problem(g, closed, [g.edge_vars[square[0]]], never) == \
        "the loop would close with other lines outside it"
    assert kernel.local_loop_problem(g, state_of(g, lines=square), [g.edge_vars[e] for e in square], never) == ""


def test_vertex_full_fires_and_not():
    g = square_2x2()
    s = state_of(g, lines=[edge(g, "r2c1", "r2c2"), edge(g, "r1c2", "r2c2")])
    (d,) = list(loops.vertex_full(g, s))
    assert d.params["vertex"] == "r2c2"
    assert sorted(d.params["edges"]) == ["r2c2-r2c3", "r2c2-r3c2"]
    assert all(m == B_LINE for _, m in d.removals)
    s = state_of(g, lines=[edge(g, "r2c1", "r2c2")])
    assert list(loops.vertex_full(g, s)) == []


def test_vertex_extend_and_dead_end():
    g = square_2x2()
    s = state_of(g, lines=[edge(g, "r1c1", "r1c2")], crosses=[edge(g, "r1c2", "r2c2")])
    found = list(loops.vertex_extend(g, s))
    assert [d.params["edge"] for d in found] == ["r1c2-r1c3", "r1c1-r2c1"] or \
        sorted(d.params["edge"] for d in found) == ["r1c1-r2c1", "r1c2-r1c3"]
    s = state_of(g, crosses=[edge(g, "r1c1", "r1c2")])
    (d,) = list(loops.vertex_dead_end(g, s))
    assert d.params == {"vertex": "r1c1", "edge": "r1c1-r2c1"}
    # a required corner is left to violations, not crossed
    assert list(loops.vertex_dead_end(g, s, lambda st, v: v == 0)) == []
    assert list(loops.vertex_extend(g, state_of(g))) == []


def test_vertex_required_and_forbidden():
    g = square_2x2()
    s = state_of(g)
    (d,) = [d for d in loops.vertex_required(g, s, lambda st, v: v == 0)]
    assert sorted(d.params["edges"]) == ["r1c1-r1c2", "r1c1-r2c1"]
    assert list(loops.vertex_required(g, s, lambda st, v: None)) == []
    (d,) = list(loops.vertex_forbidden(g, s, lambda st, v: False if v == 4 else None))
    assert d.params["vertex"] == "r2c2" and len(d.params["edges"]) == 4


def test_paths_and_premature_loop():
    g = square_2x2()
    # a U through r1c1, r2c1, r2c2, r1c2: closing r1c1-r1c2 makes a small loop
    s = state_of(g, lines=[edge(g, "r1c1", "r2c1"), edge(g, "r2c1", "r2c2"), edge(g, "r2c2", "r1c2")])
    p = kernel.paths(g, s)
    assert p.pieces == 1 and p.end_of[0] == 1 and p.lines == 3
    # r3c3 must be visited: closing leaves it out
    req = lambda st, v: v == 8
    (d,) = list(loops.premature_loop(g, s, lambda st: True, req))
    assert d.params["edge"] == "r1c1-r1c2" and "r3c3" in d.params["reason"]
    assert d.removals == ((g.edge_vars[edge(g, "r1c1", "r1c2")], B_LINE),)
    # nothing required and the rest accepts: closing is allowed
    assert list(loops.premature_loop(g, s, lambda st: True)) == []
    assert len(list(loops.premature_loop(g, s, lambda st: False))) == 1
    # another piece of line elsewhere forbids closing
    s2 = state_of(g, lines=[edge(g, "r1c1", "r2c1"), edge(g, "r2c1", "r2c2"),
                            edge(g, "r2c2", "r1c2"), edge(g, "r3c2", "r3c3")])
    (d,) = list(loops.premature_loop(g, s2, lambda st: True))
    assert "outside" in d.params["reason"]


def test_violations():
    g = square_2x2()
    assert kernel.loop_violations(g, state_of(g)) == []
    three = state_of(g, lines=[edge(g, "r2c2", x) for x in ("r1c2", "r2c1", "r2c3")])
    assert any("3 lines meet at r2c2" in v.message for v in kernel.loop_violations(g, three))
    dead = state_of(g, lines=[edge(g, "r1c1", "r1c2")], crosses=[edge(g, "r1c1", "r2c1")])
    assert any("ends at r1c1" in v.message for v in kernel.loop_violations(g, dead))
    ring = [edge(g, "r1c1", "r2c1"), edge(g, "r2c1", "r2c2"), edge(g, "r2c2", "r1c2"),
            edge(g, "r1c1", "r1c2")]
    assert kernel.loop_violations(g, state_of(g, lines=ring)) == []
    assert kernel.loop_violations(g, state_of(g, lines=ring), lambda st, v: v == 8)
    assert kernel.loop_violations(g, state_of(g, lines=ring + [edge(g, "r3c2", "r3c3")]))
    done = state_of(g, lines=ring, crosses=[e for e in range(g.n_edges) if e not in ring])
    assert kernel.loop_violations(g, done) == [] and kernel.is_loop_done(g, done)
    assert kernel.loop_violations(g, state_of(g, crosses=range(g.n_edges)))


def test_focus_limits_vertices():
    g = square_2x2()
    var = g.edge_vars[edge(g, "r1c1", "r1c2")]
    assert list(g.vertices_to_check(frozenset({var}))) == [0, 1]
    # the last answer is kept: another focus, then the first again, each gets its own
    other = g.edge_vars[edge(g, "r2c2", "r3c2")]
    assert list(g.vertices_to_check({other, var})) == [0, 1, 4, 7]
    assert list(g.vertices_to_check(frozenset({var}))) == [0, 1]
    assert CROSS == 0 and LINE == 1


def test_isolated_areas_and_bridges():
    g = square_2x2()
    # a line r1c1-r1c2; r3c3's two edges to the rest are crossed: its corner is cut off
    cut = [edge(g, "r2c3", "r3c3"), edge(g, "r3c2", "r3c3")]
    s = state_of(g, lines=[edge(g, "r1c1", "r1c2")], crosses=cut)
    assert list(loops.isolated_areas(g, s)) == []      # r3c3 has no open edge left
    cut2 = [edge(g, "r2c2", "r3c2"), edge(g, "r2c1", "r3c1"), edge(g, "r2c3", "r3c3")]
    s2 = state_of(g, lines=[edge(g, "r1c1", "r1c2")], crosses=cut2)
    (d,) = list(loops.isolated_areas(g, s2))
    assert sorted(d.params["edges"]) == ["r3c1-r3c2", "r3c2-r3c3"]
    assert list(loops.isolated_areas(g, state_of(g))) == []


def test_gaps_bridges_and_pairs():
    g = LoopGraph.cell_grid(4, 4)
    # the top right 2x2 block hangs on the rest by r2c3-r3c3 alone: no loop can use that edge
    pocket = [edge(g, "r1c2", "r1c3"), edge(g, "r2c2", "r2c3"), edge(g, "r2c4", "r3c4")]
    s = state_of(g, lines=[edge(g, "r4c1", "r4c2")], crosses=pocket)
    assert [(g.edge_names[e], g.vertex_names[v]) for e, v in loops.gaps(g, s, None).bridges] == [
        ("r2c3-r3c3", "r2c3")]
    (d,) = list(loops.dead_end_areas(g, s))
    assert d.params["edge"] == "r2c3-r3c3" and d.removals == ((g.edge_vars[edge(g, "r2c3", "r3c3")], B_LINE),)
    # with a line in the block as well, the bridge would have to carry it: a contradiction
    both = state_of(g, lines=[edge(g, "r4c1", "r4c2"), edge(g, "r1c3", "r1c4")], crosses=pocket)
    (d,) = list(loops.dead_end_areas(g, both))
    assert d.params["edge"] == "r2c3-r3c3"
    # columns 1-2 and 3-4 meet only in rows 1 and 4, with lines on both sides
    split = [edge(g, "r2c2", "r2c3"), edge(g, "r3c2", "r3c3")]
    sides = [edge(g, "r2c1", "r3c1"), edge(g, "r2c4", "r3c4")]
    (d,) = list(loops.two_ways_across(g, state_of(g, lines=sides, crosses=split)))
    assert sorted(d.params["edges"]) == ["r1c2-r1c3", "r4c2-r4c3"]
    assert {v for v, _ in d.removals} == {g.edge_vars[edge(g, "r1c2", "r1c3")], g.edge_vars[edge(g, "r4c2", "r4c3")]}
    # without a line on the right there is nothing the loop must reach there
    assert list(loops.two_ways_across(g, state_of(g, lines=sides[:1], crosses=split))) == []
    assert list(loops.dead_end_areas(g, state_of(g))) == [] and list(loops.two_ways_across(g, state_of(g))) == []


def test_gaps_agree_with_brute_force():
    """Bridges and the two-edge cuts found by labels are exactly those a search finds."""
    import random
    g = LoopGraph.cell_grid(4, 5)
    rng = random.Random(3)
    for _ in range(40):
        crossed = [e for e in range(g.n_edges) if rng.random() < 0.3]
        s = state_of(g, crosses=crossed)
        live = [e for e in range(g.n_edges) if e not in crossed]
        parts = lambda gone: loops._parts_without(g, s, gone)
        base = parts(())
        brute = sorted(e for e in live if parts((e,))[g.ends[e][0]] != parts((e,))[g.ends[e][1]])
        assert sorted(e for e, _ in loops.gaps(g, s, None).bridges) == brute
        cut_pairs = {(e, f) for i, e in enumerate(live) for f in live[i + 1:]
                     if e not in brute and f not in brute and len(set(parts((e, f)))) > len(set(base))}
        found = loops._cut_classes(g, s)
        assert {(e, f) for cls in found for i, e in enumerate(cls) for f in cls[i + 1:]} == cut_pairs


def test_facts_kept_by_crossings_equal_new_ones():
    """Within a solve, the parts, open degrees and tree of a state are kept by its crossings:
    a state with other lines but the same crossings gets the same object, and each equals one
    worked out afresh."""
    from grader.core.engine import remembering
    g = LoopGraph.cell_grid(4, 5)
    rng = random.Random(7)
    with remembering():
        for _ in range(30):
            crossed = [e for e in range(g.n_edges) if rng.random() < 0.35]
            lines = [e for e in range(g.n_edges) if e not in crossed and rng.random() < 0.3]
            s, bare = state_of(g, lines=lines, crosses=crossed), state_of(g, crosses=crossed)
            same_part = lambda part: [[x == y for y in part] for x in part]
            assert same_part(kernel.open_parts(g, s)) == same_part(loops._parts_without(g, s, ()))
            assert kernel.open_degrees(g, s) == [len(kernel.split(g, s.cands, v)[0] + kernel.split(g, s.cands, v)[1])
                                                 for v in range(g.n_vertices)]
            assert [kernel._open_degree(g, s.cands, v) for v in range(g.n_vertices)] == kernel.open_degrees(g, s)
            assert kernel.open_parts(g, bare) is kernel.open_parts(g, s)
            assert loops._shared_tree(g, bare) is loops._shared_tree(g, s) == loops._tree(g, s)
    with remembering():                # a tree made first gives the parts: the same labels
        fresh = State(s.cands)
        loops._shared_tree(g, fresh)
        assert kernel.open_parts(g, fresh) == kernel.label_parts(g, fresh.cands)


def test_crossings_key_on_scattered_variables():
    """Edge variables out of one run are read one by one: the same key for the same crossings."""
    g = LoopGraph(("a", "b", "c"), ((0, 1), (1, 2), (2, 0)), (7, 2, 4))
    cands = [OPEN] * 8
    cands[2] = B_CROSS
    key = kernel.crossings(g, cands)
    cands[7] = B_LINE
    assert kernel.crossings(g, cands) == key != kernel.crossings(g, [OPEN] * 8)


def test_narrowed_lists_only_narrowings():
    old, new = (3, 3, 3, 2), (3, 1, 3, 2)
    assert narrowed(old, new, 5) == [1]
    assert narrowed(new, old, 5) is None             # a candidate came back
    assert narrowed(old, (1, 1, 1, 2), 2) is None    # more changes than the limit
    assert narrowed(old, old, 0) == []


def _canonical(p: kernel.Paths):
    """Paths with piece labels replaced by their sorted vertices (labels are arbitrary)."""
    piece = {c: tuple(sorted(vs)) for c, vs in p.members.items()}
    return (tuple(piece.get(c) for c in p.comp), p.degree, sorted(p.end_of.items()),
            sorted(piece[c] for c in p.loops), p.pieces, p.lines,
            sorted((piece[c], n) for c, n in p.edges_in.items()), p.branching)


def test_paths_updated_step_by_step_equal_recomputed():
    import random
    rng = random.Random(5)
    for _ in range(40):
        g = LoopGraph.cell_grid(rng.randint(2, 5), rng.randint(2, 5))
        cands = [OPEN] * g.n_edges
        for e in rng.sample(range(g.n_edges), g.n_edges):
            cands[e] = rng.choice([B_LINE, B_LINE, B_CROSS])
            s = State(tuple(cands))
            assert _canonical(kernel.paths(g, s)) == _canonical(kernel._compute_paths(g, s))
        # a trial from an earlier state (not the newest remembered one) is updated too
        early = State(tuple(B_LINE if i < 3 else OPEN for i in range(g.n_edges)))
        assert _canonical(kernel.paths(g, early)) == _canonical(kernel._compute_paths(g, early))


def test_enclosures_sharing_ends_are_one():
    """Two empty areas reached from the same loose ends are tied as one: r1c3, r2c2, r2c3 and
    r2c4 above, r3c3 below (r2c3-r3c3 crossed), between the ends r1c2, r1c4, r3c2 and r3c4."""
    from heuristics.common import cell_loops
    g = LoopGraph.cell_grid(3, 5)
    left = [edge(g, "r1c1", "r1c2"), edge(g, "r1c1", "r2c1"), edge(g, "r2c1", "r3c1"), edge(g, "r3c1", "r3c2")]
    right = [edge(g, "r1c4", "r1c5"), edge(g, "r1c5", "r2c5"), edge(g, "r2c5", "r3c5"), edge(g, "r3c4", "r3c5")]
    crosses = [edge(g, "r2c1", "r2c2"), edge(g, "r2c4", "r2c5"), edge(g, "r2c3", "r3c3")]
    s = state_of(g, lines=left + right, crosses=crosses)
    (enc,) = cell_loops.enclosures(g, s, lambda v: True, max_cells=8, max_ends=4)
    assert sorted(g.vertex_names[v] for v in enc.cells) == ["r1c3", "r2c2", "r2c3", "r2c4", "r3c3"]
    assert [g.vertex_names[a] for a in enc.ends] == ["r1c2", "r1c4", "r3c2", "r3c4"]
    # with r3c3's way up open, it is simply one area; closed off entirely, r3c3 is no area of theirs
    assert len(cell_loops.enclosures(g, state_of(g, lines=left + right, crosses=crosses[:2]),
                                     lambda v: True, max_cells=8, max_ends=4)) == 1
    shut = crosses + [edge(g, "r3c2", "r3c3"), edge(g, "r3c3", "r3c4")]
    assert [sorted(g.vertex_names[v] for v in e.cells) for e in cell_loops.enclosures(
        g, state_of(g, lines=left + right, crosses=shut), lambda v: True, max_cells=8, max_ends=4)] == [
        ["r1c3", "r2c2", "r2c3", "r2c4"]]


@pytest.mark.parametrize("genre", ["slitherlink", "masyu", "yajilin"])
def test_cut_rules_sound_on_random_states(genre):
    """The cut rules (an area with one way in, every way across) on real puzzles with part
    of the solution drawn at random: each fires, and keeps the true values."""
    rng = random.Random(2)
    fired = {"dead-end-area": 0, "two-ways-across": 0}
    for p in janko(genre, 3, seed=5, max_cells=100):
        solution = get(genre).solution_state(p)
        for _ in range(4):
            state = random_partial(p, solution, rng, rng.choice((0.5, 0.7, 0.85)))
            for hid in fired:
                fired[hid] += assert_all_sound(REGISTRY.get(f"{genre}.{hid}"), p, state, solution)
    assert all(fired.values()), fired


def test_sides_agree_with_a_search_along_links():
    """The union-find with parities gives the relation a search along the links gives, and
    says `broken` exactly when a ring of links disagrees."""
    from heuristics.common.cell_loops import Sides, _searched_sides
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(2, 12)
        links = [[] for _ in range(n)]
        sides = Sides.empty(n)
        for _ in range(rng.randint(0, n + 2)):
            a, b, side = rng.randrange(n), rng.randrange(n), rng.randint(0, 1)
            links[a].append((b, side, 0))
            links[b].append((a, side, 0))
            sides.link(a, b, side)
        searched = _searched_sides(links)
        agree = all(searched.side[a] ^ searched.side[b] == side
                    for a in range(n) for b, side, _ in links[a])
        assert sides.broken == (not agree)
        if agree:
            assert all(sides.relation(a, b) == searched.relation(a, b) for a in range(n) for b in range(n))


def test_corner_sides_updated_step_by_step_equal_a_new_search():
    """The corner sides kept from state to state (edges of the answer decided one by one)
    relate the corners on either side of each edge as a new search along the links does."""
    from heuristics.common import cell_loops
    (p,) = janko("yajilin", 1, max_cells=100)
    g, first = p.graph, p.graph.edge_vars[0]
    answer = p.genre.solution_state(p).cands
    cands = list(p.genre.initial_state(p).cands)
    _, pairs, _ = cell_loops._corners(p.rows, p.cols, first)
    for var in random.Random(2).sample(list(g.edge_vars), len(g.edge_vars)):
        cands[var] = answer[var]
        state = State(tuple(cands))
        kept = cell_loops._shared_sides(p.rows, p.cols, first, g, state, ())
        searched = cell_loops._searched_sides(cell_loops._corner_links(p.rows, p.cols, first, state.cands, ()))
        assert not kept.broken
        assert all(kept.relation(a, b) == searched.relation(a, b) for a, b in pairs)



def test_cut_off_names_the_same_vertex_whatever_the_order_of_pieces():
    """Pieces on two sides of crossed edges: the reason names the first vertex cut off from
    the part of the first vertex with a line, however the pieces happen to be listed."""
    g = LoopGraph.cell_grid(4, 4)
    wall = [edge(g, f"r{r}c2", f"r{r}c3") for r in range(1, 5)]
    s = state_of(g, lines=[edge(g, "r1c1", "r2c1"), edge(g, "r3c4", "r4c4")], crosses=wall)
    p = kernel.paths(g, s)
    flipped = attrs.evolve(p, members=dict(reversed(list(p.members.items()))))
    assert list(flipped.members) != list(p.members)
    named = {g.vertex_names[kernel._cut_off(g, s, q, None)] for q in (p, flipped)}
    assert named == {"r3c4"}


def test_isolated_areas_focused_look_equals_full_one():
    """After a look that found nothing, a look at what changed since (edges drawn or crossed
    out) finds what a look at the whole board finds, area and wording alike."""
    g = LoopGraph.cell_grid(5, 6)
    pearls = {3, 14, 22}
    required = lambda state, v: True if v in pearls else None
    rng = random.Random(11)
    found = 0
    for _ in range(300):
        cands = [OPEN] * g.n_edges
        for e in rng.sample(range(g.n_edges), 4):
            cands[g.edge_vars[e]] = rng.choice((B_LINE, B_CROSS))
        quiet = State(tuple(cands))
        for req in (None, required):
            if list(loops.isolated_areas(g, quiet, req)):
                continue
            later = list(cands)
            changed = rng.sample([e for e in range(g.n_edges) if cands[e] == OPEN], 14)
            for e in changed:
                later[g.edge_vars[e]] = rng.choice((B_LINE, B_CROSS, B_CROSS, B_CROSS))
            now = State(tuple(later))
            focus = frozenset(g.edge_vars[e] for e in changed)
            full = [(d.removals, d.params) for d in loops.isolated_areas(g, now, req)]
            assert [(d.removals, d.params) for d in loops.isolated_areas(g, now, req, focus)] == full
            found += bool(full)
    assert found > 20


@pytest.mark.parametrize("genre", ["masyu", "yajilin"])
def test_violations_after_a_trial_equal_full_ones(genre):
    """violations_after, which checks only near what a trial changed once the state it started
    from is known to break nothing, gives what the full check gives: trials from one state
    (most of their values true, some wrong) ending clean or broken, with or without lines."""
    from grader.core.engine import remembering
    from support import reference
    from test_recent_facts import sample
    rng = random.Random(5)
    seen = {True: 0, False: 0}
    for puzzle in sample(genre, 3):
        g, truth = puzzle.genre, puzzle.genre.solution_state(puzzle) or reference(puzzle)
        with remembering():
            for _ in range(12):
                base = _partly_true(g.initial_state(puzzle), truth, rng, rng.random(), wrong=0.0)
                for _ in range(4):       # trials from the same state: the second one on checks nearby
                    start = _partly_true(base, truth, rng, 0.02, wrong=0.5)
                    start = base.assume({v: start.value(v) for v in base.diff(start) if start.value(v) is not None})
                    end = _partly_true(start, truth, rng, rng.random() * 0.3, wrong=rng.choice((0.0, 0.1)))
                    full = g.violations(puzzle, end)
                    assert g.violations_after(puzzle, start, end) == full
                    seen[not full] += 1
    assert seen[True] and seen[False]


def _partly_true(state: State, truth: State, rng: random.Random, share: float, wrong: float) -> State:
    """The state with a share of its undecided variables decided, a share `wrong` of them wrongly."""
    removals = []
    for v in state.undecided():
        if rng.random() < share:
            m = state.cands[v]
            keep = truth.cands[v] if rng.random() >= wrong else m & ~truth.cands[v]
            removals.append((v, m & ~(keep or m)))
    return state.remove(removals)
