"""Where to draw the vertices of a graph given without coordinates (a Generalized Slitherlink
read from ASP facts): stress majorization, which places vertices so that straight-line
distances follow the graph's path lengths, as Graphviz's neato does.

Lattices (honeycombs, triangles, 4.8.8 tilings) come out flat and uncrossed: their path
lengths are close to a plane's distances. The start is pivot MDS (Brandes and Pich), which
needs distances from a few pivots only, so big graphs get a fair picture quickly; the stress
refinement then looks at every pair on small graphs and at nearby pairs on big ones.
"""
from __future__ import annotations

import math
from collections import deque
from typing import Sequence

PIVOTS = 40               # pivot MDS: vertices whose distances place the rest
ALL_PAIRS = 200           # up to this many vertices the refinement weighs every pair
NEAR = 3                  # beyond that, pairs at most this many edges apart
ROUNDS = 60


def stress_layout(n: int, ends: Sequence[tuple[int, int]]) -> list[tuple[float, float]]:
    """Positions in [0, 1]² for vertices 0..n-1 joined by `ends`, the same every time."""
    if n == 0:
        return []
    adj: list[list[int]] = [[] for _ in range(n)]
    for a, b in ends:
        adj[a].append(b)
        adj[b].append(a)
    pos = _pivot_mds(n, adj)
    pos = _refine(n, adj, pos)
    return fit(pos)


def _distances(adj: list[list[int]], source: int, limit: int | None = None) -> list[float]:
    """Path lengths from source (breadth first); unreachable vertices get the longest found
    plus one, so a graph in pieces still spreads out."""
    dist = [-1] * len(adj)
    dist[source] = 0
    queue = deque([source])
    while queue:
        v = queue.popleft()
        if limit is not None and dist[v] >= limit:
            continue
        for w in adj[v]:
            if dist[w] < 0:
                dist[w] = dist[v] + 1
                queue.append(w)
    far = max(dist) + 1
    return [float(d if d >= 0 else far) for d in dist]


def _pivot_mds(n: int, adj: list[list[int]]) -> list[list[float]]:
    # pivots far from each other (max-min), starting at vertex 0
    pivots, rows = [0], [_distances(adj, 0)]
    nearest = list(rows[0])
    while len(pivots) < min(PIVOTS, n):
        p = max(range(n), key=lambda v: (nearest[v], -v))
        if nearest[p] == 0:
            break
        pivots.append(p)
        rows.append(_distances(adj, p))
        nearest = [min(a, b) for a, b in zip(nearest, rows[-1])]
    k = len(pivots)
    # C[v][j]: squared distances, double centred
    sq = [[rows[j][v] ** 2 for j in range(k)] for v in range(n)]
    col = [sum(sq[v][j] for v in range(n)) / n for j in range(k)]
    row = [sum(r) / k for r in sq]
    total = sum(col) / k
    c = [[-0.5 * (sq[v][j] - col[j] - row[v] + total) for j in range(k)] for v in range(n)]
    ctc = [[sum(c[v][i] * c[v][j] for v in range(n)) for j in range(k)] for i in range(k)]
    axes = _top_eigenvectors(ctc, 2)
    return [[sum(c[v][j] * axis[j] for j in range(k)) for axis in axes] for v in range(n)]


def _top_eigenvectors(m: list[list[float]], count: int) -> list[list[float]]:
    """Power iteration with deflation, from fixed starts (deterministic)."""
    k = len(m)
    found: list[list[float]] = []
    for t in range(count):
        x = [1.0 + ((i * 7 + t * 13) % 11) / 11 for i in range(k)]
        for _ in range(200):
            for f in found:
                dot = sum(a * b for a, b in zip(x, f))
                x = [a - dot * b for a, b in zip(x, f)]
            y = [sum(m[i][j] * x[j] for j in range(k)) for i in range(k)]
            norm = math.sqrt(sum(a * a for a in y)) or 1.0
            y = [a / norm for a in y]
            done = sum((a - b) ** 2 for a, b in zip(x, y)) < 1e-12
            x = y
            if done:
                break
        found.append(x)
    while len(found) < 2:
        found.append([0.0] * k)
    return found


def _refine(n: int, adj: list[list[int]], pos: list[list[float]]) -> list[tuple[float, float]]:
    """Stress majorization (localized SMACOF): each vertex moves to where its distances to
    the others best match their path lengths, weighted 1/d²."""
    limit = None if n <= ALL_PAIRS else NEAR
    pairs: list[list[tuple[int, float, float]]] = []
    for v in range(n):
        dist = _distances(adj, v, limit)
        near = [(w, d, 1.0 / (d * d)) for w, d in enumerate(dist)
                if w != v and d > 0 and (limit is None or d <= limit)]
        pairs.append(near)
    # scale the start so one edge is about one unit long
    lengths = [math.dist(pos[a], pos[b]) for a in range(n) for b in adj[a]]
    mean = sum(lengths) / len(lengths) if lengths else 1.0
    scale = 1.0 / mean if mean > 1e-9 else 1.0
    xy = [[p[0] * scale, p[1] * scale] for p in pos]
    for v in range(n):                    # vertices on top of each other: nudge apart
        xy[v][0] += 1e-3 * math.cos(v)
        xy[v][1] += 1e-3 * math.sin(v)
    for _ in range(ROUNDS):
        for v in range(n):
            if not pairs[v]:
                continue
            sx = sy = sw = 0.0
            xv, yv = xy[v]
            for w, d, wt in pairs[v]:
                dx, dy = xv - xy[w][0], yv - xy[w][1]
                norm = math.hypot(dx, dy) or 1e-9
                sx += wt * (xy[w][0] + d * dx / norm)
                sy += wt * (xy[w][1] + d * dy / norm)
                sw += wt
            xy[v] = [sx / sw, sy / sw]
    return [(x, y) for x, y in xy]


def fit(pos: Sequence[Sequence[float]]) -> list[tuple[float, float]]:
    """Scale into [0, 1]², keeping the aspect ratio."""
    xs, ys = [p[0] for p in pos], [p[1] for p in pos]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    return [((x - min(xs)) / span, (y - min(ys)) / span) for x, y in zip(xs, ys)]
