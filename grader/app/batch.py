"""Grade many puzzles: one row per puzzle, errors as rows, the batch goes on.

Puzzles are graded in worker processes (`--workers N`, default one per core) or on a Dask
cluster (`--scheduler tcp://HOST:PORT`). Rows go to an SQLite file as they come (`--db`):
run the same command again after a kill and it grades only what is missing. Locally each
puzzle has a hard time limit; a worker that hangs or dies costs that puzzle only, recorded as
its row. On Dask, where a task cannot be killed, a puzzle past its limit gets its timeout row
and its thread is left to stop at the solver's own budget; a task that kills its worker is
recorded as that puzzle's error.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import json
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any, Callable, Iterator

import attrs

from grader.core.engine import Budget, collect_less_often
from grader.core.errors import InputError
from grader.io.read import iter_puzzles, load, path_kind
from grader.core.model import Puzzle

Row = dict[str, Any]
CONNECT_SECONDS = 20          # how long to try reaching a Dask scheduler


@attrs.frozen
class Settings:
    """What a grade depends on; a results file keeps them, so a resume grades alike."""
    genre: str | None = None
    max_steps: int = 20000
    max_seconds: float = 60.0
    check_unique: bool = True
    time_exact: bool = False          # the benchmark's yardstick: also time the exact solver alone

    @property
    def budget(self) -> Budget:
        return Budget(max_steps=self.max_steps, max_seconds=self.max_seconds)

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class Job:
    """One puzzle of the batch: its place in the input, its id, and the puzzle or why not."""
    seq: int
    key: str
    puzzle: Puzzle | None = None
    error: str | None = None


def list_jobs(spec: str, genre: str | None = None, limit: int | None = None) -> list[Job]:
    """The puzzles of a folder, a .jsonl file or one puzzle, in input order, ids made unique."""
    jobs: list[Job] = []
    seen: dict[str, int] = {}
    for pid, item in iter_puzzles(spec, genre):
        if limit is not None and len(jobs) >= limit:
            break
        seen[pid] = seen.get(pid, 0) + 1
        key = pid if seen[pid] == 1 else f"{pid} ({seen[pid]})"
        if isinstance(item, InputError):
            jobs.append(Job(len(jobs), key, error=str(item)))
        else:
            jobs.append(Job(len(jobs), key, item))
    return jobs


def grade_job(job: Job, settings: Settings) -> Row:
    """Grade one puzzle; never raises: a failure becomes the puzzle's error row."""
    from grader.core.analysis import analyse
    if job.puzzle is None:
        return {"id": job.key, "genre": None, "status": "error", "error": job.error}
    _load_genre(job.puzzle.genre.name, settings.time_exact)
    t0 = time.perf_counter()
    try:
        row = grade_row(analyse(job.puzzle, id=job.key, budget=settings.budget,
                                check_unique=settings.check_unique))
    except Exception as exc:  # one broken puzzle must not stop the batch
        return failed(job, f"{type(exc).__name__}: {exc}", time.perf_counter() - t0)
    if settings.time_exact:
        from grader.core import exact
        t1 = time.perf_counter()
        result = exact.solve(job.puzzle, seconds=settings.max_seconds)
        row["exact_s"] = round(time.perf_counter() - t1, 4)
        row["exact_verdict"] = result.verdict.value
    return row


@functools.cache
def _load_genre(genre: str, exact_too: bool) -> None:
    """Load a genre's techniques (and its rule file), and clingo when the exact solver is timed
    too, before the first puzzle's clock starts: that is start-up, paid once per process and
    measured on its own (the benchmark's start-up line), not one puzzle's seconds."""
    import gc
    from grader.core.registry import REGISTRY
    REGISTRY.for_genre(genre)
    if exact_too:
        import clingo  # noqa: F401
    # what is loaded now lives as long as the process: kept out of every later collection
    # (on the slowest puzzles of five genres, a third of the collector's time); garbage of the
    # puzzles before (another genre's) is freed first, never frozen
    gc.collect()
    gc.freeze()


def grade_row(a: Any) -> Row:
    """An Analysis as a row: the batch fields, steps per level, and every other key of the
    grade's JSON (so `validate --field` and `--scale` find any figure the grade has)."""
    row = a.row(with_levels=True)
    for key, value in a.grade.to_json().items():
        row.setdefault(key, value)
    return row


def grade_job_within(job: Job, settings: Settings, time_limit: float) -> Row:
    """grade_job, but give up after `time_limit` seconds with a timeout row. For Dask, whose
    tasks cannot be killed: the grading thread is left to end at its own budget."""
    result: list[Row] = []
    t0 = time.perf_counter()
    worker = threading.Thread(target=lambda: result.append(grade_job(job, settings)), daemon=True)
    worker.start()
    worker.join(time_limit)
    return result[0] if result else timed_out(job, time_limit, time.perf_counter() - t0)


def default_time_limit(max_seconds: float) -> float:
    """The exact solver's uniqueness check and the solve each get `max_seconds`; the slack
    covers loading the puzzle and a step that ends a little past its budget. A puzzle killed
    at this limit has a bare timeout row, so it should only catch what truly hangs."""
    return 2 * max_seconds + 30


def timed_out(job: Job, time_limit: float, seconds: float) -> Row:
    return failed(job, f"took longer than the {time_limit:g} s time limit", seconds, status="timeout")


def failed(job: Job, error: str, seconds: float, status: str = "error") -> Row:
    return {"id": job.key, "genre": job.puzzle.genre.name if job.puzzle is not None else None,
            "status": status, "error": error, "seconds": round(seconds, 3)}


# --- worker processes -------------------------------------------------------------------

PARENT_CHECK_SECONDS = 0.5
PR_SET_PDEATHSIG = 1           # Linux prctl option: a signal for when the parent dies


def _die_with_parent(parent: int) -> None:
    """A worker ends when the batch does, even after a kill -9 that runs none of our clean-up:
    else it waits forever on a pipe its forked siblings still hold open. Linux kills it at
    once with a parent-death signal; everywhere, a watcher thread sees it handed to another
    parent (which also covers a parent that died before the signal was set)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def _worker_main(conn: Any, settings: Settings, parent: int) -> None:
    _die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's to handle
    collect_less_often()                            # (a spawned worker starts afresh)
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        try:
            conn.send(grade_job(job, settings))
        except (BrokenPipeError, OSError):     # the batch was killed: nothing to report to
            return


class _Worker:
    def __init__(self, ctx: Any, settings: Settings):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, settings, os.getpid()), daemon=True)
        self.proc.start()
        child.close()
        self.job: Job | None = None
        self.started = 0.0

    def give(self, job: Job) -> None:
        self.conn.send(job)
        self.job, self.started = job, time.monotonic()

    def stop(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join()
        self.conn.close()


def _death(proc: Any) -> str:
    code = proc.exitcode
    if code is not None and code < 0:
        try:
            return f"the worker died of signal {signal.Signals(-code).name}"
        except ValueError:
            return f"the worker died of signal {-code}"
    return f"the worker exited with code {code}"


def run_local(jobs: list[Job], settings: Settings, workers: int, time_limit: float,
              on_row: Callable[[Job, Row], None]) -> None:
    """Grade `jobs` in `workers` processes, calling on_row in this process as rows arrive.

    A puzzle that runs past `time_limit` seconds has its worker killed and replaced, and
    gets a `timeout` row; a worker that dies gives its puzzle an `error` row."""
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    queue = deque(j for j in jobs if j.puzzle is not None)
    for job in jobs:
        if job.puzzle is None:
            on_row(job, grade_job(job, settings))
    pool = [_Worker(ctx, settings) for _ in range(max(1, min(workers, len(queue))))] if queue else []
    try:
        while True:
            for i, w in enumerate(pool):
                while w.job is None and queue:
                    job = queue.popleft()
                    try:
                        w.give(job)
                    except (BrokenPipeError, OSError):   # died while idle: replace, retry
                        w.stop()
                        pool[i] = w = _Worker(ctx, settings)
                        queue.appendleft(job)
            busy = [w for w in pool if w.job is not None]
            if not busy:
                break
            now = time.monotonic()
            timeout = max(0.0, min(w.started + time_limit for w in busy) - now)
            wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], timeout)
            for i, w in enumerate(pool):
                job = w.job
                if job is None:
                    continue
                row = None
                if w.conn.poll():
                    try:
                        row = w.conn.recv()
                    except (EOFError, OSError):
                        row = None
                    if row is not None:
                        w.job = None
                        on_row(job, row)
                        continue
                spent = time.monotonic() - w.started
                if not w.proc.is_alive():
                    w.stop()
                    on_row(job, failed(job, _death(w.proc), spent))
                elif spent >= time_limit:
                    w.stop()
                    on_row(job, timed_out(job, time_limit, spent))
                else:
                    continue
                pool[i] = _Worker(ctx, settings)
    finally:
        for w in pool:
            try:
                w.conn.send(None)
            except (BrokenPipeError, OSError):
                pass
        deadline = time.monotonic() + 2
        for w in pool:
            w.proc.join(max(0.0, deadline - time.monotonic()))
            w.stop()


def run_dask(jobs: list[Job], settings: Settings, address: str, time_limit: float,
             on_row: Callable[[Job, Row], None]) -> None:
    """The same work on a Dask distributed cluster; rows come back here to be recorded."""
    try:
        from distributed import Client, as_completed
        from distributed.comm.core import CommClosedError
    except ImportError:
        raise InputError("--scheduler", "needs dask.distributed: pip install 'dask[distributed]'") from None
    try:
        client = Client(address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError("--scheduler", f"cannot reach the scheduler at {address}: {exc}") from None
    try:
        for job in jobs:
            if job.puzzle is None:
                on_row(job, grade_job(job, settings))
        todo = deque(j for j in jobs if j.puzzle is not None)
        window = 4 * max(1, sum(client.nthreads().values()))   # keeps memory flat for big batches
        running: dict[Any, Job] = {}
        pending = as_completed()

        def submit() -> None:
            while todo and len(running) < window:
                job = todo.popleft()
                fut = client.submit(grade_job_within, job, settings, time_limit, pure=False)
                running[fut] = job
                pending.add(fut)

        submit()
        for fut in pending:
            job = running.pop(fut)
            if fut.status == "finished":
                on_row(job, fut.result())
            elif fut.status == "error":     # the task failed, e.g. it killed its workers (KilledWorker)
                exc = fut.exception()
                on_row(job, failed(job, f"{type(exc).__name__}: {exc}", 0.0))
            else:                           # cancelled or lost: not the puzzle's fault, keep it to do
                raise CommClosedError(f"the task of {job.key} was {fut.status}")
            fut.release()
            submit()
    except (CommClosedError, TimeoutError) as exc:
        raise InputError("--scheduler", f"lost the scheduler at {address} ({exc}); the rows so far "
                         "are kept: rerun the same command to resume") from None
    finally:
        client.close()


# --- the command ------------------------------------------------------------------------

@contextlib.contextmanager
def _stop_on_sigterm() -> Iterator[None]:
    """`kill` (SIGTERM) ends the batch as Ctrl-C does: the workers are stopped and the rows so
    far kept, and the exit status is 143 as for a plain SIGTERM."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_batch(args: argparse.Namespace) -> int:
    from grader.app.report.results import ResultStore, open_output, write_csv, write_jsonl
    from grader.app.progress import Progress
    from grader.app.scale import load_scale
    settings = Settings(args.genre, args.max_steps, args.max_seconds, not args.no_unique)
    scale = load_scale(args.scale) if getattr(args, "scale", None) else None
    time_limit = args.time_limit or default_time_limit(args.max_seconds)
    source = Path(args.input)
    kind = path_kind(source)    # a game ID longer than a file name is not a file (no OSError)
    if kind != "folder" and not (source.suffix.lower() == ".jsonl" and kind == "file"):
        load(args.input, args.genre)    # one puzzle that cannot be read: bad input (exit 2), not a row
    store = ResultStore.open(args.db, settings.to_json()) if args.db else None
    jobs = list_jobs(args.input, args.genre, args.limit)
    done = store.done() if store else set()
    todo = [j for j in jobs if j.key not in done]
    stream_to = args.output or (None if (store or args.csv or args.jsonl) else "-")
    out = None if stream_to is None else sys.stdout if stream_to == "-" else open_output(stream_to)
    on_screen = sys.stderr.isatty() and not (out is sys.stdout and sys.stdout.isatty())
    progress = Progress(len(todo), on_screen and not args.no_progress)
    results: dict[int, Row] = {}
    order = deque(j.seq for j in todo)         # rows are written out in input order

    def on_row(job: Job, row: Row) -> None:
        if scale is not None:
            row["house_label"] = scale.house_label(row)
        if store:
            store.add(job.seq, row)
        results[job.seq] = row
        progress.update(row)
        while out is not None and order and order[0] in results:
            out.write(json.dumps(results[order.popleft()], ensure_ascii=False) + "\n")
            out.flush()

    try:
        with _stop_on_sigterm():
            if args.scheduler:
                run_dask(todo, settings, args.scheduler, time_limit, on_row)
            else:
                workers = args.workers or os.cpu_count() or 1
                run_local(todo, settings, workers, time_limit, on_row)
    finally:
        progress.finish()
        if out is not None and out is not sys.stdout:
            out.close()
    if args.csv or args.jsonl:
        rows = store.rows() if store else [results[s] for s in sorted(results)]
        if args.csv:
            write_csv(rows, args.csv)
        if args.jsonl:
            write_jsonl(rows, args.jsonl)
    if store:
        store.close()
    progress.report(already=len(done & {j.key for j in jobs}))
    return 0
