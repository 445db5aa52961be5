"""Check our grades against a publisher's labels, and fit a scale from ours to theirs.

    grader validate LABELS.jsonl [--field difficulty] [--labels a,b,c] [--genre G] [--json]
    grader calibrate LABELS.jsonl -o house.yaml [--field difficulty]

A labels file has one JSON object a line: {"puzzle": path|URL|game ID, "label": ..., "genre"?,
"size"?, "id"?}, or {"board": [[...]], ...} for a grid given inline (a Hitori board of
numbers, say), read as the genre's native puzzle. A first line {"labels": [...]} gives the
label order, easiest first (else --labels). Paths are looked for beside the labels file, then
in its parent folder. Every puzzle is graded as `grader batch` grades (worker processes, a time
limit per puzzle); puzzles that are not solved are counted and listed, and left out of the
figures.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from pathlib import Path
from typing import Any, Sequence

import attrs

from grader.core.errors import InputError, one_line
from grader.app.report.results import median_of
from grader.core.analysis import puzzle_size
from grader.app.scale import Scale, fit_cuts, is_number, numeric_fields

FIELDS = ("difficulty", "effort", "level", "score", "steps")   # the grade's figures to compare
WORST = 5
LISTED = 20                              # not-graded puzzles named in the text output


# --- statistics -------------------------------------------------------------------------

def average_ranks(xs: Sequence[float]) -> list[float]:
    """Ranks 1..n, ties sharing the average of the ranks they span."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rho: Pearson's correlation of the average ranks. None when it is undefined
    (fewer than two values, or either side all equal)."""
    if len(xs) != len(ys):
        raise ValueError("xs and ys differ in length")
    n = len(xs)
    if n < 2:
        return None
    rx, ry = average_ranks(xs), average_ranks(ys)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def concordance(values: Sequence[float], ranks: Sequence[int]) -> float | None:
    """The chance that of two puzzles with different labels the harder-labelled one rates
    higher; a tie in the value counts half. None when every puzzle has the same label."""
    pairs = wins = 0.0
    for i in range(len(values)):
        for j in range(len(values)):
            if ranks[i] < ranks[j]:
                pairs += 1
                wins += 1.0 if values[j] > values[i] else 0.5 if values[j] == values[i] else 0.0
    return wins / pairs if pairs else None


@attrs.frozen
class Item:
    """One graded, labelled puzzle."""
    id: str
    rank: int
    value: float
    size: str


def worst_inversions(items: Sequence[Item], count: int = WORST) -> list[tuple[Item, Item]]:
    """Pairs (easier-labelled, harder-labelled) that rate the other way round, the labels
    furthest apart first, then the widest gap in the value. Pairs of puzzles not named yet come
    first, so that one odd puzzle does not fill the list; the rest of it is the next worst."""
    pairs = sorted(((b.rank - a.rank, a.value - b.value, i, j)
                    for i, a in enumerate(items) for j, b in enumerate(items)
                    if a.rank < b.rank and a.value > b.value),
                   key=lambda p: (-p[0], -p[1], p[2], p[3]))
    out: list[tuple[Item, Item]] = []
    used: set[int] = set()
    taken: set[int] = set()
    for k, (_, _, i, j) in enumerate(pairs):
        if len(out) == count:
            break
        if i not in used and j not in used:
            out.append((items[i], items[j]))
            used |= {i, j}
            taken.add(k)
    for k, (_, _, i, j) in enumerate(pairs):
        if len(out) >= count:
            break
        if k not in taken:
            out.append((items[i], items[j]))
    return out


# --- the labels file --------------------------------------------------------------------

@attrs.frozen
class Entry:
    line: int
    key: str
    label: str | None            # None: the puzzle's own label (its file's difficulty)
    size: str | None
    puzzle: Any = None           # the Puzzle, or None when it could not be read
    error: str | None = None


def split_labels(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def genre_of_name(path: Path) -> str | None:
    """A genre named by the labels file's name: hitori-menneske.jsonl is Hitori."""
    from grader.genres import get
    for word in re.split(r"[^A-Za-z0-9]+", path.stem):
        if word and get(word) is not None:
            return get(word).name
    return None


def resolve(spec: str, folder: Path) -> str:
    """A puzzle path beside the labels file, else in its parent; a URL or game ID as given."""
    from grader.io.read import path_kind
    base, hash_, rest = spec.partition("#")
    if not Path(base).is_absolute():
        for where in (folder, folder.parent):
            if path_kind(where / base) == "file":
                return str(where / base) + hash_ + rest
    return spec


def board_puzzle(board: Any, genre: str, key: str, origin: str) -> Any:
    """A grid given inline (rows of numbers or strings) as the genre's native puzzle."""
    from grader.io.native import dump, load_native
    if not (isinstance(board, list) and board and all(isinstance(r, list) and r for r in board)):
        raise InputError(origin, "'board' must be a list of rows, each a list of cells", part="board")

    def token(x: Any) -> str:
        if x is None or (isinstance(x, str) and not x.strip()):
            return "."
        if isinstance(x, bool) or not isinstance(x, (int, str)):
            raise InputError(origin, f"a board cell must be a number or a short text, not {x!r}",
                             part="board")
        return str(x).strip()
    grid = "\n".join(" ".join(token(x) for x in row) for row in board) + "\n"
    return load_native(dump({"genre": genre, "id": key, "grid": grid}), origin)


def read_labels(path: str, labels: str | None, genre: str | None) -> tuple[list[str], list[Entry]]:
    """The label order and every line's puzzle (loaded, or why not). A file that cannot be read,
    a line that is not a JSON object, an unknown label or no label order: InputError."""
    from grader.io.read import load, path_kind
    from grader.io.native import genre_named
    from grader.core.errors import Source
    p = Path(path)
    if path_kind(p) != "file":
        raise InputError(path, "no such labels file" if path_kind(p) is None else "is not a file")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(path, f"cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    order = split_labels(labels) if labels is not None else None
    if labels is not None and not order:
        raise InputError("--labels", "give the labels easiest first, separated by commas")
    file_genre = genre or genre_of_name(p)
    if genre:
        genre_named(genre, Source("--genre"))
    records: list[tuple[int, dict[str, Any]]] = []
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            rec = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InputError(path, f"not a JSON line: {exc.msg}", n) from None
        if not isinstance(rec, dict):
            raise InputError(path, "each line must be a JSON object", n)
        if not records and "labels" in rec and "puzzle" not in rec and "board" not in rec:
            if not (isinstance(rec["labels"], list) and rec["labels"]
                    and all(isinstance(x, str) and x.strip() for x in rec["labels"])):
                raise InputError(path, "'labels' must be a list of labels, easiest first", n)
            if order is None:
                order = [x.strip() for x in rec["labels"]]
            continue
        records.append((n, rec))
    if order is None:
        raise InputError(path, 'no label order: give --labels easiest,...,hardest or a first line '
                         '{"labels": ["easiest", ..., "hardest"]}')
    if len({x.casefold() for x in order}) != len(order):
        raise InputError("--labels" if labels is not None else path, "a label is named twice")
    if not records:
        raise InputError(path, "holds no puzzles")
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    folder = p.resolve().parent
    for n, rec in records:
        origin = f"{path}:{n}"
        if ("puzzle" in rec) == ("board" in rec):
            raise InputError(path, "each line needs a 'puzzle' (a path, URL or game ID) or a 'board'", n)
        label = rec.get("label")
        if label is not None and not isinstance(label, (str, int)):
            raise InputError(path, "'label' must be a text", n)
        size = rec.get("size")
        line_genre = rec.get("genre") or file_genre
        base = str(rec.get("id") or (rec["puzzle"] if "puzzle" in rec else f"line {n}"))
        seen[base] = seen.get(base, 0) + 1
        key = base if seen[base] == 1 else f"{base} ({seen[base]})"
        try:
            if "board" in rec:
                if not line_genre:
                    raise InputError(path, "a board needs its genre: a 'genre' in the line, "
                                     "--genre, or a genre in the file's name", n)
                genre_named(line_genre, Source(path), part="genre", line=n)
                puzzle = board_puzzle(rec["board"], str(line_genre), key, origin)
            else:
                if not isinstance(rec["puzzle"], str):
                    raise InputError(path, "'puzzle' must be a text: a path, URL or game ID", n)
                puzzle = load(resolve(rec["puzzle"], folder), line_genre)
        except InputError as exc:
            if exc.origin == path:      # the line itself is malformed: the whole file is bad input
                raise
            entries.append(Entry(n, key, None if label is None else str(label),
                                 None if size is None else str(size), error=str(exc)))
            continue
        if label is None and not puzzle.meta.label:
            raise InputError(path, "no 'label', and the puzzle has no difficulty label of its own", n)
        entries.append(Entry(n, key, str(label) if label is not None else puzzle.meta.label,
                             str(size) if size is not None else puzzle_size(puzzle), puzzle))
    known = {x.casefold(): i for i, x in enumerate(order)}
    for e in entries:
        if e.label is not None and e.label.strip().casefold() not in known:
            raise InputError(path, f"label '{e.label}' is not one of {', '.join(order)} "
                             "(the label order, easiest first)", e.line)
    return order, entries


# --- grading ----------------------------------------------------------------------------

@attrs.frozen
class Graded:
    labels: list[str]
    entries: list[Entry]
    rows: dict[int, dict[str, Any]]       # entry index -> batch row
    field: str                            # the field the figures use
    asked: str                            # the field asked for
    note: str | None                      # why they differ

    def rank(self, e: Entry) -> int:
        return [x.casefold() for x in self.labels].index((e.label or "").strip().casefold())

    def items(self) -> list[Item]:
        return [Item(e.key, self.rank(e), self.rows[i][self.field], e.size or "?")
                for i, e in enumerate(self.entries) if self._ok(i)]

    def _ok(self, i: int) -> bool:
        row = self.rows.get(i)
        return row is not None and row.get("status") == "solved" and is_number(row.get(self.field))

    def failures(self) -> list[dict[str, Any]]:
        out = []
        for i, e in enumerate(self.entries):
            if self._ok(i):
                continue
            row = self.rows.get(i) or {}
            status = "unreadable" if e.puzzle is None else row.get("status", "error")
            why = e.error or row.get("error") or row.get("reason") or (
                f"no '{self.field}' in the grade" if status == "solved" else status)
            if row.get("unique") is False:
                why = f"not one solution; {why}"
            out.append({"id": e.key, "line": e.line, "label": e.label, "status": status, "why": why})
        return out


def grade_labelled(args: argparse.Namespace) -> Graded:
    """Read the labels file and grade every puzzle in worker processes, as batch does."""
    from grader.app.batch import Job, Settings, default_time_limit, grade_job, run_local
    from grader.app.progress import Progress
    if args.field not in FIELDS:      # said before any grading, not after it
        raise InputError("--field", f"the grade has no '{args.field}' (it has: {', '.join(FIELDS)})")
    labels, entries = read_labels(args.labels_file, args.labels, args.genre)
    settings = Settings(args.genre, args.max_steps, args.max_seconds, not args.no_unique)
    jobs = [Job(i, e.key, e.puzzle, e.error) for i, e in enumerate(entries)]
    todo = [j for j in jobs if j.puzzle is not None]
    rows: dict[int, dict[str, Any]] = {}
    progress = Progress(len(todo), sys.stderr.isatty() and not args.no_progress)

    def on_row(job: Any, row: dict[str, Any]) -> None:
        rows[job.seq] = row
        progress.update(row)
    try:
        if todo:
            run_local(todo, settings, args.workers or os.cpu_count() or 1,
                      args.time_limit or default_time_limit(args.max_seconds), on_row)
    finally:
        progress.finish()
    progress.report()
    for j in jobs:
        if j.puzzle is None:
            rows[j.seq] = grade_job(j, settings)
    field, note = choose_field(args.field, [r for r in rows.values() if r.get("status") == "solved"])
    return Graded(labels, entries, rows, field, args.field, note)


def choose_field(field: str, solved: list[dict[str, Any]]) -> tuple[str, str | None]:
    """The field asked for (one of FIELDS), checked to be a number in the rows."""
    if solved and not any(is_number(r.get(field)) for r in solved):
        raise InputError("--field", f"'{field}' is not a number in the grade (numbers: "
                         f"{', '.join(numeric_fields(solved[0]))})")
    return field, None


# --- the figures ------------------------------------------------------------------------

def group_figures(name: str, items: list[Item], labels: list[str]) -> dict[str, Any]:
    values, ranks = [i.value for i in items], [i.rank for i in items]
    rho, conc = spearman(values, ranks), concordance(values, ranks)
    return {
        "set": name, "count": len(items),
        "rho": None if rho is None else round(rho, 4),
        "concordance": None if conc is None else round(conc, 4),
        "labels": {lab: {"count": sum(i.rank == k for i in items),
                         "median": median_of(i.value for i in items if i.rank == k)}
                   for k, lab in enumerate(labels)},
        "worst_inversions": [{"easier": {"id": a.id, "label": labels[a.rank], "value": a.value},
                              "harder": {"id": b.id, "label": labels[b.rank], "value": b.value}}
                             for a, b in worst_inversions(items)],
    }


def size_order(size: str) -> tuple[int, int, str]:
    m = re.fullmatch(r"(\d+)x(\d+)", size)
    return (int(m.group(1)) * int(m.group(2)), int(m.group(1)), size) if m else (10**9, 0, size)


def figures(g: Graded, name: str) -> dict[str, Any]:
    items = g.items()
    sizes = sorted({i.size for i in items}, key=size_order)
    groups = [group_figures(Path(name).name, items, g.labels)]
    groups += [group_figures(s, [i for i in items if i.size == s], g.labels) for s in sizes]
    fails = g.failures()
    return {"labels_file": name, "field": g.field, "field_asked": g.asked, "note": g.note,
            "labels": g.labels, "puzzles": len(g.entries), "graded": len(items),
            "not_graded": len(fails), "groups": groups, "failures": fails}


def _num(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.3f}".rstrip("0").rstrip(".") if not x.is_integer() else str(int(x))
    return str(x)


def render_text(data: dict[str, Any]) -> str:
    from tabulate import tabulate
    labels = data["labels"]
    out = [f"{data['labels_file']}: {data['puzzles']} puzzles, {data['graded']} graded and solved, "
           f"{data['not_graded']} not; field '{data['field']}'; labels easiest first: {' < '.join(labels)}"]
    if data["note"]:
        out.append(f"note: {data['note']}")
    rows = []
    for grp in data["groups"]:
        rows.append([grp["set"], grp["count"], _num(grp["rho"]), _num(grp["concordance"])]
                    + [f"{_num(grp['labels'][lab]['median'])} ({grp['labels'][lab]['count']})"
                       for lab in labels])
    out += ["", f"median {data['field']} per label (puzzles):",
            tabulate(rows, headers=["set", "puzzles", "rho", "concordance"] + labels,
                     disable_numparse=True)]
    for grp in data["groups"]:
        if not grp["worst_inversions"] or (grp is not data["groups"][0]
                                           and grp["count"] == data["groups"][0]["count"]):
            continue        # (a board size that is the whole set has the same inversions)
        out += ["", f"worst inversions ({grp['set']}): labelled easier but rated higher",
                tabulate([[w["easier"]["id"], w["easier"]["label"], _num(w["easier"]["value"]),
                           w["harder"]["id"], w["harder"]["label"], _num(w["harder"]["value"])]
                          for w in grp["worst_inversions"]],
                         headers=["easier", "label", data["field"], "harder", "label", data["field"]],
                         disable_numparse=True)]
    if data["failures"]:
        fails = data["failures"]
        out += ["", f"not graded or not solved ({len(fails)}), left out of the figures:",
                tabulate([[f["id"], f["label"] or "", f["status"], one_line(f["why"], 100)]
                          for f in fails[:LISTED]], headers=["puzzle", "label", "status", "why"])]
        if len(fails) > LISTED:
            out.append(f"... and {len(fails) - LISTED} more (--json lists them all)")
    return "\n".join(out)


def run_validate(args: argparse.Namespace) -> int:
    """Exit 0 with the figures, 1 when not one puzzle could be graded, 2 for bad input."""
    g = grade_labelled(args)
    data = figures(g, args.labels_file)
    print(json.dumps(data, ensure_ascii=False) if args.json else render_text(data))
    return 0 if data["graded"] else 1


# --- calibrate --------------------------------------------------------------------------

def run_calibrate(args: argparse.Namespace) -> int:
    """Fit the cuts on every solved puzzle and write the scale file."""
    import datetime
    g = grade_labelled(args)
    items = g.items()
    if not items:
        raise InputError(args.labels_file, "not one puzzle was graded and solved: nothing to fit")
    fit = fit_cuts([i.value for i in items], [i.rank for i in items], len(g.labels))
    fitted_on = (f"{Path(args.labels_file).name} ({len(items)} puzzles graded, "
                 f"{datetime.date.today().isoformat()})")
    scale = Scale(g.field, tuple(g.labels), fit.cuts, fitted_on, fit.agreement, args.output)
    try:
        Path(args.output).write_text(scale.to_yaml(), encoding="utf-8")
    except OSError as exc:
        raise InputError(args.output, f"cannot write the scale: {exc.strerror or exc}") from None
    fails = g.failures()
    data = {"output": args.output, "field": g.field, "field_asked": g.asked, "note": g.note,
            "labels": g.labels, "cuts": list(fit.cuts), "agreement": round(fit.agreement, 4),
            "matched": fit.matched, "fitted_on": len(items), "not_graded": len(fails), "failures": fails}
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    from tabulate import tabulate
    bounds = [None, *fit.cuts, None]
    rows = [[lab, "" if bounds[k] is None else f">= {_num(bounds[k])}",
             "" if bounds[k + 1] is None else f"< {_num(bounds[k + 1])}",
             sum(i.rank == k for i in items),
             sum(i.rank == k and scale.label_for(i.value) == lab for i in items)]
            for k, lab in enumerate(g.labels)]
    lines = [f"{args.output}: {g.field} cut into {len(g.labels)} labels; reproduces {fit.matched} of "
             f"{len(items)} labels ({fit.agreement:.0%})"]
    if g.note:
        lines.append(f"note: {g.note}")
    lines += [tabulate(rows, headers=["label", g.field, "", "puzzles", "reproduced"], disable_numparse=True)]
    if fails:
        lines.append(f"{len(fails)} puzzle{'s' if len(fails) != 1 else ''} not graded or not solved "
                     "left out (grader validate lists them)")
    print("\n".join(lines))
    return 0
