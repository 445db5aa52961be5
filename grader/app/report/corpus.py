"""The summary of a batch: grades per genre, level histograms, technique usage, the slowest
puzzles, and the puzzles that were not unique, not solved or failed."""
from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from typing import Any

from grader.core.grading import difficulty_table
from grader.app.report.document import Bars, Document, Facts, Heading, Para, table
from grader.app.report.results import median_of, percentile

SLOWEST = 10
LISTED = 50            # at most this many puzzles per list of problems


def _technique(hid: str) -> tuple[int, str]:
    """(level, name) of a technique id, from the registry when it still knows it."""
    from grader.genres import all_genres
    from grader.core.registry import REGISTRY
    all_genres()                   # loads every genre's techniques
    try:
        info = REGISTRY.get(hid).info
        return info.level, info.name
    except KeyError:
        return 0, hid


def _median(rows: list[dict[str, Any]], key: str) -> str:
    """The median of a figure the rows carry, or "-" (results from before it was graded)."""
    m = median_of(r.get(key) for r in rows)
    return "-" if m is None else f"{m:.1f}"


def _seconds(rows: list[dict[str, Any]]) -> list[float]:
    return [float(r["seconds"]) for r in rows if isinstance(r.get("seconds"), (int, float))]


def _agreement(rows: list[dict[str, Any]], short: bool = False) -> str:
    """How many solved puzzles that came with a solution ended on exactly that solution."""
    checked = [r for r in rows if "matches_given_solution" in r]
    agree = sum(bool(r["matches_given_solution"]) for r in checked)
    if short:
        return f"{agree}/{len(checked)}" if checked else "-"
    return f"{agree} of the {len(checked)} solved puzzles that came with a solution" if checked else "-"


def build(rows: list[dict[str, Any]], origin: str = "") -> Document:
    labels = list(difficulty_table()["labels"]) + [difficulty_table()["unsolved"]]
    by_genre: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_genre[r.get("genre") or "(unreadable)"].append(r)
    solved = [r for r in rows if r["status"] == "solved"]
    not_unique = [r for r in rows if r.get("unique") is False]
    failed = [r for r in rows if r["status"] in ("error", "timeout")]
    unsolved = [r for r in rows if r["status"] not in ("solved", "error", "timeout")]
    secs = _seconds(rows)
    blocks: list = [Facts((
        ("Results", origin or "-"), ("Puzzles", str(len(rows))),
        ("Genres", ", ".join(g for g in sorted(by_genre)) or "-"),
        ("Solved by the techniques", f"{len(solved)} of {len(rows)}"),
        ("Agree with the given solution", _agreement(rows)),
        ("Not unique", str(len(not_unique))), ("Not solved", str(len(unsolved))),
        ("Failed (errors and timeouts)", str(len(failed))),
        ("Grading time", f"{sum(secs):.1f} s in all, median {statistics.median(secs) if secs else 0:.3f} s, "
                         f"95th percentile {percentile(secs, 95):.3f} s per puzzle")))]

    blocks.append(Heading(2, "Grades per genre", "grades"))
    grade_rows = []
    for genre, rs in sorted(by_genre.items()):
        count = Counter(r.get("label") for r in rs if r["status"] not in ("error", "timeout"))
        gs = _seconds(rs)
        ok = sum(r["status"] == "solved" for r in rs)
        rated = [r for r in rs if r.get("difficulty") is not None]
        grade_rows.append([genre, len(rs), f"{100 * ok / len(rs):.0f}%", _agreement(rs, short=True)]
                          + [count.get(lb, 0) for lb in labels]
                          + [_median(rated, "difficulty"), _median(rated, "effort"),
                             sum(r["status"] in ("error", "timeout") for r in rs),
                             f"{statistics.median(gs):.3f}" if gs else "-"])
    blocks.append(table(["genre", "puzzles", "solved", "agree"] + labels
                        + ["difficulty", "effort (min)", "failed", "median s"], grade_rows))

    blocks.append(Heading(2, "Levels", "levels"))
    graded = [r for r in rows if r["status"] not in ("error", "timeout")]

    def histogram(rs: list[dict[str, Any]]) -> list[tuple[str, int]]:
        levels = Counter(r["level"] for r in rs if r["status"] == "solved")
        return [(f"L{lv}", levels.get(lv, 0)) for lv in range(0 if levels.get(0) else 1, 6)] + [
            ("not solved", sum(r["status"] != "solved" for r in rs))]

    blocks.append(Para.of(f"The hardest technique each puzzle needs, over all {len(graded)} graded puzzles:"))
    blocks.append(Bars(tuple(histogram(graded))))
    names = [label for label, _ in histogram(graded)]
    per_genre = []
    for genre, rs in sorted(by_genre.items()):
        mine = [r for r in rs if r["status"] not in ("error", "timeout")]
        if mine:
            counts = dict(histogram(mine))
            per_genre.append([genre] + [counts.get(n, 0) for n in names])
    blocks.append(table(["genre"] + names, per_genre))

    blocks.append(Heading(2, "Technique usage", "techniques"))
    usage: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        for hid, n in (r.get("techniques") or {}).items():
            u = usage[(r.get("genre") or "?", hid)]
            u[0] += 1
            u[1] += n
    tech_rows = []
    for (genre, hid), (puzzles, steps) in usage.items():
        level, name = _technique(hid)
        share = f"{100 * puzzles / len(by_genre[genre]):.0f}%" if by_genre.get(genre) else "-"
        tech_rows.append([genre, f"L{level}" if level else "?", name, puzzles, share, steps])
    tech_rows.sort(key=lambda t: (t[0], t[1], -t[3]))
    if tech_rows:
        blocks.append(table(["genre", "level", "technique", "puzzles", "share", "steps"], tech_rows))
    else:
        blocks.append(Para.of("These results carry no technique counts."))

    blocks.append(Heading(2, "Slowest puzzles", "slowest"))
    slow = sorted((r for r in rows if isinstance(r.get("seconds"), (int, float))),
                  key=lambda r: -r["seconds"])[:SLOWEST]
    blocks.append(table(["puzzle", "genre", "status", "level", "seconds"],
                        [[r["id"], r.get("genre") or "-", r["status"], r.get("level", "-"), r["seconds"]]
                         for r in slow]))

    for title, anchor, items, why in (
            ("Not unique", "not-unique", not_unique, lambda r: "the exact solver found several solutions"),
            ("Not solved by the techniques", "not-solved", unsolved,
             lambda r: f"{r['status']}" + (f": {r['reason']}" if r.get("reason") else "")),
            ("Failed", "failed", failed, lambda r: f"{r['status']}: {r.get('error', '')}")):
        blocks.append(Heading(2, f"{title} ({len(items)})", anchor))
        if items:
            blocks.append(table(["puzzle", "genre", "what happened"],
                                [[r["id"], r.get("genre") or "-", why(r)] for r in items[:LISTED]]))
            if len(items) > LISTED:
                blocks.append(Para.of(f"... and {len(items) - LISTED} more."))
        else:
            blocks.append(Para.of("None."))
    return Document("Batch report" + (f": {origin}" if origin else ""), tuple(blocks))
