"""Generate Nurikabe puzzles for corpus/nurikabe with a unique solution.

    python corpus/nurikabe/generate.py ROWSxCOLS COUNT [--seed S] [--max-island N]

A random solution is grown first: starting from an all-wall board, random wall cells turn into
island cells as long as the walls stay connected and islands stay small; it stops once no
2x2 block is all wall. Each island gets its size as a number in a random cell of it. Only
boards whose clues have exactly one solution (checked with the exact solver, clingo) are
kept; the file records the command and seed that made it.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import attrs

from grader.core import exact
from grader.io.native import dump
from grader.genres import get
from grader.genres.nurikabe.model import NurikabePuzzle
from grader.core.model import Meta
from grader.genres.nurikabe.generate import clues_for, random_solution


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("size", help="ROWSxCOLS, e.g. 7x7")
    ap.add_argument("count", type=int)
    ap.add_argument("--seed", default="grader")
    ap.add_argument("--max-island", type=int, default=5)
    args = ap.parse_args()
    rows, cols = map(int, args.size.split("x"))
    genre = get("nurikabe")
    out_dir = Path(__file__).parent
    made, attempt = 0, 0
    while made < args.count:
        attempt += 1
        rng = random.Random(f"{args.seed}-{rows}x{cols}-{attempt}")
        island = random_solution(rows, cols, rng, args.max_island)
        if island is None:
            continue
        clues = clues_for(rows, cols, island, rng)
        puzzle = NurikabePuzzle(rows=rows, cols=cols, clues=clues)
        result = exact.solve(puzzle, seconds=20)
        if result.verdict is not exact.Verdict.UNIQUE:
            continue
        made += 1
        command = (f"python corpus/nurikabe/generate.py {args.size} {args.count} --seed {args.seed} "
                   f"--max-island {args.max_island}")
        meta = Meta(title=f"Nurikabe {rows}x{cols} #{made}", author="grader project",
                    licence="CC0", provenance=f"{command} (attempt {attempt})")
        puzzle = attrs.evolve(puzzle, meta=meta,
                              solution=genre.solution_from_state(puzzle, result.solution))
        path = out_dir / f"nurikabe-{rows}x{cols}-{args.seed}-{made}.yaml"
        path.write_text(dump(genre.to_native(puzzle)))
        print(path, f"(attempt {attempt})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
