"""Our grade against Simon Tatham's C solvers, on game IDs his own generator makes (issue 25).

    tools/tatham/build.sh                      (once: builds his solvers, prints the folder)
    PYTHONPATH=. python tools/tatham/versus.py [--count 12] [--game lightup ...] [--seed grader]
        [--size 10x10] [--no-unique] [--max-seconds 30] [--report reports/tatham-versus.md] [--json]

For each of the seven games we share (Light Up, Bridges, Loopy, Pearl, Singles, Pattern,
Range), `sgt-<game> --generate` makes COUNT IDs at SIZE, its difficulty tiers taken in turn.
Each ID is timed three ways:
  - ours: reading the ID and `grader batch`'s grade of it in this process (solve, grade, and
    the uniqueness check unless --no-unique), after an untimed grade of one more ID that loads
    the genre;
  - his solver: the game's own solver (the "Solve" menu item) run in-process by
    `<game>-solve` (tools/tatham/solve.c), repeated to fill about 20 ms, seconds per solve;
  - his program: the wall time of one run of upstream's STANDALONE_SOLVER program
    (`<game>solver`, start-up included) where the game has one, else of `<game>-solve`
    solving once; the median of three runs.
and the table gives, per game, the median and p90 of the ratios ours / his, puzzle by puzzle.
Without the built solvers (GRADER_TATHAM_BIN, else ~/.cache/grader-tatham/bin) or the sgt
binaries it says so and exits 0: nothing to measure is not a failure.

Not a test: figures depend on the machine; --report writes them with the command, date and load.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TARGET_RATIO = 50          # issue 25: within 50x his C at the median

# game -> (our genre, his 10x10 parameters without the size, one per difficulty tier)
GAMES = {
    "lightup": ("akari", ["b20s2d0", "b20s2d1", "b20s2d2"]),
    "bridges": ("hashiwokakero", ["i30e10m2d0", "i30e10m2d1", "i30e10m2d2"]),
    "loopy": ("slitherlink", ["t0de", "t0dn", "t0dh"]),
    "pearl": ("masyu", ["de", "dt"]),
    "singles": ("hitori", ["de", "dk"]),
    "pattern": ("picross", [""]),
    "range": ("kuromasu", [""]),
}
FILL_SECONDS = 0.02        # repeat his solver until one timing covers about this long


def solver_dir() -> Path:
    return Path(os.environ.get("GRADER_TATHAM_BIN")
                or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "grader-tatham" / "bin")


def missing(games: list[str], bin_dir: Path) -> list[str]:
    """Why the comparison cannot run, one line each (empty: it can)."""
    why = [f"{bin_dir}/{g}-solve is not built: run tools/tatham/build.sh"
           for g in games if not (bin_dir / f"{g}-solve").is_file()]
    why += [f"/usr/games/sgt-{g} is not installed (apt-get install sgt-puzzles)"
            for g in games if not Path(f"/usr/games/sgt-{g}").is_file()]
    return why


def corpus_tatham():
    """corpus/tatham.py, which already runs his generator (a script, not a package)."""
    spec = importlib.util.spec_from_file_location("corpus_tatham", ROOT / "corpus" / "tatham.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def game_ids(game: str, size: str, count: int, seed: str) -> list[tuple[str, str]]:
    """COUNT (params, ID) pairs, the game's tiers in turn, each tier's IDs from one seeded run."""
    tiers = GAMES[game][1]
    per_tier = -(-count // len(tiers))
    runs = [[(size + t, i) for i in corpus_tatham().generate_ids(f"sgt-{game}", per_tier, f"{size}{t}#{seed}", None)]
            for t in tiers]
    interleaved = [run[k] for k in range(per_tier) for run in runs if k < len(run)]
    return interleaved[:count]


def his_solve(bin_dir: Path, game: str, game_id: str) -> dict[str, Any]:
    """Seconds per solve of his solver in-process, and whether it solved the puzzle."""
    def run(repeats: int) -> tuple[float | None, str]:
        out = subprocess.run([str(bin_dir / f"{game}-solve"), "-r", str(repeats), game_id],
                             capture_output=True, text=True, timeout=120).stdout
        first = out.split("\n", 1)[0]
        return (float(first.split()[1]), out) if first.startswith("seconds ") else (None, first)
    once, out = run(1)
    if once is None:
        return {"his_error": out}
    repeats = max(1, min(100000, round(FILL_SECONDS / max(once, 1e-7))))
    seconds, _ = run(repeats) if repeats > 1 else (once, out)
    return {"his_s": seconds, "his_repeats": repeats}


def his_program(bin_dir: Path, game: str, game_id: str, runs: int = 3) -> tuple[str, float]:
    """Median wall seconds of one run of a solver program, start-up included: upstream's
    standalone solver where the game has one, else <game>-solve solving once."""
    upstream = bin_dir / f"{game}solver"
    cmd = [str(upstream), game_id] if upstream.is_file() else [str(bin_dir / f"{game}-solve"), game_id]
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, check=False)
        times.append(time.perf_counter() - t0)
    return Path(cmd[0]).name, statistics.median(times)


def our_grade(genre: str, game_id: str, settings) -> dict[str, Any]:
    """Read the ID and grade it, as `grader batch` does, timed here unrounded."""
    from grader.app.batch import Job, grade_job
    from grader.io.read import load
    t0 = time.perf_counter()
    row = grade_job(Job(0, game_id, load(game_id, genre)), settings)
    return {"status": row["status"], "level": row.get("level"), "our_s": round(time.perf_counter() - t0, 5),
            "steps": row.get("steps")}


def measure(games: list[str], args: argparse.Namespace, bin_dir: Path) -> list[dict[str, Any]]:
    from grader.app.batch import Settings
    settings = Settings(max_seconds=args.max_seconds, check_unique=not args.no_unique)
    rows = []
    for game in games:
        *ids, (_, warm_up) = game_ids(game, args.size, args.count + 1, args.seed)
        our_grade(GAMES[game][0], warm_up, settings)     # untimed, an ID of its own: the genre's first load
        for params, game_id in ids:
            row = {"game": game, "params": params, "id": game_id,
                   **his_solve(bin_dir, game, game_id), **our_grade(GAMES[game][0], game_id, settings)}
            row["his_program"], seconds = his_program(bin_dir, game, game_id)
            row["his_program_s"] = round(seconds, 5)
            if args.verbose:
                print(json.dumps(row), file=sys.stderr, flush=True)
            rows.append(row)
    return rows


def summarise(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per game: puzzles, solved by each side, median seconds, and ours / his, median and p90."""
    from grader.app.report.results import percentile
    out = []
    for game in dict.fromkeys(r["game"] for r in rows):
        rs = [r for r in rows if r["game"] == game]
        both = [r for r in rs if r["status"] == "solved" and r.get("his_s")]
        ratios = [r["our_s"] / max(r["his_s"], 1e-9) for r in both]
        program = [r["our_s"] / r["his_program_s"] for r in both if r.get("his_program_s")]
        out.append({
            "game": game, "genre": GAMES[game][0], "puzzles": len(rs),
            "we_solved": sum(r["status"] == "solved" for r in rs), "he_solved": sum("his_s" in r for r in rs),
            "our_median_s": _median(r["our_s"] for r in both),
            "our_median_steps": _median(r["steps"] for r in both),
            "his_median_s": _median(r["his_s"] for r in both),
            "ratio_median": _round(_median(ratios)), "ratio_p90": _round(percentile(ratios, 90) if ratios else None),
            "his_program": rs[0]["his_program"],
            "his_program_median_s": _median(r["his_program_s"] for r in both if r.get("his_program_s")),
            "program_ratio_median": _round(_median(program)),
            "program_ratio_p90": _round(percentile(program, 90) if program else None),
        })
    return out


def _median(values) -> float | None:
    vs = list(values)
    return statistics.median(vs) if vs else None


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 1 if x < 100 else None)


def table(summary: list[dict[str, Any]]) -> str:
    from tabulate import tabulate

    def s(x: float | None, digits: int = 3) -> str:
        return "" if x is None else f"{x:.{digits}g}"

    def met(ratio: float | None) -> str:
        return "" if ratio is None else "met" if ratio <= TARGET_RATIO else "not met"
    return tabulate([[r["game"], r["genre"], r["puzzles"], r["we_solved"], r["he_solved"], r["our_median_steps"],
                      s(r["our_median_s"]), s(r["his_median_s"]), r["ratio_median"], r["ratio_p90"],
                      met(r["ratio_median"]), r["his_program"], s(r["his_program_median_s"]),
                      _blank(r["program_ratio_median"]), _blank(r["program_ratio_p90"]), met(r["program_ratio_median"])]
                     for r in summary],
                    headers=["game", "genre", "IDs", "we solve", "he solves", "our steps", "our median s",
                             "his solve s", "ours/his median", "ours/his p90", f"{TARGET_RATIO}x", "his program",
                             "program s", "ours/program median", "ours/program p90", f"{TARGET_RATIO}x"],
                    tablefmt="github")


def _blank(x: Any) -> Any:
    return "" if x is None else x


def write_report(path: Path, title: str, script: str, argv: list[str], started: datetime, load_before: str,
                 notes: list[str], body: str) -> None:
    """A reports/ file of a tools/ script: what it measured, the command, date and load."""
    command = f"PYTHONPATH=. python {script} " + shlex.join(argv)
    path.write_text(f"# {title}\n\nWritten by `{script} --report` (never edited by hand).\n\n"
                    f"- command: `{command}`\n- date: {started:%Y-%m-%d %H:%M} UTC\n"
                    f"- load average (1, 5, 15 min) before: {load_before}; after: {load_average()}\n"
                    + "".join(f"- {n}\n" for n in notes) + "\n" + body + "\n", encoding="utf-8")


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


REPORT_NOTES = [
    "his solver: the game's own `solve` (the Solve menu item) in-process, built from Debian's sgt-puzzles "
    "source by tools/tatham/build.sh; his program: one run of upstream's standalone solver (else of "
    "`<game>-solve`), wall time with start-up; ours: reading the ID and grading it in-process, as "
    "`grader batch` does",
    "the ratios are ours over his, puzzle by puzzle (puzzles both solved); goal (issue 25): a median "
    f"within {TARGET_RATIO}x his solver"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", choices=sorted(GAMES), help="this game only (repeatable)")
    ap.add_argument("--count", type=int, default=12, help="IDs per game (default %(default)s)")
    ap.add_argument("--size", default="10x10")
    ap.add_argument("--seed", default="grader", help="his generator's seed (default %(default)s)")
    ap.add_argument("--max-seconds", type=float, default=30.0, help="our solve's deadline")
    ap.add_argument("--no-unique", action="store_true", help="our grade without the uniqueness check")
    ap.add_argument("--report", type=Path, help="also write the figures as markdown to this file")
    ap.add_argument("--json", action="store_true", help="one JSON object: every puzzle and the summary")
    ap.add_argument("--verbose", action="store_true", help="each puzzle's row on stderr as it is measured")
    args = ap.parse_args(argv)
    games = args.game or list(GAMES)
    bin_dir = solver_dir()
    why = missing(games, bin_dir)
    if why:
        print("versus-tatham skipped:\n  " + "\n  ".join(why), file=sys.stderr)
        return 0
    started, load_before = datetime.now(timezone.utc), load_average()
    rows = measure(games, args, bin_dir)
    summary = summarise(rows)
    if args.json:
        print(json.dumps({"puzzles": rows, "games": summary}))
    else:
        print(table(summary))
    if args.report:
        write_report(args.report, "Our grade against Simon Tatham's C solvers", "tools/tatham/versus.py",
                     sys.argv[1:] if argv is None else argv, started, load_before, REPORT_NOTES, table(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
