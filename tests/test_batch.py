"""grader batch at scale: worker processes, SQLite results, resume, time limits, crashes,
exports, bad input and damaged results files."""
from __future__ import annotations

import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.core import analysis
from grader.app.batch import Settings, list_jobs, run_local
from grader.app.progress import Progress
from grader.app.cli import main
from grader.app.report.results import ResultStore, read_rows

from support import CORPUS, ROOT

AKARI = CORPUS / "akari"


def small_folder(tmp_path: Path, count: int = 6) -> Path:
    """A folder of the project's smallest Akari puzzles (7x7)."""
    folder = tmp_path / "puzzles"
    folder.mkdir(exist_ok=True)
    for f in sorted(AKARI.glob("lightup-7x7*.yaml"))[:count]:
        shutil.copy(f, folder / f.name)
    return folder


def stable(rows: list[dict]) -> list[dict]:
    """Rows without their timings, for comparing runs."""
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def batch(*args: str) -> int:
    return main(["batch", *args, "--no-progress"])


def test_rows_come_in_input_order_from_several_workers(tmp_path, capsys):
    folder = small_folder(tmp_path)
    assert batch(str(folder), "--workers", "2", "--no-unique") == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["id"] for r in rows] == [str(f) for f in sorted(folder.iterdir())]
    assert all(r["status"] == "solved" and r["matches_given_solution"] for r in rows)
    assert all("techniques" in r and "steps_per_level" in r for r in rows)


def test_db_then_rerun_grades_nothing_twice(tmp_path):
    folder, db = small_folder(tmp_path), tmp_path / "results.sqlite"
    first = tmp_path / "first.jsonl"
    assert batch(str(folder), "--db", str(db), "-o", str(first), "--workers", "2") == 0
    assert len(first.read_text().splitlines()) == 6
    again = tmp_path / "again.jsonl"
    assert batch(str(folder), "--db", str(db), "-o", str(again), "--workers", "2") == 0
    assert again.read_text() == ""                       # nothing graded the second time
    rows = read_rows(db)
    assert len(rows) == 6 and len({r["id"] for r in rows}) == 6


def test_resume_grades_only_the_missing_puzzles(tmp_path):
    folder, db = small_folder(tmp_path), tmp_path / "results.sqlite"
    assert batch(str(folder), "--db", str(db), "--limit", "2", "--workers", "1") == 0
    assert len(read_rows(db)) == 2
    rest = tmp_path / "rest.jsonl"
    assert batch(str(folder), "--db", str(db), "-o", str(rest), "--workers", "2") == 0
    graded = [json.loads(line)["id"] for line in rest.read_text().splitlines()]
    assert graded == [str(f) for f in sorted(folder.iterdir())][2:]
    assert len(read_rows(db)) == 6


KILLABLE = """
import sys, time
from grader.core import analysis
real = analysis.analyse
def slow(*a, **k):
    time.sleep(0.25)
    return real(*a, **k)
analysis.analyse = slow
from grader.app.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_sigkill_partway_then_resume_equals_an_uninterrupted_run(tmp_path):
    folder = small_folder(tmp_path, 6)
    for f in sorted(AKARI.glob("lightup-10x10*.yaml")):
        shutil.copy(f, folder / f.name)                  # 12 puzzles in all
    script = tmp_path / "slow_grader.py"
    script.write_text(KILLABLE)
    db, whole = tmp_path / "killed.sqlite", tmp_path / "whole.sqlite"
    cmd = [sys.executable, str(script), "batch", str(folder), "--db", str(db), "--workers", "2",
           "--no-progress", "--no-unique"]
    proc = subprocess.Popen(cmd, cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    done = 0
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
        if db.exists():
            try:
                with sqlite3.connect(db) as c:
                    done = c.execute("SELECT count(*) FROM results").fetchone()[0]
            except sqlite3.Error:
                continue
            if done >= 4:
                break
    assert proc.poll() is None, "the batch ended before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)                 # the batch and its workers, at once
    proc.wait()
    at_kill = {r["id"] for r in read_rows(db)}
    assert 4 <= len(at_kill) < 12
    rest = tmp_path / "rest.jsonl"
    resumed = subprocess.run(cmd + ["-o", str(rest)], cwd=ROOT, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    graded = [json.loads(line)["id"] for line in rest.read_text().splitlines()]
    assert len(graded) == 12 - len(at_kill) and not set(graded) & at_kill      # nothing twice
    assert batch(str(folder), "--db", str(whole), "--workers", "2", "--no-unique") == 0
    assert stable(read_rows(db)) == stable(read_rows(whole))                  # nothing lost
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT count(*), count(DISTINCT key) FROM results").fetchone() == (12, 12)


STALLS = """
import os, sys, time
from grader.core import analysis
real = analysis.analyse
def stall(puzzle, **kw):
    if puzzle.meta.origin.endswith(os.environ["STALL_ON"]):
        time.sleep(600)
    return real(puzzle, **kw)
analysis.analyse = stall
from grader.app.cli import main
sys.exit(main(sys.argv[1:]))
"""


def children(pid: int) -> set[int]:
    """The live child processes of `pid` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the workers")
def test_workers_end_when_the_batch_is_killed(tmp_path):
    """kill -9 of the batch alone (not its process group): an idle worker waiting for work and
    a busy one must both end by themselves, not wait forever."""
    folder = small_folder(tmp_path, 2)
    stalled = sorted(folder.iterdir())[1].name
    script = tmp_path / "stalling_grader.py"
    script.write_text(STALLS)
    db = tmp_path / "r.sqlite"
    proc = subprocess.Popen([sys.executable, str(script), "batch", str(folder), "--db", str(db),
                             "--workers", "2", "--no-progress", "--no-unique"],
                            cwd=ROOT, env={**os.environ, "STALL_ON": stalled},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            workers |= children(proc.pid)
            if len(workers) == 2 and db.exists() and len(read_rows(db)) == 1:
                break                                    # one worker idle, one stalled
            time.sleep(0.1)
        assert proc.poll() is None and len(workers) == 2 and len(read_rows(db)) == 1
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(alive(w) for w in workers):
            time.sleep(0.1)
        assert not any(alive(w) for w in workers), "a worker outlived the killed batch"
    finally:
        proc.kill()
        for w in workers:
            if alive(w):
                os.kill(w, signal.SIGKILL)


def test_sigterm_stops_the_workers_and_keeps_the_rows(tmp_path):
    folder = small_folder(tmp_path, 2)
    script = tmp_path / "stalling_grader.py"
    script.write_text(STALLS)
    db = tmp_path / "r.sqlite"
    proc = subprocess.Popen([sys.executable, str(script), "batch", str(folder), "--db", str(db),
                             "--workers", "1", "--no-progress", "--no-unique"],
                            cwd=ROOT, env={**os.environ, "STALL_ON": sorted(folder.iterdir())[1].name},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (db.exists() and len(read_rows(db)) == 1):
            time.sleep(0.1)
        proc.terminate()
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 143 and "Traceback" not in err, err
        assert [r["status"] for r in read_rows(db)] == ["solved"]
    finally:
        proc.kill()


def test_time_limit_and_crashes_cost_one_puzzle_each(tmp_path, monkeypatch):
    folder = small_folder(tmp_path, 5)
    names = sorted(f.name for f in folder.iterdir())
    hang, die, boom = names[1], names[2], names[3]
    real = analysis.analyse

    def misbehave(puzzle, **kw):                        # inherited by the forked workers
        name = Path(puzzle.meta.origin).name
        if name == hang:
            time.sleep(60)
        if name == die:
            os.kill(os.getpid(), signal.SIGKILL)
        if name == boom:
            raise RuntimeError("a bug in a technique")
        return real(puzzle, **kw)

    monkeypatch.setattr(analysis, "analyse", misbehave)
    jobs = list_jobs(str(folder))
    rows: dict[str, dict] = {}
    run_local(jobs, Settings(check_unique=False), 2, 1.5, lambda job, row: rows.__setitem__(job.key, row))
    by_name = {Path(k).name: r for k, r in rows.items()}
    assert len(rows) == 5
    assert by_name[hang]["status"] == "timeout" and "1.5 s time limit" in by_name[hang]["error"]
    assert by_name[die]["status"] == "error" and "SIGKILL" in by_name[die]["error"]
    assert by_name[boom]["status"] == "error" and by_name[boom]["error"] == "RuntimeError: a bug in a technique"
    assert by_name[names[0]]["status"] == by_name[names[4]]["status"] == "solved"


def test_a_folder_of_unknown_and_broken_files_gives_error_rows(tmp_path, capsys):
    folder = small_folder(tmp_path, 1)
    (folder / "mystery.txt").write_text("hello, world\n")
    (folder / "records.jsonl").write_text('{"bad json\n')
    (folder / "broken.yaml").write_text("genre: akari\ngrid: |\n  . 9 .\n")
    (folder / "alien.yaml").write_text("genre: sudokuish\ngrid: |\n  1\n")
    (folder / "latin1.yaml").write_bytes(b"genre: akari\ntitle: caf\xe9\n")
    assert batch(str(folder), "--no-unique") == 0
    rows = {Path(r["id"]).name: r for r in map(json.loads, capsys.readouterr().out.splitlines())}
    assert len(rows) == 6
    for name in ("mystery.txt", "records.jsonl:1", "broken.yaml", "alien.yaml", "latin1.yaml"):
        assert rows[name]["status"] == "error" and name.split(":")[0] in rows[name]["error"]
    assert "unknown file type" in rows["mystery.txt"]["error"]
    assert "records.jsonl:1:" in rows["records.jsonl:1"]["error"]
    assert "broken.yaml:3:5" in rows["broken.yaml"]["error"]
    assert "unknown genre 'sudokuish'" in rows["alien.yaml"]["error"]
    assert "UTF-8" in rows["latin1.yaml"]["error"]
    assert sum(r["status"] == "solved" for r in rows.values()) == 1


def test_an_unreadable_file_is_its_own_error_row(tmp_path, capsys, monkeypatch):
    """A file the batch may not read (chmod 000 as another user) costs that file only."""
    import builtins
    import io as io_module
    folder = small_folder(tmp_path, 2)
    shutil.copy(sorted(folder.iterdir())[0], folder / "locked.yaml")
    (folder / "locked.jsonl").write_text('{"file": "/Akari/001.a.htm", "data": {}}\n')
    real_open = builtins.open

    def refuse(file, *args, **kwargs):
        if isinstance(file, (str, Path)) and Path(file).name.startswith("locked."):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io_module, "open", refuse)
    assert batch(str(folder), "--no-unique", "--workers", "1") == 0
    rows = {Path(r["id"]).name: r for r in map(json.loads, capsys.readouterr().out.splitlines())}
    assert sorted(r["status"] for r in rows.values()) == ["error", "error", "solved", "solved"]
    for name, row in rows.items():
        if name.startswith("locked."):
            assert row["status"] == "error" and "Permission denied" in row["error"], row


def test_csv_and_jsonl_exports(tmp_path):
    import csv
    folder, db = small_folder(tmp_path, 3), tmp_path / "r.sqlite"
    out_csv, out_jsonl = tmp_path / "r.csv", tmp_path / "r.jsonl"
    assert batch(str(folder), "--db", str(db), "--csv", str(out_csv), "--jsonl", str(out_jsonl)) == 0
    records = list(csv.DictReader(out_csv.open()))
    assert [r["id"] for r in records] == [str(f) for f in sorted(folder.iterdir())]
    assert records[0]["status"] == "solved" and records[0]["unique"] == "True"
    assert int(records[0]["L1"]) > 0 and "akari." in records[0]["techniques"]
    assert [json.loads(line) for line in out_jsonl.read_text().splitlines()] == read_rows(db)


def assert_refused(tmp_path, db: Path, capsys, words: str) -> None:
    before = db.read_bytes()
    folder = small_folder(tmp_path, 1)
    capsys.readouterr()                                  # what a batch before it said
    assert batch(str(folder), "--db", str(db)) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(db) in err and words in err, err
    assert db.read_bytes() == before                     # nothing overwritten


def test_a_text_file_as_db_is_refused_untouched(tmp_path, capsys):
    db = tmp_path / "notes.sqlite"
    db.write_text("my shopping list\n" * 100)
    assert_refused(tmp_path, db, capsys, "not an SQLite file")


def test_a_foreign_sqlite_file_is_refused_untouched(tmp_path, capsys):
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as c:
        c.execute("CREATE TABLE invoices (n INTEGER)")
        c.execute("INSERT INTO invoices VALUES (1)")
    c.close()
    assert_refused(tmp_path, db, capsys, "another program (tables: invoices)")


def test_a_damaged_results_file_is_refused_untouched(tmp_path, capsys):
    folder, db = small_folder(tmp_path, 3), tmp_path / "r.sqlite"
    assert batch(str(folder), "--db", str(db)) == 0
    with sqlite3.connect(db) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    c.close()
    data = bytearray(db.read_bytes())
    data[1024:4096] = b"\xff" * 3072                    # scribble over the second page
    db.write_bytes(bytes(data))
    assert_refused(tmp_path, db, capsys, "damaged")


def test_other_settings_are_refused(tmp_path, capsys):
    folder, db = small_folder(tmp_path, 1), tmp_path / "r.sqlite"
    assert batch(str(folder), "--db", str(db), "--no-unique") == 0
    assert batch(str(folder), "--db", str(db)) == 2
    assert "other settings (check_unique False here, True now)" in capsys.readouterr().err


def test_results_store_keeps_one_row_per_puzzle(tmp_path):
    with ResultStore.open(tmp_path / "r.sqlite", {"a": 1}) as store:
        store.add(0, {"id": "p1", "status": "stuck"})
        store.add(0, {"id": "p1", "status": "solved"})
        assert store.rows() == [{"id": "p1", "status": "solved"}] and store.done() == {"p1"}


def test_progress_bar_on_a_terminal_only(tmp_path, capsys):
    screen = io.StringIO()
    bar = Progress(4, enabled=True, stream=screen)
    for _ in range(4):
        bar.update({"status": "solved"})
    bar.finish()
    assert "grading:" in screen.getvalue() and "/4 [" in screen.getvalue()
    silent = io.StringIO()
    Progress(4, enabled=False, stream=silent).update({"status": "solved"})
    assert silent.getvalue() == ""
    assert bar.summary().startswith("graded 4 puzzles in ") and bar.summary().endswith(
        ": 4 solved, 0 not solved, 0 failed")
    folder = small_folder(tmp_path, 2)
    assert main(["batch", str(folder), "--no-unique"]) == 0      # stderr is a pipe here: no bar
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 2 and len(err.splitlines()) == 1
    assert err.startswith("graded 2 puzzles in ") and "2 solved, 0 not solved, 0 failed" in err


def test_unusable_paths_are_one_line_errors(tmp_path, capsys):
    folder = small_folder(tmp_path, 1)
    missing = tmp_path / "no" / "such"
    for args, words in (((str(folder), "--db", str(tmp_path)), "cannot read it: Is a directory"),
                        ((str(folder), "--db", str(missing / "r.sqlite")), "cannot use this results file"),
                        ((str(folder), "-o", str(missing / "r.jsonl")), "cannot write it"),
                        ((str(folder), "--csv", str(missing / "r.csv")), "cannot write it")):
        assert batch(*args) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and words in err, err


def test_a_task_past_its_limit_gives_a_timeout_row_without_waiting(tmp_path, monkeypatch):
    from grader.app.batch import grade_job_within
    jobs = list_jobs(str(small_folder(tmp_path, 2)))
    real = analysis.analyse

    def slow_first(puzzle, **kw):
        if puzzle.meta.origin == jobs[0].key:
            time.sleep(3)
        return real(puzzle, **kw)

    monkeypatch.setattr(analysis, "analyse", slow_first)
    t0 = time.monotonic()
    row = grade_job_within(jobs[0], Settings(check_unique=False), 0.3)
    assert time.monotonic() - t0 < 2.5
    assert row["status"] == "timeout" and row["error"] == "took longer than the 0.3 s time limit"
    assert grade_job_within(jobs[1], Settings(check_unique=False), 30)["status"] == "solved"


def test_an_input_that_cannot_be_read_at_all_is_exit_2_and_no_results_file(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    for missing in (tmp_path / "no-such-folder", tmp_path / "no-such.jsonl"):
        assert batch(str(missing), "--db", str(db)) == 2
        err = capsys.readouterr().err
        assert err == f"error: {missing}: no such file\n"
    assert not db.exists()


def test_a_folder_walk_passes_over_label_sets(tmp_path):
    """corpus/labels/*.jsonl name puzzles kept elsewhere, for `grader validate`: not puzzles."""
    from grader.io.read import iter_puzzles
    shutil.copy(CORPUS / "akari" / "lightup-7x7b20s2d0-grader-1.yaml", tmp_path / "a.yaml")
    (tmp_path / "labels.jsonl").write_text('{"labels": ["easy", "hard"]}\n{"puzzle": "a.yaml", "label": "easy"}\n')
    (tmp_path / "bare.jsonl").write_text('{"puzzle": "a.yaml", "label": "easy"}\n')
    assert [Path(name).name for name, _ in iter_puzzles(str(tmp_path))] == ["a.yaml"]
