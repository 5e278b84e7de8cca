"""``companion``: the command line. ``companion --help`` lists the commands.

Exit status: 0 done, 1 a device or store problem, 2 bad input (a bad file, code or option).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sys
import threading
from pathlib import Path

from .core.codes import GAME_NAMES

DEMO_TRACES = {"sugarrr": "sugarrr-family.trace", "sugar-blast": "sugar-blast-family.trace"}
DEFAULT_STORE = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local/share")) / "sugar-companion" / "table.db"


def _data_dir() -> Path:
    """Bundled traces: ``tests/data`` in a source checkout."""
    return Path(__file__).resolve().parent.parent / "tests" / "data"


def pygame_error():
    import pygame

    return pygame.error


def _fail(message: str, status: int = 2) -> int:
    print(f"companion: {message}", file=sys.stderr)
    return status


# ---------------------------------------------------------------- cards and score

def cmd_cards(args) -> int:
    from .table import GAMES

    if args.game not in GAMES:
        return _fail(f"no card list for {args.game!r} yet: choose one of {', '.join(GAMES)}")
    from .games.sugarrr.cards import CARDS

    rows = [{"code": c.code, "name": c.name, "copy": c.copy, "kind": c.kind, "fruit": c.fruit,
             "number": c.number, "value": c.value} for c in CARDS.values()]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        for r in rows:
            print(f"{r['code']}  {r['name']:<28} copy {r['copy']}")
    return 0


def parse_holdings(text: str, source: str, game: str = "sugarrr"):
    """Parse ``NAME: CODE CODE ...`` lines into ``[(name, [codes])]``.

    Raises ValueError naming the line and code for a bad or repeated card.
    """
    from .core.errors import BadScan
    from .games.sugarrr.cards import card

    players, seen = [], {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if ":" not in line:
            raise ValueError(f"{source}, line {n}: expected 'NAME: CODE CODE ...', got {raw.strip()!r}")
        name, codes = line.split(":", 1)
        name = name.strip()
        if not name:
            raise ValueError(f"{source}, line {n}: the player has no name")
        if any(name == other for other, _ in players):
            raise ValueError(f"{source}, line {n}: {name} appears twice: one line per player")
        cards = []
        for code in codes.split():
            try:
                c = card(code)
            except BadScan as err:
                raise ValueError(f"{source}, line {n}, code {code}: {err.message}") from None
            if c.code in seen:
                raise ValueError(f"{source}, line {n}, code {code}: {c.name} is listed twice "
                                 f"(first on line {seen[c.code]}): one physical card, one place")
            seen[c.code] = n
            cards.append(c.code)
        players.append((name, cards))
    if not players:
        raise ValueError(f"{source}: no players found")
    return players


def cmd_score(args) -> int:
    from .runner import print_scores

    if args.game != "sugarrr":
        return _fail(f"scoring for {args.game!r} is not built yet: only sugarrr")
    try:
        text = sys.stdin.read() if args.file in (None, "-") else Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        return _fail(f"cannot read {args.file}: {exc.strerror}")
    except UnicodeDecodeError:
        return _fail(f"{args.file or 'stdin'} is not a text file: expected lines of 'NAME: CODE CODE ...'")
    try:
        players = parse_holdings(text, args.file or "stdin")
    except ValueError as err:
        return _fail(str(err))
    from .games.sugarrr.rules import result_of

    result = result_of([p[0] for p in players], [p[1] for p in players])
    if args.json:
        print(json.dumps(result.to_dict(args.game)))
    else:
        print_scores(result)
    return 0


# ---------------------------------------------------------------- replay and demo

def _finish_replay(runner, out: Path | None, game: str, quiet_json: bool) -> int:
    from .runner import print_scores

    result = runner.session.result()
    if out is not None and runner.app is not None:
        try:
            png = runner.app.save(out / f"{game}-final.png")
        except (OSError, pygame_error()) as exc:
            return _fail(f"cannot write the scoreboard picture in {out}: {exc}")
        if not quiet_json:
            print(f"final scoreboard written to {png}")
    if result is None:
        return _fail("the trace ended before the game did: no final scores", 1)
    if quiet_json:
        print(json.dumps(result.to_dict(game)))
    else:
        print_scores(result)
    return 0


def cmd_replay(args, trace_path: Path | None = None) -> int:
    from .replay import replay
    from .runner import json_logger
    from .trace import TraceError

    path = trace_path or Path(args.trace)
    out = Path(args.out) if args.out else None
    listeners = [json_logger(sys.stdout)] if getattr(args, "log_json", False) else []
    try:
        runner = replay(path, listeners=listeners)
    except TraceError as err:
        return _fail(str(err))
    except ValueError as err:  # the header names a game or players the rules refuse
        return _fail(f"{path}: {err}")
    try:
        game = runner.session.game
        if not args.json and not listeners:
            print(f"Replayed {path.name}: {GAME_NAMES.get(game, game)} with {', '.join(runner.session.state.players)}")
        return _finish_replay(runner, out, game, args.json)
    finally:
        runner.app and runner.app.close()


def cmd_demo(args) -> int:
    """Replay the bundled session of ``--game``, or of every game that has one, in turn."""
    games = [args.game] if args.game else list(DEMO_TRACES)
    unknown = [g for g in games if g not in DEMO_TRACES]
    if unknown:
        return _fail(f"no demo for {unknown[0]!r} yet: choose one of {', '.join(DEMO_TRACES)}")
    worst = 0
    for n, game in enumerate(games):
        path = _data_dir() / DEMO_TRACES[game]
        if not path.exists():
            return _fail(f"the demo trace {path} is missing: run the demo from a source checkout", 1)
        if n:
            print()
        args.trace, args.json = str(path), False
        worst = max(worst, cmd_replay(args, path))
    return worst


# ---------------------------------------------------------------- hint

def cmd_hint(args) -> int:
    """Every legal swap on a typed board and the Blasts it makes (Sugar Blast)."""
    from .games.sugar_blast import board as B

    if args.game != "sugar-blast":
        return _fail(f"hints are for sugar-blast only, not {args.game!r}")
    source = "stdin" if args.board in (None, "-") else args.board
    try:
        text = sys.stdin.read() if source == "stdin" else Path(args.board).read_text(encoding="utf-8")
    except OSError as exc:
        return _fail(f"cannot read {args.board}: {exc.strerror}")
    except UnicodeDecodeError:
        return _fail(f"{source} is not a text file: expected one row per line, one letter per cell")
    try:
        board = B.parse_board(text)
    except B.BoardError as err:
        return _fail(f"{source}: {err}")
    hint = B.hint_json(board)
    if args.json:
        print(json.dumps(hint))
        return 0
    names = {"3": "3-Blast", "4": "4-Blast", "5-6": "5-6-Blast", "box": "Box-Blast"}
    if hint["no_blasts"]:
        print("No Blasts: no swap makes one. Take 1 candy from the bag and swap it with a different one.")
        return 0
    print(f"{len(hint['swaps'])} swap{'s' * (len(hint['swaps']) != 1)} make a Blast "
          "(row, column from 0 at the top left):")
    for swap in hint["swaps"]:
        (r1, c1), (r2, c2) = swap["from"], swap["to"]
        blasts = "; ".join(f"{names[b['kind']]} of {B.NAMES[b['candy']]} ({len(b['cells'])} candies)"
                           for b in swap["blasts"])
        print(f"  swap ({r1}, {c1}) {board[r1][c1]} with ({r2}, {c2}) {board[r2][c2]}: {blasts}")
    return 0


# ---------------------------------------------------------------- labels

def cmd_labels(args) -> int:
    from .labels import make_labels
    from .table import GAMES

    if args.game not in GAMES:
        return _fail(f"no card list for {args.game!r} yet: choose one of {', '.join(GAMES)}")
    from .games.sugarrr.cards import CARDS

    try:
        n = make_labels([(c.code, c.name, c.copy) for c in CARDS.values()], args.out, args.symbology, args.sheet)
    except ValueError as err:
        return _fail(str(err))
    except OSError as err:
        return _fail(f"cannot write {args.out}: {err.strerror}", 1)
    print(f"{n} stickers written to {args.out}. Print at 100% (\"actual size\"), not \"fit to page\".")
    return 0


# ---------------------------------------------------------------- enroll

def cmd_enroll(args) -> int:
    """Pair NFC stickers with cards: codes from stdin (typed, or a keyboard-mode scanner),
    tags from the PN532. ``--nfc emulated`` places a new emulated sticker for each card."""
    import queue as queue_mod

    from .core.clock import SystemClock
    from .core.enrolment import Enrolments
    from .core.errors import StoreError
    from .core.store import EventStore
    from .devices.scan.pn532 import Pn532Reader
    from .enroll import enroll
    from .table import GAMES

    if args.game not in GAMES:
        return _fail(f"no card list for {args.game!r} yet: choose one of {', '.join(GAMES)}")
    from .games.sugarrr.cards import CARDS

    try:
        enrolments = Enrolments(EventStore(args.store))
    except StoreError as err:
        return _fail(str(err), 1)
    uids: queue_mod.Queue = queue_mod.Queue()
    events: queue_mod.Queue = queue_mod.Queue()
    emulator = None
    path = args.nfc
    if path == "emulated":
        from .devices.emulated.pn532 import EmulatedPn532

        emulator = EmulatedPn532()
        path = emulator.path
    reader = Pn532Reader(path, events, SystemClock(), on_uid=uids.put)
    reader.start()
    if emulator is None and not os.path.exists(path):
        reader.stop()
        return _fail(f"no NFC reader at {path}: check its USB cable and the path", 1)

    def say(message: str) -> None:
        print(message, flush=True)
        if emulator is not None and "place a blank sticker" in message:
            emulator.lift()
            emulator.place(b"\x04" + os.urandom(6))

    print("Scan a card's barcode (or type its code) and press Enter; then place a blank sticker "
          "on the NFC reader.", flush=True)
    try:
        n = enroll(sys.stdin, uids, enrolments, args.game, CARDS, SystemClock(), say)
    except KeyboardInterrupt:
        n = None
    finally:
        reader.stop()
        if emulator is not None:
            emulator.close()
    if n is not None:
        print(f"{n} sticker{'s' * (n != 1)} enrolled.")
    return 0


def cmd_nfc_write(args) -> int:
    from .nfc_write import write_code

    if not (math.isfinite(args.wait) and 0 < args.wait <= 3600):
        return _fail("--wait is in seconds, from 1 to 3600")
    return write_code(args.nfc, args.code, args.wait)


# ---------------------------------------------------------------- history

def cmd_history(args) -> int:
    from .core.errors import StoreError
    from .core.store import EventStore
    import datetime as dt

    if not Path(args.store).exists():
        print(f"No games yet ({args.store} does not exist).")
        return 0
    try:
        games = EventStore(args.store).games()
    except StoreError as err:
        return _fail(str(err), 1)
    if args.json:
        print(json.dumps([g.__dict__ for g in games], default=list))
        return 0
    for g in games:
        when = dt.datetime.fromtimestamp(g.started).strftime("%Y-%m-%d %H:%M")
        if g.finished is None:
            state = "unfinished (resumes on next run)"
        elif g.result and g.result.get("abandoned"):
            state = "abandoned"
        else:
            scores = ", ".join(f"{p['name']} {p['score']}" for p in g.result.get("players", []))
            state = f"won by {' and '.join(g.result.get('winners', []))}: {scores}"
        print(f"#{g.id}  {when}  {GAME_NAMES.get(g.game, g.game)}  {', '.join(g.players)}  {g.inputs} inputs  {state}")
    return 0


# ---------------------------------------------------------------- run

def cmd_run(args) -> int:
    from .core.clock import SystemClock
    from .core.errors import StoreError
    from .core.store import EventStore
    from .core.events import CardScanned
    from .core.enrolment import Enrolments
    from .devices.readers import open_reader, parse_reader, resolve
    from .runner import Runner, json_logger, text_logger
    from .table import Session
    from .trace import TraceWriter

    names = [n.strip() for n in args.names.split(",")] if args.names else []
    if args.players and names and len(names) != args.players:
        return _fail(f"--players {args.players} but {len(names)} names in --names")
    if not names and args.players:
        names = [f"Player {i}" for i in range(1, args.players + 1)]
    if any(not n for n in names):
        return _fail("--names has an empty name: write them like --names Mum,Dad,Maya")
    if not (args.tap_off >= 0 and args.tap_off < 60):
        return _fail("--tap-off is in seconds, from 0 to 60")
    clock = SystemClock()
    # Every reader and the tray are checked before the store is touched, so a typo never
    # leaves a new game behind or sets one aside.
    try:
        specs = [resolve(parse_reader(spec)) for spec in args.scanner or []]
        tray = None
        if args.tray:
            from .tray import EmulatedTray, bus_opener

            tray = EmulatedTray(clock) if args.tray == "emulated" else None
            open_bus = bus_opener(args.tray, clock, tray)
    except ValueError as err:
        return _fail(str(err))
    except LookupError as err:
        return _fail(str(err), 1)
    for spec in specs:
        if spec.seat and names and spec.seat > len(names):
            return _fail(f"--scanner {spec.kind}:{spec.path}@{spec.seat}: seat {spec.seat}, "
                         f"but only {len(names)} are playing")
    try:
        store = EventStore(args.store)
        if not names and store.unfinished(args.game) is None:
            return _fail("who is playing? Give --players N or --names A,B,... (no unfinished game to resume)")
        options = {}
        if args.game == "sugar-blast":
            options = {"goal": args.goal, "solo": args.solo, "quick": args.quick}
        elif args.goal or args.solo or args.quick:
            return _fail("--goal, --solo and --quick are Sugar Blast options")
        session = Session.start(args.game, names, store, clock, tap_off=args.tap_off, new_game=args.new_game,
                                options=options)
    except (ValueError, StoreError) as err:
        return _fail(str(err), 2 if isinstance(err, ValueError) and not isinstance(err, StoreError) else 1)
    log = json_logger(sys.stdout) if args.log_format == "json" else text_logger(sys.stdout)
    session.listeners.append(log)
    if args.log_format == "json":
        print(json.dumps({"event": "start", "game": args.game, "game_id": session.game_id,
                          "players": list(session.state.players), "resumed_inputs": session.resumed_inputs}), flush=True)
    else:
        print(f"{GAME_NAMES[args.game]}: {', '.join(session.state.players)}"
              + (f" (resumed, {session.resumed_inputs} inputs)" if session.resumed_inputs else ""), flush=True)
    app = None
    if not args.headless:
        from .ui.app import App

        app = App(fullscreen=args.fullscreen)
    record = None
    if args.record:
        stored = next((g.config for g in store.games() if g.id == session.game_id), {})  # the game's set-up options
        record = TraceWriter(args.record, args.game, list(session.state.players), clock.now(), stored or None)
    runner = Runner(session, clock, app=app, simulate=args.simulate, record=record)
    # NFC tags enrolled with `companion enroll`: a plain dict, because the NFC reader looks
    # codes up from its own thread and the store's connection belongs to this one.
    enrolled = {e.uid: e.code for e in Enrolments(store).all(args.game)} if specs else {}
    readers = []
    for i, spec in enumerate(specs):
        name = f"scanner{i + 1}" if len(specs) > 1 else "scanner"
        tap = (lambda data, t, name=name: record.bytes(name, t, data)) if record and spec.kind == "serial" else None
        try:
            readers.append(open_reader(spec, runner.inputs, clock, name, tap, uid_to_code=enrolled.get))
        except ValueError as err:
            for reader in readers:
                reader.stop()
            return _fail(str(err))
    sampler = None
    if args.tray:
        from .devices.accel.sampler import TraySampler
        from .tray import detector, load_calibration, load_tilt_config

        try:
            tap = (lambda t, g: record.accel("tray", t, g)) if record else None
            sampler = TraySampler(open_bus, runner.inputs, clock, detector(load_calibration(), load_tilt_config()),
                                  tap=tap)
        except ValueError as err:
            for reader in readers:
                reader.stop()
            return _fail(str(err))
        runner.tray = tray
        sampler.start()
    feedback = _feedback(args)
    if feedback:
        session.listeners.append(lambda item, verdict: verdict and isinstance(item, CardScanned)
                                 and feedback.signal(verdict.verdict))
    signal.signal(signal.SIGTERM, lambda *_: setattr(runner, "stopping", True))
    if args.headless and args.simulate:
        def read_stdin() -> None:
            for line in sys.stdin:
                runner.typed(line)
            runner.inputs.join()  # end of input: stop once everything typed is handled
            runner.stopping = True
        threading.Thread(target=read_stdin, daemon=True, name="stdin").start()
    try:
        runner.loop()
    except KeyboardInterrupt:
        pass
    finally:
        for reader in readers:
            reader.stop()
        if sampler:
            sampler.stop()
        if feedback:
            feedback.close()
        if record:
            record.close()
        if app:
            app.close()
        store.close()
    if args.log_format == "json":
        print(json.dumps({"event": "stop", "game_id": session.game_id}), flush=True)
    return 0


def _feedback(args):
    """The buzzer/LED, or None. A GPIO problem (not a Pi, pin busy) is reported, not fatal."""
    if args.buzzer is None and args.led is None:
        return None
    import warnings

    try:
        from .devices.gpio import Feedback

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gpiozero warns about each pin library it tries
            return Feedback(args.buzzer, args.led)
    except Exception as exc:  # gpiozero raises many kinds when there is no GPIO at all
        print(f"companion: no buzzer/LED feedback ({exc}); carrying on without it", file=sys.stderr)
        return None


# ---------------------------------------------------------------- parser

def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion", description="Sugar Table Companion: checks plays and keeps score.")
    sub = p.add_subparsers(dest="command", required=True)
    games = list(GAME_NAMES)

    r = sub.add_parser("run", help="run the table companion")
    r.add_argument("--game", choices=games, default="sugarrr")
    r.add_argument("--players", type=int)
    r.add_argument("--names", help="comma-separated, in seat order from the first player")
    r.add_argument("--scanner", action="append",
                   help="KIND:PATH[@SEAT], e.g. serial:/dev/serial/by-id/usb-...@2 (repeat for more readers)")
    r.add_argument("--tray", help="the Sugar Blast tray sensor: i2c:1, or emulated (arrow keys tilt it under --simulate)")
    r.add_argument("--buzzer", type=int, metavar="PIN", help="GPIO (BCM) pin of a buzzer: a beep for every scan")
    r.add_argument("--led", type=int, metavar="PIN", help="GPIO (BCM) pin of a status LED")
    r.add_argument("--headless", action="store_true", help="no screen")
    r.add_argument("--simulate", action="store_true", help="typed lines are scans; /done etc. are touches")
    r.add_argument("--fullscreen", action="store_true")
    r.add_argument("--log-format", choices=["text", "json"], default="text")
    r.add_argument("--store", default=str(DEFAULT_STORE))
    r.add_argument("--record", help="write what the devices sent as a trace file")
    r.add_argument("--goal", help="Sugar Blast Goal Card: two-threes, two-twos-and-a-three, five-different, "
                                  "four-and-two, four-twos, nine-any")
    r.add_argument("--solo", action="store_true", help="Sugar Blast solo mode (no Goal Card; orange removed)")
    r.add_argument("--quick", action="store_true", help="Sugar Blast without the board twin: enter each Blast's type")
    r.add_argument("--new-game", action="store_true", help="set an unfinished game aside and start a new one")
    r.add_argument("--tap-off", type=float, default=1.0, help="seconds in which the same code again is ignored")
    r.set_defaults(func=cmd_run)

    d = sub.add_parser("demo", help="replay the bundled recorded sessions (every game, or --game)")
    d.add_argument("--game", choices=games, default=None)
    d.add_argument("--out", default="out")
    d.set_defaults(func=cmd_demo)

    rp = sub.add_parser("replay", help="replay a recorded trace")
    rp.add_argument("trace")
    rp.add_argument("--out")
    rp.add_argument("--json", action="store_true", help="print the result as JSON")
    rp.add_argument("--log-json", action="store_true", help="print every input and outcome as JSON lines")
    rp.set_defaults(func=cmd_replay)

    hn = sub.add_parser("hint", help="every legal swap on a Sugar Blast board and its Blasts")
    hn.add_argument("game", choices=["sugar-blast"])
    hn.add_argument("board", nargs="?", default="-", help="a file with one row per line, one letter per cell; - for stdin")
    hn.add_argument("--json", action="store_true")
    hn.set_defaults(func=cmd_hint)

    c = sub.add_parser("cards", help="list every card and its code")
    c.add_argument("game", choices=games)
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_cards)

    s = sub.add_parser("score", help="score the cards each player holds")
    s.add_argument("game", choices=games)
    s.add_argument("file", nargs="?", default="-")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_score)

    lb = sub.add_parser("labels", help="sticker sheets: one label per physical card")
    lb.add_argument("game", choices=games)
    lb.add_argument("--out", required=True, help="the PDF to write")
    lb.add_argument("--symbology", default="code128", help="code128 or qr")
    lb.add_argument("--sheet", default="avery-l7160", help="avery-l7160, avery-l7163, avery-l7651 (A4), avery-5160, avery-5163 (Letter)")
    lb.set_defaults(func=cmd_labels)

    en = sub.add_parser("enroll", help="pair blank NFC stickers with cards")
    en.add_argument("game", choices=games)
    en.add_argument("--nfc", required=True, help="the PN532's serial port (/dev/serial/by-id/...), or emulated")
    en.add_argument("--store", default=str(DEFAULT_STORE))
    en.set_defaults(func=cmd_enroll)

    nf = sub.add_parser("nfc", help="write a card code onto an NFC sticker")
    nsub = nf.add_subparsers(dest="nfc_command", required=True)
    nw = nsub.add_parser("write", help="write CODE as an NDEF text record, then read it back")
    nw.add_argument("code")
    nw.add_argument("--nfc", required=True, help="the PN532's serial port (/dev/serial/by-id/...)")
    nw.add_argument("--wait", type=float, default=30.0, help="seconds to wait for a sticker")
    nw.set_defaults(func=cmd_nfc_write)

    h = sub.add_parser("history", help="list past games")
    h.add_argument("--store", default=str(DEFAULT_STORE))
    h.add_argument("--json", action="store_true")
    h.set_defaults(func=cmd_history)

    from .tray import add_parsers

    add_parsers(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("companion: stopped (Ctrl-C)", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `companion cards sugarrr | head`
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
