"""The nonogram line solver against brute force on short lines, and on long lines where
enumeration would explode."""
from __future__ import annotations

import itertools
import random

from grader.kernels.lines import E, F, Line, bit_block_starts, block_starts, cell_bits, fill_of, minimum_length, runs, span_of


def brute(cands, clue):
    return [bits for bits in itertools.product((0, 1), repeat=len(cands))
            if all(cands[i] >> b & 1 for i, b in enumerate(bits)) and runs(bits) == list(clue)]


def random_line(rng: random.Random, longest: int, most_blocks: int) -> tuple[list[int], list[int]]:
    """A line of 1..longest cells, mostly open, and a clue of up to most_blocks blocks."""
    n = rng.randint(1, longest)
    clue = [rng.randint(1, 4) for _ in range(rng.randint(0, most_blocks))]
    return [rng.choice((E | F, E | F, E | F, E, F)) for _ in range(n)], clue


def test_agrees_with_brute_force():
    rng = random.Random(7)
    for _ in range(300):
        cands, clue = random_line(rng, 8, 3)
        sols = brute(cands, clue)
        line = Line(cands, clue)
        if not sols:
            assert line.allowed() is None and line.count() == 0
            continue
        expected = [0] * len(cands)
        for bits in sols:
            for i, b in enumerate(bits):
                expected[i] |= 1 << b
        assert line.allowed() == expected
        assert line.count() == len(sols)
        placed = line.solutions(len(sols))
        assert sorted(fill_of(len(cands), clue, s) for s in placed) == sorted(
            [F if b else E for b in bits] for bits in sols)


def test_same_solutions_holds_exactly_when_a_narrowing_keeps_every_solution():
    # A Line answers for a narrower line (as Picross's line_solver lets it) only when that
    # line has the same solutions; then every answer is the same as the narrower line's own.
    rng = random.Random(5)
    same = 0
    for _ in range(2000):
        cands, clue = random_line(rng, 8, 3)
        line = Line(cands, clue)
        narrower = [m if rng.random() < 0.6 else m & rng.choice((E, F)) for m in cands]
        sols = brute(narrower, clue)
        assert line.same_solutions(narrower) == (bool(sols) and sols == brute(cands, clue))
        if line.same_solutions(narrower):
            same += 1
            own = Line(narrower, clue)
            assert (own.kept, own.settled, own.starts, own.count()) == (line.kept, line.settled, line.starts, line.count())
            assert own.solutions(50) == line.solutions(50)
            assert all(own.span(j) == line.span(j) for j in range(len(clue)))
    assert same > 100


def test_wide_line_is_not_enumerated():
    clue = [1] * 10
    line = Line([E | F] * 30, clue)
    assert line.count() == 352716            # C(21, 10) placements: far too many to list
    assert line.solutions(100) is None
    assert line.allowed() == [E | F] * 30
    tight = Line([E | F] * 30, [2, 3, 4, 5, 6, 5])
    assert tight.allowed() == [F if c == "#" else E for c in "##.###.####.#####.######.#####"]


def test_spans_and_helpers():
    line = Line([E | F] * 5, [3])
    assert line.span(0) == (0, 2)
    assert line.allowed() == [E | F, E | F, F, E | F, E | F]
    assert minimum_length([2, 3]) == 6 and minimum_length([]) == 0
    assert runs([1, 1, 0, 1]) == [2, 1]
    assert Line([F, E, F], [3]).allowed() is None


def test_simple_line_rules_keep_every_solution():
    # The level-2 Picross rules read one line: each keeps every value some solution of the
    # line has, checked against brute force on short lines.
    from heuristics.picross import full_blocks_of, glue_of, lone_block_of, simple_boxes_of
    rng = random.Random(11)
    fired = 0
    for _ in range(3000):
        n = rng.randint(1, 9)
        clue = tuple(rng.randint(1, 4) for _ in range(rng.randint(1, 3)))
        cands = tuple(rng.choice((E | F, E | F, E | F, E | F, E, F)) for _ in range(n))
        sols = brute(cands, clue)
        if not sols:
            continue
        allowed = [simple_boxes_of(cands, clue), glue_of(cands, clue, False), glue_of(cands, clue, True),
                   lone_block_of(cands, clue), *full_blocks_of(cands, clue)]
        for found in filter(None, allowed):
            fired += any(c & ~a for c, a in zip(cands, found[0]))
            for bits in sols:
                assert all(found[0][i] >> b & 1 for i, b in enumerate(bits)), (cands, clue, found)
    assert fired > 300


def test_block_starts_are_the_lines_start_sets():
    # the screen's cheaper look (no per-cell intersection) must place the blocks as Line does
    rng = random.Random(11)
    for _ in range(400):
        cands, clue = random_line(rng, 12, 4)
        line = Line(cands, clue)
        got = block_starts(cands, clue)
        assert got == (line.start_sets if line.solvable else None)
        assert bit_block_starts(*cell_bits(cands), len(cands), tuple(clue)) == got
        for j, starts in enumerate(got or ()):
            assert span_of(starts) == line.span(j) == (min(line.starts[j]), max(line.starts[j]))


def test_cell_bits_are_the_cells_that_can_be_empty_and_filled():
    cands = [E, F, E | F, 0, F]
    can_e, can_f = cell_bits(cands)
    assert [can_e >> i & 1 for i in range(5)] == [1, 0, 1, 0, 0]
    assert [can_f >> i & 1 for i in range(5)] == [0, 1, 1, 0, 1]
    assert cell_bits([]) == (0, 0)
