"""Where a table (or the dashboard) finds the café's broker: ``mqtt://HOST[:PORT]`` or
``mqtts://HOST[:PORT]`` (TLS, checked against a CA file), with an optional user name and a
password read from a file (never typed on a command line, where ``ps`` shows it).

>>> s = VenueSettings.parse("mqtt://broker.local", table="table-3", venue="corner-cafe")
>>> s.broker.host, s.broker.port, s.broker.tls, s.topic("status")
('broker.local', 1883, False, 'sugar/corner-cafe/tables/table-3/status')
>>> VenueSettings.parse("mqtts://10.0.0.2:8883", table="t1").broker.port
8883
>>> VenueSettings.parse("http://x", table="t1")
Traceback (most recent call last):
...
ValueError: --venue http://x: the broker is mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (TLS), e.g. mqtt://192.168.1.20
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

#: MQTT's registered ports: 1883 plain, 8883 over TLS.
PLAIN_PORT, TLS_PORT = 1883, 8883
#: A table's or a venue's name: it is one level of an MQTT topic, so no ``/``, ``+`` or ``#``.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
DEFAULT_VENUE = "cafe"
ROOT = "sugar"


def check_name(value: str, flag: str) -> str:
    """``value`` if it can be a topic level (letters, digits, ``-`` and ``_``, at most 40);
    raises ValueError naming ``flag`` otherwise."""
    if not isinstance(value, str) or not NAME.fullmatch(value):
        raise ValueError(f"{flag} {value!r}: use letters, digits, - and _ (at most 40), e.g. table-3")
    return value


@dataclass(frozen=True)
class Broker:
    """An MQTT broker's address and credentials. ``password_file`` holds the password
    on its first line; ``ca_file`` the PEM certificate(s) a ``mqtts://`` broker is checked
    against (None: the system's)."""

    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password_file: str | None = None
    ca_file: str | None = None

    @classmethod
    def parse(cls, url: str, flag: str = "--venue", **kw) -> "Broker":
        """Read ``mqtt://HOST[:PORT]`` / ``mqtts://HOST[:PORT]``. Raises ValueError with a
        message naming ``flag``; a password or CA file that cannot be read is an error
        now, not at the first connection."""
        parts = urlsplit(url or "")
        try:
            port = parts.port
        except ValueError:
            port = -1
        if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname or port == -1 or \
                parts.path not in ("", "/") or parts.query or parts.password:
            raise ValueError(f"{flag} {url}: the broker is mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (TLS), "
                             "e.g. mqtt://192.168.1.20")
        tls = parts.scheme == "mqtts"
        broker = cls(parts.hostname, port or (TLS_PORT if tls else PLAIN_PORT), tls,
                     kw.get("username") or parts.username, kw.get("password_file"), kw.get("ca_file"))
        broker.password()  # raises now for an unreadable file
        if broker.ca_file and not Path(broker.ca_file).is_file():
            raise ValueError(f"the CA file {broker.ca_file} does not exist: give the broker's CA certificate (PEM)")
        if broker.ca_file and not tls:
            raise ValueError(f"a CA file is for a TLS broker: write mqtts://{parts.hostname}:{port or TLS_PORT}")
        return broker

    def password(self) -> str | None:
        """The password's first line from :attr:`password_file` (None when there is no
        file). Raises ValueError when it cannot be read."""
        if not self.password_file:
            return None
        from ..core.files import read_text

        text = read_text(self.password_file, "the password file", 64 * 1024)  # regular files only, bounded
        lines = text.splitlines()
        if not lines or not lines[0]:
            raise ValueError(f"the password file {self.password_file} is empty: put the password on its first line")
        return lines[0]

    def url(self) -> str:
        """The broker as a URL, without credentials (for messages and logs)."""
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"

    def configure(self, client) -> None:
        """Set a paho-mqtt ``Client``'s credentials and TLS from these settings."""
        if self.username:
            client.username_pw_set(self.username, self.password())
        if self.tls:
            client.tls_set(ca_certs=self.ca_file)


@dataclass(frozen=True)
class VenueSettings:
    """A table in venue mode: its broker, the café's name and its own (both topic levels)."""

    broker: Broker
    venue: str
    table: str

    @classmethod
    def parse(cls, url: str, table: str | None, venue: str | None = None, **kw) -> "VenueSettings":
        """Settings from ``--venue URL --table NAME [--venue-name CAFE]`` (or the config's
        ``[venue]``). Raises ValueError with a message for the user."""
        if not table:
            raise ValueError("--venue needs --table NAME: each table of the café has its own name, e.g. table-3")
        return cls(Broker.parse(url, **kw), check_name(venue or DEFAULT_VENUE, "--venue-name"),
                   check_name(table, "--table"))

    def topic(self, aspect: str) -> str:
        """``sugar/<venue>/tables/<table>/<aspect>`` (status, events or result)."""
        return f"{ROOT}/{self.venue}/tables/{self.table}/{aspect}"


def venue_filter(venue: str) -> str:
    """The subscription for every table of a venue (``sugar/<venue>/tables/+/+``)."""
    return f"{ROOT}/{venue}/tables/+/+"


def split_topic(topic: str) -> tuple[str, str, str] | None:
    """``(venue, table, aspect)`` of a table topic, or None for any other topic."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or parts[2] != "tables":
        return None
    return parts[1], parts[3], parts[4]
