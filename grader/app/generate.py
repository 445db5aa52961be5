"""`grader generate`: new puzzles at a chosen grade, for every genre.

    grader generate --genre G [--size WxH] [--level N | --label L | --difficulty A-B]
                    [--count K] [--seed S] [--workers N] [-o FILE|DIR]
                    [--format yaml|puzzlink|tatham] [--symmetric] [--max-clues N]

The genre draws (grader/genres/G/generate.py, `draft`), the generic loop strips and grades
(grader.core.generator). Puzzle k of a run depends only on the genre, size, target, seed and
k, so the same command makes the same puzzles with any number of workers.
"""
from __future__ import annotations

import argparse
import importlib
import json
import multiprocessing
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

import attrs

from grader.core.errors import InputError
from grader.core.explain import counted
from grader.core.generator import GiveUp, Made, Maker, Settings, Target, generate, labels
from grader.core.genre import Genre
from grader.core.model import Meta

DEFAULT_SIZE = {"arrows": "6x6", "picross": "15x15"}       # else 10x10
LARGEST = {"arrows": 10}                                     # Arrows numbers are single digits
LARGEST_SIDE = 30
FORMATS = ("yaml", "puzzlink", "tatham")
SUFFIX = {"yaml": ".yaml", "puzzlink": ".url", "tatham": ".txt"}


@attrs.frozen
class Job:
    genre: str
    rows: int
    cols: int
    target: Target
    seed: str
    index: int                # 1-based within the run
    settings: Settings
    variant: str | None       # Arrows: straight or diagonal
    command: str


def maker_of(genre: Genre, variant: str | None) -> Maker:
    try:
        module = importlib.import_module(f"grader.genres.{genre.name}.generate")
    except ModuleNotFoundError:
        raise InputError("--genre", f"no generator for {genre.name}") from None
    if variant is not None and hasattr(module, "maker"):
        return module.maker(variant)
    return module.draft


def parse_size(text: str, genre: str) -> tuple[int, int]:
    """'WxH' -> (rows, cols): columns first, as in FORMATS.md."""
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not m:
        raise InputError("--size", f"'{text}' is not a size like 10x10 (columns x rows)")
    cols, rows = int(m.group(1)), int(m.group(2))
    largest = LARGEST.get(genre, LARGEST_SIDE)
    if not (2 <= cols <= largest and 2 <= rows <= largest):
        raise InputError("--size", f"'{text}': each side must be 2 to {largest} for {genre}")
    return rows, cols


def parse_target(args: argparse.Namespace) -> Target:
    given = [name for name in ("level", "label", "difficulty") if getattr(args, name) is not None]
    if len(given) > 1:
        raise InputError("--" + given[1], f"give one of --level, --label and --difficulty, not {' and '.join(given)}")
    if args.level is not None and not 1 <= args.level <= 5:
        raise InputError("--level", f"{args.level} is not a level 1-5")
    if args.label is not None and args.label not in labels():
        raise InputError("--label", f"'{args.label}' is not one of {', '.join(labels())}")
    difficulty = None
    if args.difficulty is not None:
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*", args.difficulty)
        if not m or not 1.0 <= float(m.group(1)) <= float(m.group(2)) <= 10.0:
            raise InputError("--difficulty", f"'{args.difficulty}' is not a range A-B within 1.0-10.0")
        difficulty = (float(m.group(1)), float(m.group(2)))
    return Target(level=args.level, label=args.label, difficulty=difficulty)


def make_one(job: Job) -> dict[str, Any]:
    """One puzzle of a run, as a result row (never raises on a puzzle that is not found)."""
    from grader.genres import get
    genre = get(job.genre)
    rng = random.Random(f"{job.genre}|{job.cols}x{job.rows}|{job.target.describe()}|{job.seed}|{job.index}")
    t0 = time.perf_counter()
    try:
        made = generate(maker_of(genre, job.variant), job.rows, job.cols, job.target, rng, job.settings)
    except GiveUp as exc:
        return {"index": job.index, "status": "not found", "error": str(exc),
                "seconds": round(time.perf_counter() - t0, 2)}
    return describe(job, genre, made)


def describe(job: Job, genre: Genre, made: Made) -> dict[str, Any]:
    g = made.analysis.grade
    size = f"{job.cols}x{job.rows}"
    ident = f"{genre.name}-{size}-{slug(job.target)}-s{job.seed}-{job.index}"
    meta = Meta(title=f"{genre.title} {size}, {g.label} (level {g.level}, difficulty {g.difficulty})",
                author="grader generator", licence="the grader project's own (MIT)", id=ident, label=g.label,
                provenance=f"{job.command} (puzzle {job.index}, attempt {made.attempts}): level {g.level}, "
                           f"difficulty {g.difficulty}, effort {g.effort} min; unique by the exact solver")
    solution = genre.solution_from_state(made.puzzle, made.analysis.trace.final)
    puzzle = attrs.evolve(made.puzzle, meta=meta, solution=solution)     # the YAML carries its answer
    from grader.io.native import dump
    row: dict[str, Any] = {
        "index": job.index, "status": "made", "id": ident, "genre": genre.name, "size": size,
        "target": job.target.describe(), "level": g.level, "label": g.label, "difficulty": g.difficulty,
        "effort": g.effort, "steps": g.steps, "clues": made.clues, "attempts": made.attempts,
        "seconds": round(made.seconds, 2), "yaml": dump({**genre.to_native(puzzle), "level": g.level})}
    for fmt, write in (("puzzlink", getattr(genre, "to_puzzlink", None)), ("tatham", getattr(genre, "to_tatham", None))):
        try:
            row[fmt] = write(puzzle) if write else None
        except (InputError, NotImplementedError):
            row[fmt] = None
    return row


def slug(target: Target) -> str:
    return target.describe().replace("level ", "L").replace("label ", "").replace("difficulty ", "d").replace(" ", "")


def run(args: argparse.Namespace) -> int:
    from grader.genres import get
    genre = get(args.genre)
    if genre is None:
        raise InputError("--genre", f"unknown genre '{args.genre}' (see `grader genres`)")
    rows, cols = parse_size(args.size or DEFAULT_SIZE.get(genre.name, "10x10"), genre.name)
    target = parse_target(args)
    if args.count < 1:
        raise InputError("--count", "must be 1 or more")
    fmt = args.format
    if fmt == "tatham" and not genre.has_tatham:
        raise InputError("--format", f"{genre.name} has no Simon Tatham game ID")
    if fmt == "puzzlink" and not genre.puzzlink_pids:
        raise InputError("--format", f"{genre.name} has no puzz.link URL")
    if args.arrows is not None and genre.name != "arrows":
        raise InputError("--arrows", "only for --genre arrows")
    maker_of(genre, None)                      # a genre without a generator fails here, at once
    if args.max_seconds is not None and args.max_seconds <= 0:
        raise InputError("--max-seconds", "must be more than 0")
    settings = Settings(attempts=args.attempts, symmetric=args.symmetric, max_clues=args.max_clues,
                        max_seconds=args.max_seconds)
    command = " ".join(["grader generate", f"--genre {genre.name}", f"--size {cols}x{rows}",
                        *([f"--level {target.level}"] if target.level is not None else []),
                        *([f"--label {target.label}"] if target.label is not None else []),
                        *([f"--difficulty {args.difficulty}"] if target.difficulty is not None else []),
                        *([f"--arrows {args.arrows}"] if args.arrows else []),
                        *(["--symmetric"] if args.symmetric else []),
                        *([f"--max-clues {args.max_clues}"] if args.max_clues is not None else []),
                        f"--seed {args.seed}"])
    jobs = [Job(genre.name, rows, cols, target, str(args.seed), k, settings, args.arrows, command)
            for k in range(1, args.count + 1)]
    out = Path(args.output) if args.output else None
    # URLs and IDs are one line each, so several go to one file; several YAML puzzles need a folder
    to_dir = out is not None and (out.is_dir() or str(args.output).endswith("/")
                                  or (args.count > 1 and fmt == "yaml"))
    if to_dir:
        out.mkdir(parents=True, exist_ok=True)
    return _report(args, jobs, fmt, out, to_dir)


def _rows(jobs: list[Job], workers: int):
    if workers <= 1 or len(jobs) == 1:
        yield from map(make_one, jobs)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with multiprocessing.get_context(method).Pool(min(workers, len(jobs))) as pool:
        yield from pool.imap(make_one, jobs)


def _report(args: argparse.Namespace, jobs: list[Job], fmt: str, out: Path | None, to_dir: bool) -> int:
    from tqdm import tqdm
    t0 = time.perf_counter()
    show = sys.stderr.isatty() and not args.json and not args.no_progress
    made = failed = 0
    texts: list[str] = []
    bar = tqdm(total=len(jobs), desc="generating", unit=" puzzles", file=sys.stderr, disable=not show,
               dynamic_ncols=True, leave=False)
    try:
        for row in _rows(jobs, args.workers):
            bar.update(1)
            if row["status"] != "made":
                failed += 1
                print(f"puzzle {row['index']}: {row['error']}", file=sys.stderr, flush=True)
                if args.json:
                    print(json.dumps(row), flush=True)
                continue
            made += 1
            text = row["yaml"] if fmt == "yaml" else row[fmt]
            if text is None:
                failed += 1
                print(f"puzzle {row['index']}: cannot be written as {fmt}", file=sys.stderr)
                continue
            text = text if text.endswith("\n") else text + "\n"
            if to_dir:
                path = out / (row["id"] + SUFFIX[fmt])
                path.write_text(text, encoding="utf-8")
                row["path"] = str(path)
            elif out is not None:
                texts.append(text)
            if args.json:
                print(json.dumps(row), flush=True)
            elif out is not None:
                print(f"{row.get('path', out)}: {row['label']}, level {row['level']}, difficulty "
                      f"{row['difficulty']}, {row['clues']} clues, {row['attempts']} attempts, "
                      f"{row['seconds']:.1f} s", flush=True)
            else:
                print(text if fmt != "yaml" or len(jobs) == 1 else f"---\n{text}", end="", flush=True)
    finally:
        bar.close()
    if out is not None and not to_dir and texts:
        out.write_text("".join(texts), encoding="utf-8")
    print(f"made {made} of {counted(len(jobs), 'puzzle')} in {time.perf_counter() - t0:.1f} s"
          + (f", {failed} not found" if failed else ""), file=sys.stderr, flush=True)
    return 0 if not failed else 1
