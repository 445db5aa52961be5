"""Solve-trace fingerprints, to show that a change of structure changes no solve path.

    python tests/traces.py record before.jsonl [--per-genre 40] [--max-cells 150] [--genre akari]
    (change the code)
    python tests/traces.py record after.jsonl
    python tests/traces.py compare before.jsonl after.jsonl

A fingerprint is a hash of every step's technique, level and removals, with the final status:
two runs agree on a puzzle exactly when their solve paths are the same. The puzzles are every
file of corpus/ and a reproducible sample of small janko puzzles of each genre from the
evaluation corpus ($GRADER_CORPUS or ../shared/corpus, when present). Budgets count steps, not
seconds, so a loaded machine cannot change a path; puzzles whose solve needs trials on big
boards are kept out by --max-cells.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.core.engine import Budget, Solver  # noqa: E402
from grader.io.read import from_record, iter_puzzles  # noqa: E402
from grader.io.janko import read_records  # noqa: E402

# Steps bound the path; the seconds are only a guard (a puzzle that reaches them shows as a
# difference, to be looked at, never as a silent match).
BUDGET = Budget(max_steps=20000, max_seconds=300)


def evaluation_corpus() -> Path | None:
    path = Path(os.environ.get("GRADER_CORPUS", ROOT.parent / "shared" / "corpus"))
    return path if path.is_dir() else None


def puzzles(per_genre: int, max_cells: int, genres: set[str] | None = None):
    """(name, puzzle) for corpus/ and a janko sample (the same sample on every run).

    With `genres`, only puzzles of those genres (a genre's own sample does not change).
    """
    for name, p in iter_puzzles(str(ROOT / "corpus")):
        if not isinstance(p, Exception) and (not genres or p.genre.name in genres):
            yield str(Path(name).resolve().relative_to(ROOT)), p
    shared = evaluation_corpus()
    if shared is None:
        # said aloud: a checkout elsewhere (a worktree under /tmp) would otherwise record
        # only corpus/ and a compare against a full record would look like a clean pass
        print("no evaluation corpus (set GRADER_CORPUS): recording corpus/ only", file=sys.stderr)
        return
    for path in sorted((shared / "janko").glob("*.jsonl")):
        if genres and path.stem not in genres:
            continue
        small = []
        for rec in read_records(path):
            if isinstance(rec, Exception):
                continue
            d = rec.data
            cells = int(d.get("rows", d.get("size", 0))) * int(d.get("cols", d.get("size", 0)))
            if cells <= max_cells:
                small.append(rec)
        random.Random(path.stem).shuffle(small)
        for rec in small[:per_genre]:
            yield f"{path.stem}/{rec.id}", from_record(rec)


def fingerprint(puzzle) -> dict:
    trace = Solver(puzzle, budget=BUDGET).solve()
    h = hashlib.sha256()
    for step in trace.steps:
        h.update(f"{step.heuristic.id}|{step.heuristic.level}|{sorted(step.deduction.removals)}\n".encode())
    h.update(trace.status.value.encode())
    return {"steps": len(trace.steps), "status": trace.status.value, "hash": h.hexdigest()[:16]}


def record(out: Path, per_genre: int, max_cells: int, genres: set[str] | None = None) -> int:
    n = 0
    with out.open("w") as f:
        for n, (name, p) in enumerate(puzzles(per_genre, max_cells, genres), 1):
            f.write(json.dumps({"puzzle": name, **fingerprint(p)}) + "\n")
            f.flush()
            if sys.stderr.isatty():
                print(f"\r{n} traces", end="", file=sys.stderr)
    print(f"\r{n} traces written to {out}", file=sys.stderr)
    return 0


def compare(a: Path, b: Path) -> int:
    """Exit 1 and name the puzzles whose paths differ (or that only one run has)."""
    def load(path: Path) -> dict[str, dict]:
        return {r["puzzle"]: r for r in map(json.loads, path.read_text().splitlines())}
    old, new = load(a), load(b)
    differ = sorted(k for k in old.keys() & new.keys() if old[k] != new[k])
    missing = sorted(old.keys() ^ new.keys())
    for k in differ:
        print(f"{k}: {old[k]['status']} in {old[k]['steps']} steps -> {new[k]['status']} in {new[k]['steps']} steps")
    for k in missing:
        print(f"{k}: only in {a if k in old else b}")
    print(f"{len(old.keys() & new.keys()) - len(differ)} of {len(old.keys() | new.keys())} traces unchanged")
    return 1 if differ or missing else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="write one fingerprint per puzzle")
    rec.add_argument("out", type=Path)
    rec.add_argument("--per-genre", type=int, default=40, help="janko puzzles per genre")
    rec.add_argument("--max-cells", type=int, default=150, help="only janko boards up to this many cells")
    rec.add_argument("--genre", action="append", help="only this genre (repeatable)")
    cmp_ = sub.add_parser("compare", help="name the puzzles whose solve paths differ")
    cmp_.add_argument("a", type=Path)
    cmp_.add_argument("b", type=Path)
    args = ap.parse_args()
    if args.command == "record":
        return record(args.out, args.per_genre, args.max_cells, set(args.genre or ()))
    return compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
