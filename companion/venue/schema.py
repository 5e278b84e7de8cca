"""Every venue message checked against its topic's JSON Schema before anything reads it.

One schema per topic a table publishes (``status``, ``events``, ``result``), kept as data
beside this module (``schemas/<aspect>.schema.json``, JSON Schema draft 2020-12) and
published in ``docs/venue.md``. Each message is checked by the schema compiled to Python
code by ``fastjsonschema`` (the schemas use only keywords of draft 7, which it knows as
well as ``jsonschema`` does: tests/test_venue_schema.py holds the two to the same answers);
``jsonschema`` says where a refused message departs from its schema (:func:`why`, for
the log). Compiled, a status takes tens of microseconds, not a millisecond: the
dashboard's one network thread reads every table's messages, and on a Pi it must keep up
with 50 of them. The dashboard reads
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
import re
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


@lru_cache(maxsize=None)
def _compiled(aspect: str):
    """The topic's schema as a Python function (``fastjsonschema``): it returns the
    message or raises ``JsonSchemaException``."""
    import copy

    import fastjsonschema

    return fastjsonschema.compile(copy.deepcopy(schema(aspect)))  # (it rewrites the $refs it is given)


#: A JSON escape of a UTF-16 surrogate: the only way text read by ``json.loads`` can hold
#: one (a lone one cannot be written out as UTF-8 again).
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


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
    _check(aspect, msg, _SURROGATE.search(text) is not None)
    return msg


def check(aspect: str, msg: Any) -> None:
    """Raise :class:`Unreadable` unless ``msg`` is what topic ``aspect``'s schema describes
    (and can be written out as UTF-8 again)."""
    _check(aspect, msg, True)


def _check(aspect: str, msg: Any, surrogates: bool) -> None:
    """:func:`check`; ``surrogates`` False: the text had no surrogate escape, so the
    message needs no writing out to prove it is UTF-8."""
    from fastjsonschema import JsonSchemaException

    try:
        _compiled(aspect)(msg)
    except RecursionError:
        raise Unreadable("nested too deep") from None
    except JsonSchemaException:
        raise Unreadable(f"not a valid {aspect} message") from None
    if not surrogates:
        return
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
