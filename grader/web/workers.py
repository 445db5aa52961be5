"""The pool the API's handlers run in, with a time budget per request: a slow level-5 hint
answers "no hint within N s" instead of holding up the server, and its worker is replaced.

processes > 0: worker processes (what `grader play` uses; a stuck solve is ended by ending its
process). processes == 0: threads in this process (tests; a stuck solve runs on, unanswered).
"""
from __future__ import annotations

import asyncio
import concurrent.futures as cf
import multiprocessing
from typing import Any

from grader.web import api

WHAT = {"hint": "no hint", "why": "no answer", "grade": "no grade", "check": "no check",
        "path": "no solve path", "open": "the puzzle did not open", "render": "no board"}


def _start_worker(seconds: float) -> None:
    from grader.core.engine import collect_less_often
    collect_less_often()
    api.configure(seconds)


# Whole-puzzle work (the grade, the solve path, the exact count) runs in a lane of its own, so
# a long grade never holds up the hints and clicks of a player.
SOLVE_LANE = {"grade", "path", "check"}


class Workers:
    def __init__(self, processes: int = 2, seconds: float = 10.0, grace: float = 2.0):
        """processes: worker processes for playing (hints, clicks, why), half as many (at least
        one) for grading; 0: threads. seconds: a solve's budget (looked at between steps);
        grace: the time on top of 1.5 x seconds a request may wait for the step in progress."""
        self.processes, self.seconds, self.grace = processes, seconds, grace
        self.sizes = {"play": processes, "solve": max(1, processes // 2)}
        self.pools = {lane: self._new_pool(lane) for lane in self.sizes}

    def _new_pool(self, lane: str) -> cf.Executor:
        if self.processes <= 0:
            api.configure(self.seconds)
            return cf.ThreadPoolExecutor(max_workers=4, thread_name_prefix=f"grader-{lane}")
        return cf.ProcessPoolExecutor(self.sizes[lane], mp_context=multiprocessing.get_context("spawn"),
                                      initializer=_start_worker, initargs=(self.seconds,))

    async def run(self, name: str, body: Any) -> tuple[int, dict[str, Any]]:
        lane = "solve" if name in SOLVE_LANE else "play"
        pool = self.pools[lane]
        try:
            future = pool.submit(api.call, name, body)
        except RuntimeError:             # the pool is being replaced
            return 503, {"error": "the server is restarting a worker: try again"}
        limit = self.seconds * 1.5 + self.grace
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), limit)
        except asyncio.TimeoutError:
            self._replace(lane, pool)
            return 503, {"error": f"{WHAT.get(name, 'no answer')} within {limit:.3g} s"}
        except cf.process.BrokenProcessPool:
            self._replace(lane, pool)
            return 503, {"error": "a worker stopped: try again"}

    def _replace(self, lane: str, pool: cf.Executor) -> None:
        """End a pool whose worker is stuck, so the stuck solve stops taking a core."""
        if pool is not self.pools[lane]:
            return
        self.pools[lane] = self._new_pool(lane)
        if isinstance(pool, cf.ProcessPoolExecutor):
            for proc in list(getattr(pool, "_processes", {}).values()):
                proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        for pool in self.pools.values():
            pool.shutdown(wait=False, cancel_futures=True)
