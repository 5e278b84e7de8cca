"""The service's network, opened for venue mode and closed again: ``companion venue
enable`` / ``disable`` (and ``hardware/install.sh``, which runs ``enable`` when the config
has a ``[venue]`` broker).

The unit (``systemd/companion.service``) allows only ``AF_UNIX`` and ``AF_NETLINK``
sockets: the table opens no network socket. Without a venue the installer adds
``no-network.conf`` (every IP address denied; no ``PrivateNetwork=``, which would cut
SDL's udev hotplug events). Venue mode needs
TCP to the café's broker, so ``enable`` replaces that drop-in with ``venue-network.conf``:

- ``RestrictAddressFamilies`` reset and set again with ``AF_INET`` and ``AF_INET6`` added;
- ``IPAddressDeny=any`` and ``IPAddressAllow=`` only for ``localhost`` (paho-mqtt wakes its
  network thread through a TCP socket pair on 127.0.0.1, and systemd-resolved listens on
  127.0.0.53) and the broker:

  * a broker given as an IP address: that address;
  * a name that resolves now: the addresses it resolves to now, and the name servers of
    ``/etc/resolv.conf`` (the name is looked up again at every connection). If the
    broker's address changes later (a DHCP lease), the table says "Venue: blocked" and
    ``companion doctor`` says to run ``enable`` again: give the broker a fixed address;
  * a name that does not resolve now: the private networks (10/8, 172.16/12,
    192.168/16, 169.254/16, fc00::/7, fe80::/10) and the name servers, so a café's own
    network works and the internet stays closed; ``enable`` says so.

``disable`` puts ``no-network.conf`` back. Both run ``systemctl daemon-reload`` and
restart a running service (``--no-restart``: the installer does that itself). Under
``root`` other than ``/`` files are written there and commands only printed.
"""

from __future__ import annotations

import ipaddress
import socket
import subprocess
import tomllib
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

DROPIN_DIR = "/etc/systemd/system/companion.service.d"
OPEN = "venue-network.conf"
CLOSED = "no-network.conf"
#: The private networks allowed for a broker name that does not resolve at enable time.
PRIVATE = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "fc00::/7", "fe80::/10")

#: systemd/no-network.conf, word for word (tests/test_systemd_unit.py checks they agree):
#: the package has to be able to put it back without the source folder.
NO_NETWORK = """\
# The Sugar Table Companion opens no network socket unless a café's venue (MQTT) is
# configured. hardware/install.sh installs this as
# /etc/systemd/system/companion.service.d/no-network.conf when /etc/companion/companion.toml
# has no [venue] section, and removes it when it has one.
# Not PrivateNetwork=yes: a private network namespace also cuts the kernel's udev netlink
# events, so SDL never saw a touch panel or keyboard plugged in (or re-enumerated) after
# the start. No IP socket can be made (RestrictAddressFamilies) and no IP packet pass
# (IPAddressDeny); AF_NETLINK stays for libudev's device list and hotplug monitor.
[Service]
IPAddressDeny=any
RestrictAddressFamilies=AF_UNIX AF_NETLINK
"""


class VenueUnitError(Exception):
    """Something the host must fix first (the message says what)."""


def broker_host(url: str) -> tuple[str, int]:
    """``(host, port)`` of ``mqtt[s]://HOST[:PORT]``. Raises :class:`VenueUnitError`."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise VenueUnitError(f"[venue] broker = {url!r}: give mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
    return parts.hostname, port or (8883 if parts.scheme == "mqtts" else 1883)


def config_broker(config: Path) -> str | None:
    """The ``[venue] broker`` of the config file (None when it has none)."""
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise VenueUnitError(f"cannot read {config}: {getattr(err, 'strerror', None) or err}") from None
    venue = data.get("venue")
    broker = venue.get("broker") if isinstance(venue, dict) else None
    return broker if isinstance(broker, str) and broker else None


def name_servers(resolv_conf: str) -> list[str]:
    """The ``nameserver`` addresses of a resolv.conf text (zone ids dropped)."""
    found = []
    for line in resolv_conf.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "nameserver":
            try:
                found.append(str(ipaddress.ip_address(words[1].split("%")[0])))
            except ValueError:
                pass
    return found


def _resolve(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return sorted({info[4][0].split("%")[0] for info in infos})


def allowed(host: str, port: int, resolv_conf: str = "",
            resolve: Callable[[str, int], list[str]] = _resolve) -> tuple[list[str], str]:
    """The ``IPAddressAllow=`` entries for a broker at ``host`` (besides localhost), and a
    sentence saying what was chosen and why (see the module docstring)."""
    try:
        return [str(ipaddress.ip_address(host))], f"the broker's address {host}"
    except ValueError:
        pass
    servers = [s for s in name_servers(resolv_conf) if not ipaddress.ip_address(s).is_loopback]
    try:
        addresses = resolve(host, port)
    except OSError:
        addresses = []
    if addresses:
        return sorted(set(addresses) | set(servers)), (
            f"{host} as it resolves now ({', '.join(addresses)})"
            + (f" and the name servers ({', '.join(servers)})" if servers else "")
            + ": if the broker's address changes, run `sudo companion venue enable` again")
    return list(PRIVATE) + servers, (
        f"{host} does not resolve now: the café's private networks are allowed instead "
        f"({', '.join(PRIVATE)}), the internet stays closed; run `sudo companion venue enable` again once "
        "it resolves to pin it to the broker")


def dropin_text(url: str, entries: list[str], why: str) -> str:
    """``venue-network.conf`` for the broker ``url`` and its ``IPAddressAllow`` entries."""
    lines = [
        "# Venue mode: the table sends what its shared screen shows to the café's broker over TCP.",
        f"# Written by `companion venue enable` for [venue] broker = \"{url}\": the network is open",
        f"# to localhost and {why.split(':')[0]}, nothing else.",
        "# `sudo companion venue disable` closes it again (no-network.conf).",
        "[Service]",
        "RestrictAddressFamilies=",
        "RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6",
        "IPAddressDeny=any",
        "IPAddressAllow=localhost",
        *(f"IPAddressAllow={entry}" for entry in entries),
    ]
    return "\n".join(lines) + "\n"


def _write(path: Path, text: str, said: list[str]) -> bool:
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        said.append(f"already right: {path}")
        return False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        path.chmod(0o644)
    except PermissionError:
        raise VenueUnitError(f"cannot write {path}: run it as root (sudo companion venue ...)") from None
    said.append(f"wrote {path}")
    return True


def _remove(path: Path, said: list[str]) -> bool:
    if not path.exists():
        return False
    try:
        path.unlink()
    except PermissionError:
        raise VenueUnitError(f"cannot remove {path}: run it as root (sudo companion venue ...)") from None
    said.append(f"removed {path}")
    return True


def _reload(root: Path, restart: bool, said: list[str],
            run: Callable[[list[str]], None] | None = None) -> None:
    commands = [["systemctl", "daemon-reload"]] + ([["systemctl", "try-restart", "companion.service"]]
                                                   if restart else [])
    for argv in commands:
        if root != Path("/"):
            said.append("not run (--root): " + " ".join(argv))
            continue
        said.append("running: " + " ".join(argv))
        (run or (lambda a: subprocess.run(a, check=False)))(argv)


def enable(config: Path, root: Path = Path("/"), restart: bool = True,
           resolve: Callable[[str, int], list[str]] = _resolve,
           run: Callable[[list[str]], None] | None = None) -> list[str]:
    """Open the service's network to the config's ``[venue] broker`` (module docstring).
    Returns what was done, line by line. Raises :class:`VenueUnitError`."""
    url = config_broker(config if root == Path("/") else root / str(config).lstrip("/"))
    if url is None:
        raise VenueUnitError(f"{config} has no [venue] broker: add [venue] broker = \"mqtt://HOST\" and "
                             "table = \"table-N\" first (hardware/companion.toml.example shows them)")
    host, port = broker_host(url)
    try:
        resolv = (root / "etc/resolv.conf").read_text(encoding="utf-8", errors="replace")
    except OSError:
        resolv = ""
    entries, why = allowed(host, port, resolv, resolve)
    folder = root / DROPIN_DIR.lstrip("/")
    said: list[str] = []
    changed = _write(folder / OPEN, dropin_text(url, entries, why), said)
    changed = _remove(folder / CLOSED, said) or changed
    said.append(f"the service may reach localhost and {why}")
    if changed:
        _reload(root, restart, said, run)
    return said


def disable(root: Path = Path("/"), restart: bool = True, run: Callable[[list[str]], None] | None = None) -> list[str]:
    """Close the service's network again (``no-network.conf`` back in place)."""
    folder = root / DROPIN_DIR.lstrip("/")
    said: list[str] = []
    changed = _remove(folder / OPEN, said)
    changed = _write(folder / CLOSED, NO_NETWORK, said) or changed
    said.append("the service opens no network socket (a [venue] in the config can no longer reach its broker)")
    if changed:
        _reload(root, restart, said, run)
    return said


def installed_allow(root: Path = Path("/")) -> tuple[str, list[str]] | None:
    """What the installed drop-ins say: ``("open", [IPAddressAllow entries])`` with
    venue-network.conf, ``("closed", [])`` with no-network.conf, None with neither."""
    folder = root / DROPIN_DIR.lstrip("/")
    if (folder / CLOSED).exists():
        return "closed", []
    try:
        text = (folder / OPEN).read_text(encoding="utf-8")
    except OSError:
        return None
    return "open", [line.split("=", 1)[1].strip() for line in text.splitlines()
                    if line.startswith("IPAddressAllow=")]
