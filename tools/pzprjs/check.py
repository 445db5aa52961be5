"""Check the puzz.link URLs `grader generate --format puzzlink` writes in pzpr.js, the library
puzz.link is built on (issue 26): it reads each URL as the same clues, and its own answer
check accepts our solution.

    npm install --prefix ~/.cache/grader-pzprjs pzpr@0.10.1      (once; outside the repository)
    PYTHONPATH=. python tools/pzprjs/check.py [--count 3] [--size 10x10] [--level 2,3] [--seed check]
        [--genre akari ...]

npm's `pzpr` (sabo2's pzprjs, 0.10.1, 2019) is the only pzprjs on npm; it has no Nonograms and
no Minesweeper (later puzz.link forks added them), so Picross and Minesweeper are not checked.
For each other genre, `grader generate --genre G --size SIZE --level LEVEL --count COUNT --seed
SEED --format puzzlink` makes URLs and tools/pzprjs/check.js opens each:
  - clues: the URL pzpr writes back for the board it read has our body, or one our reader
    reads as the same puzzle (pzpr may write the same clues differently);
  - answer: our `grader solve --json` solution, set on pzpr's board (shaded cells, lights,
    lines, bridges), passes pzpr's own check of every rule, which the blank board fails.
A Yajilin URL with a blank clue cell ('+', which puzz.link's later pzprjs reads and npm's 0.10.1
skips) is not checkable there, and said so. Exit 0 when every other URL passes both, 1
otherwise; without node or pzpr, a message and exit 0.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tatham"))
from check_ids import check_arguments, cli, generated, loop_edge, results_table  # noqa: E402
from versus import load_average, write_report  # noqa: E402  (a script of tools/tatham)

PZPR = {"akari": "lightup", "hashiwokakero": "hashikake", "heyawake": "heyawake", "hitori": "hitori",
        "kuromasu": "kurodoko", "masyu": "mashu", "numberlink": "numlin", "nurikabe": "nurikabe",
        "slitherlink": "slither", "yajilin": "yajirin"}
NOT_IN_PZPR = {"picross": "nonogram", "minesweeper": "mines"}
# tokens puzz.link's later pzprjs reads and npm's 0.10.1 does not (it skips them as nothing)
UNREAD_TOKENS = {"yajilin": ("+", "a blank clue cell '+' (FORMATS.md 3.3), which pzpr 0.10.1 does not read")}


def unreadable(genre: str, url: str) -> str | None:
    """Why pzpr 0.10.1 cannot read this URL as we wrote it, or None."""
    token, why = UNREAD_TOKENS.get(genre, (None, ""))
    return f"not checkable: it has {why}" if token and token in url.split("?", 1)[1] else None


def modules() -> Path:
    return Path(os.environ.get("PZPR_MODULES") or Path.home() / ".cache" / "grader-pzprjs" / "node_modules")


def cell_xy(name: str) -> tuple[int, int]:
    """r3c4 as pzpr's (bx, by)."""
    r, c = name[1:].split("c")
    return 2 * int(c) - 1, 2 * int(r) - 1


def answer(genre: str, solution) -> dict:
    """Our solution as what check.js sets: cells to shade, lines on borders."""
    if genre == "akari":
        return {"cells": [cell_xy(n) for n in solution["bulbs"]]}
    if genre in ("hitori", "kuromasu", "heyawake"):
        return {"cells": [cell_xy(n) for n in solution["shaded"]]}
    if genre == "nurikabe":
        return {"cells": [cell_xy(n) for n in solution["walls"]]}
    if genre == "hashiwokakero":
        return {"lines": [[*cell_xy(b["from"]), *cell_xy(b["to"]), b["count"]] for b in solution["bridges"]]}
    if genre == "slitherlink":          # an edge of the cells is a border of pzpr's board
        borders = []
        for kind, i, j in map(loop_edge, solution["links"]):
            bx, by = (2 * j + 1, 2 * i) if kind == "h" else (2 * j, 2 * i + 1)
            borders.append([bx, by, bx, by, 1])
        return {"lines": borders}
    if genre == "numberlink":           # consecutive cells of a path share a border
        lines = []
        for path in solution["paths"].values():
            for a, b in zip(path, path[1:]):
                (x1, y1), (x2, y2) = cell_xy(a), cell_xy(b)
                lines.append([(x1 + x2) // 2, (y1 + y2) // 2, (x1 + x2) // 2, (y1 + y2) // 2, 1])
        return {"lines": lines}
    if genre in ("masyu", "yajilin"):   # a cell's directions; e and s name its borders
        cells, lines = [], []
        for r, row in enumerate(solution):
            for c, dirs in enumerate(row.split()):
                if dirs == "x":
                    cells.append((2 * c + 1, 2 * r + 1))
                if "e" in dirs:
                    lines.append([2 * c + 2, 2 * r + 1, 2 * c + 2, 2 * r + 1, 1])
                if "s" in dirs:
                    lines.append([2 * c + 1, 2 * r + 2, 2 * c + 1, 2 * r + 2, 1])
        return {"cells": cells, "lines": lines}
    raise ValueError(genre)


def same_clues(ours: str, written: str) -> str:
    """Whether pzpr's URL for the board it read is ours: the same body, or one our reader reads
    as the same puzzle (written back by our writer alike)."""
    def body(url: str) -> list[str]:
        return url.split("?", 1)[1].rstrip("/").split("/")[1:]
    if body(ours) == body(written):
        return "same clues"
    from grader.io.read import load
    mine, theirs = load(ours), load(written.replace("http://pzv.jp/p.html?", "https://puzz.link/p?"))
    if mine.genre.to_puzzlink(mine) == theirs.genre.to_puzzlink(theirs):
        return "same clues (written differently)"
    return f"clues differ: pzpr wrote {written}"


def check_genre(genre: str, args: argparse.Namespace) -> list[dict]:
    rows: list[dict] = []
    for level in args.level:        # a level no draft reaches falls to the next: check that once
        seen = {r.get("command") for r in rows}
        rows += [r for r in check_level(genre, args, level) if r.get("command") not in seen]
    return rows


def check_level(genre: str, args: argparse.Namespace, level: int) -> list[dict]:
    command, urls = generated(genre, args, level, "puzzlink")
    if not urls:
        return [{"genre": genre, "command": command, "made": 0}]
    jobs, rows = [], []
    for url in urls:
        _, text = cli("solve", "--json", url)
        ours = json.loads(text) if text.strip() else {}
        rows.append({"genre": genre, "command": command, "url": url, "ours": ours.get("status")})
        jobs.append({"url": url, **(answer(genre, ours["solution"]) if ours.get("status") == "solved" else {})})
    out = subprocess.run(["node", str(HERE / "check.js")], input="".join(json.dumps(j) + "\n" for j in jobs),
                         capture_output=True, text=True, env={**os.environ, "PZPR_MODULES": str(modules())},
                         timeout=300)
    for row, line in zip(rows, out.stdout.splitlines()):
        got = json.loads(line)
        if unreadable(genre, row["url"]):
            row["result"] = unreadable(genre, row["url"])
            continue
        if "error" in got:
            row["result"] = f"pzpr: {got['error']}"
            continue
        row["pid"], row["clues"] = got["pid"], same_clues(row["url"], got["written"])
        row["answer"] = "pzpr's check passes a blank board" if got["blank_complete"] else \
            "pzpr's check accepts ours" if got["complete"] else f"pzpr's check: {got.get('text')}"
    return rows


def passed(row: dict) -> bool:
    return str(row.get("clues", "")).startswith("same clues") and row.get("answer") == "pzpr's check accepts ours"


def main(argv: list[str] | None = None) -> int:
    args = check_arguments(__doc__.splitlines()[0], PZPR).parse_args(argv)
    if not shutil.which("node") or not (modules() / "pzpr").is_dir():
        print(f"check skipped: needs node and pzpr in {modules()} "
              "(npm install --prefix ~/.cache/grader-pzprjs pzpr@0.10.1)", file=sys.stderr)
        return 0
    started, load_before = datetime.now(timezone.utc), load_average()
    rows = [r for g in (args.genre or list(PZPR)) for r in check_genre(g, args)]
    for r in rows:
        print(json.dumps(r))
    unchecked = sum(str(r.get("result", "")).startswith("not checkable") for r in rows)
    summary = (f"{sum(map(passed, rows))} of {len(rows)} pass, {unchecked} not checkable; not in npm's pzpr 0.10.1: "
               + ", ".join(f"{g} ({p})" for g, p in NOT_IN_PZPR.items()))
    print(summary, file=sys.stderr)
    if args.report:
        write_report(args.report, "Generated puzz.link URLs in pzpr.js", "tools/pzprjs/check.py",
                     sys.argv[1:] if argv is None else argv, started, load_before, [summary],
                     results_table(rows, ["genre", "command", "url", "pid", "clues", "answer", "result"]))
    return 0 if all(passed(r) or str(r.get("result", "")).startswith("not checkable") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
