"""`grader play`: read the puzzle given on the command line, start the server on uvicorn and
open the page in the browser."""
from __future__ import annotations

import argparse
import sys
import threading
import urllib.parse
import webbrowser
from pathlib import Path

from grader.core.errors import InputError

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def puzzle_reference(spec: str, genre: str | None) -> str:
    """What the page opens: a file's text (the page never names files), else the URL or ID."""
    from grader.io.read import load, path_kind, read_text
    load(spec, genre)                                  # a bad puzzle: one line now, exit 2
    file = spec.split("#")[0] if spec.split("#")[0].endswith(".jsonl") else spec
    if path_kind(Path(file)) == "file":
        if file != spec or Path(file).suffix.lower() not in (".yaml", ".yml", ".txt"):
            return _as_native(spec, genre)
        return read_text(Path(file))
    return spec


def _as_native(spec: str, genre: str | None) -> str:
    """A janko record or a genre's own file format, as native YAML text."""
    import yaml
    from grader.io.read import load
    puzzle = load(spec, genre)
    return yaml.safe_dump(puzzle.genre.to_native(puzzle), allow_unicode=True, sort_keys=False)


def page_url(host: str, port: int, reference: str | None, genre: str | None) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    base = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/"
    if reference is None:
        return base
    query = {"puzzle": reference, **({"genre": genre} if genre else {})}
    return base + "?" + urllib.parse.urlencode(query)


def serve(args: argparse.Namespace) -> int:
    import uvicorn
    from grader.web.app import create_app
    reference = puzzle_reference(args.puzzle, args.genre) if args.puzzle else None
    if not 1 <= args.port <= 65535:
        raise InputError("--port", f"{args.port} is not a port (1 to 65535)")
    if args.host not in LOCAL_HOSTS:
        print(f"warning: listening on {args.host}: anyone who can reach this address can use the "
              "server (it has no login). The default, 127.0.0.1, is this computer only.", file=sys.stderr)
    url = page_url(args.host, args.port, reference, args.genre)
    print(f"grader play: {url.split('?')[0]} (Ctrl+C stops it)", file=sys.stderr)
    if not args.no_browser:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    app = create_app(workers=args.workers, seconds=args.max_seconds)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    except SystemExit as exc:      # uvicorn exits when it cannot bind the port
        raise InputError(f"{args.host}:{args.port}", "cannot listen there (is the port in use?)") from exc
    return 0
