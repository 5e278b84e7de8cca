"""``companion doctor``'s venue checks: can this table's messages reach the café's broker?

Nothing is said without a ``[venue] broker`` (a table at home). Otherwise, in the order to fix them:

- **Venue network**: the installed service's drop-in opens the network to the broker
  (``venue-network.conf`` from ``companion venue enable``, its allowed addresses holding the
  broker's address as it resolves now), not ``no-network.conf``;
- **Venue broker**: something answers at the broker's address and port;
- **Venue TLS** (``mqtts://``): the broker's certificate is signed by the CA file and names
  the broker;
- **Venue login** and **Venue writes**: the broker takes the table's user and password, and
  a probe message (QoS 1, MQTT 5, on ``sugar/<venue>/probe/<table>``, a topic the shipped
  ACL lets each table write and nobody reads) is acknowledged without "Not authorized".
  While the service runs these two are not tried (the broker gives a login one connection
  at a time: a second one would knock the table off): the running table's own word is
  read instead (``<store>-venue.json``, written by its publisher when its link changes);
- **Venue outbox**: how many messages wait in the game store for the broker, against its
  bound (:data:`companion.venue.outbox.LIMIT`).

The words are :mod:`companion.venue.link`'s, the ones the table's panel shows.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

@dataclass(frozen=True)
class Check:
    """One line of the doctor's report (the fields of
    :class:`companion.service.doctor_pi.Check`, which the report reads)."""

    name: str
    status: str
    detail: str
    fix: str = ""

#: Seconds each network step may take.
TIMEOUT = 4.0


def link_file(store: str | Path) -> Path:
    """Where a running table's publisher says how its link is (JSON)."""
    store = Path(store)
    return store.with_name(store.name + "-venue.json")


def probe_topic(venue: str, table: str) -> str:
    """The topic the doctor's probe is published on (the shipped ACL allows it)."""
    return f"sugar/{venue}/probe/{table}"


def _settings(cfg: dict):
    from .settings import VenueSettings

    v = cfg["venue"]
    return VenueSettings.parse(v["broker"], v["table"], v["name"], username=v["user"],
                               password_file=v["password_file"], ca_file=v["ca_file"])


def check_venue(cfg: dict, store: str, root: Path = Path("/"), service_running: bool = False,
                unit_installed: bool | None = None, probe: Callable | None = None) -> list[Check]:
    """Every venue check (see the module docstring); ``probe`` stands in for the MQTT
    login and probe message (tests)."""
    if not cfg["venue"]["broker"]:
        return []  # a table at home: nothing to say about cafés
    try:
        settings = _settings(cfg)
    except ValueError as err:
        return [Check("Venue", "fail", str(err), "fix [venue] in the config (hardware/companion.toml.example)")]
    from . import link as words

    broker = settings.broker
    checks = [check_network(broker, root, unit_installed)]
    try:
        sock = socket.create_connection((broker.host, broker.port), timeout=TIMEOUT)
    except OSError as err:
        p = words.diagnose(err, broker)
        checks.append(Check("Venue broker", "fail", p.detail, p.fix))
        checks.append(Check("Venue login", "skip", "not tried: the broker cannot be reached"))
        return checks + [check_outbox(store)]
    checks.append(Check("Venue broker", "ok", f"something answers at {broker.host}:{broker.port}"))
    tls = check_tls(broker, sock)
    if tls is not None:
        checks.append(tls)
        if tls.status == "fail":
            return checks + [Check("Venue login", "skip", "not tried: TLS failed"), check_outbox(store)]
    else:
        sock.close()
    if service_running:
        checks += running_table(store)
    else:
        checks += (probe or login_and_probe)(settings)
    return checks + [check_outbox(store)]


def check_network(broker, root: Path, unit_installed: bool | None) -> Check:
    """The installed service's network drop-in lets it reach the broker."""
    from .unit import PRIVATE, installed_allow

    if unit_installed is None:
        unit_installed = (root / "etc/systemd/system/companion.service").exists()
    if not unit_installed:
        return Check("Venue network", "skip", "the companion service is not installed here")
    fix = "sudo companion venue enable (then sudo systemctl restart companion)"
    state = installed_allow(root)
    if state is None or state[0] == "closed":
        said = "its network is closed (no-network.conf)" if state else "no venue-network.conf: it may open no " \
               "Internet socket"
        return Check("Venue network", "fail", f"the service cannot reach the broker: {said}", fix)
    allowed = state[1]
    try:
        addresses = {info[4][0].split("%")[0] for info in socket.getaddrinfo(broker.host, broker.port,
                                                                             type=socket.SOCK_STREAM)}
    except OSError:
        return Check("Venue network", "warn", f"the service's network is open to {', '.join(allowed)}; "
                     f"{broker.host} does not resolve now, so it cannot be compared", "")
    nets = []
    for entry in allowed:
        try:
            nets.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            pass  # localhost, link-local...: systemd's words
    missing = sorted(a for a in addresses if not ipaddress.ip_address(a).is_loopback
                     and not any(ipaddress.ip_address(a) in n for n in nets))
    if missing:
        return Check("Venue network", "fail", f"the broker {broker.host} is at {', '.join(missing)} now, which the "
                     f"service may not reach (it may reach {', '.join(allowed)})",
                     fix + "; give the broker a fixed address so it stays right")
    wide = set(PRIVATE) <= set(allowed)
    return Check("Venue network", "ok", f"the service may reach the broker ({', '.join(sorted(addresses))})"
                 + (" and the café's private networks" if wide else " and nothing else"))


def check_tls(broker, sock: socket.socket) -> Check | None:
    """The broker's certificate against the CA file (None for ``mqtt://``)."""
    if not broker.tls:
        return None
    from . import link as words

    context = ssl.create_default_context(cafile=broker.ca_file)
    try:
        context.wrap_socket(sock, server_hostname=broker.host).close()  # the handshake, within the socket's timeout
    except OSError as err:
        p = words.diagnose(err, broker)
        return Check("Venue TLS", "fail", p.detail, p.fix)
    return Check("Venue TLS", "ok", f"the broker's certificate is signed by {broker.ca_file or 'a CA this system trusts'}"
                 f" and names {broker.host}")


def login_and_probe(settings) -> list[Check]:
    """Log in as the table (MQTT 5) and publish one probe message with QoS 1."""
    import paho.mqtt.client as mqtt

    from . import link as words

    broker = settings.broker
    got: dict = {}
    done = threading.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"sugar-{settings.venue}-{settings.table}-doctor",
                         protocol=mqtt.MQTTv5, reconnect_on_failure=False)
    broker.configure(client)
    client.connect_timeout = TIMEOUT

    def on_connect(c, u, flags, reason, props):
        got["connack"] = reason
        if reason.is_failure:
            done.set()
        else:
            got["mid"] = c.publish(probe_topic(settings.venue, settings.table), b'{"probe": true}', qos=1).mid

    def on_publish(c, u, mid, reason, props):
        got["puback"] = reason
        done.set()

    client.on_connect, client.on_publish = on_connect, on_publish
    try:
        client.connect(broker.host, broker.port, keepalive=10, clean_start=True)
        client.loop_start()
        done.wait(TIMEOUT)
    except OSError as err:
        p = words.diagnose(err, broker)
        return [Check("Venue login", "fail", p.detail, p.fix)]
    finally:
        client.disconnect()
        client.loop_stop()
    return probe_checks(got, settings)


def probe_checks(got: dict, settings) -> list[Check]:
    """The login's and the probe's results in words."""
    from . import link as words

    broker, who = settings.broker, settings.broker.username or "no user name"
    connack = got.get("connack")
    if connack is None:
        return [Check("Venue login", "fail", "the broker did not answer the login in time", "is that port the "
                      "broker's MQTT port? (mqtts:// needs its TLS port)")]
    if connack.is_failure:
        p = words.refused_login(connack, broker)
        return [Check("Venue login", "fail", p.detail, p.fix)]
    checks = [Check("Venue login", "ok", f"the broker takes this table's login ({who})")]
    puback = got.get("puback")
    topic = probe_topic(settings.venue, settings.table)
    if puback is None:
        checks.append(Check("Venue writes", "fail", f"the broker did not acknowledge a probe on {topic}", ""))
    elif puback.is_failure:
        p = words.denied(topic, broker, settings.table, settings.venue)
        checks.append(Check("Venue writes", "fail", p.detail + " (the table's own topics are refused the same way)",
                            p.fix + "; the ACL's probe line: pattern write sugar/<venue>/probe/%u"))
    else:
        checks.append(Check("Venue writes", "ok", f"a probe on {topic} was acknowledged (QoS 1): this login may "
                            "write its table's topics"))
    return checks


def running_table(store: str) -> list[Check]:
    """The running table's word on its link (its publisher's ``-venue.json``)."""
    try:
        said = json.loads(link_file(store).read_text(encoding="utf-8"))
        status, at = said["status"], float(said["at"])
    except (OSError, ValueError, KeyError, TypeError):
        return [Check("Venue login", "warn", "the companion service runs, and has not said how its venue link is "
                      f"({link_file(store)} missing)", "look at the panel's top bar, or: journalctl -t companion "
                      "| grep venue")]
    since = time.strftime("%H:%M", time.localtime(at))
    if status == "connected":
        return [Check("Venue login", "ok", f"the running table is logged in to the broker (since {since}); not "
                      "tried again, as the broker takes a login once"),
                Check("Venue writes", "ok", "the broker takes the running table's messages")]
    if status == "connecting":
        return [Check("Venue link", "warn", f"the running table is still trying to reach the broker for the first "
                      f"time (since {since})", "run companion doctor again in a minute; the panel's top bar says why")]
    return [Check("Venue link", "fail", f"the running table says (since {since}): {said.get('detail', status)}",
                  said.get("fix", ""))]


def check_outbox(store: str) -> Check:
    """How many messages wait for the broker in the game store."""
    from ..core.errors import StoreError
    from ..core.store import EventStore
    from .outbox import LIMIT, WARN_AT

    if not Path(store).exists():
        return Check("Venue outbox", "ok", "no game store yet: nothing waiting")
    try:
        db = EventStore(store, readonly=True)
        try:
            waiting = db.query("SELECT COUNT(*) FROM outbox WHERE sent = 0")[0][0]
        finally:
            db.close()
    except (StoreError, OSError) as err:
        return Check("Venue outbox", "warn", f"cannot read the outbox: {err}", "")
    said = f"{waiting:,} message(s) waiting for the broker (at most {LIMIT:,})"
    if waiting >= LIMIT:
        return Check("Venue outbox", "fail", said + ": full, new events are not queued (the games are stored as "
                     "always)", "get the table back on the broker (the checks above say why it is not)")
    if waiting >= WARN_AT:
        return Check("Venue outbox", "warn", said, "get the table back on the broker before it is full")
    return Check("Venue outbox", "ok", said)
