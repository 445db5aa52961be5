"""Generate puzzles for corpus/ with Simon Tatham's puzzles (Debian package sgt-puzzles, MIT).

    python corpus/tatham.py GENRE PARAMS COUNT [--seed S]
    python corpus/tatham.py akari 7x7b20s2d2 3

Each puzzle becomes corpus/<genre>/<game>-<params>-<n>.yaml with its provenance (the exact
command) and the generator's difficulty tier as the label; the solution is the unique one
found by the exact solver (puzzles that are not unique are skipped).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

from grader.core import exact
from grader.io.read import load
from grader.io.native import dump
from grader.genres import get

GAMES = {  # genre -> (binary, {difficulty param: tier name})
    "akari": ("sgt-lightup", {"d0": "easy", "d1": "tricky", "d2": "hard"}),
    "hashiwokakero": ("sgt-bridges", {"d0": "easy", "d1": "medium", "d2": "hard"}),
    "slitherlink": ("sgt-loopy", {"de": "easy", "dn": "normal", "dt": "tricky", "dh": "hard"}),
    "masyu": ("sgt-pearl", {"de": "easy", "dt": "tricky"}),
    "hitori": ("sgt-singles", {"de": "easy", "dk": "tricky"}),
    "kuromasu": ("sgt-range", {}),
    "picross": ("sgt-pattern", {}),
    "minesweeper": ("sgt-mines", {}),
}


def tier(genre: str, params: str) -> str | None:
    for code, name in GAMES[genre][1].items():
        if re.search(code + r"(?![0-9])", params[params.find("x"):]):
            return name
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("genre")
    ap.add_argument("params")
    ap.add_argument("count", type=int)
    ap.add_argument("--seed", default="grader")
    args = ap.parse_args()
    binary, _ = GAMES[args.genre]
    game = binary.removeprefix("sgt-")
    out_dir = Path(__file__).parent / get(args.genre).name
    out_dir.mkdir(exist_ok=True)
    seed = f"{args.params}#{args.seed}"
    ids = subprocess.run([f"/usr/games/{binary}", "--generate", str(args.count), seed],
                         check=True, capture_output=True, text=True).stdout.split()
    for n, game_id in enumerate(ids, 1):
        puzzle = load(game_id, args.genre)
        result = exact.solve(puzzle)
        if result.verdict is not exact.Verdict.UNIQUE:
            print(f"skip {game_id}: {result.verdict.value}", file=sys.stderr)
            continue
        genre = get(args.genre)
        import attrs
        meta = attrs.evolve(puzzle.meta, title=f"{game} {args.params} #{n}", label=tier(args.genre, args.params),
                            source="Simon Tatham's Portable Puzzle Collection (sgt-puzzles), MIT licence",
                            provenance=f"{binary} --generate {args.count} '{seed}' (puzzle {n}): {game_id}",
                            licence="MIT", origin="")
        puzzle = attrs.evolve(puzzle, meta=meta)
        doc = genre.to_native(puzzle)
        doc["solution"] = genre.to_native(attrs.evolve(puzzle, solution=genre.solution_from_state(puzzle, result.solution)))["solution"]
        path = out_dir / f"{game}-{args.params}-{args.seed}-{n}.yaml"
        path.write_text(dump(doc))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
