"""Tilings for planted loop puzzles: faces as edge lists, and random loops drawn as the
boundary of a random region of faces whose boundary is one simple cycle.

A Tiling numbers its vertices and edges itself (the square grid takes the numbering of
SlitherPuzzle, so a square loop can be used as it is)."""
from __future__ import annotations

import math
import random

S3 = math.sqrt(3)


class Tiling:
    """Vertices, edges (pairs of vertices) and faces (lists of edges)."""

    def __init__(self, ends: list[tuple[int, int]], faces: list[list[int]],
                 positions: list[tuple[float, float]] | None = None):
        self.ends = ends
        self.faces = faces
        self.positions = positions          # (x, y) per vertex, for tilings made from polygons
        self.n_vertices = 1 + max(v for pair in ends for v in pair)
        self.faces_of_edge: list[list[int]] = [[] for _ in ends]
        for f, es in enumerate(faces):
            for e in es:
                self.faces_of_edge[e].append(f)

    @staticmethod
    def from_polygons(polygons: list[list[tuple[float, float]]]) -> "Tiling":
        key = lambda pt: (round(pt[1], 4), round(pt[0], 4))  # noqa: E731
        points = sorted({key(pt) for poly in polygons for pt in poly})
        index = {pt: i for i, pt in enumerate(points)}
        edges: dict[tuple[int, int], int] = {}
        faces = []
        for poly in polygons:
            vs = [index[key(pt)] for pt in poly]
            faces.append([edges.setdefault((min(a, b), max(a, b)), len(edges))
                          for a, b in zip(vs, vs[1:] + vs[:1])])
        ends = [(0, 0)] * len(edges)
        for pair, e in edges.items():
            ends[e] = pair
        return Tiling(ends, faces, [(x, y) for y, x in points])

    def neighbours(self, f: int) -> set[int]:
        return {g for e in self.faces[f] for g in self.faces_of_edge[e]} - {f}

    def on_border(self, f: int) -> bool:
        return any(len(self.faces_of_edge[e]) == 1 for e in self.faces[f])

    def boundary(self, region: set[int]) -> set[int]:
        return {e for e, fs in enumerate(self.faces_of_edge) if sum(f in region for f in fs) == 1}

    def is_simple_cycle(self, edges: set[int]) -> bool:
        at: dict[int, list[int]] = {}
        for e in edges:
            for v in self.ends[e]:
                at.setdefault(v, []).append(e)
        if not edges or any(len(x) != 2 for x in at.values()):
            return False
        first = next(iter(edges))
        start = v = self.ends[first][0]
        prev, seen = None, 0
        while True:
            nxt = at[v][0] if at[v][0] != prev else at[v][1]
            a, b = self.ends[nxt]
            v, prev, seen = (b if a == v else a), nxt, seen + 1
            if v == start:
                return seen == len(edges)


def square(rows: int, cols: int) -> Tiling:
    """The square grid in Slitherlink's numbering (see square_grid)."""
    ends, faces = square_grid(rows, cols)
    return Tiling(list(ends), [list(es) for es in faces])


def square_grid(rows: int, cols: int) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int, int, int], ...]]:
    """The edges (two dots each) and the faces (top, right, bottom, left edges, row-major) of
    a rows x cols grid of cells. Dot (i, j) is i * (cols + 1) + j; edges are first the
    horizontal ones row by row (dot row i, column j: i * cols + j), then the vertical ones
    ((rows + 1) * cols + i * (cols + 1) + j), as in FORMATS.md §6."""
    def dot(i: int, j: int) -> int:
        return i * (cols + 1) + j

    def v(i: int, j: int) -> int:
        return (rows + 1) * cols + i * (cols + 1) + j
    hs = [(dot(i, j), dot(i, j + 1)) for i in range(rows + 1) for j in range(cols)]
    vs = [(dot(i, j), dot(i + 1, j)) for i in range(rows) for j in range(cols + 1)]
    faces = tuple((r * cols + c, v(r, c + 1), (r + 1) * cols + c, v(r, c))
                  for r in range(rows) for c in range(cols))
    return tuple(hs + vs), faces


def honeycomb(w: int, h: int) -> Tiling:
    return Tiling.from_polygons(honeycomb_polygons(w, h))


def honeycomb_polygons(w: int, h: int) -> list[list[tuple[float, float]]]:
    """The faces as polygons (corpus/slitherlink-graph/generate.py draws its boards from these)."""
    faces = []
    for r in range(h):
        for c in range(w):
            cx, cy = S3 * (c + 0.5 * (r % 2)), 1.5 * r
            faces.append([(cx + math.cos(math.radians(30 + 60 * k)), cy + math.sin(math.radians(30 + 60 * k)))
                          for k in range(6)])
    return faces


def triangular(w: int, h: int) -> Tiling:
    return Tiling.from_polygons(triangular_polygons(w, h))


def triangular_polygons(w: int, h: int) -> list[list[tuple[float, float]]]:
    """The faces as polygons (corpus/slitherlink-graph/generate.py draws its boards from these)."""
    def p(a: int, b: int) -> tuple[float, float]:
        return a + b / 2, b * S3 / 2
    faces = []
    for b in range(h):
        for a in range(w):
            faces.append([p(a, b), p(a + 1, b), p(a, b + 1)])
            faces.append([p(a + 1, b), p(a + 1, b + 1), p(a, b + 1)])
    return faces


def octagonal(w: int, h: int) -> Tiling:
    """The 4.8.8 tiling: octagons with small squares between them."""
    return Tiling.from_polygons(octagonal_polygons(w, h))


def octagonal_polygons(w: int, h: int) -> list[list[tuple[float, float]]]:
    """The faces as polygons (corpus/slitherlink-graph/generate.py draws its boards from these)."""
    s = 1 + math.sqrt(2)
    radius = 1 / (2 * math.sin(math.pi / 8))
    faces = []
    for j in range(h):
        for i in range(w):
            faces.append([(i * s + radius * math.cos(math.pi / 8 + k * math.pi / 4),
                           j * s + radius * math.sin(math.pi / 8 + k * math.pi / 4)) for k in range(8)])
    half = 1 / math.sqrt(2)
    for j in range(h - 1):
        for i in range(w - 1):
            cx, cy = (i + 0.5) * s, (j + 0.5) * s
            faces.append([(cx + half, cy), (cx, cy + half), (cx - half, cy), (cx, cy - half)])
    return faces


def polygon(n: int) -> Tiling:
    """One face: a single cycle of n edges (the loop can only be the whole graph)."""
    return Tiling([(i, (i + 1) % n) if i + 1 < n else (0, n - 1) for i in range(n)], [list(range(n))])


def wheel(n: int) -> Tiling:
    """A hub joined to a rim of n vertices: n triangles."""
    ends = [(0, i) for i in range(1, n + 1)] + [(i, i % n + 1) if i < n else (1, n) for i in range(1, n + 1)]
    faces = [[i, (i + 1) % n, n + i] for i in range(n)]
    return Tiling(ends, faces)


def bowtie() -> Tiling:
    """Two triangles that share only a vertex: the loop is one of them, never both."""
    return Tiling([(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (2, 4)], [[0, 1, 2], [3, 4, 5]])


def random_tiling(rng: random.Random) -> tuple[str, Tiling]:
    """A tiling for a generalized puzzle, often tiny (a square grid too, as a plain graph)."""
    kind = rng.choice(("honeycomb", "triangular", "octagonal", "square", "tiny"))
    big = rng.random() < 0.3
    if kind == "square":
        h, w = rng.randint(1, 6), rng.randint(1, 6)
        return f"square graph {h}x{w}", square(h, w)
    if kind == "tiny":
        pick = rng.randrange(5)
        if pick == 0:
            n = rng.randint(3, 6)
            return f"polygon {n}", polygon(n)
        if pick == 1:
            n = rng.randint(3, 6)
            return f"wheel {n}", wheel(n)
        if pick == 2:
            return "bowtie", bowtie()
        kind = rng.choice(("honeycomb", "triangular", "octagonal"))
        w, h = rng.randint(1, 2), rng.randint(1, 2)
    elif big:
        w, h = rng.randint(4, 7), rng.randint(4, 7)
    else:
        w, h = rng.randint(1, 5), rng.randint(1, 5)
    return f"{kind} {w}x{h}", {"honeycomb": honeycomb, "triangular": triangular, "octagonal": octagonal}[kind](w, h)


def grow(t: Tiling, rng: random.Random, region: set[int], target: int, prefer=None, tries: int = 200) -> set[int]:
    """Add faces to the region while its boundary stays one simple cycle, up to target faces."""
    stuck = 0
    while len(region) < target and stuck < tries:
        frontier = sorted({g for f in region for g in t.neighbours(f)} - region)
        if not frontier:
            break
        if prefer is not None and rng.random() < 0.8:
            best = [f for f in frontier if prefer(f, region)]
            frontier = best or frontier
        f = rng.choice(frontier)
        if t.is_simple_cycle(t.boundary(region | {f})):
            region.add(f)
            stuck = 0
        else:
            stuck += 1
    return region


def shrink(t: Tiling, rng: random.Random, region: set[int], target: int, tries: int = 200) -> set[int]:
    """Take faces away while the boundary stays one simple cycle, down to target faces."""
    stuck = 0
    while len(region) > target and stuck < tries:
        f = rng.choice(sorted(region))
        rest = region - {f}
        if rest and t.is_simple_cycle(t.boundary(rest)):
            region = rest
            stuck = 0
        else:
            stuck += 1
    return region


def region_loop(t: Tiling, rng: random.Random, share: tuple[float, float] = (0.4, 0.6)) -> set[int]:
    """The boundary of a random region of `share` of the faces, grown from one face while its
    boundary stays one simple cycle: a long winding loop, as published puzzles have."""
    n = len(t.faces)
    return t.boundary(grow(t, rng, {rng.randrange(n)}, rng.randint(int(n * share[0]), max(1, int(n * share[1])))))


def random_loop(t: Tiling, rng: random.Random) -> set[int]:
    """The edges of a random simple cycle: round 1-4 faces, hugging the border, round the
    whole board, or a big winding region grown or carved at random."""
    n = len(t.faces)
    everything = set(range(n))
    whole_ok = t.is_simple_cycle(t.boundary(everything))
    pick = rng.random()
    if pick < 0.35:                                   # a tiny loop
        region = grow(t, rng, {rng.randrange(n)}, rng.randint(1, 4))
    elif pick < 0.45:                                 # hugging the border
        start = rng.choice([f for f in range(n) if t.on_border(f)])
        region = grow(t, rng, {start}, rng.randint(2, max(2, n)), prefer=lambda f, _: t.on_border(f))
    elif pick < 0.55 and whole_ok:                    # the whole board
        region = everything
    elif pick < 0.7 and whole_ok:                     # the board with bites taken out
        region = shrink(t, rng, everything, rng.randint(1, n))
    elif pick < 0.85:                                 # winding: faces with few neighbours inside
        region = grow(t, rng, {rng.randrange(n)}, rng.randint(1, n),
                      prefer=lambda f, reg: len(t.neighbours(f) & reg) == 1)
    else:
        region = grow(t, rng, {rng.randrange(n)}, rng.randint(1, n))
    loop = t.boundary(region)
    assert t.is_simple_cycle(loop)
    return loop
