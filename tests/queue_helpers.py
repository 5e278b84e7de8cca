"""Waiting on a session queue in device tests: shared by every reader's and sensor's tests."""

from __future__ import annotations

import queue
import time

import pytest

from companion.core.events import DeviceStatus


def drain(q: queue.Queue) -> list:
    """Everything on the queue now, without waiting."""
    items = []
    while True:
        try:
            items.append(q.get_nowait())
        except queue.Empty:
            return items


def next_status(q: queue.Queue, status: str, timeout: float = 3.0) -> DeviceStatus:
    """The next DeviceStatus with ``status``, skipping anything else; fails on timeout."""
    deadline = time.monotonic() + timeout
    while (remaining := deadline - time.monotonic()) > 0:
        try:
            item = q.get(timeout=remaining)
        except queue.Empty:
            break
        if isinstance(item, DeviceStatus) and item.status == status:
            return item
    pytest.fail(f"no {status!r} DeviceStatus within {timeout} s")
