"""Numberlink: the toy example of spec/numberlink-notes.txt, each technique where it must fire
(and what it finds) and where it must not, soundness on real and generated puzzles, formats
and bad input."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from support import (
    CORPUS,
    assert_all_sound,
    assert_sound_path,
    decided_by,
    fires,
    found,
    janko,
    marks,
    native,
    random_partial,
    reference,
    refusal,
    refused,
    shared,
)

from grader.core.engine import Budget, Solver
from grader.core.errors import InputError
from grader.io.read import load
from grader.genres import get
from grader.genres.numberlink.model import WITH_SIDE
from grader.kernels.cell_shapes import E, N, S, SHAPES, W, sides_can, sides_must
from grader.core.registry import REGISTRY

NL = get("numberlink")


def puzzle(grid: str, cover: bool = False):
    return native("genre: numberlink\n" + ("cover: true\n" if cover else "") + "grid: |\n"
                  + "".join(f"  {row}\n" for row in grid.strip().splitlines()))


def sides(state, p, cell: str) -> int:
    """The side mask of a decided cell, by its r3c4 name."""
    r, c = (int(x) - 1 for x in cell[1:].split("c"))
    return SHAPES[state.value(r * p.cols + c)]


# --- the notes' toy example ---------------------------------------------------------------------

def test_toy_example_of_the_notes():
    # AB / CD / EF with A, D = 1 and C, F = 2
    p = puzzle("1 .\n2 1\n. 2")
    start = NL.initial_state(p)
    # what is this square: endpoints where the numbers are, links elsewhere
    assert [bin(m).count("1") for m in start.cands] == [4, 7, 4, 4, 7, 4]
    trace = Solver(p).solve()
    assert trace.status.value == "solved"
    assert max(s.level for s in trace.steps) <= 2
    final = trace.final
    assert [sides(final, p, c) for c in ("r1c1", "r1c2", "r2c1", "r2c2", "r3c1", "r3c2")] == [
        E, S | W, S, N, N | E, W]          # A={>}, B={┓}, C={v}, D={^}, E={┗}, F={<}
    assert NL.render_text(p, final).splitlines() == ["1 ┓", "2 1", "┗ 2"]


# --- level 1 ------------------------------------------------------------------------------------

def test_join_up():
    p = puzzle("1 . 1")
    assert found("numberlink.join-up", p) == {
        "r1c1": "sends the line right", "r1c2": "narrowed", "r1c3": "sends the line left"}
    covered = puzzle("1 . 1", cover=True)
    assert found("numberlink.join-up", covered)["r1c2"] == "carries the line straight across"
    assert found("numberlink.join-up", p, reference(covered)) == {}


def test_numbers_apart():
    # different numbers side by side are never joined directly; the two 3s may be
    p = puzzle("1 2 .\n. 3 2\n1 3 .")
    fired = fires("numberlink.numbers-apart", p)
    assert sorted((str(d.params["a"]), str(d.params["b"])) for d in fired) == [
        ("r1c1", "r1c2"), ("r1c2", "r2c2"), ("r2c2", "r2c3"), ("r3c1", "r3c2")]
    state = NL.initial_state(p)
    first = fired[0].apply(state)
    assert not sides_can(first.cands[0]) & E and not sides_can(first.cands[1]) & W     # r1c1, r1c2
    # the same number side by side, and numbers with a cell between them: nothing to say
    assert fires("numberlink.numbers-apart", puzzle("1 1 .\n. . .\n2 . 2")) == []


def test_level_one_puzzle_can_be_generated():
    from grader.genres.numberlink.generate import draft
    made = draft(random.Random(5), 6, 6, cap=1)
    assert made is not None
    trace = Solver(made.build(frozenset()), max_level=1, assume_unique=False).solve()
    assert trace.status.value == "solved"


def test_drafts_are_cut_until_the_capped_solve_finishes():
    """Up to level 4 a draft's lines are cut where the solve up to the target stops, so the
    draft it hands over is one that solve finishes (and has one solution); a level-4 draft
    grows fewer, longer lines than an easy one."""
    from grader.genres.numberlink.generate import draft, random_lines
    made = next(d for d in (draft(random.Random(seed), 8, 8, cap=4) for seed in range(20)) if d is not None)
    assert Solver(made.build(frozenset()), max_level=4, assume_unique=False).solve().status.value == "solved"
    def lines(long: bool) -> list[int]:
        drawn = (random_lines(10, 10, random.Random(seed), tidy=True, long=long) for seed in range(8))
        return [len(d) for d in drawn if d is not None]
    short, long = lines(False), lines(True)
    assert sum(long) / len(long) < sum(short) / len(short)


def test_numbers_apart_with_a_focus_looks_only_there():
    """Asked again with a focus (what changed since it last found nothing), numbers-apart looks
    only at the numbers there: a join it settled stays settled."""
    p = puzzle("1 2 .\n. . .\n2 1 .")
    start, apart = NL.initial_state(p), REGISTRY.get("numberlink.numbers-apart")
    assert {d.removals[0][0] for d in apart.find(p, start, frozenset({0}))} == {0}     # r1c1 beside r1c2
    assert list(apart.find(p, start, frozenset({4, 5}))) == []


def test_chains_kept_up_to_date_agree_with_a_fresh_look():
    """Chains updated from a recent state's (sharing the pieces until a join) are the chains
    found from scratch, all along a solve and on boards a few steps back narrowed again."""
    from grader.core.model import State
    from grader.kernels.cell_shapes import Chains, chains

    def fact(ch: Chains) -> tuple:
        pieces = {frozenset(x for x in range(len(ch.root)) if ch.root[x] == r) for r in set(ch.root)}
        return (ch.can, ch.must, ch.labels, pieces, ch.loop is None, ch.clash,
                {frozenset(ch.members.get(r, [r])): lab for r, lab in ch.label_of_root.items()})

    p = load(str(CORPUS / "numberlink" / "arukone-7x7-grader-1.yaml"))
    trace = Solver(p).solve()
    states, state = [], trace.start
    for step in trace.steps:
        state = step.deduction.apply(state)
        states.append(state)
        assert fact(chains(p, state)) == fact(Chains(p, State(state.cands)))
    for k in range(0, len(states) - 5, 7):      # a later board reached from one a few steps back
        later = State(states[k + 5].cands, origin=(states[k].cands, states[k].diff(states[k + 5])))
        assert fact(chains(p, later)) == fact(Chains(p, State(later.cands)))


def test_free_areas_are_the_areas_of_a_plain_flood():
    """free_areas names each area by its first cell: the areas a plain flood over the free
    cells finds, all along a solve and in its trials' boards."""
    from grader.kernels.cell_shapes import OPPOSITE, B_EMPTY, chains, free_areas

    def flood(p, state) -> list[int]:
        ch, cands = chains(p, state), state.cands
        free = [not ch.labels[i] and cands[i] > B_EMPTY for i in range(len(cands))]
        comp = [-1] * len(cands)
        for start in range(len(cands)):
            if free[start] and comp[start] < 0:
                comp[start], todo = start, [start]
                while todo:
                    x = todo.pop(0)
                    for d, y in p.neighbour[x].items():
                        if free[y] and comp[y] < 0 and ch.can[x] & d and ch.can[y] & OPPOSITE[d]:
                            comp[y] = start
                            todo.append(y)
        return comp

    p = load(str(CORPUS / "numberlink" / "arukone-7x7-grader-1.yaml"))
    state = NL.initial_state(p)
    for step in Solver(p).solve().steps:
        for trial in step.deduction.detail:
            assert free_areas(p, trial.trace.final.cands, chains(p, trial.trace.final)) == flood(p, trial.trace.final)
        state = step.deduction.apply(state)
        assert free_areas(p, state.cands, chains(p, state)) == flood(p, state)


def test_what_lies_near_a_focus_kept_or_not_is_a_plain_look():
    """cells_near and listed_at keep their answers: asked twice, or after other focuses, they
    (and Chains.along) give what a plain look gives, all along a solve."""
    from heuristics.numberlink.common import cells_near, listed_at
    from grader.kernels.cell_shapes import chains

    p = load(str(CORPUS / "numberlink" / "arukone-7x7-grader-1.yaml"))
    n, rng = p.rows * p.cols, random.Random(5)
    state = NL.initial_state(p)
    for step in Solver(p).solve().steps:
        state = step.deduction.apply(state)
        ch = chains(p, state)
        for _ in range(2):
            focus = frozenset(rng.sample(range(n), rng.randint(1, 6)))
            for _ in range(2):
                near = sorted({y for x in focus for y in p.around[x]})
                assert list(cells_near(p, focus)) == near
                assert list(listed_at(p, "edges_of", focus)) == sorted({k for x in focus for k in p.edges_of[x]})
                assert list(listed_at(p, "blocks_of", focus)) == sorted({k for x in focus for k in p.blocks_of[x]})
                assert ch.along(focus) == {y for y in range(n) if ch.root[y] in {ch.root[x] for x in focus}}


# --- level 2 ------------------------------------------------------------------------------------

def test_different_lines():
    assert set(found("numberlink.different-lines", puzzle("1 2\n1 2"))) == {"r1c1", "r1c2", "r2c1", "r2c2"}
    assert found("numberlink.different-lines", puzzle("1 . 2\n1 . 2")) == {}


def test_between_lines():
    # r1c2 as ━ would join the 1 and the 2
    p = puzzle("1 . 2\n. . .\n1 . 2")
    fired = [d for d in fires("numberlink.between-lines", p) if str(d.params["cell"]) == "r1c2"]
    assert [(d.params["way"], d.params["what"]) for d in fired] == [
        ("run straight across", "the line of 1 at r1c1 to the line of 2 at r1c3")]
    # the 1 is drawn round r1c1 to r1c3: r2c2 joining two of its cells would close a loop
    q = puzzle(". . .\n. . .\n1 . 1")
    state = marks(q, "┏ ━ ┓\n┃ . ┃\n1 . 1")
    fired = [d for d in fires("numberlink.between-lines", q, state) if str(d.params["cell"]) == "r2c2"]
    assert {d.params["way"] for d in fired} == {"run straight across", "turn up and right", "turn up and left"} and all("loop" in d.params["what"] for d in fired)
    assert fires("numberlink.between-lines", puzzle("1 . . 2\n. . . .\n1 . . 2")) == []


def test_no_loop():
    p = puzzle("1 . . 2\n. . . .\n. . . .\n1 . . 2")
    state = marks(p, "1 . . 2\n. ┏ ┓ .\n. . . .\n1 . . 2")
    state = state.restrict(9, WITH_SIDE[N]).restrict(10, WITH_SIDE[N])     # r3c2, r3c3 go up
    assert found("numberlink.no-loop", p, state) == {"r3c2": "narrowed", "r3c3": "narrowed"}
    assert found("numberlink.no-loop", p) == {}


def test_no_touch():
    # the 1 runs r1c1 -> r1c2 -> r2c2 -> r2c3; r1c3 beside both r1c2 and r2c3 may not join them
    p = puzzle("1 . . .\n. . . .\n. . . .\n. . . 1")
    state = marks(p, "1 ┓ . .\n. ┗ . .\n. . . .\n. . . 1")
    state = state.restrict(6, WITH_SIDE[W])                          # r2c3 comes from the west
    fired = [d for d in fires("numberlink.no-touch", p, state) if d.removals[0][0] == 2]
    removed = {k for d in fired for _, m in d.removals for k in range(11) if m >> k & 1}
    assert {SHAPES[k] for k in removed} == {E | S, N | S, E | W, N | W}   # ┓ would close it instead
    # an end number may sit beside its own line: 1 -> r1c2 -> r1c3 -> r2c3 -> 1 at r2c2
    q = puzzle("1 . .\n. 1 .")
    assert fires("numberlink.no-touch", q, marks(q, "1 ━ ┓\n. 1 ┛")) == []
    assert fires("numberlink.no-touch", p) == []


def test_no_touch_two_pieces_side_by_side():
    # r2c2-r2c3 is drawn; r3c3 may not join it to r3c2, which lies beside r2c2
    p = puzzle("1 . . 2\n. . . .\n. . . .\n1 . . 2")
    state = NL.initial_state(p).restrict(5, WITH_SIDE[E]).restrict(6, WITH_SIDE[W])
    fired = {(d.removals[0][0], d.params["other"]) for d in fires("numberlink.no-touch", p, state)}
    assert (10, "r2c2 and r3c2") in fired                       # r3c3 is not ┛
    assert (9, "r2c3 and r3c3") in fired                        # r3c2 is not ┗
    by_cell = {v for v, _ in fired}
    assert by_cell <= {1, 2, 9, 10}     # only cells beside the piece whose shape would join it twice


def test_a_lone_cell_beside_a_piece_is_found_as_side_by_side_finds_it():
    # no-touch's shortcut for a lone cell and a piece gives side_by_side's first pair without x
    from grader.kernels.cell_shapes import chains
    from heuristics.numberlink.lines import lone_cell_beside, side_by_side
    rng = random.Random(3)
    asked = 0
    for name in ("arukone-7x7-grader-1.yaml", "arukone-7x7-grader-2.yaml"):
        p = load(str(CORPUS / "numberlink" / name))
        solution = reference(p)
        for _ in range(20):
            ch = chains(p, random_partial(p, solution, rng, rng.random()))
            for x in range(len(p.labels)):
                for y in p.neighbour[x].values():
                    for z in p.neighbour[x].values():
                        r1, r2 = ch.root[y], ch.root[z]
                        if (r1 in ch.members) != (r2 in ch.members):
                            asked += 1
                            want = next((q for q in side_by_side(p, ch, r1, r2) if x not in q), None)
                            assert lone_cell_beside(p, ch, x, r1, r2) == want
    assert asked > 1000


def test_no_touch_keeps_two_halves_of_one_number_apart():
    # both halves of the 1 are drawn: r1c2 (from r1c1) and r3c2 (from r3c3); r2c2 may join
    # both (┃) or neither (━), never just one, which would run beside the other
    p = puzzle("1 . .\n. . .\n. . 1")
    state = NL.initial_state(p).restrict(0, WITH_SIDE[E]).restrict(1, WITH_SIDE[W])
    state = state.restrict(8, WITH_SIDE[W]).restrict(7, WITH_SIDE[E])
    fired = fires("numberlink.no-touch", p, state)
    # r2c1 as ┗ and r2c3 as ┓ would bring r2c2 onto a half and beside the same half
    assert {d.removals[0][0] for d in fired} == {3, 4, 5}
    fired = [d for d in fired if d.removals[0][0] == 4]
    removed = {k for d in fired for _, m in d.removals for k in range(11) if m >> k & 1}
    assert {SHAPES[k] for k in removed} == {N | E, E | S, S | W, N | W}


def test_no_u_turn():
    # ┏ at r1c2: ┓ at r1c3 would turn the line back, its two legs side by side at r2c2, r2c3
    shape = {m: 1 << k for k, m in enumerate(SHAPES)}

    def removed_at_r1c3(grid):
        p = puzzle(grid)
        state = NL.initial_state(p).restrict(1, shape[E | S])
        out = 0
        for d in fires("numberlink.no-u-turn", p, state):
            if str(d.params["a"]) == "r1c2":
                out |= dict(d.removals).get(2, 0)
        return out
    # r1c3 must come from the west (the top join), and may not then turn south
    assert removed_at_r1c3("1 . . 1\n. . . .\n2 . . 2") & ~(1 | shape[N | E] | shape[E | S] | shape[N | S]) \
        == shape[S | W]
    # a number at the end of a leg may sit beside the other leg
    assert not removed_at_r1c3("1 . . 1\n. 2 . .\n. . . 2") & shape[S | W]
    p = puzzle("1 . . 1\n. . . .\n2 . . 2")
    assert fires("numberlink.no-u-turn", p) == []


def test_block_lines():
    # the 1 runs from r1c1 into r1c2; in the block r1c2-r2c3 it may not go on into the 2 at r1c3
    p = puzzle("1 . 2\n. . .\n1 . 2")
    state = NL.initial_state(p).restrict(0, WITH_SIDE[E]).restrict(1, WITH_SIDE[W])
    fired = [d for d in fires("numberlink.block-lines", p, state) if str(d.params["a"]) == "r1c2"]
    assert fired
    removed = dict(fired[0].removals)
    assert removed[1] & (1 << SHAPES.index(E | W)) and removed[2] & (1 << SHAPES.index(W))
    assert fires("numberlink.block-lines", p) == []


def test_broken_line():
    p = puzzle("1 . 2\n. . .\n1 . 2")
    clash = marks(p, "1 ━ 2\n. . .\n1 . 2")
    for i, d in ((0, E), (2, W)):
        clash = clash.restrict(i, WITH_SIDE[d])
    fired = fires("numberlink.broken-line", p, clash)
    assert fired and fired[0].params["problem"] == "The lines of 1 and 2 are joined"
    touching = puzzle("1 . .\n. . .\n1 . .")
    assert fires("numberlink.broken-line", touching, marks(touching, "1 ━ ┓\n┏ ━ ┛\n1 . ."))[0].params[
        "problem"].startswith("The line runs beside itself")
    assert fires("numberlink.broken-line", p) == []
    solved = load(str(CORPUS / "numberlink" / "arukone-5x5-grader-1.yaml"))
    assert fires("numberlink.broken-line", solved, reference(solved)) == []


def test_a_line_beside_itself_breaks_the_rules():
    p = puzzle("1 . .\n. . .\n1 . .")
    touching = marks(p, "1 ━ ┓\n┏ ━ ┛\n1 . .")      # r1c2 and r2c2 are on one line, not joined
    assert "beside itself" in NL.violations(p, touching)[0].message
    assert NL.violations(p, marks(p, "1 ━ ┓\n. . ┃\n1 ━ ┛")) == []


# --- level 3 ------------------------------------------------------------------------------------

def test_out_of_reach():
    assert found("numberlink.out-of-reach", puzzle("1 1 .\n2 . 2")) == {"r1c3": "stays empty"}
    assert found("numberlink.out-of-reach", puzzle("1 . 1\n2 . 2")) == {}


def test_unused_join():
    p = puzzle("1 . 1\n2 . 2")
    # no line joins the rows: the 1s and 2s keep to their own row
    assert set(found("numberlink.unused-join", p)) == {"r1c1", "r1c2", "r1c3", "r2c1", "r2c2", "r2c3"}
    assert found("numberlink.unused-join", puzzle("1 . . 1")) == {}


def test_owned_no_touch():
    # r1c2 stays empty: every route of the 2s passes r2c1 and r2c3, so r2c2 joins both or neither
    p = puzzle("2 . 2\n. . .\n. . .")
    state = NL.initial_state(p).restrict(1, 1)
    fired = fires("numberlink.owned-no-touch", p, state)
    removed = {k for d in fired if d.removals[0][0] == 4 for _, m in d.removals for k in range(11) if m >> k & 1}
    assert {SHAPES[k] for k in removed} == {N | E, E | S, S | W, N | W}
    assert fires("numberlink.owned-no-touch", p) == []


def test_bottleneck():
    p = puzzle("1 . . 1")
    assert set(found("numberlink.bottleneck", p)) == {"r1c1", "r1c2", "r1c3", "r1c4"}
    assert found("numberlink.bottleneck", puzzle("1 . .\n. . .\n. . 1")) == {}


def test_same_line():
    # the two halves of the 1 run side by side at r2c2 and r2c3: not touching, they are joined
    p = puzzle("1 . . 1\n. . . .\n2 . . 2")
    state = marks(p, "1 . . 1\n┗ . . ┛\n2 . . 2")
    for i, d in ((0, S), (3, S), (5, W), (6, E)):      # the 1s go down, r2c2 and r2c3 carry them on
        state = state.restrict(i, WITH_SIDE[d])
    after = found("numberlink.same-line", p, state)
    assert after["r2c2"] == after["r2c3"] == "carries the line straight across"
    # the only way left for the 2s is the bottom row, so its cells join too
    assert after["r3c2"] == after["r3c3"] == "narrowed"
    # end numbers may sit beside their own line
    q = puzzle("1 . .\n. 1 .")
    assert found("numberlink.same-line", q, marks(q, "1 ━ ┓\n. 1 ┛")) == {}
    assert found("numberlink.same-line", p) == {}
    drawn = found("numberlink.same-line-drawn", p, state)       # from the drawn lines alone
    assert drawn == {"r2c2": "carries the line straight across", "r2c3": "carries the line straight across"}
    assert found("numberlink.same-line-drawn", q, marks(q, "1 ━ ┓\n. 1 ┛")) == {}


def test_parity():
    # the 2 at r1c1 is walled in with r1c2, r2c1 and r2c2; its line must leave, and the only
    # way out left is between r2c2 and r2c3
    p = puzzle("2 . . 2\n. . . .\n. . . .")
    state = marks(p, "2 . x 2\n. . . .\nx x . .")
    fired = fires("numberlink.parity", p, state)
    assert [(str(d.params["a"]), str(d.params["b"]), d.params["parity"]) for d in fired] == [("r2c2", "r2c3", "odd")]
    assert set(fired[0].region) == {0, 1, 4, 5}
    after = fired[0].apply(state)
    assert sides_can(after.cands[5]) & E and sides_must(after.cands[5]) & E
    # both 2s inside: an even number of lines crosses, so none does
    q = puzzle("2 2 . 1\n. . . .\n. . . 1")
    fired = fires("numberlink.parity", q, marks(q, "2 2 x 1\n. . . .\nx x . 1"))
    assert [(str(d.params["a"]), str(d.params["b"]), d.params["parity"]) for d in fired] == [("r2c2", "r2c3", "even")]
    assert not sides_can(fired[0].apply(NL.initial_state(q)).cands[5]) & E
    # a second way out (r3c2 is free): no area with a single way out
    assert fires("numberlink.parity", p, marks(p, "2 . x 2\n. . . .\nx . . .")) == []
    assert fires("numberlink.parity", p) == []


# --- levels 4 and 5 -----------------------------------------------------------------------------

def test_end_lookahead():
    # not every cell is used here; the 1 at r1c1 has to leave east, and with r2c2 north-south
    # (joining r1c2 to r3c2) the 2 at r2c1 would soon be walled in: whichever way the line
    # goes on from r1c2, the rules for lines soon rule that out
    p = puzzle("1 . . .\n2 . . .\n. . 2 1")
    state = Solver(p, heuristics=REGISTRY.for_genre("numberlink", 3)).solve().final
    fired = fires("numberlink.end-lookahead", p, state)
    assert str(fired[0].params["cell"]) == "r1c2" and decided_by(fired[:1], p, state) == {"r2c2": "narrowed"}
    assert not fired[0].apply(state).cands[5] & 1 << SHAPES.index(N | S)
    assert [b.label for b in fired[0].detail] == ["the line goes from r1c2 to r1c3",
                                                  "the line goes from r1c2 to r2c2"]
    # every cell used: levels 1-3 solve it, and in the solution no loose end is left to follow
    q = puzzle("1 . . .\n2 . . .\n. . 2 1", cover=True)
    solved = Solver(q, heuristics=REGISTRY.for_genre("numberlink", 3)).solve()
    assert solved.status.value == "solved" and fires("numberlink.end-lookahead", q, solved.final) == []


def test_cell_lookahead():
    # the board of test_end_lookahead, from the cells' side: whatever shape r1c3 (beside the
    # loose end at r1c2) takes, the rules for lines soon show r2c2 is not north-south
    p = puzzle("1 . . .\n2 . . .\n. . 2 1")
    state = Solver(p, heuristics=REGISTRY.for_genre("numberlink", 3)).solve().final
    fired = fires("numberlink.cell-lookahead", p, state)
    assert [str(d.params["cell"]) for d in fired] == ["r1c3", "r2c3", "r3c2", "r2c2"]
    assert decided_by(fired[:1], p, state) == {"r2c2": "narrowed"}
    assert not fired[0].apply(state).cands[5] & 1 << SHAPES.index(N | S)
    # r2c2 itself: its north-south shape breaks a rule within a few steps
    assert "if r2c2 carries the line straight up and down" in fired[-1].params["outcome"]
    # every cell used: levels 1-3 solve it, and no cell is left to try
    q = puzzle("1 . . .\n2 . . .\n. . 2 1", cover=True)
    solved = Solver(q, heuristics=REGISTRY.for_genre("numberlink", 3)).solve()
    assert solved.status.value == "solved" and fires("numberlink.cell-lookahead", q, solved.final) == []


def test_pair_lookahead_goes_on_where_the_plain_look_aheads_stop():
    # janko 181 (8x8, some cells stay empty): levels 1-4 without it stop after 21 steps; with
    # the two-cell combinations in its fill, north-south at r2c7 soon breaks a rule
    p = load(str(shared("janko/numberlink.jsonl")) + "#arukone/181")
    easier = [h for h in REGISTRY.for_genre("numberlink", 4) if h.id != "numberlink.pair-lookahead"]
    state = Solver(p, heuristics=easier).solve().final
    assert fires("numberlink.end-lookahead", p, state) == fires("numberlink.cell-lookahead", p, state) == []
    fired = fires("numberlink.pair-lookahead", p, state)
    assert [str(d.params["cell"]) for d in fired] == ["r2c7"]
    assert "if r2c7 carries the line straight up and down" in fired[0].params["outcome"]
    assert not fired[0].apply(state).cands[14] & 1 << SHAPES.index(N | S)
    assert any(s.heuristic.id == "numberlink.pair-product" for b in fired[0].detail for s in b.trace.steps)
    assert_all_sound(REGISTRY.get("numberlink.pair-lookahead"), p, state, NL.solution_state(p))
    # every cell used: levels 1-3 solve the board of test_end_lookahead, nothing is left to follow
    q = puzzle("1 . . .\n2 . . .\n. . 2 1", cover=True)
    solved = Solver(q, heuristics=REGISTRY.for_genre("numberlink", 3)).solve()
    assert solved.status.value == "solved" and fires("numberlink.pair-lookahead", q, solved.final) == []


def test_look_aheads_stay_out_of_the_count_that_rates_a_step():
    """The look-aheads are not seen at a glance: their rows leave them out of the count of
    what level 4 offers (engine.Solver._available)."""
    quiet = {h.id for h in REGISTRY.for_genre("numberlink", 4) if not h.info.counted}
    assert quiet == {"numberlink.end-lookahead", "numberlink.cell-lookahead", "numberlink.pair-lookahead"}


def test_end_lookahead_follows_again_only_where_something_changed(monkeypatch):
    from grader.core.engine import remembering
    from heuristics.numberlink import trials
    followed = []
    attempt = trials.Item.attempt
    monkeypatch.setattr(trials.Item, "attempt",
                        lambda item, *a, **kw: followed.append(item.key) or attempt(item, *a, **kw))
    h = REGISTRY.get("numberlink.end-lookahead")
    p = puzzle("1 . . . .\n. . . . .\n2 . . . 2\n. . . . 1")
    state = Solver(p, heuristics=REGISTRY.for_genre("numberlink", 3)).solve().final
    with remembering():
        assert len(list(h.find(p, state))) == 1 and len(followed) == 4
        followed.clear()
        # the three ends that led nowhere wait until something beside them changes
        assert len(list(h.find(p, state))) == 1 and followed == [("line", 19)]
        followed.clear()
        list(h.find(p, state.restrict(1, ~(1 << SHAPES.index(E | W)))))     # r1c2 is not ━
        assert ("line", 0) in followed
    followed.clear()
    list(h.find(p, state))                                      # a new solve: every end again
    assert len(followed) == 4
    followed.clear()
    # inside a trial, told what changed since it last found nothing (what the trial's
    # assumption changed), it follows only the ends beside that: r4c5's and r3c5's lines
    token = trials.IN_TRIAL.set(True)
    try:
        assert len(list(h.find(p, state, frozenset({19})))) == 1
        assert sorted(followed) == [("line", 14), ("line", 19)]
        followed.clear()
        assert list(h.find(p, state, frozenset({7}))) == [] and followed == []   # r2c3: no end beside it
    finally:
        trials.IN_TRIAL.reset(token)
    # on the solve's own board a far change may be what lets a fill find something: all four
    followed.clear()
    with remembering():
        assert len(list(h.find(p, state, frozenset({7})))) == 1 and len(followed) == 4


def test_a_look_ahead_takes_up_what_it_followed_on_an_earlier_board(monkeypatch):
    from grader.core.engine import remembering
    from heuristics.numberlink import trials
    taken_up = []
    resume = trials.resume
    monkeypatch.setattr(trials, "resume", lambda p, s, b, *a: taken_up.append(b.label) or resume(p, s, b, *a))
    h = REGISTRY.get("numberlink.end-lookahead")
    p = puzzle("1 . . . .\n. . . . .\n2 . . . 2\n. . . . 1")
    state = Solver(p, heuristics=REGISTRY.for_genre("numberlink", 3)).solve().final
    later = state.restrict(1, ~(1 << SHAPES.index(E | W)))           # r1c2 is not ━
    afresh = [d.removals for d in h.find(p, later)]
    assert not taken_up
    with remembering():
        list(h.find(p, state))
        looked = trials.memory().looked
        assert len(looked) == 3 and all(not inside for _, inside in looked)   # the ends that led nowhere
        # r1c1's line, followed on from where it stopped, finds what following it afresh does
        assert next(d.removals for d in h.find(p, later)) == afresh[0]
        assert taken_up and all(label.startswith("the line goes from r1c1") for label in taken_up)
        # inside a trial, what the solve's board led to is taken up too
        taken_up.clear()
        token = trials.IN_TRIAL.set(True)
        try:
            list(h.find(p, later.restrict(2, ~(1 << SHAPES.index(E | W)))))   # nor is r1c3
        finally:
            trials.IN_TRIAL.reset(token)
        assert taken_up and (("line", 0), False) in looked


def test_pair_product_drops_combinations_that_mix_numbers():
    # r1c2 and r1c3 could each run east-west, but together they would join the 1 and the 2
    p = puzzle("1 . . 2\n1 . . 2", cover=True)
    state = NL.initial_state(p)
    for i in (0, 3, 4, 7):
        state = state.restrict(i, WITH_SIDE[S] | WITH_SIDE[N])
    after = found("numberlink.pair-product", p, state)
    assert {"r1c2", "r1c3", "r2c2", "r2c3"} <= set(after)
    from grader.core import exact
    assert found("numberlink.pair-product", p, exact.solve(p).solutions[0]) == {}


def test_pair_product_drops_a_u_turn():
    # ┏ at r1c2 and ┓ at r1c3 would turn the line back beside itself at r2c2 and r2c3 (the 1
    # and the 2 beside them are what the pair product looks for: a 2x2 block with nothing
    # drawn or numbered around it is the level-2 rules' work)
    p = puzzle("1 . . 2\n. . . .\n2 . . 1")
    empty = 1
    shape = {m: 1 << k for k, m in enumerate(SHAPES)}
    state = NL.initial_state(p).restrict(1, shape[E | S] | empty).restrict(2, shape[S | W] | empty)

    def of_the_pair(state):
        return [decided_by([d], p, state) for d in fires("numberlink.pair-product", p, state)
                if (str(d.params["a"]), str(d.params["b"])) == ("r1c2", "r1c3")]
    assert of_the_pair(state) == [{"r1c2": "stays empty", "r1c3": "stays empty"}]
    straight = NL.initial_state(p).restrict(1, shape[E | S] | empty).restrict(2, shape[E | W] | empty)
    assert of_the_pair(straight) == []
    alone = puzzle("1 . . .\n. . . .\n. . . 1")
    state = NL.initial_state(alone).restrict(1, shape[E | S] | empty).restrict(2, shape[S | W] | empty)
    assert [d for d in fires("numberlink.pair-product", alone, state) if str(d.params["b"]) == "r1c3"] == []
    assert fires("numberlink.no-u-turn", alone, state)


def test_remembered_pair_products_agree_with_fresh_ones():
    # the pairwise product remembers its outcomes within a solve by what they read: over many
    # boards in one solve's memory it finds what a fresh look at each board finds
    from grader.core.engine import remembering
    p = load(str(shared("janko/numberlink.jsonl")) + "#arukone/181")
    rng = random.Random(5)
    boards = [random_partial(p, NL.solution_state(p), rng, rng.choice((0.3, 0.5, 0.7))) for _ in range(60)]

    def looks(board):
        return [(d.removals, d.params) for d in fires("numberlink.pair-product", p, board)]
    fresh = [looks(board) for board in boards]
    with remembering() as memory:
        assert [looks(board) for board in boards] == fresh
        assert memory["numberlink.pair-products"]
    assert any(fresh)


def test_violations_kept_by_board_agree_with_a_fresh_check():
    # a solve keeps what violations said of each board: asked again in one solve's memory, of
    # the same boards and of another puzzle's boards of the same size, it says what it says fresh
    from grader.core.engine import remembering
    first, second = (load(str(shared("janko/numberlink.jsonl")) + f"#arukone/{k}") for k in ("181", "163"))
    rng = random.Random(7)

    def board(p, fraction: float, wrong: bool):
        """A random share of the solution, with one cell given another shape when `wrong`."""
        state = random_partial(p, NL.solution_state(p), rng, fraction)
        v = rng.choice([v for v, lab in enumerate(p.labels) if not lab])
        other = rng.choice([k for k in range(len(SHAPES)) if NL.solution_state(p).cands[v] != 1 << k])
        return state.restrict(v, 1 << other) if wrong else state
    boards = [(p, board(p, fraction, wrong)) for p in (first, second) for fraction in (0.2, 0.5, 1.0)
              for wrong in (False, True) for _ in range(4)]
    fresh = [NL.violations(p, board) for p, board in boards]
    assert any(fresh) and not all(fresh)
    with remembering():
        assert [NL.violations(p, board) for p, board in boards + boards] == fresh + fresh


def test_a_cell_no_line_can_reach_breaks_the_rules():
    p = puzzle("1 . 1\n2 . 2\n. . .", cover=True)
    drawn = marks(p, "1 ━ 1\n2 ━ 2\n. . .")
    for i, d in ((0, E), (2, W), (3, E), (5, W)):
        drawn = drawn.restrict(i, WITH_SIDE[d])
    assert NL.violations(p, drawn)[0].message == "no line can reach r3c1"
    assert NL.violations(p, NL.initial_state(p)) == []


def test_hypotheses_are_sound_where_easier_steps_stop():
    p = load(str(CORPUS / "numberlink" / "arukone-7x7-grader-1.yaml"))
    solution = reference(p)
    state = random_partial(p, solution, random.Random(2), 0.15)
    hid = "numberlink.trial-and-error"
    assert_all_sound(REGISTRY.get(hid), p, state, solution)
    assert fires(hid, p, solution) == []


def test_trials_start_from_every_loose_end():
    from heuristics.numberlink.trials import heads
    # the 1 runs r1c1 -> r1c2; a piece no number reaches yet runs r3c2 - r3c3
    p = puzzle("1 . . .\n. . . .\n. . . .\n. . . 1")
    state = NL.initial_state(p).restrict(0, WITH_SIDE[E]).restrict(1, WITH_SIDE[W])
    state = state.restrict(9, WITH_SIDE[E]).restrict(10, WITH_SIDE[W])
    found = {(lab, str(p.cell(x))): sorted(str(p.cell(y)) for _, y in ways) for lab, _, x, ways in heads(p, state)}
    assert found[1, "r1c2"] == ["r1c3", "r2c2"] and found[1, "r4c4"] == ["r3c4", "r4c3"]
    assert found[0, "r3c2"] == ["r2c2", "r3c1", "r4c2"] and found[0, "r3c3"] == ["r2c3", "r3c4", "r4c3"]
    assert len(found) == 4


def test_a_greedy_fill_is_sound_and_ends_where_the_step_by_step_one_does():
    # a trial's fill takes everything a technique finds at one look (Solver greedy=True)
    p = load(str(CORPUS / "numberlink" / "arukone-7x7-grader-1.yaml"))
    solution = reference(p)
    lower = REGISTRY.for_genre("numberlink", 4)
    one = Solver(p, heuristics=lower).solve()
    many = Solver(p, heuristics=lower, greedy=True).solve()
    assert many.status == one.status and many.final == one.final
    assert len({s.number for s in many.steps}) == len(many.steps)
    for step, _, _ in many.states():
        assert not any(m & solution.cands[v] for v, m in step.deduction.removals)


def test_a_sweep_tries_hypotheses_that_found_nothing_last_and_only_in_the_last_pass():
    from grader.core.engine import remembering
    from heuristics.numberlink import trials
    p = puzzle("1 . . .\n. . . .\n. . . .\n. . . 1")
    state = NL.initial_state(p)
    near, far = trials.items(p, state)
    assert [it.key[0] for it in near[:2]] == ["line", "line"] and all(it.key[0] == "cell" for it in far)
    first = near[0]
    with remembering():
        # tried in this very state: nothing it reached has changed, so it comes last, and
        # only in the last pass
        for fill in ("near", "deep"):
            trials.memory().tried[fill, first.key] = (state.cands, frozenset(first.cells),
                                                     trials.around(p, first.cells))
        assert first not in trials.by_promise(p, state, near, far, "near")
        assert trials.by_promise(p, state, near, far, "deep")[len(near) - 1] is first
        # something it reached has changed since: every hypothesis keeps its place
        later = state.restrict(first.cells[0], WITH_SIDE[first.ways[0][0]])
        near, far = trials.items(p, later)
        assert [it.key for it in trials.by_promise(p, later, near, far, "near")] == [it.key for it in near + far]
    # a new solve starts with nothing tried
    assert trials.by_promise(p, state, *trials.items(p, state), "near")[0] == first


def test_every_pass_nests_the_look_ahead_from_the_ends():
    from heuristics.numberlink import trials
    look = REGISTRY.get("numberlink.end-lookahead")
    assert [look in trials.fill_heuristics(4, fill) for fill in trials.FILLS] == [True, True]
    cells = REGISTRY.get("numberlink.cell-lookahead")
    assert not any(cells in trials.fill_heuristics(4, fill) for fill in trials.FILLS)
    territory = REGISTRY.get("numberlink.out-of-reach")
    assert [territory in trials.fill_heuristics(4, fill) for fill in trials.FILLS] == [False, True]


def test_trials_reuse_a_case_analysis_only_in_later_states():
    from grader.core.steps import Deduction
    from grader.core.engine import remembering
    from heuristics.numberlink.trials import kept_deduction, memory
    p = puzzle("1 . . .\n. . . .\n. . . 1")
    start = NL.initial_state(p)
    later = start.restrict(1, WITH_SIDE[W])
    made = Deduction(((5, 1), (6, 1)), {"outcome": "test"})       # r2c2 and r2c3 are used
    with remembering():
        memory().kept[:] = [(later.cands, made)]
        assert kept_deduction(start) is None                  # not a later state: dropped
        memory().kept[:] = [(later.cands, made)]
        again = kept_deduction(later.restrict(5, 1 << 9 | 1))   # r2c2 already narrowed
        assert again is not None and again.removals == ((5, 1), (6, 1))
        memory().kept[:] = [(later.cands, made)]
        assert kept_deduction(later.restrict(5, ~1).restrict(6, ~1)) is None   # nothing new


def test_a_remembered_trial_is_taken_up_where_it_stopped():
    from heuristics.numberlink import trials
    p = puzzle("1 . . .\n. . . .\n. . . .\n. . . 1")
    state = NL.initial_state(p)
    item = trials.items(p, state)[0][0]
    _, branches = item.attempt(p, state, trials.fill_heuristics(4, "near"))
    memo = trials.Recalled.of(item, state, branches)
    later = state.restrict(5, ~1)                                    # r2c2 is used
    assert memo.fits(item, state) and memo.fits(item, later)
    assert not trials.Recalled.of(item, later, branches).fits(item, state)   # not a later board
    assert not memo.fits(trials.items(p, state)[0][1], later)        # another hypothesis
    live = next(b for b in branches if not b.refuted)
    taken_up = trials.resume(p, later, live, 4, 300, trials.fill_heuristics(4, "near"))
    assert taken_up.trace.steps[:len(live.trace.steps)] == live.trace.steps
    assert all(m & ~(f & c) == 0 for m, f, c in zip(taken_up.trace.final.cands, live.trace.final.cands, later.cands))
    # a board that rules out what the branch derived refutes it, naming the cell
    v = next(v for v, m in enumerate(live.trace.final.cands) if m != state.cands[v] and v != item.cell)
    clash = state.restrict(v, ~live.trace.final.cands[v])
    refuted = trials.resume(p, clash, live, 4, 300, trials.fill_heuristics(4, "near"))
    assert refuted.refuted and str(p.cell(v)) in refuted.trace.reason


def test_a_fill_cut_short_is_taken_up_where_it_stopped():
    from grader.core.steps import Status
    from heuristics.numberlink import trials
    p = puzzle("1 . . .\n. . . .\n. . . .\n. . . 1")
    state, lower = NL.initial_state(p), trials.fill_heuristics(4, "near")
    item = trials.items(p, state)[0][0]
    _, full = item.attempt(p, state, lower)
    _, short = item.attempt(p, state, lower, (3, 4))
    assert all(b.trace.status is Status.BUDGET and len(b.trace.steps) == 3 for b in short)
    later = state.restrict(5, ~1)                                    # r2c2 is used
    assert trials.Recalled.of(item, state, short).fits(item, later)
    for cut, whole in zip(short, full):
        went_on = trials.resume(p, later, cut, 4, 300, lower)
        # on from where it stopped, to where a whole fill taken up ends
        assert went_on.trace.steps[:3] == cut.trace.steps and went_on.trace.status is Status.STUCK
        assert went_on.trace.final == trials.resume(p, later, whole, 4, 300, lower).trace.final
    # on the board it was made on, nothing has changed to take it up for
    assert trials.resume(p, state, short[0], 4, 300, lower).trace.steps == short[0].trace.steps


# --- soundness ----------------------------------------------------------------------------------

def test_generated_corpus_solves_soundly():
    for path in sorted((CORPUS / "numberlink").glob("*.yaml")):
        p = load(str(path))
        assert assert_sound_path(p).value == "solved", path.name


@pytest.mark.corpus
def test_every_deduction_agrees_with_the_solution_on_janko_puzzles():
    from grader.core.engine import Budget
    for p in janko("numberlink", 3, max_cells=49):
        assert_sound_path(p, NL.solution_state(p), budget=Budget(max_steps=300, max_seconds=2))
    # a 10x10 board, into the hypotheses (and the case analyses they keep for later)
    for p in janko("numberlink", 1, seed=4, max_cells=100):
        assert_sound_path(p, NL.solution_state(p), budget=Budget(max_steps=400, max_seconds=4))


@pytest.mark.corpus
def test_remembered_trials_are_sound_on_a_long_janko_solve(monkeypatch):
    """janko 031 (15x15), with the first pass filling in without the look-ahead from the
    ends (so that fewer hypotheses are refuted at once), needs many sweeps of trials, which
    take up hypotheses tried on earlier boards again; every step keeps the true values."""
    from heuristics.numberlink import trials
    resumed = []
    resume, fill_heuristics = trials.resume, trials.fill_heuristics
    monkeypatch.setattr(trials, "resume", lambda *args: resumed.append(1) or resume(*args))
    monkeypatch.setattr(trials, "fill_heuristics", lambda level, fill: [
        h for h in fill_heuristics(level, fill) if fill != "near" or h is not trials.end_lookahead])
    p = load(str(shared("janko/numberlink.jsonl")) + "#arukone/031")
    assert assert_sound_path(p, NL.solution_state(p), budget=Budget(max_seconds=120)).value == "solved"
    assert len(resumed) > 100


def test_every_technique_is_sound_from_random_correct_states():
    rng = random.Random(5)
    for p in janko("numberlink", 3, seed=2, max_cells=100):
        solution = NL.solution_state(p)
        for fraction in (0.3, 0.6):
            state = random_partial(p, solution, rng, fraction)
            for h in REGISTRY.for_genre("numberlink", 4):
                assert_all_sound(h, p, state, solution)


# --- formats and bad input ----------------------------------------------------------------------

def test_puzzlink_decodes_as_formats_md_says():
    p = load("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3")
    assert NL.render_text(p).splitlines() == [
        "1 . . . .", "2 . . 3 .", ". . . . .", ". 1 . . 2", ". . . . 3"]
    assert not p.cover
    q = load("https://puzz.link/p?arukone/4/4/12l3123j")
    assert NL.render_text(q).splitlines() == ["1 2 . .", ". . . .", "3 1 2 3", ". . . ."]
    assert q.cover
    assert not load("https://puzz.link/p?arukone/e/4/4/12l3123j").cover


def test_plain_text_grid(tmp_path: Path):
    f = tmp_path / "flow.txt"
    f.write_text("3 3\nA.A\nB.B\n...\n")
    p = load(str(f))
    assert p.genre.name == "numberlink" and NL.render_text(p).splitlines() == ["A . A", "B . B", ". . ."]
    assert not NL.sniff("+----+\n| ↑. |\n")


def test_janko_records_load_with_their_solutions():
    for p in janko("numberlink", 20):
        assert NL.violations(p, NL.solution_state(p)) == []


def test_native_round_trip_and_marks():
    from grader.io.native import dump
    p = load(str(CORPUS / "numberlink" / "arukone-5x5-grader-1.yaml"))
    again = native(dump(NL.to_native(p)))
    assert again.labels == p.labels and again.solution == p.solution and again.cover
    state = marks(p, ". ━ 1 2 .\n1 3 . . .\n4 . 5 . .\n. 5 6 3 .\n. 4 . 6 2")
    assert state.decided(1) and not state.decided(0)
    with pytest.raises(InputError) as err:     # every cell is used here
        marks(p, ". . 1 2 .\n1 3 x . .\n4 . 5 . .\n. 5 6 3 .\n. 4 . 6 2")
    assert "<marks>:2:5: 'x' at r2c3 is not allowed here (every cell must be used)" in str(err.value)


@pytest.mark.parametrize("text, message", [
    ("genre: numberlink\ngrid: |\n  1 . 2\n  . . 1\n", ":3:7: label '2' appears once"),
    ("genre: numberlink\ngrid: |\n  1 . 1\n  . . 1\n", ":4:7: label '1' appears 3 times"),
    ("genre: numberlink\ngrid: |\n  1 . 1\nsolution: |\n  1 ┃ 1\n", "does not show which way the line leaves r1c1"),
    ("genre: numberlink\ngrid: |\n  1 . 1\nsolution: |\n  1 ? 1\n", "unexpected '?' in solution"),
    ("genre: numberlink\ngrid: |\n  1 . 1\n  . . .\nsolution: |\n  1 ━ 1\n  ┏ ━ ┓\n", "solution breaks the rules"),
])
def test_bad_native_input_names_the_place(text, message):
    assert message in refused(native, text)


@pytest.mark.parametrize("body, message", [
    ("3 3\nA.A\nB.B\n", "expected 3 rows"),
    ("3 3\nA.A\nB.B\n.C.\n", ":4:2: label 'C' appears once"),
    ("3 3\nA.A\nB-B\n...\n", ":3:2: unexpected '-'"),
])
def test_bad_text_input_names_the_place(tmp_path: Path, body, message):
    f = tmp_path / "bad.txt"
    f.write_text(body)
    assert message in refused(load, str(f), "numberlink")


@pytest.mark.parametrize("spec, message", [
    ("https://puzz.link/p?numlin/5/5/1j2h3m1h2k", "label '3' appears once"),
    ("https://puzz.link/p?numlin/5/5/.j2h3m1h2j3", "unknown"),
])
def test_bad_urls_name_the_part(spec, message):
    text = refusal(load, spec)
    assert message in text
    assert "(body)" in text


def test_svg_colours_each_pair():
    p = load(str(CORPUS / "numberlink" / "arukone-5x5-grader-1.yaml"))
    picture = NL.render_svg(p, reference(p), [("target", [6])])
    assert picture.startswith("<svg") and "#e53935" in picture and "#1e88e5" in picture


@pytest.mark.parametrize("text, answer", [
    ("grid: |\n  1 1\n", "1 1"),                                  # a line of two cells
    ("grid: |\n  1 . 1\n", "1 ━ 1"),
    ("cover: true\ngrid: |\n  1 2\n  1 2\n", "1 2\n1 2"),      # two-cell lines side by side
    ("cover: true\ngrid: |\n  1 . . . 1\n", "1 ━ ━ ━ 1"),        # one line through the board
    ("grid: |\n  . .\n  . .\n", "x x\nx x"),                    # no line at all
])
def test_degenerate_boards_solve(text, answer):
    """Lines of two cells, a line through the whole board and no line at all (the planted
    soak's extremes, written out)."""
    from grader.core.steps import Status
    p = native("genre: numberlink\n" + text)
    trace = Solver(p, assume_unique=False).solve()
    assert trace.status is Status.SOLVED and get("numberlink").render_text(p, trace.final) == answer


def test_link_neighbours_and_product_sides_follow_the_neighbours():
    from heuristics.numberlink.lines import LINK_SIDES, link_neighbours
    from heuristics.numberlink.product import product_sides
    p = load(str(CORPUS / "numberlink" / "arukone-7x7-grader-1.yaml"))
    links = link_neighbours(p)
    for x, nb in enumerate(p.neighbour):
        for v in range(len(SHAPES)):
            if v not in LINK_SIDES:
                assert links[x][v] is None
                continue
            d1, d2 = LINK_SIDES[v]
            others = tuple(z for d, z in nb.items() if d not in (d1, d2) and not p.labels[z])
            assert links[x][v] == (nb.get(d1), nb.get(d2), others)
    for i, _, j in p.edges:
        side_i, side_j = product_sides(p)[i, j]
        assert sorted(side_i) == sorted({i, *p.neighbour[i].values()} - {j})
        assert sorted(side_j) == sorted({j, *p.neighbour[j].values()} - {i})


def solve_path(p):
    """The states of a solve, each made from the one before (so chains are updated, not fresh)."""
    trace = Solver(p, budget=Budget(max_steps=400)).solve()
    states = [trace.start]
    for step in trace.steps:
        states.append(step.deduction.apply(states[-1]))
    return states


def test_side_by_side_kept_with_the_pieces_is_a_fresh_look():
    # the puzzle keeps side_by_side of two drawn pieces with their member lists; on a later
    # board with the same lists it must be what fresh chains of that board give
    from grader.kernels.cell_shapes import Chains, chains
    from heuristics.numberlink.common import along
    from heuristics.numberlink.lines import side_by_side
    asked = reused = 0
    for name in ("arukone-7x7-grader-1.yaml", "arukone-7x7-grader-2.yaml"):
        p = load(str(CORPUS / "numberlink" / name))
        for state in solve_path(p):
            if 0 in state.cands:
                continue
            ch = chains(p, state)
            fresh = Chains(p, state)
            pieces = sorted(ch.members)
            for r1 in pieces:
                for r2 in pieces:
                    if r1 != r2:
                        asked += 1
                        kept = p.__dict__.get("_numberlink_side_by_side", {}).get((r1, r2))
                        reused += kept is not None and kept[0] is ch.members[r1] and kept[1] is ch.members[r2]
                        got = side_by_side(p, ch, r1, r2)
                        kept = p.__dict__.pop("_numberlink_side_by_side")   # (the fresh look keeps its own)
                        assert got == side_by_side(p, fresh, fresh.root[r1], fresh.root[r2])
                        p.__dict__["_numberlink_side_by_side"] = kept
            focus = frozenset(range(0, len(state.cands), 5))
            assert along(ch, focus) == ch.along(focus) and along(ch, focus) is along(ch, focus)
    assert asked > 100 and reused > 20


@pytest.mark.parametrize("hid", ["numberlink.join-up", "numberlink.different-lines"])
def test_a_join_is_found_once_per_look(hid):
    # a join seen from both its cells is one find: the second would repeat the first
    rng = random.Random(5)
    h = REGISTRY.get(hid)
    finds = 0
    for name in ("arukone-7x7-grader-1.yaml", "arukone-7x7-grader-2.yaml"):
        p = load(str(CORPUS / "numberlink" / name))
        solution = reference(p)
        for _ in range(30):
            state = random_partial(p, solution, rng, rng.random())
            for focus in (None, frozenset(rng.sample(range(len(state.cands)), 6))):
                removals = [frozenset(d.removals) for d in h.find(p, state, focus)]
                finds += len(removals)
                assert len(removals) == len(set(removals))
    assert finds > 20
