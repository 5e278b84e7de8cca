"""``companion venue``: the café's dashboard (every table on one live web page), and the
``--venue`` options of ``companion run`` that put a table on it. Parsing and wiring only:
the work lives in :mod:`companion.venue`."""

from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

from .common import DEVICE, USAGE, fail, user_path


def add_run_options(r) -> None:
    """The venue options of ``companion run`` (also the config's ``[venue]``)."""
    g = r.add_argument_group("venue mode (a café's dashboard, through an MQTT broker)")
    g.add_argument("--venue", metavar="URL", help="the café's broker: mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
    g.add_argument("--table", metavar="NAME", help="this table's name on the dashboard (letters, digits, - and _)")
    g.add_argument("--venue-name", metavar="CAFE", help="the café's name in the topics (default: cafe)")
    g.add_argument("--venue-user", metavar="USER", help="the broker user name for this table")
    g.add_argument("--venue-password-file", metavar="FILE", type=user_path,
                   help="a file holding the broker password on its first line")
    g.add_argument("--venue-ca", metavar="FILE", type=user_path, help="the broker's CA certificate (PEM), for mqtts://")


def run_settings(args):
    """The table's :class:`~companion.venue.settings.VenueSettings` (None when no
    ``--venue``). Raises ValueError with a message for the user."""
    if not getattr(args, "venue", None):
        for flag in ("table", "venue_name", "venue_user", "venue_password_file", "venue_ca"):
            if getattr(args, flag, None):
                raise ValueError(f"--{flag.replace('_', '-')} is for venue mode: add --venue mqtt://HOST")
        return None
    from ..venue.settings import VenueSettings  # venue mode only: kept off the table's start

    return VenueSettings.parse(args.venue, args.table, args.venue_name, username=args.venue_user,
                               password_file=args.venue_password_file, ca_file=args.venue_ca)


@contextmanager
def start_publisher(settings, runner, plan):
    """Venue mode for a built table (``settings`` None: nothing): one listener of the
    session's verdicts, appended to the store's outbox, sent from its own thread. Yields
    the :class:`~companion.venue.publish.VenuePublisher` (None without venue mode, or
    when the store cannot hold the outbox: that is reported on stderr) and closes it,
    before the store closes, on the way out."""
    if settings is None:
        yield None
        return
    from ..core.errors import StoreError
    from ..venue.publish import VenuePublisher

    session = runner.session
    try:
        publisher = VenuePublisher(settings, session, clocks=runner.clocks, turn_limit=plan.timers.limit,
                                   disk=Path(plan.store).parent, screen=lambda: _screen(runner),
                                   report=runner.inputs.put)  # the venue's link on the panel's device line
    except StoreError as err:
        print(f"companion: {err}", file=sys.stderr, flush=True)
        yield None
        return
    session.listeners.append(publisher)  # the runner hands it on to the next game's session
    publisher.start()
    publisher.connect()  # a broker that is down or slow never slows the table
    try:
        yield publisher
    finally:
        publisher.close()


def _screen(runner) -> str | None:
    """The display's health for the venue status (None: a headless table)."""
    if runner.display is None:
        return None
    return "connected" if runner.app is not None else "disconnected"


def _exports(venue: str) -> dict:
    """The history exporters of ``companion history``, for a café's tables."""
    from ..table.history import bgstats, write_csv  # the dashboard's only: kept off `companion run`

    def tables(records):
        where = {id(g): table for table, g in records}
        return [g for _, g in records], (lambda g: where[id(g)])

    def csv(records, out):
        games, table_of = tables(records)
        write_csv(games, out, table_of=table_of)

    def bg(records):
        games, table_of = tables(records)
        return bgstats(games, venue, location=venue, table_of=table_of)

    return {"csv": csv, "bgstats": bg}


def _listen(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--listen {text}: give HOST:PORT, e.g. 127.0.0.1:8080 (0.0.0.0:8080 for every network)")
    return host.strip("[]"), int(port)


def _loopback(host: str) -> bool:
    """``host`` is this computer only (127.0.0.0/8, ::1 or localhost), no network."""
    import ipaddress

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name: it may resolve to any address


def _tls(args):
    """The page's TLS context from ``--cert``/``--key`` (None without). Raises ValueError."""
    if not args.cert:
        if args.key:
            raise ValueError("--key is the private key of --cert FILE: give both (or neither, for plain HTTP)")
        return None
    import ssl

    from ..venue.server import tls_context

    try:
        return tls_context(args.cert, args.key)
    except (OSError, ssl.SSLError) as err:
        raise ValueError(f"cannot use the certificate {args.cert}" + (f" and key {args.key}" if args.key else "")
                         + f": {getattr(err, 'strerror', None) or getattr(err, 'reason', None) or err} "
                         "(PEM files: the certificate chain, and its private key unless it is in the same file)") \
            from None


def cmd_venue_unit(args) -> int:
    """``companion venue enable|disable``: the service's network drop-in
    (:mod:`companion.venue.unit`)."""
    from ..venue import unit as venue_unit

    root = Path(args.root)
    try:
        if args.venue_action == "enable":
            said = venue_unit.enable(Path(args.config), root, restart=not args.no_restart)
        else:
            said = venue_unit.disable(root, restart=not args.no_restart)
    except venue_unit.VenueUnitError as err:
        return fail(str(err), USAGE)
    for line in said:
        print(f"companion: {line}")
    return 0


def _positive(text: str) -> float:
    """A number above 0 (argparse's type for --keep-days and --keep-games)."""
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text} must be above 0")
    return value


def cmd_venue(args) -> int:
    from ..venue.dashboard import Dashboard
    from ..venue.settings import Broker, check_name
    from ..venue.web import DashboardServer

    if not args.broker:
        return fail("companion venue needs --broker URL (the café's broker, e.g. mqtt://192.168.1.20); "
                    "on a table: companion venue enable", USAGE)
    try:
        broker = Broker.parse(args.broker, "--broker", username=args.broker_user,
                              password_file=args.broker_password_file, ca_file=args.ca_file)
        venue = check_name(args.venue_name, "--venue-name")
        league = tuple(check_name(v.strip(), "--league") for v in args.league.split(",")) if args.league else None
        host, port = _listen(args.listen)
        password = None
        if args.password_file:
            if args.no_password:
                raise ValueError("--no-password or --password-file: choose one")
            password = Broker("x", 1, password_file=args.password_file).password()
        elif not args.no_password and not _loopback(host):
            raise ValueError(f"--listen {args.listen} lets anyone on the network see the page: give --password-file "
                             "FILE (or --no-password if the network is yours alone)")
    except ValueError as err:
        return fail(str(err), USAGE)
    import sqlite3

    from ..core.store import DEFAULT_STORE

    store = args.store or str(DEFAULT_STORE.parent / f"venue-{venue}.db")
    try:
        dashboard = Dashboard(broker, venue, history=args.history, store=store, league=league,
                              keep_days=args.keep_days, keep_games=args.keep_games)
    except OSError as err:
        return fail(f"cannot read the history {args.history}: {err.strerror or err}", DEVICE)
    except sqlite3.Error as err:
        return fail(f"cannot open the dashboard's store {store}: {err}", DEVICE)
    try:
        tls = _tls(args)
    except ValueError as err:
        return fail(str(err), USAGE)
    try:
        server = DashboardServer(dashboard, (host, port), _exports(venue), password=password, title=args.title)
    except OSError as err:
        return fail(f"cannot listen on {args.listen}: {err.strerror or err}", DEVICE)
    if tls is not None:
        server.use_tls(tls)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())  # before the line below: whoever reads it may stop us
    dashboard.connect()
    shown = server.url().replace("0.0.0.0", "THIS-COMPUTER")
    clear = "" if tls is not None or _loopback(host) else " (sent unencrypted: --cert/--key for HTTPS)"
    print(f"companion: the {venue} dashboard is on {shown} (tables from {broker.url()})"
          + (f"; password required{clear}" if password else
             "" if _loopback(host) else "; no password: anyone on the network can see it"), flush=True)
    thread = server.serve_in_thread()
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    server.stop()
    thread.join(timeout=2)
    dashboard.close()
    print("companion: the dashboard stopped", file=sys.stderr, flush=True)
    return 0


def add_parsers(sub) -> None:
    v = sub.add_parser("venue", help="the café's dashboard: every table on one live web page")
    v.add_argument("--broker", metavar="URL",
                   help="the café's broker: mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
    v.add_argument("--listen", default="127.0.0.1:8080", metavar="HOST:PORT",
                   help="where the page is served (default: %(default)s, this computer only; "
                        "0.0.0.0:8080 for phones and the TV on the café's network)")
    v.add_argument("--keep-days", type=_positive, default=365.0, metavar="DAYS",
                   help="finished games the dashboard's store keeps: those of the last DAYS days (default: 365)")
    v.add_argument("--keep-games", type=lambda x: int(_positive(x)), default=1000, metavar="N",
                   help="... and at most the newest N of each table (default: 1000)")
    v.add_argument("--venue-name", default="cafe", metavar="CAFE",
                   help="the café's name in the topics (default: cafe)")
    v.add_argument("--password-file", type=user_path, metavar="FILE",
                   help="ask for this password (first line of FILE) before showing the page (any user name); "
                        "needed to listen beyond this computer")
    v.add_argument("--no-password", action="store_true",
                   help="listen beyond this computer without a password, on purpose (a network that is yours alone)")
    v.add_argument("--broker-user", metavar="USER", help="the broker user name for the dashboard")
    v.add_argument("--broker-password-file", type=user_path, metavar="FILE", help="the broker password's file")
    v.add_argument("--ca-file", type=user_path, metavar="FILE", help="the broker's CA certificate (PEM), for mqtts://")
    v.add_argument("--history", type=user_path, metavar="FILE",
                   help="keep every finished game in this file (JSON lines), so the history outlives a restart")
    v.add_argument("--league", metavar="CAFE,CAFE...",
                   help="a league's dashboard: every table of these cafés, whose brokers bridge them to --broker "
                        "(docs/venue.md); --venue-name is then the league's name")
    v.add_argument("--store", type=user_path, metavar="FILE",
                   help="keep what the tables sent in this SQLite file, to see (and ask again for) what the broker "
                        "lost, also after a restart (default: venue-CAFE.db beside the table store)")
    v.add_argument("--title", help="the page's title (default: the café's name)")
    v.add_argument("--cert", type=user_path, metavar="FILE",
                   help="serve the page over HTTPS with this certificate (PEM, the chain; docs/venue.md)")
    v.add_argument("--key", type=user_path, metavar="FILE",
                   help="the certificate's private key (PEM), unless it is in the --cert file")
    v.set_defaults(func=cmd_venue)
    actions = v.add_subparsers(dest="venue_action", metavar="enable|disable",
                               help="(on a table) open the service's network to the café's broker, or close it")
    for name, helped in (("enable", "let the installed service reach the config's [venue] broker (and only it)"),
                         ("disable", "close the installed service's network again (no venue mode)")):
        a = actions.add_parser(name, help=helped)
        if name == "enable":
            a.add_argument("--config", type=user_path, default="/etc/companion/companion.toml",
                           help="the table's config, whose [venue] broker it opens to (default: %(default)s)")
        a.add_argument("--root", type=user_path, default="/", help="write the files under this folder instead of / "
                       "(commands are then only printed)")
        a.add_argument("--no-restart", action="store_true", help="do not restart a running service")
        a.set_defaults(func=cmd_venue_unit, venue_action=name)
