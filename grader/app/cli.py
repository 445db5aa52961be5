"""grader: grade | solve | explain | hint | check | batch | report | render | genres | heuristics
| benchmark | generate | validate | calibrate | play

Exit codes: 0 done (solved / unique); 1 a negative result (not solved by the techniques, no
solution, several solutions, a hint or check found a mistake); 2 bad input or usage, in one
line; 3 internal error.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

from grader.core import exact
from grader.core.engine import Budget, collect_less_often
from grader.core.errors import InputError, one_line
from grader.core.explain import branches, sentence
from grader.io.read import board_marks, board_read, load, parse_state, read_text
from grader.genres import all_genres
from grader.core.model import Puzzle
from grader.core.steps import Status

OK, NEGATIVE, BAD_INPUT, INTERNAL = 0, 1, 2, 3
NOT_ONE = (exact.Verdict.NONE, exact.Verdict.SEVERAL)


class UsageError(Exception):
    """A command line argparse refuses: shown as one line, exit 2."""


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the problem (not the usage block)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


def _emit(args: argparse.Namespace, data: Any, text: str) -> None:
    print(json.dumps(data, ensure_ascii=False) if args.json else text)


def _budget(args: argparse.Namespace) -> Budget:
    return Budget(max_steps=args.max_steps, max_seconds=args.max_seconds)


def _load(args: argparse.Namespace) -> Puzzle:
    return load(args.puzzle, args.genre)


def _scale(args: argparse.Namespace) -> Any:
    """The --scale file, read and checked before any grading (None without --scale)."""
    if not getattr(args, "scale", None):
        return None
    from grader.app.scale import load_scale
    return load_scale(args.scale)


FEW_STEPS = 8       # hardest steps listed one by one up to this many; beyond it, counted


def cmd_grade(args: argparse.Namespace) -> int:
    from grader.core.analysis import analyse
    from grader.core.grading import level_words, why_label
    scale = _scale(args)
    a = analyse(_load(args), budget=_budget(args), check_unique=not args.no_unique)
    row = a.row(with_levels=True)
    g = a.grade
    lines = [f"{a.puzzle.meta.origin}: {g.status.value}, {level_words(g.level)}, label {g.label}"]
    if g.difficulty is not None:
        lines.append(f"difficulty {g.difficulty} of 10, effort about {g.effort} minutes, score {g.score}")
    lines.append(why_label(g))
    if a.uniqueness is not None:
        lines.append(f"solutions: {a.uniqueness.verdict.value} (shown by {a.uniqueness.shown_by})")
    if a.matches_given_solution is not None:
        lines.append("matches the given solution" if a.matches_given_solution
                     else "DIFFERS from the given solution")
    lines.append("steps per level: " + (", ".join(f"L{k}: {v}" for k, v in g.steps_per_level.items())
                                        or "none"))
    if not g.bottlenecks:
        pass
    elif len(g.bottlenecks) <= FEW_STEPS:
        lines.append(f"hardest steps (level {g.level}): " + ", ".join(map(str, g.bottlenecks)))
    else:
        lines.append(f"hardest steps: {len(g.bottlenecks)} at level {g.level}, the first is step {g.bottlenecks[0]}")
    if a.trace.reason and g.status is not Status.SOLVED:
        lines.append(f"stopped: {a.trace.reason}")
    if scale is not None:   # the publisher's label, from any figure of the grade
        row["house_label"] = house = scale.house_label({**g.to_json(), **row})
        lines.insert(1, f"house label: {house}" if house is not None else "house label: - (not solved)")
    _emit(args, row, "\n".join(lines))
    return OK if g.status is Status.SOLVED and not _not_one(a) else NEGATIVE


def _not_one(a: Any) -> bool:
    """The exact solver found no solution or several (a negative result for every command)."""
    return a.uniqueness is not None and a.uniqueness.verdict in NOT_ONE


def cmd_solve(args: argparse.Namespace) -> int:
    from grader.core.analysis import analyse
    puzzle = _load(args)
    genre = puzzle.genre
    # As grade solves: techniques that assume one solution only where the exact solver allows
    a = analyse(puzzle, budget=_budget(args))
    state, how = a.trace.final, "techniques"
    if a.grade.status is not Status.SOLVED or _not_one(a):
        result = a.uniqueness or exact.solve(puzzle, seconds=max(5.0, args.max_seconds))
        if result.verdict is not exact.Verdict.UNIQUE:
            msg = {"none": "no solution", "several": "several solutions",
                   "unknown": "the exact solver ran out of time"}[result.verdict.value]
            _emit(args, {"status": result.verdict.value, "solution": None}, f"{puzzle.meta.origin}: {msg}")
            return NEGATIVE
        state, how = result.solutions[0], "exact solver"
    if args.format == "svg":
        out = genre.render_svg(puzzle, state)
    elif args.format == "asp":
        out = genre.answer_asp(puzzle, state)  # type: ignore[attr-defined]
    else:
        out = genre.render_board(puzzle, state)        # the board for people (grader.io.board)
    _emit(args, {"status": "solved", "by": how, "solution": genre.answer_json(puzzle, state)}, out)
    return OK


def cmd_explain(args: argparse.Namespace) -> int:
    from grader.core.analysis import analyse
    puzzle = _load(args)
    genre = puzzle.genre
    a = analyse(puzzle, budget=_budget(args))     # the path grade grades
    trace = a.trace
    steps_json, lines = [], []
    people = args.boards and not args.json      # text boards for people; --json keeps render_text
    if people:
        lines.append(genre.render_board(puzzle, trace.start) + "\n")
    for step, before, after in trace.states():
        text = sentence(step)
        steps_json.append({"step": step.number, "level": step.level, "technique": step.heuristic.id,
                           "name": step.heuristic.name, "text": text,
                           "cells": [genre.var_name(puzzle, v) for v in step.deduction.targets],
                           "board": genre.render_text(puzzle, after).splitlines()})
        lines.append(f"{step.number:>4}. [L{step.level}] {step.heuristic.name}: {text}")
        hypotheses = branches(step)
        if hypotheses:
            steps_json[-1]["branches"] = hypotheses
            for b in hypotheses:
                lines.append(f"        if {b['assumption']}:")
                lines += [f"          - [L{s['level']}] {s['text']}" for s in b["steps"]]
                if b["more_steps"]:
                    lines.append(f"          - ... {b['more_steps']} more steps")
                lines.append(f"          => {'contradiction: ' + b['reason'] if b['status'] == 'contradiction' else b['status']}")
        if people:
            lines.append(genre.render_board(puzzle, after) + "\n")
    lines.append(f"{trace.status.value}" + (f": {trace.reason}" if trace.reason and trace.status is not Status.SOLVED else ""))
    data: dict[str, Any] = {"status": trace.status.value, "steps": steps_json}
    if a.uniqueness is not None:
        data["solutions"] = a.uniqueness.verdict.value
        if _not_one(a):
            lines.append(f"solutions: {a.uniqueness.verdict.value} (shown by {a.uniqueness.shown_by})")
    _emit(args, data, "\n".join(lines))
    return OK if trace.status is Status.SOLVED and not _not_one(a) else NEGATIVE


def cmd_hint(args: argparse.Namespace) -> int:
    from grader.app.answers import why_answer
    from grader.core.hints import hint
    puzzle = _load(args)
    genre = puzzle.genre
    if args.state:
        marks = parse_state(puzzle, read_text(Path(args.state)), args.state)
    else:
        marks = board_marks(args.puzzle, puzzle)
        if marks is None:
            marks = genre.initial_state(puzzle)
    if args.why:
        data, text, _ = why_answer(puzzle, marks, args.why, budget=_budget(args))
        _emit(args, data, text)
        return OK if data["steps"] else NEGATIVE
    h = hint(puzzle, marks, args.stage, budget=_budget(args))
    text = h.text
    if h.step is not None and args.stage == "answer":   # the answer drawn: the board after the step
        text += "\n" + genre.render_board(puzzle, h.step.deduction.apply(marks))
    _emit(args, h.to_json(), text)
    return OK if h.kind in ("step", "solved") else NEGATIVE    # mistake, contradiction, stuck


def cmd_check(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    puzzle = _load(args)
    genre = puzzle.genre
    board = board_read(args.puzzle, puzzle)
    # --max-seconds bounds the whole check: the exact solver gets what reading left
    result = exact.solve(puzzle, seconds=max(0.0, args.max_seconds - (time.perf_counter() - t0)))
    data: dict[str, Any] = {"solutions": result.verdict.value}
    lines = [f"{puzzle.meta.origin}: " + {"none": "no solution", "unique": "exactly one solution",
                                          "several": "several solutions",
                                          "unknown": "unknown (time limit)"}[result.verdict.value]]
    if result.verdict is exact.Verdict.SEVERAL:
        a, b = result.solutions[:2]
        differ = [genre.var_name(puzzle, v) for v in a.diff(b)]
        data["differ_at"] = differ
        data["examples"] = [genre.answer_json(puzzle, s) for s in (a, b)]
        lines += ["two of them, differing at " + ", ".join(differ[:12]) + (" ..." if len(differ) > 12 else ""),
                  genre.render_board(puzzle, a), "", genre.render_board(puzzle, b)]
    elif result.verdict is exact.Verdict.UNIQUE:
        data["solution"] = genre.answer_json(puzzle, result.solutions[0])
    status = None
    if board is not None:   # a board file also holds the player's progress: judge it too
        from grader.app.answers import judge_board
        status, broken, wrong = judge_board(puzzle, board, result.solution)
        data["board"] = {"status": status, "broken": broken, "wrong": wrong}
        if broken:
            lines.append("the board breaks a rule: " + "; ".join(broken[:3]))
        elif wrong:
            lines.append(f"the board has a mistake: {', '.join(wrong[:5])}"
                         + (f" (and {len(wrong) - 5} more)" if len(wrong) > 5 else "") + " not marked right")
        else:
            lines.append({"solved": "the board is solved", "unfinished": "the board is not finished"}[status])
    _emit(args, data, "\n".join(lines))
    return OK if result.verdict is exact.Verdict.UNIQUE and status != "mistake" else NEGATIVE


def cmd_batch(args: argparse.Namespace) -> int:
    from grader.app.batch import run_batch
    return run_batch(args)


def cmd_validate(args: argparse.Namespace) -> int:
    from grader.app.validate import run_validate
    return run_validate(args)


def cmd_calibrate(args: argparse.Namespace) -> int:
    from grader.app.validate import run_calibrate
    return run_calibrate(args)


def cmd_report(args: argparse.Namespace) -> int:
    from grader.app.report import run_report
    return run_report(args)


def cmd_render(args: argparse.Namespace) -> int:
    puzzle = _load(args)
    genre = puzzle.genre
    state = None
    if args.state:
        state = parse_state(puzzle, read_text(Path(args.state)), args.state)
    else:
        state = board_marks(args.puzzle, puzzle)
    if args.format == "svg":
        out = data = genre.render_svg(puzzle, state)
    else:   # the board for people; --json keeps the native grid syntax it has always given
        out, data = genre.render_board(puzzle, state), genre.render_text(puzzle, state)
    _emit(args, {"genre": genre.name, "board": data}, out)
    return OK


def cmd_genres(args: argparse.Namespace) -> int:
    from grader.core.registry import REGISTRY
    rows = [{"genre": g.name, "title": g.title, "aliases": list(g.aliases),
             "puzzlink": list(g.puzzlink_pids), "janko": list(g.janko_names), "tatham": g.has_tatham,
             "heuristics": len(REGISTRY.for_genre(g.name))} for g in all_genres()]
    from tabulate import tabulate
    from grader.genres import broken
    for name, why in broken().items():
        print(f"warning: genre module '{name}' failed to load: {why}", file=sys.stderr)
    _emit(args, rows, tabulate([[r["genre"], r["title"], r["heuristics"], ", ".join(r["puzzlink"]),
                                 "yes" if r["tatham"] else ""] for r in rows],
                               headers=["genre", "title", "techniques", "puzz.link", "Tatham"]))
    return OK if not broken() else INTERNAL


def cmd_heuristics(args: argparse.Namespace) -> int:
    from grader.genres import all_genres, get
    from grader.core.registry import REGISTRY
    if args.genre is None:      # every genre: the catalogue as a Markdown document
        from grader.app.report import render
        from grader.app.report.techniques import build
        rows = [_technique_row(h) for g in sorted(all_genres(), key=lambda g: g.name)
                for h in REGISTRY.for_genre(g.name)]
        _emit(args, rows, render(build(), "md").rstrip("\n"))
        return OK
    g = get(args.genre)
    if g is None:
        raise InputError("--genre", f"unknown genre '{args.genre}'")
    rows = [_technique_row(h) for h in REGISTRY.for_genre(g.name)]
    from tabulate import tabulate
    for r in rows:      # the explanation with its fields left open reads as what the technique does
        r["description"] = re.sub(r"\{(\w+)[^}]*\}", lambda m: f"<{m.group(1)}>", r["template"])
    _emit(args, rows, tabulate([[r["level"], r["id"], r["name"] + (" (uniqueness)" if r["uses_uniqueness"] else ""),
                                 r["description"]] for r in rows],
                               headers=["level", "id", "technique", "what it finds"], maxcolwidths=[None, None, 28, 64]))
    return OK


def _technique_row(h) -> dict[str, Any]:
    return {"genre": h.info.genre, "level": h.level, "id": h.id, "name": h.info.name,
            "score": h.info.effective_score, "uses_uniqueness": h.info.uses_uniqueness,
            "counted": h.info.counted, "catalogue": h.info.catalogue, "nudge": h.info.nudge,
            "template": h.info.template}


def cmd_benchmark(args: argparse.Namespace) -> int:
    from grader.app.benchmark import run
    return run(args)


def cmd_play(args: argparse.Namespace) -> int:
    from grader.web.serve import serve
    return serve(args)


def cmd_generate(args: argparse.Namespace) -> int:
    from grader.app.generate import run
    return run(args)


SCALE_HELP = ("a scale file from `grader calibrate`: print the publisher's label the grade maps to "
              "('house label', house_label in --json)")
STEPS_HELP = "the most steps the solve path may take (default %(default)s)"
# What --max-seconds is: the solve loop's deadline, looked at between steps, plus a limit of
# the same length for the exact solver's uniqueness check (grader.core.analysis).
SOLVE_SECONDS = ("the solve's deadline in seconds (default %(default)g): the techniques stop at the first "
                 "step that ends past it, so the last step can run over it; where the exact solver checks "
                 "uniqueness it gets a limit of the same length (at least 5 s) of its own, so a puzzle can "
                 "take over twice this")


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="grader", description="Human-style difficulty grader and hint engine for pencil puzzles.")
    sub = p.add_subparsers(dest="command", required=True)

    def command(name: str, fn, help_: str, puzzle: bool = True,
                seconds_help: str | None = SOLVE_SECONDS, json: bool = True) -> argparse.ArgumentParser:
        """seconds_help: what --max-steps and --max-seconds bound (None: the command has neither);
        json: whether it takes --json (not a server)."""
        sp = sub.add_parser(name, help=help_, description=help_)
        if puzzle:
            sp.add_argument("puzzle", help="a puzzle file, FILE.jsonl#N, a puzz.link URL or a Tatham game ID")
            sp.add_argument("--genre", help="the genre, needed for Tatham game IDs")
            if seconds_help:
                sp.add_argument("--max-steps", type=int, default=20000, help=STEPS_HELP)
                sp.add_argument("--max-seconds", type=float, default=120.0, help=seconds_help)
        if json:
            sp.add_argument("--json", action="store_true", help="print JSON (one object; batch: one per line)")
        sp.set_defaults(fn=fn)
        return sp

    g = command("grade", cmd_grade, "Grade a puzzle: level 1-5, score, label, uniqueness.")
    g.add_argument("--no-unique", action="store_true", help="skip the uniqueness check")
    g.add_argument("--scale", metavar="SCALE.yaml", help=SCALE_HELP)
    s = command("solve", cmd_solve, "Print the solution.")
    s.add_argument("--format", choices=("text", "svg", "asp"), default="text")
    e = command("explain", cmd_explain, "Every step of the solve path, explained.")
    e.add_argument("--boards", action="store_true", help="print the board after every step")
    h = command("hint", cmd_hint, "The next hint from the player's marks.",
                seconds_help="with --why: the solve's deadline in seconds (default %(default)g), looked at "
                             "between steps; the next step of a plain hint is looked for without one")
    h.add_argument("--state", help="a file of the player's marks in the native grid syntax")
    h.add_argument("--stage", choices=("nudge", "technique", "explain", "answer"), default="nudge")
    h.add_argument("--why", help="explain how a cell (like r3c4) gets decided")
    c = command("check", cmd_check, "Count solutions with the exact solver (none, unique, several).",
                seconds_help=None)
    c.add_argument("--max-seconds", type=float, default=120.0,
                   help="the exact solver's time limit in seconds (default %(default)g); past it the "
                        "answer is unknown")
    r = command("render", cmd_render, "Draw a puzzle (and optional marks) as text or SVG.", seconds_help=None)
    r.add_argument("--format", choices=("text", "svg"), default="text")
    r.add_argument("--state", help="a file of marks to draw")
    b = command("batch", cmd_batch, "Grade a folder or a .jsonl of janko records; one JSON line per puzzle.",
                puzzle=False)
    b.add_argument("input", help="a folder of puzzles or a .jsonl file")
    b.add_argument("--genre")
    b.add_argument("-o", "--output", help="write the JSON lines here (default: standard output)")
    b.add_argument("--limit", type=int, help="grade at most this many puzzles")
    b.add_argument("--no-unique", action="store_true", help="skip the uniqueness check")
    b.add_argument("--max-steps", type=int, default=20000, help=STEPS_HELP)
    b.add_argument("--max-seconds", type=float, default=60.0, help=SOLVE_SECONDS)
    b.add_argument("--workers", type=int, default=0, help="worker processes (default: one per core)")
    b.add_argument("--time-limit", type=float, default=0.0,
                   help="hard wall-clock limit per puzzle in seconds (default: 2 x --max-seconds + 30, "
                        "room for the uniqueness check and the solve, each within --max-seconds); "
                        "past it the puzzle's row says timeout")
    b.add_argument("--db", help="SQLite results file, written as it goes; rerun to resume")
    b.add_argument("--csv", help="export every result to this CSV file at the end")
    b.add_argument("--jsonl", help="export every result to this JSON lines file at the end")
    b.add_argument("--scheduler", help="run on a Dask distributed cluster at tcp://HOST:PORT")
    b.add_argument("--no-progress", action="store_true", help="no progress bar even on a terminal")
    b.add_argument("--scale", metavar="SCALE.yaml", help=SCALE_HELP + " (in every row)")
    rp = command("report", cmd_report, "Write a solve-path report of a puzzle, or (--corpus) a summary of "
                 "batch results.", puzzle=False)
    rp.add_argument("puzzle", nargs="?", help="a puzzle file, FILE.jsonl#N, a puzz.link URL or a Tatham game ID")
    rp.add_argument("--corpus", metavar="RESULTS", help="summarise a batch: its --db file or JSON lines")
    rp.add_argument("--genre", help="the genre, needed for Tatham game IDs")
    rp.add_argument("--format", choices=("md", "html"),
                    help="default: html when -o names an .html file, else md")
    rp.add_argument("-o", "--output", help="write the report here (default: standard output)")
    rp.add_argument("--max-steps", type=int, default=20000, help=STEPS_HELP)
    rp.add_argument("--max-seconds", type=float, default=120.0, help=SOLVE_SECONDS)
    rp.add_argument("--no-unique", action="store_true", help="skip the uniqueness check")
    rp.add_argument("--scale", metavar="SCALE.yaml", help=SCALE_HELP + " (a PUZZLE's report)")
    for name, fn, help_ in (
            ("validate", cmd_validate, "Compare our grades with a publisher's labels: Spearman's rho, "
             "concordance, medians per label and the worst inversions, per set and board size."),
            ("calibrate", cmd_calibrate, "Fit cut points of a grade field to a publisher's labels and "
             "write them as a scale file for --scale.")):
        v = command(name, fn, help_, puzzle=False)
        v.add_argument("labels_file", metavar="LABELS.jsonl",
                       help='one JSON line a puzzle: {"puzzle": path|URL|game ID, "label": ...} or '
                            '{"board": [[...]], "label": ...}; paths are looked for beside the file, '
                            'then in its parent folder')
        if name == "calibrate":
            v.add_argument("-o", "--output", required=True, metavar="SCALE.yaml",
                           help="write the scale here")
        v.add_argument("--field", default="difficulty",
                       help="the grade's figure to compare (a key of grade --json: difficulty, effort, "
                            "level, score or steps; default %(default)s)")
        v.add_argument("--labels", help="the label order, easiest first, separated by commas (else "
                       'a first line {"labels": [...]} in the file)')
        v.add_argument("--genre", help="the genre of lines that do not say (default: a genre named "
                       "in the file's name)")
        v.add_argument("--workers", type=int, default=0, help="worker processes (default: one per core)")
        v.add_argument("--max-steps", type=int, default=20000, help=STEPS_HELP)
        v.add_argument("--max-seconds", type=float, default=60.0, help=SOLVE_SECONDS)
        v.add_argument("--time-limit", type=float, default=0.0,
                       help="hard wall-clock limit per puzzle in seconds (default: 2 x --max-seconds + 30)")
        v.add_argument("--no-unique", action="store_true", help="skip the uniqueness check")
        v.add_argument("--no-progress", action="store_true", help="no progress bar even on a terminal")
    command("genres", cmd_genres, "The supported genres.", puzzle=False)
    hh = command("heuristics", cmd_heuristics, "The implemented techniques of a genre, by level "
                 "(no --genre: every genre's, as Markdown, with the catalogue entry each implements).",
                 puzzle=False)
    hh.add_argument("--genre")
    bm = command("benchmark", cmd_benchmark, "Grade a corpus and print speed and solve-rate figures.",
                 puzzle=False)
    bm.add_argument("inputs", nargs="*", help="folders or janko .jsonl files (default: the evaluation "
                    "corpus, at $GRADER_CORPUS or ../shared/corpus)")
    bm.add_argument("--planted", type=int, metavar="N",
                    help="instead: a soundness soak of N planted-solution puzzles per genre")
    bm.add_argument("--generate", type=int, metavar="N",
                    help="instead: make N puzzles per genre and level 1-4 and time the generator")
    bm.add_argument("--genre", action="append", help="with --planted or --generate: this genre only (repeatable)")
    bm.add_argument("--first-seed", type=int, default=0, help="with --planted: the first seed")
    bm.add_argument("--limit", type=int, help="at most this many puzzles per input")
    bm.add_argument("--max-seconds", type=float, default=60.0, help=SOLVE_SECONDS)
    bm.add_argument("--no-unique", action="store_true")
    bm.add_argument("--workers", type=int, default=1, help="grade in this many worker processes")
    bm.add_argument("--versus-exact", action="store_true",
                    help="also time the exact solver's uniqueness check (clingo) on every puzzle, and "
                         "print the median and p90 of our seconds over its seconds")
    bm.add_argument("--no-startup", action="store_true",
                    help="do not time the start-up of `grader grade` against a bare `python3 -c pass`")
    bm.add_argument("--rows", metavar="FILE.jsonl",
                    help="also write every puzzle's row (its seconds, and with --versus-exact clingo's and "
                         "the ratio of the two), slowest over clingo first: the tail, puzzle by puzzle")
    pl = command("play", cmd_play, "Play in the browser: a local page with staged hints, and its JSON API.",
                 puzzle=False, json=False)
    pl.add_argument("puzzle", nargs="?", help="a puzzle to open: a file, FILE.jsonl#N, a puzz.link URL or "
                    "a Tatham game ID (default: pick one on the page)")
    pl.add_argument("--genre", help="the genre, needed for Tatham game IDs")
    pl.add_argument("--host", default="127.0.0.1", help="the address to listen on (default %(default)s: "
                    "this computer only)")
    pl.add_argument("--port", type=int, default=8000, help="the port (default %(default)s)")
    pl.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")
    pl.add_argument("--workers", type=int, default=2, help="solver processes for hints and clicks (default %(default)s); half as "
                    "many more grade")
    pl.add_argument("--max-seconds", type=float, default=10.0,
                    help="a hint's time budget in seconds (default %(default)g): past it the page says "
                         "no hint was found in time")
    gen = command("generate", cmd_generate, "Make new puzzles with one solution at a chosen grade, for "
                  "every genre.", puzzle=False)
    gen.add_argument("--genre", required=True)
    gen.add_argument("--size", help="columns x rows (default 10x10; Picross 15x15, Arrows 6x6)")
    gen.add_argument("--level", type=int, help="the level (1-5) the puzzle must need")
    gen.add_argument("--label", help="the label the puzzle must get (easy, medium, hard, expert, extreme)")
    gen.add_argument("--difficulty", metavar="A-B", help="the range of difficulty (1.0-10.0) it must get")
    gen.add_argument("--count", type=int, default=1, help="how many puzzles (default 1)")
    gen.add_argument("--seed", default="0", help="the same seed makes the same puzzles")
    gen.add_argument("--workers", type=int, default=1, help="make puzzles in this many processes")
    gen.add_argument("-o", "--output", help="a file (one puzzle, or URLs/IDs one a line) or a folder "
                     "(one file a puzzle; always for several YAML puzzles)")
    gen.add_argument("--format", choices=("yaml", "puzzlink", "tatham"), default="yaml",
                     help="native YAML with provenance, a puzz.link URL, or a Simon Tatham game ID")
    gen.add_argument("--symmetric", action="store_true", help="keep clues in pairs under a half turn")
    gen.add_argument("--max-clues", type=int, help="at most this many clues that could be taken away")
    gen.add_argument("--attempts", type=int, default=200, help="drafts to try per puzzle (default 200)")
    gen.add_argument("--max-seconds", type=float, default=600.0,
                     help="give up on a puzzle after this many seconds, between drafts (default %(default)g)")
    gen.add_argument("--arrows", choices=("straight", "diagonal"), help="Japanese Arrows: the arrow kind")
    gen.add_argument("--no-progress", action="store_true", help="no progress bar even on a terminal")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        print(f"error: {one_line(str(exc), 600)}", file=sys.stderr)
        return BAD_INPUT
    collect_less_often()
    try:
        return args.fn(args)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return BAD_INPUT
    except BrokenPipeError:
        return OK
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug of ours: one line, unless asked for the traceback
        if os.environ.get("GRADER_DEBUG"):
            raise
        print(f"internal error: {type(exc).__name__}: {exc} (set GRADER_DEBUG=1 for details)",
              file=sys.stderr)
        return INTERNAL


if __name__ == "__main__":
    sys.exit(main())
