"""Generate Generalized Slitherlink puzzles on non-square tilings, as ASP facts (FORMATS.md §6).

    python corpus/slitherlink-graph/generate.py KIND WIDTH HEIGHT COUNT [--seed S]
    python corpus/slitherlink-graph/generate.py honeycomb 5 5 3 --seed grader

KIND is honeycomb (hexagons), triangular (triangles) or octagonal (the 4.8.8 tiling of
octagons and squares). A loop is grown as the boundary of a random simply connected set of
faces; every face gets its count, then clues are dropped in random order as long as the exact
solver still finds exactly one solution. `vertex_at/3` facts say where each vertex is drawn. Each puzzle is written as
<kind>-<width>x<height>-<seed>-<n>.lp with its provenance and solution in comments. The
puzzles are this project's own work.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from grader.core import exact  # noqa: E402
from grader.core.model import Meta  # noqa: E402
from grader.genres.slitherlink.model import SlitherPuzzle  # noqa: E402
from grader.kernels.tilings import (Tiling, honeycomb_polygons, region_loop, octagonal_polygons,  # noqa: E402
                                    triangular_polygons)

POSITION_SCALE = 100      # vertex_at/3 takes whole numbers: the tiling's unit edge is 100

KINDS = {"honeycomb": honeycomb_polygons, "triangular": triangular_polygons, "octagonal": octagonal_polygons}


def puzzle_of(t: Tiling, clues: dict[int, int]) -> SlitherPuzzle:
    faces = sorted(clues)
    return SlitherPuzzle(clues=tuple(clues[f] for f in faces), vertex_terms=tuple(str(i) for i in range(t.n_vertices)),
                         edge_ends=tuple(t.ends), cell_names=tuple(f"f{f}" for f in faces),
                         cell_edge_lists=tuple(tuple(t.faces[f]) for f in faces), meta=Meta())


def make(t: Tiling, rng: random.Random) -> tuple[dict[int, int], list[int]]:
    loop = region_loop(t, rng)
    clues = {f: sum(e in loop for e in es) for f, es in enumerate(t.faces)}
    assert exact.solve(puzzle_of(t, clues)).verdict is exact.Verdict.UNIQUE
    for f in rng.sample(sorted(clues), len(clues)):
        trial = {k: v for k, v in clues.items() if k != f}
        if exact.solve(puzzle_of(t, trial)).verdict is exact.Verdict.UNIQUE:
            clues = trial
    return clues, sorted(loop)


def facts(t: Tiling, clues: dict[int, int], loop: list[int], provenance: str) -> str:
    out = [f"% Generalized Slitherlink, {provenance}",
           "% Made by this project (grader); unique solution checked with the exact solver.",
           "% solution: " + " ".join(f"link({a},{b})." for a, b in (t.ends[e] for e in loop))]
    out += [f"edge({a},{b})." for a, b in t.ends]
    for f in sorted(clues):
        out += [f"cell_contains(f{f},{t.ends[e][0]},{t.ends[e][1]})." for e in t.faces[f]]
    out += [f"clue(f{f},{clues[f]})." for f in sorted(clues)]
    out += [f"vertex_at({v},{round(x * POSITION_SCALE)},{round(y * POSITION_SCALE)})."
            for v, (x, y) in enumerate(t.positions or ())]
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=sorted(KINDS))
    ap.add_argument("width", type=int)
    ap.add_argument("height", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("--seed", default="grader")
    args = ap.parse_args()
    t = Tiling.from_polygons(KINDS[args.kind](args.width, args.height))
    for n in range(1, args.count + 1):
        rng = random.Random(f"{args.kind}-{args.width}x{args.height}-{args.seed}-{n}")
        clues, loop = make(t, rng)
        name = f"{args.kind}-{args.width}x{args.height}-{args.seed}-{n}.lp"
        cmd = (f"python corpus/slitherlink-graph/generate.py {args.kind} {args.width} {args.height} "
               f"{args.count} --seed {args.seed} (puzzle {n})")
        (Path(__file__).parent / name).write_text(facts(t, clues, loop, cmd))
        print(name, f"{len(clues)} clues on {len(t.faces)} faces")
    return 0


if __name__ == "__main__":
    sys.exit(main())
