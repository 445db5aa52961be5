"""Generate Heyawake puzzles for corpus/heyawake/, made by this project.

    python corpus/heyawake/generate.py ROWSxCOLS COUNT [--seed S]

Rooms: a random split of the grid into rectangles. Solution: a random valid shading found by
clingo (random decisions, the given seed). Numbers: every room gets its count of shaded
cells, then numbers are dropped in random order while the exact solver still finds exactly
one solution. Each puzzle becomes corpus/heyawake/heyawake-<R>x<C>-<seed>-<n>.yaml with its
provenance (this command); licence CC0, like the rest of the project's own puzzles.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import clingo

from grader.core import exact
from grader.core.errors import Source
from grader.io.native import dump
from grader.genres import get
from grader.core.model import Meta
from grader.genres.heyawake.generate import split


def random_shading(genre, rows: int, cols: int, labels: list[int], seed: int) -> set[int] | None:
    facts = [f"rows({rows}). cols({cols})."]
    facts += [f"room({i // cols},{i % cols},{k})." for i, k in enumerate(labels)]
    ctl = clingo.Control(["1", "--warn=none", f"--seed={seed}", "--rand-freq=1"])
    ctl.add("base", [], genre.encoding_text() + "\n".join(facts))
    ctl.ground([("base", [])])
    found: list[set[int]] = []
    ctl.solve(on_model=lambda m: found.append({a.arguments[0].number * cols + a.arguments[1].number
                                               for a in m.symbols(shown=True)}))
    return found[0] if found else None


def make(rows: int, cols: int, seed: int):
    genre = get("heyawake")
    rng = random.Random(seed)
    rects: list = []
    split(rng, 0, 0, rows, cols, rects)
    labels = [0] * (rows * cols)
    for k, (t, l, h, w) in enumerate(rects):
        for r in range(t, t + h):
            for c in range(l, l + w):
                labels[r * cols + c] = k
    shaded = random_shading(genre, rows, cols, labels, seed)
    if shaded is None:
        return None
    numbers = {}
    for k, (t, l, h, w) in enumerate(rects):
        numbers[t * cols + l] = sum(1 for i in shaded if labels[i] == k)
    src = Source("<generator>")

    def build(nums):
        return genre.build(rows, cols, labels, nums, src, Meta())
    if exact.solve(build(numbers)).verdict is not exact.Verdict.UNIQUE:
        return None
    for cell in rng.sample(sorted(numbers), len(numbers)):
        trial = {i: n for i, n in numbers.items() if i != cell}
        if exact.solve(build(trial)).verdict is exact.Verdict.UNIQUE:
            numbers = trial
    return build(numbers), shaded


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("size")
    ap.add_argument("count", type=int)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rows, cols = (int(x) for x in args.size.split("x"))
    genre = get("heyawake")
    made, seed = 0, args.seed
    while made < args.count:
        result = make(rows, cols, seed)
        seed += 1
        if result is None:
            continue
        puzzle, shaded = result
        made += 1
        import attrs
        puzzle = attrs.evolve(puzzle, solution=frozenset(shaded), meta=Meta(
            title=f"Heyawake {rows}x{cols} #{made}", author="grader project", licence="CC0-1.0",
            provenance=f"python corpus/heyawake/generate.py {args.size} {args.count} --seed {args.seed} "
                       f"(puzzle {made}, internal seed {seed - 1})"))
        path = Path(__file__).parent / f"heyawake-{rows}x{cols}-{args.seed}-{made}.yaml"
        path.write_text(dump(genre.to_native(puzzle)))
        print(path, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
