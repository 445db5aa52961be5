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


def puzzle_reference(spec: str, genre: str | None) -> tuple[str, str | None]:
    """(what the page opens, its genre): a file's text, since the page never names files (a
    janko record as native YAML), else the URL or game ID as given."""
    from grader.io.read import load, path_kind, read_text
    puzzle = load(spec, genre)                        # a bad puzzle: one line now, exit 2
    file = spec.split("#")[0]
    if file != spec and file.endswith(".jsonl"):
        return _as_native(puzzle), puzzle.genre.name
    if path_kind(Path(spec)) == "file":
        if Path(spec).suffix.lower() == ".jsonl":
            return _as_native(puzzle), puzzle.genre.name
        return read_text(Path(spec)), puzzle.genre.name
    return spec, genre


def _as_native(puzzle) -> str:
    """A janko record as native YAML text."""
    import yaml
    return yaml.safe_dump({"genre": puzzle.genre.name, **puzzle.genre.to_native(puzzle)},
                          allow_unicode=True, sort_keys=False)


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
    reference, genre = puzzle_reference(args.puzzle, args.genre) if args.puzzle else (None, args.genre)
    if not 1 <= args.port <= 65535:
        raise InputError("--port", f"{args.port} is not a port (1 to 65535)")
    if args.host not in LOCAL_HOSTS:
        print(f"warning: listening on {args.host}: anyone who can reach this address can use the "
              "server (it has no login). The default, 127.0.0.1, is this computer only.", file=sys.stderr)
    url = page_url(args.host, args.port, reference, genre)
    print(f"grader play: {url.split('?')[0]} (Ctrl+C stops it)", file=sys.stderr)
    if not args.no_browser:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    app = create_app(workers=args.workers, seconds=args.max_seconds)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    except SystemExit as exc:      # uvicorn exits when it cannot bind the port
        raise InputError(f"{args.host}:{args.port}", "cannot listen there (is the port in use?)") from exc
    return 0
