"""Check the game IDs `grader generate --format tatham` writes in Simon Tatham's own programs
(issue 26): his game reads each ID and his solver finds the solution ours finds.

    tools/tatham/build.sh                        (once: builds his solvers)
    PYTHONPATH=. python tools/tatham/check_ids.py [--count 3] [--size 10x10] [--level 2,3]
        [--seed check] [--genre akari ...] [--mines 3]

For every genre with a Tatham format, `grader generate --genre G --size SIZE --level LEVEL
--count COUNT --seed SEED --format tatham` makes IDs; each goes to his `<game>-solve`
(tools/tatham/solve.c: the game's own parser and solver) and to `grader solve --json`, and the
two solutions are compared as sets: bulbs, shaded cells, bridges with their counts, loop
edges. Where his solver stops short (a puzzle beyond his hardest tier), what it decided must be
part of ours (Pearl's Solve gives nothing then: its Hint move shows what it decided). Our answer
is also played in his game as his own moves, and his game must call it solved (not for Loopy,
whose moves number its grid's edges). Our generator has clingo confirm that each puzzle has one solution; Light Up's and
Loopy's standalone solvers also give their verdict (solved, and at which of his tiers; gave up;
several solutions), which is printed.

Mines is the exception: a generated Minesweeper board is not a Mines position (the numbers
Mines reveals from one click), so the generator cannot write it as an ID. Instead MINES IDs of
his own generator are read by us and written back by our writer, and his game must read our ID
as the same mine layout.

Exit 0 when every ID agrees (his solver may stop short of a puzzle harder than his hardest tier,
as long as what it decides is ours), 1 when one does not; without his solvers, a message and exit 0.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from versus import load_average, missing, solver_dir, write_report  # noqa: E402  (a script beside this one)

GAMES = {"akari": "lightup", "hashiwokakero": "bridges", "slitherlink": "loopy", "masyu": "pearl",
         "hitori": "singles", "picross": "pattern", "kuromasu": "range"}
# his standalone solvers' words on a puzzle: (arguments, [(words, what they mean)]), first match;
# None: the line itself, which gives his difficulty
VERDICTS = {"lightup": ([], [("multiple solutions", "several solutions, for his solver"),
                             ("Unable to find a unique solution", "his solver gives up"),
                             ("has no solution", "no solution, for his solver"),
                             ("Puzzle has difficulty", None)]),
            "loopy": (["-g"], [("harder than Hard, or ambiguous", "his solver gives up (harder than Hard, or ambiguous)"),
                               ("no solution exists", "no solution, for his solver"),
                               ("Difficulty rating: ", None)])}


def cell(x: int, y: int) -> str:
    return f"r{y + 1}c{x + 1}"


# --- his answer, from the driver's "move" line and text board ---------------------------------

def his_answer(game: str, move: str, board: list[str]) -> set:
    if game == "lightup":                       # L<x>,<y>: a light
        return {cell(int(x), int(y)) for x, y in re.findall(r"L(\d+),(\d+)", move)}
    if game == "singles":                       # B<x>,<y>: black
        return {cell(int(x), int(y)) for x, y in re.findall(r"B(\d+),(\d+)", move)}
    if game == "range":                         # B,<row>,<column>: black
        return {cell(int(x), int(y)) for y, x in re.findall(r"B,(\d+),(\d+)", move)}
    if game == "pattern":                       # S then one 0/1 a cell, row by row
        return {i for i, b in enumerate(move[1:]) if b == "1"}
    if game == "bridges":                       # L<x1>,<y1>,<x2>,<y2>,<n>: n bridges
        return {(cell(int(a), int(b)), cell(int(c), int(d)), int(n))
                for a, b, c, d, n in re.findall(r"L(\d+),(\d+),(\d+),(\d+),(\d+)", move) if int(n)}
    if game == "loopy":                         # text: dot rows " - x ", cell rows "|3| x"
        return {("h" if k % 2 == 0 else "v", k // 2, j // 2) for k, line in enumerate(board)
                for j, ch in enumerate(line) if ch in "-|" and (j % 2 == 1) == (k % 2 == 0)}
    if game == "pearl":                         # text: cells 4 apart, "---" and "|" between
        links = set()
        for k, line in enumerate(board):
            for j, ch in enumerate(line):
                if k % 2 == 0 and j % 4 == 2 and ch == "-":
                    links.add(((k // 2, j // 4), (k // 2, j // 4 + 1)))
                elif k % 2 == 1 and j % 4 == 0 and ch == "|":
                    links.add(((k // 2, j // 4), (k // 2 + 1, j // 4)))
        return links
    raise ValueError(game)


# --- ours, from `grader solve --json` -----------------------------------------------------------

def our_answer(game: str, solution, cols: int) -> set:
    if game in ("lightup",):
        return set(solution["bulbs"])
    if game in ("singles", "range"):
        return set(solution["shaded"])
    if game == "pattern":
        return {r * cols + c for r, row in enumerate(solution) for c, ch in enumerate(row.split()) if ch == "#"}
    if game == "bridges":
        return {(b["from"], b["to"], b["count"]) for b in solution["bridges"]}
    if game == "loopy":
        return {loop_edge(name) for name in solution["links"]}
    if game == "pearl":                         # a cell's directions: e and s name its links
        links = set()
        for r, row in enumerate(solution):
            for c, dirs in enumerate(row.split()):
                if "e" in dirs:
                    links.add(((r, c), (r, c + 1)))
                if "s" in dirs:
                    links.add(((r, c), (r + 1, c)))
        return links
    raise ValueError(game)


def his_move(game: str, ours: set, cols: int, rows: int) -> str | None:
    """Our answer (as our_answer gives it) in his game's own moves, one a line where his game
    takes one at a time; None for Loopy, whose moves number the edges of its grid."""
    def xy(name: str) -> tuple[int, int]:
        r, c = name[1:].split("c")
        return int(c) - 1, int(r) - 1
    if game == "lightup":
        return ";".join("L%d,%d" % xy(n) for n in sorted(ours))
    if game == "singles":
        return ";".join("B%d,%d" % xy(n) for n in sorted(ours))
    if game == "range":                          # row first
        return "".join("B,%d,%d" % xy(n)[::-1] for n in sorted(ours))
    if game == "bridges":
        return ";".join("L%d,%d,%d,%d,%d" % (*xy(a), *xy(b), n) for a, b, n in sorted(ours))
    if game == "pattern":                        # x, y, width, height: all empty, then fill each cell
        return "\n".join([f"E0,0,{cols},{rows}"] + [f"F{i % cols},{i // cols},1,1" for i in sorted(ours)])
    if game == "pearl":                          # each cell's links as bits: R 1, U 2, L 4, D 8
        bits: dict[tuple[int, int], int] = {}
        for (r1, c1), (r2, c2) in ours:
            toward, back = (1, 4) if r1 == r2 else (8, 2)
            bits[(r1, c1)] = bits.get((r1, c1), 0) | toward
            bits[(r2, c2)] = bits.get((r2, c2), 0) | back
        return ";".join(f"R{b},{c},{r}" for (r, c), b in sorted(bits.items()))
    return None


HIS_SECONDS = 120


def his_output(command: list[str]) -> list[str]:
    """The lines one of his programs prints; a run past HIS_SECONDS reads as his solver
    stopping short, so one slow ID is a row of the report, not the end of the check."""
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=HIS_SECONDS).stdout.splitlines()
    except subprocess.TimeoutExpired:
        return [f"unsolved: no answer within {HIS_SECONDS} s"]


def his_game_accepts(bin_dir: Path, game: str, game_id: str, ours: set) -> str | None:
    """His game's own verdict on our answer played as his moves (None where not written)."""
    cols, rows = map(int, re.match(r"(\d+)x(\d+)", game_id).groups())
    move = his_move(game, ours, cols, rows)
    if move is None:
        return None
    out = his_output([str(bin_dir / f"{game}-solve"), "-m", move, game_id])
    return {"status 1": "his game: solved"}.get(out[0] if out else "", f"his game: {out[0] if out else 'no answer'}")


SIDE = re.compile(r"the (top|bottom|left|right) of r(\d+)c(\d+)")
BETWEEN = re.compile(r"r(\d+)c(\d+)\|r(\d+)c(\d+)")


def loop_edge(name: str) -> tuple[str, int, int]:
    """Our edge name as Loopy's text board places it: ("h", dot row, column) for a horizontal
    edge, ("v", row, dot column) for a vertical one, all from 0."""
    m = SIDE.fullmatch(name)
    if m:
        side, r, c = m.group(1), int(m.group(2)) - 1, int(m.group(3)) - 1
        return {"top": ("h", r, c), "bottom": ("h", r + 1, c), "left": ("v", r, c), "right": ("v", r, c + 1)}[side]
    r1, c1, r2, c2 = (int(x) - 1 for x in BETWEEN.fullmatch(name).groups())
    return ("h", r2, c1) if c1 == c2 else ("v", r1, c2)


# --- running both -------------------------------------------------------------------------------

def cli(*argv: str) -> tuple[int, str]:
    from grader.app.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(argv))
    return code, out.getvalue()


def his_solve(bin_dir: Path, game: str, game_id: str, flags: tuple = ()) -> tuple[str | None, str, list[str]]:
    """(error or None, his move, his board lines); with -m MOVE, the board after MOVE."""
    out = his_output([str(bin_dir / f"{game}-solve"), *flags, game_id])
    if out and out[0].startswith("status "):
        return None, "", out[1:]
    if not out or not out[0].startswith("seconds "):
        return (out[0] if out else "no output"), "", []     # "unreadable: ..." or "unsolved: ..."
    return None, out[1].removeprefix("move "), out[2:]


def his_verdict(bin_dir: Path, game: str, game_id: str) -> str | None:
    """His standalone solver's word on the puzzle, where it gives one."""
    if game not in VERDICTS or not (bin_dir / f"{game}solver").is_file():
        return None
    flags, meanings = VERDICTS[game]
    lines = his_output([str(bin_dir / f"{game}solver"), *flags, game_id])
    for words, meaning in meanings:
        line = next((ln.strip() for ln in lines if words in ln), None)
        if line:
            return meaning or f"solved by his solver ({line})"
    return "no verdict"


def generated(genre: str, args: argparse.Namespace, level: int, fmt: str) -> tuple[str, list[str]]:
    """The command and the IDs or URLs `grader generate ... --format FMT` makes: at LEVEL, or
    where no draft reaches it (Masyu at 10x10 level 3, for some seeds), the next level up."""
    for tried in range(level, 5):
        command = ["generate", "--genre", genre, "--size", args.size, "--level", str(tried), "--count",
                   str(args.count), "--seed", args.seed, "--format", fmt]
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "made"
            cli(*command, "-o", str(out))
            files = sorted(out.iterdir()) if out.is_dir() else [out] if out.exists() else []
            made = [ln for f in files for ln in f.read_text().split()]
        if made:
            break
    return "grader " + " ".join(command), made


def levels(text: str) -> list[int]:
    """--level 2,3: the levels to generate at, in turn."""
    return [int(x) for x in text.split(",")]


def check_genre(genre: str, args: argparse.Namespace, bin_dir: Path) -> list[dict]:
    rows: list[dict] = []
    for level in args.level:        # a level no draft reaches falls to the next: check that once
        seen = {r.get("command") for r in rows}
        rows += [r for r in check_level(genre, args, level, bin_dir) if r.get("command") not in seen]
    return rows


def check_level(genre: str, args: argparse.Namespace, level: int, bin_dir: Path) -> list[dict]:
    game = GAMES[genre]
    command, ids = generated(genre, args, level, "tatham")
    rows = [{"genre": genre, "command": command, "made": 0}] if not ids else []
    for game_id in ids:
        row = {"genre": genre, "game": game, "command": command, "id": game_id}
        error, move, board = his_solve(bin_dir, game, game_id)
        _, text = cli("solve", "--json", "--genre", genre, game_id)
        ours = json.loads(text) if text.strip() else {}
        mine = our_answer(game, ours["solution"], int(game_id.split("x", 1)[0])) \
            if ours.get("status") == "solved" else None
        if error and error.startswith("unsolved"):     # read, but beyond his solver
            row["result"] = f"his solver stops short: {error}"
        elif error:
            row["result"] = f"his game: {error}"
        elif mine is None:
            row["result"] = f"ours: {ours.get('status', 'no answer')}"
        else:
            if game == "pearl" and move == "S":     # Pearl's Solve is empty when its solver is stuck:
                _, _, board = his_solve(bin_dir, game, game_id, ["-m", "H"])   # his hint, partial
            row["result"] = compare(his_answer(game, move, board), mine)
        if mine is not None and not (error or "").startswith("unreadable"):
            row["his_game_on_ours"] = his_game_accepts(bin_dir, game, game_id, mine)
        verdict = his_verdict(bin_dir, game, game_id)
        if verdict:
            row["his_uniqueness"] = verdict
        rows.append(row)
    return rows


def compare(his: set, ours: set) -> str:
    """His solver may stop short of a solution (a puzzle beyond his hardest tier): what it
    decided is then part of ours, never against it."""
    if his == ours:
        return "same solution"
    if his < ours:
        return f"his solver stops short: {len(his)} of our {len(ours)}, none against ours"
    return f"differ: only his {sorted(his - ours)[:4]}, only ours {sorted(ours - his)[:4]}"


def check_mines(count: int, seed: str, bin_dir: Path) -> list[dict]:
    """His Mines IDs, read by us and written back by our writer: his game reads ours as the same
    layout (his board after Solve: '*' a mine)."""
    from grader.io.read import load
    rows = []
    ids = subprocess.run(["/usr/games/sgt-mines", "--generate", str(count), f"10x10n20#{seed}"],
                         capture_output=True, text=True, check=True).stdout.split()
    for his_id in ids:
        puzzle = load(his_id, "minesweeper")
        ours = puzzle.genre.to_tatham(puzzle)
        layouts = []
        for game_id in (his_id, ours):
            error, _, board = his_solve(bin_dir, "mines", game_id)
            layouts.append(error or {(r, c) for r, line in enumerate(board) for c, ch in enumerate(line) if ch == "*"})
        result = "same layout" if layouts[0] == layouts[1] and not isinstance(layouts[0], str) else \
            f"differ: {layouts[0] if isinstance(layouts[0], str) else ''} {layouts[1] if isinstance(layouts[1], str) else ''}"
        rows.append({"genre": "minesweeper", "game": "mines", "id": ours, "his_id": his_id, "result": result})
    return rows


def check_arguments(description: str, genres) -> argparse.ArgumentParser:
    """The options every check of generated puzzles takes (this one and tools/pzprjs/check.py)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--genre", action="append", choices=sorted(genres))
    ap.add_argument("--count", type=int, default=3)
    ap.add_argument("--size", default="10x10")
    ap.add_argument("--level", type=levels, default=[3], help="the level, or levels such as 2,3 (default 3)")
    ap.add_argument("--seed", default="check")
    ap.add_argument("--report", type=Path, help="also write the results as markdown to this file")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = check_arguments(__doc__.splitlines()[0], GAMES)
    ap.add_argument("--mines", type=int, default=3, help="Mines IDs of his to write back (0: none)")
    args = ap.parse_args(argv)
    genres = args.genre or list(GAMES)
    bin_dir = solver_dir()
    why = missing([GAMES[g] for g in genres] + (["mines"] if args.mines else []), bin_dir)
    if why:
        print("check skipped:\n  " + "\n  ".join(why), file=sys.stderr)
        return 0
    started, load_before = datetime.now(timezone.utc), load_average()
    rows = [r for g in genres for r in check_genre(g, args, bin_dir)]
    if args.mines:
        rows += check_mines(args.mines, args.seed, bin_dir)
    for r in rows:
        print(json.dumps(r))
    bad = [r for r in rows if not str(r.get("result", "")).startswith(("same", "his solver stops short"))
           or r.get("his_game_on_ours") not in (None, "his game: solved")]
    summary = f"{len(rows) - len(bad)} of {len(rows)} agree"
    print(summary, file=sys.stderr)
    if args.report:
        write_report(args.report, "Generated game IDs in Simon Tatham's own games", "tools/tatham/check_ids.py",
                     sys.argv[1:] if argv is None else argv, started, load_before,
                     [summary + " (his solver may stop short of a puzzle beyond his hardest tier)"],
                     results_table(rows, ["genre", "command", "id", "result", "his_game_on_ours", "his_uniqueness",
                                         "his_id"]))
    return 1 if bad else 0


def results_table(rows: list[dict], keys: list[str]) -> str:
    """One line a row, the columns any row has, in the order given."""
    from tabulate import tabulate
    keys = [k for k in keys if any(k in r for r in rows)]
    return tabulate([[str(r.get(k, "")).replace("|", "\\|") for k in keys] for r in rows], headers=keys,
                    tablefmt="github")


if __name__ == "__main__":
    sys.exit(main())
