"""Sealed files (companion.core.sealed): the compiled dataclass methods and a game's resume
point are read back whole or not at all, and written without tearing or following links."""

from __future__ import annotations

import os
import threading

from companion.core import codecache, sealed

MAGIC = b"TEST\x01"


def test_what_is_written_reads_back_and_a_damaged_or_foreign_file_does_not(tmp_path):
    path = tmp_path / "kept"
    sealed.write(path, MAGIC, b"body" * 100)
    assert sealed.read(path, MAGIC) == b"body" * 100
    assert sealed.read(path, b"TEST\x02") is None  # another format
    data = path.read_bytes()
    path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    assert sealed.read(path, MAGIC) is None  # one flipped bit
    path.write_bytes(data[:20])
    assert sealed.read(path, MAGIC) is None  # torn
    assert sealed.read(tmp_path / "missing", MAGIC) is None
    assert [p.name for p in tmp_path.iterdir()] == ["kept"]  # no temporary file left


def test_a_file_over_the_limit_or_not_a_regular_one_is_not_read(tmp_path):
    path = tmp_path / "kept"
    sealed.write(path, MAGIC, b"x" * 1000)
    assert sealed.read(path, MAGIC, limit=500) is None
    assert sealed.read(tmp_path, MAGIC) is None  # a folder
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(sealed.read(fifo, MAGIC)), daemon=True)
    reader.start()
    reader.join(5.0)
    hung = reader.is_alive()
    if hung:
        os.close(os.open(fifo, os.O_WRONLY))
    assert not hung and got == [None]


def test_a_link_in_the_temporary_files_place_is_not_written_through(tmp_path):
    victim = tmp_path / "someone-elses"
    victim.write_text("keep me")
    path = tmp_path / "kept"
    (tmp_path / f".kept.{os.getpid()}.tmp").symlink_to(victim)
    sealed.write(path, MAGIC, b"body")
    assert victim.read_text() == "keep me" and sealed.read(path, MAGIC) == b"body"


def test_the_dataclass_code_cache_is_not_read_from_a_fifo(tmp_path):
    path = tmp_path / "cache.marshal"
    os.mkfifo(path)
    got = []
    reader = threading.Thread(target=lambda: got.append(codecache.load(path)), daemon=True)
    reader.start()
    reader.join(5.0)
    hung = reader.is_alive()
    if hung:
        os.close(os.open(path, os.O_WRONLY))
    assert not hung and got == [{}]
