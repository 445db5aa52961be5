"""Masyu level 2, a short line must not close on itself (heuristics/masyu.py, masyu.short-loop):
it fires on a short line whose ends are side by side, and leaves a long line (level 3) and a
small loop that is the whole answer alone."""
from __future__ import annotations

from grader.core.engine import Solver
from grader.core.model import State
from grader.core.steps import Status
from support import fires, found, native

CROSS = "is crossed out"


def puzzle(grid: str):
    return native("genre: masyu\ngrid: |\n" + "".join(f"  {row}\n" for row in grid.strip().splitlines()))


def drawn(p, cells: list[str]) -> State:
    """The start state with a line drawn through the cells in order (r1c1 style names)."""
    names = {n: i for i, n in enumerate(p.graph.edge_names)}
    cands = list(p.genre.initial_state(p).cands)
    for a, b in zip(cells, cells[1:]):
        edge = names.get(f"{a}-{b}", names.get(f"{b}-{a}"))
        cands[p.graph.edge_vars[edge]] = 2
    return State(tuple(cands))


def test_a_short_line_is_not_closed():
    p = puzzle(". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . B")
    s = drawn(p, ["r2c1", "r1c1", "r1c2", "r2c2"])
    assert found("masyu.short-loop", p, s) == {"r2c1-r2c2": CROSS}
    d, = fires("masyu.short-loop", p, s)
    assert d.params["length"] == 3 and d.params["ends"] == ["r2c1", "r2c2"]


def test_a_long_line_is_left_to_level_3():
    p = puzzle(". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . B")
    ring = ["r2c1", "r1c1", "r1c2", "r1c3", "r1c4", "r2c4", "r3c4", "r3c3", "r3c2", "r3c1"]   # 9 edges
    s = drawn(p, ring)
    assert found("masyu.short-loop", p, s) == {}
    assert found("masyu.no-early-loop", p, s) == {"r2c1-r3c1": CROSS}


def test_a_small_loop_that_is_the_whole_answer_is_not_crossed():
    p = puzzle(". W .\n. . .\n. . .")
    s = drawn(p, ["r2c1", "r1c1", "r1c2", "r1c3", "r2c3", "r3c3", "r3c2", "r3c1"])
    assert found("masyu.short-loop", p, s) == {}


def test_it_is_the_level_2_step_of_a_generated_puzzle():
    """`grader generate --genre masyu --level 2 --seed 1` (puzzle 3): the solve needs it twice,
    nothing harder, and ends at the puzzle's solution."""
    p = native("""genre: masyu
grid: |
  . . . . . . . . . .
  . . . . . . . . . .
  . . . . . . . . B .
  . . . . . W W . . .
  B . . . B . . . W .
  . . . . . W W . W .
  . . W W . . . . W .
  . . B . . . . . . B
  W W . . . . . . . .
  . . . . . B B . . .
solution: |
  - - - - - - - - se sw
  - - - - - - - - ns ns
  - - - - se sw se ew nw ns
  - - - - ns ns ns - - ns
  se ew ew ew nw ns ns se ew nw
  ns - - - - ns ns ne ew sw
  ns se ew ew sw ne nw se ew nw
  ns ns se ew nw se sw ne ew sw
  ns ns ns - - ns ns - - ns
  ne nw ne ew ew nw ne ew ew nw
""")
    trace = Solver(p).solve()
    assert trace.status is Status.SOLVED and trace.final == p.genre.solution_state(p)
    assert max(s.level for s in trace.steps) == 2
    assert [s.heuristic.id for s in trace.steps if s.level == 2] == ["masyu.short-loop"] * 2
