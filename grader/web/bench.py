"""A benchmark of the play server (a script, not a test): `python -m grader.web.bench`.

Starts `grader play`'s app on uvicorn on a free loopback port (worker processes, as `grader
play` runs it), then measures
  1. the hint median on a warm server for a 10x10 puzzle (the API's round trip, one client);
  2. a load test: REQUESTS requests (hints at every stage, board renders, checks) from CLIENTS
     concurrent clients: median, p99, slowest and errors.
"""
from __future__ import annotations

import argparse
import json
import socket
import statistics
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PUZZLE = ROOT / "corpus/akari/lightup-10x10b20s2d1-grader-1.yaml"


def post(base: str, name: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(f"{base}/api/{name}", json.dumps(body).encode(),
                                 {"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def start_server(workers: int) -> tuple[str, object]:
    import uvicorn
    from grader.web.app import create_app
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(workers=workers), host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default %(default)s)")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--hints", type=int, default=50, help="hints timed one after another")
    args = parser.parse_args()
    base, server = start_server(args.workers)
    text = PUZZLE.read_text(encoding="utf-8")
    opened = post(base, "open", {"puzzle": text})[1]
    # a board part-way through: the hint then has real work (the first steps applied)
    state = opened["state"]
    for _ in range(5):
        state = post(base, "hint", {"puzzle": text, "state": state, "stage": "answer"})[1]["view"]["state"]
    for _ in range(10):                         # warm every worker's cache
        post(base, "hint", {"puzzle": text, "state": state, "stage": "explain"})
        post(base, "check", {"puzzle": text, "state": state})
    times = []
    for _ in range(args.hints):
        t0 = time.perf_counter()
        status, _ = post(base, "hint", {"puzzle": text, "state": state, "stage": "explain"})
        times.append((time.perf_counter() - t0) * 1000)
        assert status == 200
    print(f"hint on a warm server, 10x10 Akari ({PUZZLE.name}), {args.hints} requests one after another: "
          f"median {statistics.median(times):.1f} ms, p90 {percentile(times, 0.9):.1f} ms")

    kinds = [("hint", {"stage": s}) for s in ("nudge", "technique", "explain", "answer")] + \
        [("render", {"actions": [{"op": "cycle", "var": opened["targets"][0]["var"]}]}), ("check", {})]

    def one(i: int) -> tuple[float, int]:
        name, extra = kinds[i % len(kinds)]
        t0 = time.perf_counter()
        status, _ = post(base, name, {"puzzle": text, "state": state, **extra})
        return (time.perf_counter() - t0) * 1000, status

    t0 = time.perf_counter()
    with ThreadPoolExecutor(args.clients) as pool:
        results = list(pool.map(one, range(args.requests)))
    wall = time.perf_counter() - t0
    lat = [ms for ms, _ in results]
    errors = sum(1 for _, status in results if status != 200)
    print(f"load: {args.requests} requests from {args.clients} concurrent clients in {wall:.2f} s "
          f"({args.requests / wall:.0f}/s): median {statistics.median(lat):.1f} ms, p99 "
          f"{percentile(lat, 0.99):.1f} ms, slowest {max(lat):.1f} ms, errors {errors}")
    server.should_exit = True


if __name__ == "__main__":
    main()
