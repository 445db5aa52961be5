"""Batch results: the SQLite file `grader batch --db` writes as it goes, and CSV / JSON lines.

One table row per puzzle, keyed by the puzzle's id, committed as soon as it is graded, so a
killed batch loses nothing and a rerun skips what is there. The file is marked with our
application id; a file that is not ours, or is damaged, is refused and left untouched.
"""
from __future__ import annotations

import csv
import json
import sqlite3
import statistics
from pathlib import Path
from typing import IO, Any, Iterable

from grader.core.errors import InputError

def median_of(values: Iterable[float | None]) -> float | None:
    """The median of the values known (None skipped: rows from before a figure existed), or
    None when there are none."""
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile by nearest rank (0 for no values)."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))] if s else 0.0


SQLITE_MAGIC = b"SQLite format 3\x00"
APPLICATION_ID = 0x47524442          # "GRDB": marks the file as a grader batch
SCHEMA = 2                           # 2: difficulty and effort columns

CREATE = """
CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE results (
    key TEXT PRIMARY KEY, seq INTEGER NOT NULL, genre TEXT, status TEXT NOT NULL,
    level INTEGER, difficulty REAL, effort REAL, seconds REAL, row TEXT NOT NULL);
"""

# Columns of the CSV export, in order; steps per level become L1..L5.
CSV_COLUMNS = ("id", "genre", "status", "level", "difficulty", "effort", "score", "label", "steps", "unique",
               "matches_given_solution", "publisher_label", "seconds",
               "L1", "L2", "L3", "L4", "L5", "techniques", "reason", "error")


class ResultStore:
    """An open results file. Use `ResultStore.open(path, settings)`."""

    def __init__(self, path: Path, conn: sqlite3.Connection):
        self.path, self.conn = path, conn

    @classmethod
    def open(cls, path: str | Path, settings: dict[str, Any] | None = None) -> "ResultStore":
        """Open or create a results file. `settings` (what the grades depend on) must match
        the ones it was made with, so resumed results stay comparable; None reads any."""
        path = Path(path)
        existing = path.exists() and path.stat().st_size > 0
        if existing:
            check_file(path)
        elif settings is None:
            raise InputError(str(path), "no such results file")
        try:
            conn = sqlite3.connect(str(path), isolation_level=None, timeout=30)
            if not existing:   # in one transaction: a kill now leaves no half-made file
                conn.execute("BEGIN")
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA}")
                for statement in CREATE.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                for name, value in (settings or {}).items():
                    conn.execute("INSERT INTO settings VALUES (?, ?)", (name, json.dumps(value)))
                conn.execute("COMMIT")
            conn.execute("PRAGMA journal_mode = WAL")     # commits survive a kill, cheaply
            conn.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error as exc:
            raise InputError(str(path), f"cannot use this results file: {exc}") from None
        store = cls(path, conn)
        if existing and settings is not None:
            store._check_settings(settings)
        return store

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "ResultStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def settings(self) -> dict[str, Any]:
        return {n: json.loads(v) for n, v in self.conn.execute("SELECT name, value FROM settings")}

    def _check_settings(self, wanted: dict[str, Any]) -> None:
        have = self.settings()
        differ = [f"{k} {have.get(k)!r} here, {v!r} now" for k, v in wanted.items() if have.get(k) != v]
        if differ:
            raise InputError(str(self.path), "was graded with other settings (" + "; ".join(differ)
                             + "): rerun with the same options, or give a new --db file")

    def done(self) -> set[str]:
        return {k for (k,) in self.conn.execute("SELECT key FROM results")}

    def add(self, seq: int, row: dict[str, Any]) -> None:
        """Record one puzzle's row at once (its own transaction): a kill loses nothing."""
        self.conn.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                          (row["id"], seq, row.get("genre"), row["status"], row.get("level"),
                           row.get("difficulty"), row.get("effort"), row.get("seconds"),
                           json.dumps(row, ensure_ascii=False)))

    def rows(self) -> list[dict[str, Any]]:
        return [json.loads(r) for (r,) in self.conn.execute("SELECT row FROM results ORDER BY seq, key")]


def check_file(path: Path) -> None:
    """Refuse a file that is not a grader results file, or is damaged, without writing to it."""
    where = str(path)
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError as exc:
        raise InputError(where, f"cannot read it: {exc.strerror}") from None
    if not head.startswith(SQLITE_MAGIC):
        raise InputError(where, "is not an SQLite file, so not a grader results file; "
                         "it was left untouched: give a new --db file")
    try:
        # a batch writing it holds its lock for a moment: wait for that as the writer does
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
        try:
            app = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = sorted(n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'"))
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise InputError(where, f"is a damaged SQLite file ({exc}); it was left untouched") from None
    if app != APPLICATION_ID or not {"settings", "results"} <= set(tables):
        listed = ", ".join(tables) or "none"
        raise InputError(where, f"is an SQLite file of another program (tables: {listed}); "
                         "it was left untouched: give a new --db file")
    if check != "ok":
        raise InputError(where, f"is a damaged SQLite file ({check}); it was left untouched")
    if version != SCHEMA:
        raise InputError(where, f"has results format {version}; this grader reads format {SCHEMA}")


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """Rows from a results file: our SQLite file or JSON lines (`grader batch` output)."""
    p = Path(path)
    if not p.is_file():
        raise InputError(str(p), "no such results file")
    try:
        head = p.read_bytes()[:16]
    except OSError as exc:
        raise InputError(str(p), f"cannot read it: {exc.strerror}") from None
    if head.startswith(SQLITE_MAGIC):
        with ResultStore.open(p) as store:
            return store.rows()
    rows = []
    for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(str(p), f"not a JSON line ({exc.msg})", line=n, column=exc.colno) from None
        if not isinstance(row, dict) or "id" not in row or "status" not in row:
            raise InputError(str(p), "not a batch row (needs at least id and status)", line=n)
        rows.append(row)
    return rows


def open_output(path: str | Path, newline: str | None = None) -> IO[str]:
    """A file to write results to, or one clear error naming it."""
    try:
        return open(path, "w", encoding="utf-8", newline=newline)
    except OSError as exc:
        raise InputError(str(path), f"cannot write it: {exc.strerror}") from None


def write_jsonl(rows: Iterable[dict[str, Any]], path: str | Path) -> None:
    with open_output(path) as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def csv_record(row: dict[str, Any]) -> dict[str, Any]:
    """A flat CSV record: steps per level as columns, techniques as 'id:count' pairs."""
    out = {k: row.get(k) for k in CSV_COLUMNS if k in row}
    for level, count in (row.get("steps_per_level") or {}).items():
        out[f"L{level}"] = count
    if row.get("techniques"):
        out["techniques"] = " ".join(f"{k}:{v}" for k, v in sorted(row["techniques"].items()))
    return out


def write_csv(rows: Iterable[dict[str, Any]], path: str | Path) -> None:
    with open_output(path, newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_COLUMNS, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow(csv_record(row))
