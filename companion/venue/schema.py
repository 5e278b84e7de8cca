"""Every venue message checked against its topic's JSON Schema before anything reads it.

One schema per topic a table publishes (``status``, ``events``, ``result``), kept as data
beside this module (``schemas/<aspect>.schema.json``, JSON Schema draft 2020-12, checked
with the ``jsonschema`` library) and published in ``docs/venue.md``. The dashboard reads
every incoming payload with :func:`read` (and every line of its ``--history`` file); the
table's publisher checks each message before it sends it. :func:`read` refuses, with
:class:`Unreadable`:

- a payload over :data:`MAX_BYTES` (before it is parsed: a 50 MB status would hold the
  dashboard's one network thread, and with it every other table, for seconds);
- bytes that are not UTF-8, text that is not JSON, JSON nested past Python's recursion
  limit, ``NaN``/``Infinity`` (a browser's ``JSON.parse`` refuses them) and text with a
  lone surrogate (it cannot be written back out as UTF-8);
- a message its topic's schema does not describe: a field missing, of the wrong type,
  out of range or unknown.

>>> read("events", b'not json')
Traceback (most recent call last):
...
companion.venue.schema.Unreadable: not JSON
>>> read("status", b'{"v": 1, "venue": "cafe", "table": "t1", "online": false, "will": true}')["will"]
True
>>> read("status", b'{"clocks": {"turn": "soon"}}')
Traceback (most recent call last):
...
companion.venue.schema.Unreadable: not a valid status message
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

#: The topics (the last level, ``sugar/<venue>/tables/<table>/<aspect>``) a table publishes.
ASPECTS = ("status", "events", "result")
#: The topic the dashboard publishes to a table: "send these events (and this result) again".
REQUESTS = ("resend",)
#: The largest payload read (bytes). The biggest a recorded game sends is a result of
#: about 2.3 KB (Sugarrr!'s four players with their columns): 64 KiB is 25 times that.
#: The shipped Mosquitto config's ``message_size_limit`` is the same, so a bigger one
#: never leaves the broker.
MAX_BYTES = 64 * 1024
FOLDER = Path(__file__).parent / "schemas"


class Unreadable(ValueError):
    """A message no part of the dashboard may read; ``str()`` says why in a few words,
    never quoting the message (it may be anything)."""


@lru_cache(maxsize=None)
def schema(aspect: str) -> dict[str, Any]:
    """The JSON Schema of one topic (``status``, ``events``, ``result`` or ``resend``).
    Raises KeyError for another."""
    if aspect not in ASPECTS + REQUESTS:
        raise KeyError(aspect)
    return json.loads((FOLDER / f"{aspect}.schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _validator(aspect: str):
    import jsonschema  # the dashboard's and the publisher's only: kept off a table without venue mode

    return jsonschema.Draft202012Validator(schema(aspect))


def _constant(name: str):
    raise ValueError(name)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400 reads as infinity
        raise ValueError(text)
    return value


def read(aspect: str, payload: bytes) -> dict[str, Any]:
    """The message in ``payload`` on topic ``aspect``, checked (see the module docstring).
    Raises :class:`Unreadable`."""
    if aspect not in ASPECTS + REQUESTS:
        raise Unreadable("a topic the dashboard does not know")
    if len(payload) > MAX_BYTES:
        raise Unreadable(f"over {MAX_BYTES // 1024} KiB")
    try:
        text = bytes(payload).decode("utf-8")
    except UnicodeDecodeError:
        raise Unreadable("not UTF-8") from None
    try:
        msg = json.loads(text, parse_constant=_constant, parse_float=_finite)
    except (ValueError, RecursionError):
        raise Unreadable("not JSON") from None
    check(aspect, msg)
    return msg


def check(aspect: str, msg: Any) -> None:
    """Raise :class:`Unreadable` unless ``msg`` is what topic ``aspect``'s schema describes
    (and can be written out as UTF-8 again)."""
    try:
        error = next(iter(_validator(aspect).iter_errors(msg)), None)
    except RecursionError:
        raise Unreadable("nested too deep") from None
    if error is not None:
        raise Unreadable(f"not a valid {aspect} message") from None
    try:
        json.dumps(msg, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise Unreadable("not UTF-8") from None


def why(aspect: str, msg: Any) -> str:
    """Where ``msg`` first departs from its schema, for a log line: the field's path and
    the rule it breaks, at most 120 characters, never the value (``""``: it does not)."""
    from jsonschema.exceptions import best_match  # (into a oneOf: the branch it nearly matched)

    try:
        error = best_match(_validator(aspect).iter_errors(msg))
    except RecursionError:
        return "nested too deep"
    if error is None:
        return ""
    return ascii(f"{error.json_path}: {error.validator}")[1:-1][:120]
