"""The shared connectivity machinery for shading genres, checked against brute force."""
from __future__ import annotations

import random

from grader.core.model import State
from grader.kernels import connectivity as cn

ON, OFF = 1, 2          # a test side: bit 1 "member", bit 2 "not member"
BOTH = ON | OFF


def grid(text: str) -> tuple[cn.GridGraph, State]:
    """'#' decided member, '.' decided non-member, '?' either."""
    rows = [r.split() for r in text.strip().splitlines()]
    g = cn.GridGraph(len(rows), len(rows[0]))
    code = {"#": ON, ".": OFF, "?": BOTH}
    return g, State(tuple(code[t] for r in rows for t in r))


def test_components_and_liberties():
    g, s = grid("""
        # # . ?
        . . . #
        # ? . #""")
    side = cn.side(g, s, ON)
    assert side.decided_parts.cells == ((0, 1), (7, 11), (8,))
    assert side.liberties(2) == [9]
    assert side.touching(9) == [2]
    assert cn.side(g, s, ON) is side      # computed once per state


def test_cut_cell_must_join():
    g, s = grid("""
        # ? ? .
        . . ? .
        . . # .""")
    side = cn.side(g, s, ON)
    assert set(side.cuts) == {1, 2, 6}
    assert not side.apart and not side.stranded


def test_no_cut_when_two_routes():
    g, s = grid("""
        # ? ?
        ? . ?
        ? ? #""")
    assert cn.side(g, s, ON).cuts == {}


def test_apart_and_stranded():
    g, s = grid("""
        # . ?
        . . .
        ? ? #""")
    side = cn.side(g, s, ON)
    assert side.apart == [(0,), (8,)]
    assert side.cuts == {}
    assert cn.disconnected(side, "the walls")[0].message == "the walls at r1c1 and r3c3 can no longer connect"
    g, s = grid("""
        # ? .
        . . ?
        ? . ?""")
    assert cn.side(g, s, ON).stranded == (5, 6, 8)


def parts_without(g, possible, v):
    """The components of the possible cells once cell v is taken out too."""
    poss = list(possible)
    poss[v] = False
    return cn.components(g, poss)


def brute_separating(g, s, side, kept) -> set[int]:
    """The undecided cells whose removal leaves the cells kept(v) in more than one component."""
    out = set()
    for v in range(g.size):
        if s[v] == BOTH:
            parts = parts_without(g, side.possible, v)
            if len({parts.of[c] for c in kept(v)}) > 1:
                out.add(v)
    return out


def brute_cuts(g, s):
    side = cn.side(g, s, ON)
    return brute_separating(g, s, side, lambda v: side.decided_cells)


def test_cuts_match_brute_force():
    rng = random.Random(5)
    for _ in range(400):
        rows, cols = rng.randint(1, 6), rng.randint(1, 6)
        g = cn.GridGraph(rows, cols)
        s = State(tuple(rng.choice((ON, OFF, BOTH, BOTH)) for _ in range(g.size)))
        side = cn.side(g, s, ON)
        if len(side.apart) or not side.decided_cells:
            assert side.cuts == {}
            continue
        assert set(side.cuts) == brute_cuts(g, s)
        for v, (a, b) in side.cuts.items():
            parts = parts_without(g, side.possible, v)
            assert parts.of[a] != parts.of[b]


def test_reach_limits_distance():
    g, s = grid("""
        # ? ? ?
        . . ? .""")
    passable = [bool(m & ON) for m in s.cands]
    assert cn.reach(g, [0], passable, limit=2) == {0: 0, 1: 1, 2: 2}
    assert cn.reach(g, [0], passable)[6] == 3


def test_adjacent_and_pools():
    g, s = grid("""
        # # ?
        # # ?
        ? ? #""")
    assert cn.adjacent_pairs(g, s.cands, ON) == [(0, 1), (0, 3), (1, 4), (3, 4)]
    assert dict(cn.shaded_neighbours(g, s.cands, ON))[1] == [2]
    assert cn.pools(g, s.cands, ON, "walls")[0].message == "the walls at r1c1-r2c2 form a 2x2 block"
    assert [rest for _, rest in cn.pool_blocks(g, s.cands, ON)] == [[], [2, 5], [6, 7], [5, 7]]
    assert cn.blocks_near(g, [8]) == {3}
    assert [v.message for v in cn.adjacent_shaded(g, s.cands, ON)][0] == "the shaded cells at r1c1 and r1c2 touch"


def test_splits_match_brute_force():
    rng = random.Random(7)
    for _ in range(300):
        g = cn.GridGraph(rng.randint(1, 6), rng.randint(1, 6))
        s = State(tuple(rng.choice((ON, OFF, BOTH, BOTH, BOTH)) for _ in range(g.size)))
        side = cn.side(g, s, ON)
        base = cn.components(g, side.possible)
        expected = brute_separating(g, s, side, lambda v: [n for n in g.neighbours[v] if side.possible[n]])
        assert set(side.splits) == expected
        for v, (a, b) in side.splits.items():
            parts = parts_without(g, side.possible, v)
            assert a in g.neighbours[v] and b in g.neighbours[v] and parts.of[a] != parts.of[b]
        assert base.of == side.possible_parts.of


def test_side_like_another_equals_a_fresh_one():
    """A Side made `like` one of another state takes over what its possible cells alone decide
    only when they are the same, and then says what a fresh Side says."""
    rng = random.Random(11)
    taken = 0
    for _ in range(300):
        g = cn.GridGraph(rng.randint(1, 6), rng.randint(1, 6))
        before = [rng.choice((ON, OFF, BOTH, BOTH, BOTH)) for _ in range(g.size)]
        # a narrower state: some undecided cells decided, now and then one made non-member
        after = [(rng.choice((ON, BOTH, BOTH, OFF if rng.random() < 0.2 else BOTH)) if m == BOTH else m)
                 for m in before]
        like = cn.Side(g, before, ON)
        like.splits, like.possible_parts          # worked out there
        side = cn.Side(g, after, ON, like=like)
        fresh = cn.Side(g, after, ON)
        same = like.possible == fresh.possible
        taken += same
        assert ("possible_splits" in side.__dict__) == same
        assert side.splits == fresh.splits and list(side.splits) == list(fresh.splits)
        assert side.possible_parts == fresh.possible_parts
        assert side.stranded == fresh.stranded and side.apart == fresh.apart
    assert 50 < taken < 250


def test_cut_sizes_match_brute_force():
    rng = random.Random(9)
    for _ in range(300):
        g = cn.GridGraph(rng.randint(1, 6), rng.randint(1, 6))
        possible = [rng.random() < 0.7 for _ in range(g.size)]
        roots = [i for i in range(g.size) if possible[i]]
        if not roots:
            continue
        root = rng.choice(roots)
        base = cn.components(g, possible)
        expected = {}
        for v in base.cells[base.of[root]]:
            if v == root:
                continue
            poss = list(possible)
            poss[v] = False
            parts = cn.components(g, poss)
            left = len(parts.cells[parts.of[root]])
            if left < len(base.cells[base.of[root]]) - 1:
                expected[v] = left
        assert cn.cut_sizes(g, possible, root) == expected


def test_one_walk_reports_every_split_to_its_hook():
    g, s = grid("# ? ? #")
    seen = []
    walk = cn.Walk(g, [True] * 4, 0, lambda w, parent, child, grand: seen.append((parent, child, grand)),
                   decided=[True, False, False, True], sizes=True)
    assert seen == [(2, 3, 1), (1, 2, 0), (0, 1, -1)]      # innermost subtree first
    assert walk.root_children == [1] and walk.count == 4
    assert walk.size[1] == 3 and walk.witness[1] == 3


def random_cuts(seed: int, count: int = 500):
    """(graph, possible cells, the biggest area, cells of it removed) on random small grids."""
    rng = random.Random(seed)
    for _ in range(count):
        g = cn.GridGraph(rng.randint(2, 7), rng.randint(2, 7))
        possible = [rng.random() < 0.75 for _ in range(g.size)]
        base = cn.components(g, possible)
        if base.cells:
            area = set(max(base.cells, key=len))
            yield g, possible, area, {i for i in area if rng.random() < 0.2}


def test_splits_marked_match_brute_force():
    rng = random.Random(14)
    split = 0
    for g, possible, area, removed in random_cuts(13):
        rest = sorted(area - removed)
        if not removed or not rest:
            continue
        marked = set(rng.sample(rest, rng.randint(1, min(5, len(rest)))))
        seeds = [n for r in removed for n in g.neighbours[r] if n in area]
        after = cn.components(g, [i in area and i not in removed for i in range(g.size)])
        expected = len({after.of[i] for i in marked}) > 1
        split += expected
        assert cn.splits_marked(g, possible, removed, seeds, marked, len(marked)) == expected
    assert split > 50


def test_pieces_cut_off_reached_joins_the_seeds_when_nothing_is_cut_off():
    """`reached` holds the seeds, only cells of the area left, and (when no piece comes out)
    is connected: what a caller may keep as proof that the seeds still meet."""
    joined = 0
    for g, possible, area, removed in random_cuts(29):
        seeds = sorted({n for r in removed for n in g.neighbours[r] if n in area and n not in removed})
        if len(seeds) < 2:
            continue
        reached: set[int] = set()
        pieces = list(cn.pieces_cut_off(g, possible, removed, seeds, reached))
        assert pieces == list(cn.pieces_cut_off(g, possible, removed, seeds))     # same answer
        assert reached <= area - removed and reached >= set(seeds)
        if not pieces:
            joined += 1
            inside = cn.components(g, [i in reached for i in range(g.size)])
            assert len(inside.cells) == 1
    assert joined > 50


def test_a_narrowed_side_equals_a_fresh_one():
    """Components updated from a wider state's (cells joining, or leaving and splitting one)
    are those found afresh, numbered the same; so is the quick pool check."""
    rng = random.Random(7)
    for _ in range(600):
        g = cn.GridGraph(rng.randint(1, 9), rng.randint(1, 9))
        share = rng.random() * 0.5
        cands = [ON if x < share else OFF if x < 2 * share else BOTH for x in (rng.random() for _ in range(g.size))]
        bit = rng.choice((ON, OFF))
        side = cn.Side(g, cands, bit)
        side.decided_parts, side.possible_parts, side.decided_cells    # worked out, so updated
        for _ in range(5):
            new = list(cands)
            changed = [i for i in range(g.size) if new[i] == BOTH and rng.random() < 0.3]
            for i in changed:
                new[i] = rng.choice((ON, OFF))
            side, cands = side.narrowed(new, changed), new
            fresh = cn.Side(g, cands, bit)
            assert (side.possible, side.decided) == (fresh.possible, fresh.decided)
            assert side.decided_parts == fresh.decided_parts
            assert side.possible_parts == fresh.possible_parts
            assert side.decided_cells == fresh.decided_cells
            assert cn.any_pool(g, cands, bit) == any(all(cands[i] == bit for i in b) for b in g.blocks)


def test_grid_puzzles_of_one_size_share_their_topology():
    from grader.kernels.grid import GridGraph, GridPuzzle, grid_graph
    a, b = GridPuzzle(rows=3, cols=4), GridPuzzle(rows=3, cols=4)
    assert a.graph is b.graph is grid_graph(3, 4)
    assert a.neighbours == GridGraph(3, 4).neighbours and GridPuzzle(rows=4, cols=3).graph == GridGraph(4, 3)
