"""Generate Hashiwokakero puzzles for corpus/hashiwokakero that need level 4 or 5.

    python corpus/hashiwokakero/generate.py ROWSxCOLS COUNT [--seed S] [--min-level L]

Simon Tatham's Bridges (corpus/tatham.py) only makes puzzles its own solver finishes, which
our level 3 always does; these are grown by us instead. A random answer is grown first: from
one island, a random island sends a bridge (one or two) a random distance across open water
to a new island, or to an island it already sees; bridges never cross or touch islands
sideways. Each island's number is its bridge count. Only puzzles whose numbers have exactly
one answer (the exact solver, clingo) and whose grade reaches --min-level are kept; the file
records the command and seed that made it.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import attrs

from grader.core import exact
from grader.core.analysis import analyse
from grader.io.native import dump
from grader.genres import get
from grader.genres.hashiwokakero.model import WATER, HashiPuzzle
from grader.core.model import Meta
from grader.genres.hashiwokakero.generate import random_board

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("size")
    ap.add_argument("count", type=int)
    ap.add_argument("--seed", default="grader")
    ap.add_argument("--min-level", type=int, default=4)
    ap.add_argument("--tries", type=int, default=3000)
    args = ap.parse_args()
    rows, cols = (int(x) for x in args.size.split("x"))
    rng = random.Random(f"{args.size}#{args.seed}")
    genre = get("hashiwokakero")
    out_dir = Path(__file__).parent
    made = 0
    for attempt in range(1, args.tries + 1):
        board = random_board(rows, cols, rng, islands=rows * cols // 4)
        if sum(b != WATER for b in board) < 6:
            continue
        puzzle = HashiPuzzle(rows=rows, cols=cols, board=tuple(board))
        result = exact.solve(puzzle)
        if result.verdict is not exact.Verdict.UNIQUE:
            continue
        puzzle = attrs.evolve(puzzle, solution=genre.solution_from_state(puzzle, result.solution))
        level = analyse(puzzle, check_unique=False).grade.level
        if level < args.min_level:
            continue
        made += 1
        meta = Meta(title=f"grown {args.size} #{made}", source="grader project (corpus/hashiwokakero/generate.py)",
                    provenance=f"python corpus/hashiwokakero/generate.py {args.size} {args.count} "
                               f"--seed {args.seed} --min-level {args.min_level} (attempt {attempt})",
                    licence="MIT")
        path = out_dir / f"grown-{args.size}-{args.seed}-{made}.yaml"
        path.write_text(dump(genre.to_native(attrs.evolve(puzzle, meta=meta))))
        print(path, "level", level)
        if made == args.count:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
