"""A table's link to the café's broker, in words a café host reads.

The publisher's thread makes every connection itself (paho-mqtt's network thread only
carries the traffic of a connection that is up), so it sees why one fails: the name not
found, nothing answering, the service's network closed, the broker's certificate not the
café's, the login refused; and, over MQTT 5, a message the broker's ACL refused. Each
becomes a :class:`Problem`: short words for the table's top bar (``panel``), a sentence
for the log and ``companion doctor`` (``detail``), and what to do (``fix``).
``companion doctor``'s venue check (:mod:`companion.venue.checks`) uses the same
words.

>>> from companion.venue.settings import Broker
>>> b = Broker.parse("mqtt://192.168.1.20")
>>> diagnose(ConnectionRefusedError(111, "Connection refused"), b).panel
'Venue: no broker'
>>> diagnose(OSError(97, "Address family not supported by protocol"), b).fix
'sudo companion venue enable (it opens the service to the broker only), then sudo systemctl restart companion'
"""

from __future__ import annotations

import errno
import socket
import ssl
from dataclasses import dataclass

#: The widest panel words, in pixels at the smallest text size (bold): the top bar's red
#: badge for a device has 170 to 250 px in most bars (tests/test_venue_link.py measures).
PANEL_PX = 200


@dataclass(frozen=True)
class Problem:
    """Why the table's messages do not reach the broker now. ``kind``: ``name``,
    ``unreachable``, ``blocked``, ``certificate``, ``tls``, ``login``, ``refused``,
    ``denied``, ``shared``, ``outbox`` or ``error``."""

    kind: str
    panel: str
    detail: str
    fix: str

    @property
    def config(self) -> bool:
        """A problem only the host can fix (the table retries less often)."""
        return self.kind in ("certificate", "login", "denied", "blocked", "shared")


def diagnose(err: BaseException, broker) -> Problem:
    """The :class:`Problem` behind an exception of connecting to ``broker``
    (:class:`~companion.venue.settings.Broker`)."""
    where = f"{broker.host}:{broker.port}"
    if isinstance(err, ssl.SSLCertVerificationError):
        why = getattr(err, "verify_message", None) or getattr(err, "reason", None) or "not trusted"
        return Problem("certificate", "Venue: wrong CA",
                       f"the broker's certificate at {where} is not one the café's CA signed for {broker.host} ({why})",
                       "check [venue] ca_file is the café's CA certificate, and that the broker's certificate is "
                       f"signed by it and names {broker.host}")
    if isinstance(err, ssl.SSLError):
        why = getattr(err, "reason", None) or err
        return Problem("tls", "Venue: TLS failed", f"TLS with the broker at {where} failed ({why})",
                       "is that port a TLS listener? mqtts:// needs the broker's TLS port (8883); mqtt:// the plain one")
    if isinstance(err, socket.gaierror):
        return Problem("name", "Venue: no broker", f"the broker's name {broker.host} is not known on this network",
                       "check [venue] broker in the config; an address (mqtt://192.168.1.20) needs no name look-up")
    code = getattr(err, "errno", None)
    if code == errno.EAFNOSUPPORT:
        return Problem("blocked", "Venue: blocked",
                       "this table's service may not open network sockets (its unit closes the network)",
                       "sudo companion venue enable (it opens the service to the broker only), then "
                       "sudo systemctl restart companion")
    if code in (errno.EPERM, errno.EACCES):
        return Problem("blocked", "Venue: blocked",
                       f"this table's service may not reach {where} (not in its allowed addresses)",
                       "sudo companion venue enable (again, if the broker's address changed: give the broker a "
                       "fixed address)")
    if isinstance(err, ConnectionRefusedError):
        return Problem("unreachable", "Venue: no broker", f"nothing answers at {where}: the broker is not running "
                       "there, or listens on another port",
                       "start Mosquitto on the broker's computer (sudo systemctl start mosquitto) and check the port "
                       "in [venue] broker")
    if isinstance(err, (TimeoutError, socket.timeout)) or code in (errno.EHOSTUNREACH, errno.ENETUNREACH,
                                                                    errno.ETIMEDOUT, errno.EHOSTDOWN):
        return Problem("unreachable", "Venue: no broker", f"the broker at {where} does not answer: is this table on "
                       "the café's network, and the broker's computer on?",
                       "check the table's network (Wi-Fi) and the broker's computer")
    return Problem("unreachable", "Venue: no broker",
                   f"the connection to the broker at {where} failed ({getattr(err, 'strerror', None) or err})",
                   "check the table's network and the broker's computer")


def refused_login(reason, broker) -> Problem:
    """The broker answered the login (CONNACK) with the failure ``reason`` (a paho
    ``ReasonCode`` or its words)."""
    words = str(reason)
    who = f"as {broker.username}" if broker.username else "without a user name"
    if any(w in words.lower() for w in ("not authori", "user name or password", "bad authentication",
                                        "identifier not valid", "banned")):
        return Problem("login", "Venue: bad login", f"the broker refused this table's login {who} ({words})",
                       "check [venue] user and password_file against the broker's password file "
                       "(mosquitto_passwd /etc/mosquitto/sugar-cafe.passwd USER)")
    return Problem("refused", "Venue: refused", f"the broker refused the connection ({words})",
                   "look at the broker's log (journalctl -u mosquitto)")


def denied(topic: str, broker, table: str, venue: str) -> Problem:
    """The broker acknowledged a message on ``topic`` with "Not authorized": its ACL does
    not let this login write there (the message is kept and sent again later)."""
    who = broker.username or "(no user name)"
    return Problem("denied", "Venue: no access",
                   f"the broker does not let the user {who} write {topic}",
                   f"the table's broker user must be its table name ({table}) and the broker's ACL must name this "
                   f"café ({venue}): hardware/mosquitto/sugar-cafe.acl")


def shared_login(broker, table: str) -> Problem:
    """Another connection with this table's login keeps taking its place at the broker
    (a café that copied one table's SD card to a second Pi: both use one login, and the
    broker lets one connection per login, its client id, so each knocks the other off)."""
    who = broker.username or table
    return Problem("shared", "Venue: login in use",
                   f"another table is using this table's login ({who}): the broker keeps one connection per login, "
                   "so the two tables keep pushing each other off and their games reach the dashboard mixed up",
                   f"give each table its own name and broker login: on the other table set [venue] table and user "
                   f"to a name of its own (a copied SD card keeps this table's), and add that user to the broker "
                   f"(mosquitto_passwd /etc/mosquitto/sugar-cafe.passwd NAME)")


def crashed(err: BaseException) -> Problem:
    """The publisher's thread met an error it did not expect (it starts again)."""
    return Problem("error", "Venue: error", f"the venue publisher stopped after an error "
                   f"({type(err).__name__}: {err}); it starts again", "journalctl -t companion says more")
