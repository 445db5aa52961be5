"""A publisher's label scale: cut points of one grade field (score, difficulty, ...) that map
our figure onto the publisher's own labels (`grader calibrate` fits them, `--scale` uses them).

A scale file is YAML:

    field: difficulty            # a key of the grade's JSON
    labels: [Easy, Normal, Hard] # easiest first
    cuts: [2.5, 4.0]             # non-decreasing; a value v gets labels[number of cuts <= v]
    fitted_on: labels.jsonl (23 puzzles graded, 2026-11-26)
    agreement: 0.74              # the share of those puzzles whose label the cuts reproduce
"""
from __future__ import annotations

import bisect
import math
from pathlib import Path
from typing import Any, Sequence

import attrs
import yaml

from grader.core.errors import InputError


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and not (
        isinstance(value, float) and math.isnan(value))


@attrs.frozen
class Scale:
    field: str
    labels: tuple[str, ...]
    cuts: tuple[float, ...]
    fitted_on: str | None = None
    agreement: float | None = None
    origin: str = ""

    def label_for(self, value: Any) -> str | None:
        """The publisher's label of a value of the field (None when there is no number)."""
        if not is_number(value):
            return None
        return self.labels[bisect.bisect_right(self.cuts, value)]

    def house_label(self, row: dict[str, Any]) -> str | None:
        """The label of a graded puzzle's row (a batch row or `grade --json`); None when the
        puzzle was not solved, since a partial path's figure says nothing of its difficulty.
        A solved row without the field is an error: the scale was fitted on another grader."""
        if row.get("status") != "solved":
            return None
        if self.field not in row:
            raise InputError(self.origin, f"the grade has no '{self.field}', the field this scale "
                             f"cuts (the grade has: {', '.join(numeric_fields(row))})")
        return self.label_for(row[self.field])

    def to_yaml(self) -> str:
        doc: dict[str, Any] = {"field": self.field, "labels": list(self.labels),
                               "cuts": [_plain(c) for c in self.cuts]}
        if self.fitted_on is not None:
            doc["fitted_on"] = self.fitted_on
        if self.agreement is not None:
            doc["agreement"] = round(self.agreement, 4)
        return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=1000)


def numeric_fields(row: dict[str, Any]) -> list[str]:
    return [k for k, v in row.items() if is_number(v) and k not in ("seconds",)]


def _plain(x: float) -> int | float:
    return int(x) if isinstance(x, float) and x.is_integer() else x


def load_scale(path: str) -> Scale:
    """Read and check a scale file; anything wrong is one InputError naming the file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(path, f"cannot read the scale file: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(path, "the scale file is not UTF-8 text") from None
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise InputError(path, f"not valid YAML: {getattr(exc, 'problem', None) or exc}",
                         mark.line + 1 if mark else None) from None
    if not isinstance(doc, dict):
        raise InputError(path, "a scale file is a YAML mapping with field, labels and cuts")
    for key in ("field", "labels", "cuts"):
        if key not in doc:
            raise InputError(path, f"missing '{key}' (a scale file has field, labels and cuts)")
    field, labels, cuts = doc["field"], doc["labels"], doc["cuts"]
    if not isinstance(field, str) or not field:
        raise InputError(path, "'field' must name a key of the grade, such as difficulty or score")
    if not isinstance(labels, list) or len(labels) < 2 or not all(
            isinstance(x, (str, int)) and str(x).strip() for x in labels):
        raise InputError(path, "'labels' must be a list of at least two labels, easiest first")
    labels = [str(x) for x in labels]
    if len(set(labels)) != len(labels):
        raise InputError(path, "'labels' names a label twice")
    if not isinstance(cuts, list) or not all(is_number(c) for c in cuts):
        raise InputError(path, "'cuts' must be a list of numbers")
    if len(cuts) != len(labels) - 1:
        raise InputError(path, f"{len(labels)} labels need {len(labels) - 1} cuts, not {len(cuts)}")
    if any(b < a for a, b in zip(cuts, cuts[1:])):
        raise InputError(path, f"'cuts' must not decrease: {cuts}")
    agreement = doc.get("agreement")
    return Scale(field, tuple(labels), tuple(cuts),
                 None if doc.get("fitted_on") is None else str(doc["fitted_on"]),
                 agreement if is_number(agreement) else None, path)


# --- fitting ----------------------------------------------------------------------------

@attrs.frozen
class Fit:
    cuts: tuple[float, ...]
    matched: int                 # puzzles whose label the cuts reproduce
    total: int

    @property
    def agreement(self) -> float:
        return self.matched / self.total if self.total else 0.0


def fit_cuts(values: Sequence[float], ranks: Sequence[int], k: int) -> Fit:
    """k-1 non-decreasing cut points that reproduce the most labels (ranks 0..k-1, easiest 0).

    Equal values must get the same label, so the values are grouped; a dynamic programme over
    the groups in increasing order gives each group a label, never lower than the previous
    group's, maximising the matches: best[g][j] = hits(g, j) + max over j' <= j of best[g-1][j'].
    A cut lies halfway between the last group below it and the first at or above it."""
    if len(values) != len(ranks):
        raise ValueError("values and ranks differ in length")
    if k < 1:
        raise ValueError("no labels")
    if not values:
        return Fit(tuple(0.0 for _ in range(k - 1)), 0, 0)
    groups: dict[float, list[int]] = {}
    for v, r in zip(values, ranks):
        groups.setdefault(v, [0] * k)[r] += 1
    keys = sorted(groups)
    best: list[list[int]] = []
    came: list[list[int]] = []            # the label of the previous group on the best path
    for g, v in enumerate(keys):
        hits = groups[v]
        row, back = [], []
        run_best, run_arg = -1, 0
        for j in range(k):
            if g:
                if best[g - 1][j] > run_best:     # the lowest label among equals
                    run_best, run_arg = best[g - 1][j], j
            row.append(hits[j] + (run_best if g else 0))
            back.append(run_arg)
        best.append(row)
        came.append(back)
    j = max(range(k), key=lambda x: (best[-1][x], -x))
    matched = best[-1][j]
    assigned = [0] * len(keys)
    for g in range(len(keys) - 1, -1, -1):
        assigned[g] = j
        j = came[g][j]
    cuts = []
    for j in range(1, k):
        above = [g for g in range(len(keys)) if assigned[g] >= j]
        if not above:                          # no value gets label j: above every value seen
            cuts.append(float(math.floor(keys[-1]) + 1))
        elif above[0] == 0:                    # every value does: the smallest one
            cuts.append(float(keys[0]))
        else:
            lo, hi = keys[above[0] - 1], keys[above[0]]
            mid = (lo + hi) / 2
            rounded = round(mid, 6)
            cuts.append(float(rounded if lo < rounded <= hi else mid))
    return Fit(tuple(cuts), matched, len(values))


def reproduced(cuts: Sequence[float], values: Sequence[float], ranks: Sequence[int]) -> int:
    """How many of the labels the cuts give back (what fit_cuts maximises)."""
    return sum(bisect.bisect_right(cuts, v) == r for v, r in zip(values, ranks))
