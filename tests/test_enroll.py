"""Enrolling NFC stickers through the real PN532 reader on its pty emulator."""

import queue
import threading

from companion.core.clock import SystemClock
from companion.core.enrolment import Enrolments
from companion.core.store import EventStore
from companion.devices.emulated.pn532 import EmulatedPn532
from companion.devices.scan.pn532 import Pn532Reader
from companion.cards.enroll import enroll
from companion.games.sugarrr.parts.cards import CARDS
from sugarrr_helpers import fruit, salad


def test_each_scanned_card_is_paired_with_the_next_sticker_and_read_back_in_a_game(tmp_path):
    store = EventStore(tmp_path / "t.db")
    enrolments = Enrolments(store)
    uids: queue.Queue = queue.Queue()
    events: queue.Queue = queue.Queue()
    emulator = EmulatedPn532()
    reader = Pn532Reader(emulator.path, events, SystemClock(), on_uid=uids.put, poll_interval=0.02)
    reader.start()
    said = []
    codes = [fruit("Pear", 4), "SRXXXX", salad(3)]
    tags = {fruit("Pear", 4): bytes.fromhex("04A1B2C3D4E5F6"), salad(3): bytes.fromhex("04010203040506")}

    def place_when_asked(message):
        said.append(message)
        for code, uid in tags.items():
            if message.startswith(CARDS[code].name) and "place a blank sticker" in message:
                emulator.lift()
                threading.Timer(0.1, emulator.place, args=(uid,)).start()

    try:
        n = enroll(codes, uids, enrolments, "sugarrr", CARDS, SystemClock(), place_when_asked, tag_timeout=5)
    finally:
        reader.stop()
        emulator.close()
    assert n == 2
    assert any("did not read right" in m for m in said)
    assert enrolments.code_for("04A1B2C3D4E5F6") == fruit("Pear", 4)
    assert enrolments.code_for("04010203040506") == salad(3)
    assert "Sticker 04A1B2C3D4E5F6 is now Pear 4" in " ".join(said)
    # A game reads the sticker as the card: uid_to_code from the enrolments.
    events2: queue.Queue = queue.Queue()
    emulator2 = EmulatedPn532()
    table = {e.uid: e.code for e in Enrolments(EventStore(tmp_path / "t.db")).all("sugarrr")}
    reader2 = Pn532Reader(emulator2.path, events2, SystemClock(), uid_to_code=table.get, poll_interval=0.02)
    reader2.start()
    try:
        emulator2.place(bytes.fromhex("04010203040506"))
        while True:
            item = events2.get(timeout=5)
            if type(item).__name__ == "CardScanned":
                break
        assert item.code == salad(3)
    finally:
        reader2.stop()
        emulator2.close()


def test_nfc_write_puts_the_code_on_a_blank_sticker_and_a_reader_then_reads_it():
    from companion.cards.nfc_write import write_code

    emulator = EmulatedPn532()
    try:
        emulator.place(bytes.fromhex("04AABBCCDDEEFF"))  # a blank, NDEF-formatted NTAG213
        said = []
        assert write_code(emulator.path, salad(7), wait=5, say=said.append) == 0
        assert "now reads " + salad(7) in said[-1]
        assert write_code(emulator.path, "SRNOPE", wait=1, say=said.append) == 2
        events: queue.Queue = queue.Queue()
        reader = Pn532Reader(emulator.path, events, SystemClock(), poll_interval=0.02)
        reader.start()
        try:
            while True:
                item = events.get(timeout=5)
                if type(item).__name__ == "CardScanned":
                    break
            assert item.code == salad(7)  # from the NDEF text record: no enrolment needed
        finally:
            reader.stop()
    finally:
        emulator.close()
