"""The benchmark: grade a corpus and report, per genre, the solve rate, agreement with the
given solutions, median and p95 seconds per puzzle, puzzles per second and peak memory.

    grader benchmark ../shared/corpus/janko/akari.jsonl corpus/ [--limit N] [--workers 2]
    grader benchmark --limit 20      (no INPUT: the evaluation corpus, at $GRADER_CORPUS or
                                      ../shared/corpus)

Not a test: figures depend on the machine. Quote them in notes with the machine's load.
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from collections import defaultdict
from typing import Any

from grader.app.batch import Job, Settings, default_time_limit, grade_job, list_jobs, run_local
from grader.app.progress import Progress
from grader.core.engine import Budget
from grader.app.report.results import median_of, percentile


def summarise(rows: list[dict[str, Any]], wall: float) -> list[dict[str, Any]]:
    by_genre: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_genre[r.get("genre") or "?"].append(r)
    out = []
    for genre, rs in sorted(by_genre.items()):
        secs = [r["seconds"] for r in rs if "seconds" in r]
        solved = [r for r in rs if r["status"] == "solved"]
        with_sol = [r for r in solved if "matches_given_solution" in r]
        levels = defaultdict(int)
        for r in solved:
            levels[r["level"]] += 1
        out.append({
            "genre": genre, "puzzles": len(rs), "solved": len(solved),
            "solve_rate": round(len(solved) / len(rs), 4) if rs else 0,
            "matches": sum(1 for r in with_sol if r["matches_given_solution"]),
            "with_given_solution": len(with_sol),
            "errors": sum(1 for r in rs if r["status"] == "error"),
            "status": dict(sorted(_count(r["status"] for r in rs).items())),
            "levels": dict(sorted(levels.items())),
            "level5_share": round(levels[5] / len(solved), 4) if solved else 0,
            "median_difficulty": _rounded(median_of(r.get("difficulty") for r in solved)),
            "median_effort": _rounded(median_of(r.get("effort") for r in solved)),
            "median_s": round(statistics.median(secs), 3) if secs else 0,
            "p95_s": round(percentile(secs, 95), 3), "max_s": round(max(secs, default=0), 3),
            "puzzles_per_s": round(len(rs) / sum(secs), 2) if secs and sum(secs) else 0,
        })
    return out


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 1)


def _count(items) -> dict[str, int]:
    c: dict[str, int] = defaultdict(int)
    for i in items:
        c[i] += 1
    return c


def evaluation_inputs() -> list[str]:
    """With no INPUT: the evaluation corpus's janko files and Japanese Arrows folder."""
    from grader.core.errors import InputError
    from grader.core.resources import CORPUS_VARIABLE, evaluation_corpus
    root = evaluation_corpus()
    found = sorted(str(p) for p in (root / "janko").glob("*.jsonl")) + \
        ([str(root / "arrows")] if (root / "arrows").is_dir() else [])
    if not found:
        raise InputError(str(root), f"no evaluation corpus here: give folders or .jsonl files, set "
                         f"{CORPUS_VARIABLE} to the corpus folder, or use --planted N")
    return found


def run(args: argparse.Namespace) -> int:
    if args.planted:
        return run_planted(args)
    inputs = args.inputs or evaluation_inputs()
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    budget = Budget(max_seconds=args.max_seconds)
    settings = Settings(None, budget.max_steps, budget.max_seconds, not args.no_unique)
    jobs = [list_jobs(spec, limit=args.limit) for spec in inputs]
    progress = Progress(sum(map(len, jobs)), sys.stderr.isatty() and not args.json)

    def on_row(job: Job, row: dict[str, Any]) -> None:
        rows.append(row)
        progress.update(row)
    try:
        for todo in jobs:
            if args.workers > 1:    # each puzzle's seconds are still its own wall time in its worker
                run_local(todo, settings, args.workers, time_limit=default_time_limit(args.max_seconds),
                          on_row=on_row)
            else:                   # in this process: the measure of one core
                for job in todo:
                    on_row(job, grade_job(job, settings))
    finally:
        progress.finish()
    progress.report()
    wall = time.perf_counter() - t0
    summary = summarise(rows, wall)
    peak_mb = max(resource.getrusage(who).ru_maxrss
                  for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024
    if args.json:
        print(json.dumps({"genres": summary, "wall_s": round(wall, 2), "peak_mb": round(peak_mb, 1)}))
        return 0
    from tabulate import tabulate
    print(tabulate([[s["genre"], s["puzzles"], f"{100 * s['solve_rate']:.1f}%",
                     f"{s['matches']}/{s['with_given_solution']}", s["errors"], s["median_s"], s["p95_s"],
                     s["max_s"], s["puzzles_per_s"], s["median_difficulty"], s["median_effort"],
                     f"{100 * s['level5_share']:.0f}%", " ".join(f"L{k}:{v}" for k, v in s["levels"].items())]
                    for s in summary],
                   headers=["genre", "puzzles", "solved", "match", "errors", "median s", "p95 s", "max s",
                            "puzzles/s", "difficulty", "effort", "L5", "levels"]))
    print(f"wall {wall:.1f} s, peak memory {peak_mb:.0f} MB")
    return 0


def run_planted(args: argparse.Namespace) -> int:
    """The soundness soak (grader.app.soak): per genre, how many planted puzzles ended solved,
    stuck or out of budget, and every finding (an unsound step, a contradiction, a crash).
    Exit 1 when anything was found."""
    from grader.app import soak as planted
    genres = args.genre or planted.genres_with_planters()
    unknown = sorted(set(genres) - set(planted.genres_with_planters()))
    if unknown:
        raise SystemExit(f"grader benchmark: no planter for {', '.join(unknown)}")
    t0 = time.perf_counter()
    stats: dict[str, dict[str, Any]] = {g: {"genre": g, "puzzles": 0, "status": defaultdict(int), "unique": 0,
                                            "findings": [], "seconds": []} for g in genres}
    for o in planted.soak(genres, args.planted, args.first_seed, args.workers):
        s = stats[o.genre]
        s["puzzles"] += 1
        s["status"][o.status] += 1
        s["unique"] += bool(o.unique)
        s["seconds"].append(o.seconds)
        if o.finding:
            s["findings"].append(o.finding)
            if not args.json:
                print(o.finding, flush=True)
    wall = time.perf_counter() - t0
    rows = [{"genre": g, "puzzles": s["puzzles"], "status": dict(sorted(s["status"].items())),
             "unique_checked": s["unique"], "findings": len(s["findings"]),
             "median_s": round(statistics.median(s["seconds"]), 3) if s["seconds"] else 0,
             "p95_s": round(percentile(s["seconds"], 95), 3),
             "first_findings": [{"seed": f.seed, "kind": f.kind, "message": f.message, "puzzle": f.puzzle}
                                for f in sorted(s["findings"], key=lambda f: f.seed)[:5]]}
            for g, s in stats.items()]
    found = sum(r["findings"] for r in rows)
    if args.json:
        print(json.dumps({"planted": rows, "wall_s": round(wall, 2)}))
        return 1 if found else 0
    from tabulate import tabulate
    print(tabulate([[r["genre"], r["puzzles"], r["findings"], " ".join(f"{k}:{v}" for k, v in r["status"].items()),
                     r["median_s"], r["p95_s"]] for r in rows],
                   headers=["genre", "planted", "findings", "statuses", "median s", "p95 s"]))
    print(f"{sum(r['puzzles'] for r in rows)} planted puzzles, {found} findings, wall {wall:.1f} s")
    return 1 if found else 0
