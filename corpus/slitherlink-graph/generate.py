"""Generate Generalized Slitherlink puzzles on non-square tilings, as ASP facts (FORMATS.md §6).

    python corpus/slitherlink-graph/generate.py KIND WIDTH HEIGHT COUNT [--seed S]
    python corpus/slitherlink-graph/generate.py honeycomb 5 5 3 --seed grader

KIND is honeycomb (hexagons), triangular (triangles) or octagonal (the 4.8.8 tiling of
octagons and squares). A loop is grown as the boundary of a random simply connected set of
faces; every face gets its count, then clues are dropped in random order as long as the exact
solver still finds exactly one solution. Each puzzle is written as
<kind>-<width>x<height>-<seed>-<n>.lp with its provenance and solution in comments. The
puzzles are this project's own work.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from grader.core import exact  # noqa: E402
from grader.genres.slitherlink.model import SlitherPuzzle  # noqa: E402
from grader.core.model import Meta  # noqa: E402
from grader.kernels.tilings import honeycomb_polygons, octagonal_polygons, triangular_polygons  # noqa: E402

S3 = math.sqrt(3)


KINDS = {"honeycomb": honeycomb_polygons, "triangular": triangular_polygons, "octagonal": octagonal_polygons}


class Tiling:
    """Vertices numbered by position (top to bottom, left to right), edges, faces."""

    def __init__(self, polygons: list[list[tuple[float, float]]]):
        key = lambda pt: (round(pt[1], 4), round(pt[0], 4))  # noqa: E731
        points = sorted({key(pt) for poly in polygons for pt in poly})
        self.index = {pt: i for i, pt in enumerate(points)}
        self.coords = [(x, y) for y, x in points]
        edges: dict[tuple[int, int], int] = {}
        self.faces: list[list[int]] = []
        for poly in polygons:
            vs = [self.index[key(pt)] for pt in poly]
            face = []
            for a, b in zip(vs, vs[1:] + vs[:1]):
                e = edges.setdefault((min(a, b), max(a, b)), len(edges))
                face.append(e)
            self.faces.append(face)
        self.ends = [None] * len(edges)
        for pair, e in edges.items():
            self.ends[e] = pair
        self.faces_of_edge: list[list[int]] = [[] for _ in self.ends]
        for f, es in enumerate(self.faces):
            for e in es:
                self.faces_of_edge[e].append(f)

    def boundary(self, region: set[int]) -> list[int]:
        return [e for e, fs in enumerate(self.faces_of_edge) if sum(f in region for f in fs) == 1]

    def is_simple_cycle(self, edges: list[int]) -> bool:
        deg: dict[int, list[int]] = {}
        for e in edges:
            for v in self.ends[e]:
                deg.setdefault(v, []).append(e)
        if not edges or any(len(x) != 2 for x in deg.values()):
            return False
        start = self.ends[edges[0]][0]
        seen, v, prev = 0, start, None
        while True:
            nxt = [e for e in deg[v] if e != prev][0]
            prev = nxt
            a, b = self.ends[nxt]
            v = b if a == v else a
            seen += 1
            if v == start:
                return seen == len(edges)


def grow_loop(t: Tiling, rng: random.Random) -> list[int]:
    n = len(t.faces)
    region = {rng.randrange(n)}
    target = rng.randint(n * 2 // 5, n * 3 // 5)
    stuck = 0
    while len(region) < target and stuck < 200:
        frontier = sorted({g for f in region for e in t.faces[f] for g in t.faces_of_edge[e]} - region)
        f = rng.choice(frontier)
        if t.is_simple_cycle(t.boundary(region | {f})):
            region.add(f)
            stuck = 0
        else:
            stuck += 1
    return t.boundary(region)


def puzzle_of(t: Tiling, clues: dict[int, int]) -> SlitherPuzzle:
    faces = sorted(clues)
    return SlitherPuzzle(clues=tuple(clues[f] for f in faces), vertex_terms=tuple(str(i) for i in range(len(t.coords))),
                         edge_ends=tuple(t.ends), cell_names=tuple(f"f{f}" for f in faces),
                         cell_edge_lists=tuple(tuple(t.faces[f]) for f in faces), meta=Meta())


def make(t: Tiling, rng: random.Random) -> tuple[dict[int, int], list[int]]:
    loop = set(grow_loop(t, rng))
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
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=sorted(KINDS))
    ap.add_argument("width", type=int)
    ap.add_argument("height", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("--seed", default="grader")
    args = ap.parse_args()
    t = Tiling(KINDS[args.kind](args.width, args.height))
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
