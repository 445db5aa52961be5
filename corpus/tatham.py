"""Generate puzzles for corpus/ with Simon Tatham's puzzles (Debian package sgt-puzzles, MIT).

    python corpus/tatham.py GENRE PARAMS COUNT [--seed S] [--subdir DIR] [--timeout SECONDS]
    python corpus/tatham.py akari 7x7b20s2d2 3
    python corpus/tatham.py akari 7x7b20s2d0 12 --seed labels --subdir tiers
    python corpus/tatham.py labels

Each puzzle becomes corpus/<genre>/[DIR/]<game>-<params>-<seed>-<n>.yaml with its provenance
(the exact command) and the generator's difficulty tier as the label; the solution is the unique
one found by the exact solver (puzzles that are not unique, or already anywhere under
corpus/<genre>/, are skipped).
With --timeout the generator is stopped after that many seconds and the puzzles it printed so
far are kept (puzzle n is still the n-th of the seeded sequence).

`labels` writes corpus/labels/tatham-<game>.jsonl for every tiered game from the generated files
anywhere under corpus/<genre>/ (sub-folders included): a header {"labels": [tiers, easiest first], "source": ...}, then one line per
puzzle {"puzzle": <path under corpus/>, "genre", "label", "size"}.
"""
from __future__ import annotations

import argparse
import json
import re
import selectors
import subprocess
import sys
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parent
SGT_VERSION = "20230122.806ae71-2"   # Debian sgt-puzzles the corpus files were generated with

GAMES = {  # genre -> (binary, {difficulty param: tier name}), tiers easiest first
    "akari": ("sgt-lightup", {"d0": "easy", "d1": "tricky", "d2": "hard"}),
    "hashiwokakero": ("sgt-bridges", {"d0": "easy", "d1": "medium", "d2": "hard"}),
    "slitherlink": ("sgt-loopy", {"de": "easy", "dn": "normal", "dt": "tricky", "dh": "hard"}),
    "masyu": ("sgt-pearl", {"de": "easy", "dt": "tricky"}),
    "hitori": ("sgt-singles", {"de": "easy", "dk": "tricky"}),
    "kuromasu": ("sgt-range", {}),
    "picross": ("sgt-pattern", {}),
    "minesweeper": ("sgt-mines", {}),
}
PROVENANCE = re.compile(r"^(sgt-[a-z]+) --generate \d+ '([^'#]+)#([^']*)'")


def tier(genre: str, params: str) -> str | None:
    for code, name in GAMES[genre][1].items():
        if re.search(code + r"(?![0-9])", params[params.find("x"):]):
            return name
    return None


def generate_ids(binary: str, count: int, seed: str, timeout: float | None) -> list[str]:
    """The game ids `binary --generate COUNT SEED` prints, or those printed before `timeout`."""
    cmd = ["stdbuf", "-oL", f"/usr/games/{binary}", "--generate", str(count), seed]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    ids: list[str] = []
    deadline = None if timeout is None else time.monotonic() + timeout
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                proc.kill()
                proc.wait()
                print(f"timeout after {timeout}s: {len(ids)} of {count} generated", file=sys.stderr)
                return ids
            if not sel.select(left):
                continue
            line = proc.stdout.readline()
            if not line:
                break
            ids.append(line.strip())
    if proc.wait() != 0:
        raise SystemExit(f"{' '.join(cmd)} failed with {proc.returncode}")
    return ids


def generate(args: argparse.Namespace) -> int:
    import attrs

    from grader.core import exact
    from grader.genres import get
    from grader.io.native import dump
    from grader.io.read import load

    binary, _ = GAMES[args.genre]
    game = binary.removeprefix("sgt-")
    genre = get(args.genre)
    out_dir = CORPUS / genre.name / (args.subdir or "")
    out_dir.mkdir(parents=True, exist_ok=True)
    known = "\n".join(f.read_text(encoding="utf-8") for f in (CORPUS / genre.name).rglob("*.yaml"))
    seed = f"{args.params}#{args.seed}"
    for n, game_id in enumerate(generate_ids(binary, args.count, seed, args.timeout), 1):
        if f"): {game_id}'" in known:
            print(f"skip {game_id}: already in {genre.name}/", file=sys.stderr)
            continue
        puzzle = load(game_id, args.genre)
        result = exact.solve(puzzle)
        if result.verdict is not exact.Verdict.UNIQUE:
            print(f"skip {game_id}: {result.verdict.value}", file=sys.stderr)
            continue
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


def labels() -> int:
    """Write corpus/labels/tatham-<game>.jsonl from the generated files in corpus/."""
    import yaml

    out_dir = CORPUS / "labels"
    out_dir.mkdir(exist_ok=True)
    for genre, (binary, tiers) in GAMES.items():
        if not tiers:
            continue
        game = binary.removeprefix("sgt-")
        names = list(tiers.values())
        rows = []
        for path in (CORPUS / genre).rglob(f"{game}-*.yaml"):
            doc = yaml.safe_load(path.read_text(encoding="utf-8"))
            m = PROVENANCE.match(str(doc.get("provenance", "")))
            if not m or m.group(1) != binary:
                continue
            params, label = m.group(2), doc.get("difficulty")
            if label != tier(genre, params):
                raise SystemExit(f"{path}: label {label!r} but params {params} say {tier(genre, params)!r}")
            size = re.match(r"\d+x\d+", params).group(0)
            n = int(path.stem.rsplit("-", 1)[1])
            key = (tuple(map(int, size.split("x"))), names.index(label), path.parent != CORPUS / genre,
                   m.group(3), n)
            rows.append((key, {"puzzle": path.relative_to(CORPUS).as_posix(), "genre": genre,
                               "label": label, "size": size}))
        rows.sort(key=lambda r: r[0])
        header = {"labels": names,
                  "source": f"Simon Tatham's Portable Puzzle Collection, {game} ({binary} from Debian "
                            f"sgt-puzzles {SGT_VERSION}), MIT licence; the label is the generator's "
                            f"difficulty tier ({', '.join(f'{c} = {t}' for c, t in tiers.items())}); "
                            f"puzzles made by corpus/tatham.py, each file's provenance gives its command "
                            f"and game id; uniqueness checked by the exact solver"}
        target = out_dir / f"tatham-{game}.jsonl"
        target.write_text("".join(json.dumps(x) + "\n" for x in [header] + [r for _, r in rows]),
                          encoding="utf-8")
        print(f"{target}: {len(rows)} puzzles")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["labels"]:
        return labels()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("genre", choices=sorted(GAMES))
    ap.add_argument("params")
    ap.add_argument("count", type=int)
    ap.add_argument("--seed", default="grader")
    ap.add_argument("--subdir", default="", help="write into corpus/<genre>/SUBDIR/ (e.g. tiers)")
    ap.add_argument("--timeout", type=float, default=None,
                    help="stop the generator after this many seconds, keeping what it printed")
    return generate(ap.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
