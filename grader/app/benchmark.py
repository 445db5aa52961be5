"""The benchmark: grade a corpus and report, per genre, the solve rate, agreement with the
given solutions, median and p95 seconds per puzzle, puzzles per second and peak memory; how
time grows with size (the slope of log seconds against log cells: 1.0 is linear) and what one
step costs as it does (the same slope for seconds per step: 0 means a step costs the same on any
board); with
--versus-exact, our seconds over the exact solver's uniqueness check on the same puzzle
(median and p90); and the start-up of `grader grade` against a bare interpreter.

    grader benchmark ../shared/corpus/janko/akari.jsonl corpus/ [--limit N] [--workers 2]
    grader benchmark --limit 20      (no INPUT: the evaluation corpus, at $GRADER_CORPUS or
                                      ../shared/corpus)

Not a test: figures depend on the machine. Quote them in notes with the machine's load.
"""
from __future__ import annotations

import argparse
import json
import math
import resource
import statistics
import subprocess
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
            "slope": _rounded(growth_slope([(r["cells"], r["seconds"]) for r in solved if r.get("cells")]), 2),
            "slope_per_step": _rounded(growth_slope([(r["cells"], r["seconds"] / r["steps"]) for r in solved
                                                     if r.get("cells") and r.get("steps")]), 2),
            **versus_exact(solved),
        })
    return out


def growth_slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of log seconds against log size: how time grows with the board.
    None with fewer than two sizes. Given seconds per step, it says what a step costs as the
    board grows: 0 the same on any board, 1 a step rescans the whole board."""
    pts = [(math.log(c), math.log(max(s, 1e-4))) for c, s in points if c > 0]
    if len({x for x, _ in pts}) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx


def versus_exact(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Our seconds over the exact solver's on the same puzzle, where it was timed."""
    ratios = [r["seconds"] / max(r["exact_s"], 1e-4) for r in rows if r.get("exact_s") is not None]
    if not ratios:
        return {}
    return {"vs_exact_median": round(statistics.median(ratios), 2),
            "vs_exact_p90": round(percentile(ratios, 90), 2),
            "exact_median_s": round(statistics.median(r["exact_s"] for r in rows if "exact_s" in r), 3)}


def write_rows(path: str, rows: list[dict[str, Any]]) -> None:
    """Every puzzle's row as a JSON line, with our seconds over clingo's where both were timed,
    slowest over clingo first (then slowest first): where the tail of a genre's ratio comes from."""
    keyed = [{**r, "vs_exact": round(r["seconds"] / max(r["exact_s"], 1e-4), 2)}
             if r.get("exact_s") is not None and "seconds" in r else r for r in rows]
    keyed.sort(key=lambda r: (-(r.get("vs_exact") or 0), -(r.get("seconds") or 0)))
    with open(path, "w", encoding="utf-8") as out:
        for r in keyed:
            out.write(json.dumps(r) + "\n")


STARTUP_RUNS = 5
STARTUP_PUZZLE = "7x7:a2cBlBb01c0Bb2l2c1a"       # corpus/akari/lightup-7x7b20s2d2-grader-1.yaml


def startup(runs: int = STARTUP_RUNS) -> dict[str, Any]:
    """Median wall seconds of `python3 -c pass` and of `grader grade` on a 7x7 Light Up, each
    in a fresh interpreter, and their median CPU seconds (user and system: on a shared machine
    the wall clock also counts the time others had the cores). Byte code is cached, as `pip
    install` leaves it: a first, untimed run writes it where the environment says not to."""
    import os
    import resource
    commands = {"python": [sys.executable, "-c", "pass"],
                "grade": [sys.executable, "-m", "grader.app.cli", "grade", STARTUP_PUZZLE,
                          "--genre", "akari", "--no-unique"]}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times: dict[str, list[float]] = {k: [] for k in commands}
    cpu: dict[str, list[float]] = {k: [] for k in commands}
    subprocess.run(commands["grade"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    for _ in range(runs):
        for name, cmd in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
            times[name].append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    python, grade = statistics.median(times["python"]), statistics.median(times["grade"])
    python_cpu, grade_cpu = statistics.median(cpu["python"]), statistics.median(cpu["grade"])
    return {"python_s": round(python, 3), "grade_7x7_s": round(grade, 3), "ratio": round(grade / python, 1),
            "python_cpu_s": round(python_cpu, 3), "grade_7x7_cpu_s": round(grade_cpu, 3),
            "cpu_ratio": round(grade_cpu / max(python_cpu, 1e-6), 1)}


def _rounded(x: float | None, digits: int = 1) -> float | None:
    return None if x is None else round(x, digits) + 0.0      # + 0.0: never print "-0"


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
    if args.generate:
        return run_generate(args)
    inputs = args.inputs or evaluation_inputs()
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    budget = Budget(max_seconds=args.max_seconds)
    settings = Settings(None, budget.max_steps, budget.max_seconds, not args.no_unique,
                        time_exact=args.versus_exact)
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
    if args.rows:
        write_rows(args.rows, rows)
    start = None if args.no_startup else startup()
    if args.json:
        print(json.dumps({"genres": summary, "wall_s": round(wall, 2), "peak_mb": round(peak_mb, 1),
                          "startup": start}))
        return 0
    from tabulate import tabulate
    exact_cols = args.versus_exact
    print(tabulate([[s["genre"], s["puzzles"], f"{100 * s['solve_rate']:.1f}%",
                     f"{s['matches']}/{s['with_given_solution']}", s["errors"], s["median_s"], s["p95_s"],
                     s["max_s"], s["puzzles_per_s"], s["slope"], s["slope_per_step"],
                     *([s.get("vs_exact_median"), s.get("vs_exact_p90")] if exact_cols else []),
                     s["median_difficulty"], s["median_effort"],
                     f"{100 * s['level5_share']:.0f}%", " ".join(f"L{k}:{v}" for k, v in s["levels"].items())]
                    for s in summary],
                   headers=["genre", "puzzles", "solved", "match", "errors", "median s", "p95 s", "max s",
                            "puzzles/s", "slope", "slope/step", *(["/exact med", "/exact p90"] if exact_cols else []),
                            "difficulty", "effort", "L5", "levels"]))
    print(f"wall {wall:.1f} s, peak memory {peak_mb:.0f} MB")
    if start:
        print(f"start-up: `grader grade` of a 7x7 puzzle {start['grade_7x7_s']:.2f} s, a bare python3 "
              f"{start['python_s']:.2f} s ({start['ratio']}x); CPU {start['grade_7x7_cpu_s']:.3f} s against "
              f"{start['python_cpu_s']:.3f} s ({start['cpu_ratio']}x), medians of {STARTUP_RUNS} runs")
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


GENERATE_LEVELS = (1, 2, 3, 4)


def run_generate(args: argparse.Namespace) -> int:
    """The generator's figures: per genre and level 1-4, N puzzles at the default size (10x10;
    Picross 15x15, Arrows 6x6), seeds 1..N: how many were made, median and p95 seconds each."""
    from grader.app.generate import DEFAULT_SIZE, Job, parse_size
    from grader.core.generator import Settings, Target
    from grader.genres import all_genres
    genres = args.genre or [g.name for g in all_genres()]
    jobs = []
    for genre in genres:
        rows, cols = parse_size(DEFAULT_SIZE.get(genre, "10x10"), genre)
        for level in GENERATE_LEVELS:
            jobs += [Job(genre, rows, cols, Target(level=level), "bench", k, Settings(), None,
                         f"grader benchmark --generate {args.generate}") for k in range(1, args.generate + 1)]
    t0 = time.perf_counter()
    results: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    show = sys.stderr.isatty() and not args.json
    from tqdm import tqdm
    with tqdm(total=len(jobs), desc="generating", unit=" puzzles", file=sys.stderr, disable=not show,
              leave=False) as bar:
        rows_iter = _generate_rows(jobs, args.workers)
        for job, row in zip(jobs, rows_iter):
            results[(job.genre, job.target.level)].append(row)
            bar.update(1)
    table = []
    for (genre, level), rows in sorted(results.items()):
        secs = [r["seconds"] for r in rows]
        table.append({"genre": genre, "level": level, "asked": len(rows),
                      "made": sum(r["status"] == "made" for r in rows),
                      "median_s": round(statistics.median(secs), 2), "p95_s": round(percentile(secs, 95), 2),
                      "max_s": round(max(secs), 2)})
    wall = time.perf_counter() - t0
    if args.json:
        print(json.dumps({"generate": table, "wall_s": round(wall, 1)}))
        return 0
    from tabulate import tabulate
    print(tabulate([[t["genre"], t["level"], f"{t['made']}/{t['asked']}", t["median_s"], t["p95_s"], t["max_s"]]
                    for t in table], headers=["genre", "level", "made", "median s", "p95 s", "max s"]))
    print(f"{sum(t['made'] for t in table)} of {len(jobs)} puzzles made, wall {wall:.1f} s")
    return 0


def _generate_rows(jobs, workers: int):
    from grader.app.generate import make_one
    if workers <= 1:
        yield from map(make_one, jobs)
        return
    import multiprocessing
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with multiprocessing.get_context(method).Pool(workers) as pool:
        yield from pool.imap(make_one, jobs)
