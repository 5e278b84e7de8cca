"""``companion demo`` and ``companion replay``: recorded table sessions through the whole
stack, printing the final scores and writing the final scoreboard picture."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..games import GAMES
from .common import DEVICE, fail, game, pygame_error, stop_on_sigterm, user_path


def _finish(runner, out: Path | None, quiet_json: bool) -> int:
    session = runner.session
    result = session.result()
    if out is not None and runner.app is not None:
        try:
            png = runner.app.save(out / f"{session.game}-final.png")
        except (OSError, pygame_error()) as exc:
            return fail(f"cannot write the scoreboard picture in {out}: {exc}")
        if not quiet_json:
            print(f"final scoreboard written to {png}")
    if result is None:
        return fail("the trace ended before the game did: no final scores", DEVICE)
    print(json.dumps(result.to_dict()) if quiet_json else result.text())
    return 0


def cmd_replay(args, trace_path: Path | None = None) -> int:
    from ..table.replay import replay
    from ..table.logs import json_logger
    from ..table.trace import TraceError

    stop_on_sigterm()
    path = trace_path or Path(args.trace)
    out = Path(args.out) if args.out else None
    listeners = [json_logger(sys.stdout)] if getattr(args, "log_json", False) else []
    try:
        runner = replay(path, listeners=listeners)
    except TraceError as err:
        return fail(str(err))
    except ValueError as err:  # the header names a game or players the rules refuse
        return fail(f"{path}: {err}")
    try:
        session = runner.session
        if not args.json and not listeners:
            print(f"Replayed {path.name}: {session.desc.name} with {', '.join(session.state.players)}")
        return _finish(runner, out, args.json)
    finally:
        runner.app and runner.app.close()


def demo_games() -> list[str]:
    """Games with a bundled recorded session."""
    return [slug for slug, g in GAMES.items() if g.demo]


def cmd_demo(args) -> int:
    """Replay the bundled session of ``--game``, or of every game that has one, in turn."""
    from ..table.replay import data_dir

    games = [args.game] if args.game else demo_games()
    worst = 0
    for n, slug in enumerate(games):
        path = data_dir() / game(slug).demo
        if not path.exists():
            return fail(f"the demo trace {path} is missing: run the demo from a source checkout", DEVICE)
        if n:
            print()
        args.trace, args.json = str(path), False
        worst = max(worst, cmd_replay(args, path))
    return worst


def add_parsers(sub) -> None:
    d = sub.add_parser("demo", help="replay the bundled recorded sessions (every game, or --game)")
    d.add_argument("--game", choices=demo_games(), default=None, help="only this game's recorded session")
    d.add_argument("--out", default="out", type=user_path, help="folder for the final scoreboard pictures (default: out)")
    d.set_defaults(func=cmd_demo)

    rp = sub.add_parser("replay", help="replay a recorded trace")
    rp.add_argument("trace", type=user_path, help="the trace file (docs/trace-format.md)")
    rp.add_argument("--out", type=user_path, help="folder for the final scoreboard picture")
    rp.add_argument("--json", action="store_true", help="print the result as JSON")
    rp.add_argument("--log-json", action="store_true", help="print every input and outcome as JSON lines")
    rp.set_defaults(func=cmd_replay)
