"""Reports for editors: the solve path of one puzzle, or a summary of a batch of results.

    grader report PUZZLE --format md|html -o FILE
    grader report --corpus RESULTS --format md|html -o FILE
"""
from __future__ import annotations

import argparse
import sys

from ..errors import InputError
from .document import Document


def render(doc: Document, fmt: str) -> str:
    if fmt == "html":
        from .html import render as to_html
        return to_html(doc)
    from .markdown import render as to_markdown
    return to_markdown(doc)


def puzzle_report(spec: str, fmt: str = "md", *, genre: str | None = None, check_unique: bool = True,
                  max_steps: int = 20000, max_seconds: float = 120.0) -> str:
    from ..analysis import analyse
    from ..engine import Budget
    from ..formats import load
    from .solve_path import build
    a = analyse(load(spec, genre), budget=Budget(max_steps, max_seconds), check_unique=check_unique)
    return render(build(a), fmt)


def corpus_report(results: str, fmt: str = "md") -> str:
    from .corpus import build
    from .results import read_rows
    return render(build(read_rows(results), results), fmt)


def run_report(args: argparse.Namespace) -> int:
    if bool(args.puzzle) == bool(args.corpus):
        raise InputError("report", "give either a PUZZLE or --corpus RESULTS")
    if args.format is None:
        args.format = "html" if (args.output or "").lower().endswith((".html", ".htm")) else "md"
    if args.corpus:
        text = corpus_report(args.corpus, args.format)
    else:
        text = puzzle_report(args.puzzle, args.format, genre=args.genre, check_unique=not args.no_unique,
                             max_steps=args.max_steps, max_seconds=args.max_seconds)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            raise InputError(args.output, f"cannot write the report: {exc.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0
