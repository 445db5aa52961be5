"""Grade many puzzles: one JSON line per puzzle, errors as rows, the batch goes on."""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Iterator

from .engine import Budget
from .errors import InputError
from .formats import iter_puzzles


def grade_rows(spec: str, *, genre: str | None = None, budget: Budget = Budget(),
               check_unique: bool = True, limit: int | None = None) -> Iterator[dict[str, Any]]:
    from .analysis import analyse
    for n, (pid, item) in enumerate(iter_puzzles(spec, genre)):
        if limit is not None and n >= limit:
            return
        if isinstance(item, InputError):
            yield {"id": pid, "genre": None, "status": "error", "error": str(item)}
            continue
        t0 = time.perf_counter()
        try:
            yield analyse(item, id=pid, budget=budget, check_unique=check_unique).row()
        except Exception as exc:  # one broken puzzle must not stop the batch
            yield {"id": pid, "genre": item.genre, "status": "error",
                   "error": f"{type(exc).__name__}: {exc}", "seconds": round(time.perf_counter() - t0, 3)}


def run_batch(args: argparse.Namespace) -> int:
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    try:
        for row in grade_rows(args.input, genre=args.genre,
                              budget=Budget(max_steps=args.max_steps, max_seconds=args.max_seconds),
                              check_unique=not args.no_unique, limit=args.limit):
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            out.flush()
    finally:
        if out is not sys.stdout:
            out.close()
    return 0
