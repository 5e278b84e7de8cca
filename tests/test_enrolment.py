"""NFC enrolment: blank tags paired with cards, kept in the event store's file."""

import pytest

from companion.core.enrolment import Enrolment, Enrolments
from companion.core.errors import BadScan
from companion.core.store import EventStore

TAG_A = "04A224B2C35E80"
TAG_B = "04:11:22:33:44:55:66"


def test_an_enrolled_tag_survives_closing_and_reopening_the_store(tmp_path):
    store = EventStore(tmp_path / "table.db")
    Enrolments(store).enrol(TAG_A, "SRS71M", "sugarrr", t=10.0)
    store.close()
    again = Enrolments(EventStore(tmp_path / "table.db"))
    assert again.code_for(TAG_A) == "SRS71M"
    assert again.all() == [Enrolment(TAG_A, "SRS71M", "sugarrr", 10.0)]


def test_enrolments_live_beside_the_games_without_disturbing_them(tmp_path):
    store = EventStore(tmp_path / "table.db")
    gid = store.new_game("sugarrr", ["Ana", "Ben"], 0.0)
    Enrolments(store).enrol(TAG_A, "SRS71M", "sugarrr", t=1.0)
    Enrolments(store)  # a second view of the same store: the table is already there
    assert [g.id for g in store.games()] == [gid]


def test_enrolling_a_tag_again_replaces_its_card():
    tags = Enrolments(EventStore(":memory:"))
    assert tags.enrol(TAG_A, "SRS71M", "sugarrr", t=1.0) is None
    assert tags.enrol(TAG_A, "SRS72K", "sugarrr", t=2.0) == "SRS71M"
    assert tags.code_for(TAG_A) == "SRS72K"
    assert tags.all() == [Enrolment(TAG_A, "SRS72K", "sugarrr", 2.0)]


def test_one_card_may_have_two_tags():
    tags = Enrolments(EventStore(":memory:"))
    tags.enrol(TAG_A, "SRS71M", "sugarrr", t=1.0)
    tags.enrol(TAG_B, "SRS71M", "sugarrr", t=2.0)
    assert tags.code_for(TAG_A) == tags.code_for(TAG_B) == "SRS71M"
    assert tags.uids_for("srs71m") == [TAG_A, "04112233445566"]


def test_a_uid_is_the_same_tag_however_the_reader_spells_it():
    tags = Enrolments(EventStore(":memory:"))
    tags.enrol("04:a2:24:b2:c3:5e:80", "SRS71M", "sugarrr", t=1.0)
    assert tags.code_for(TAG_A) == "SRS71M"
    assert tags.code_for("04 A2 24 B2 C3 5E 80") == "SRS71M"


def test_an_unknown_or_misread_tag_is_no_card():
    tags = Enrolments(EventStore(":memory:"))
    tags.enrol(TAG_A, "SRS71M", "sugarrr", t=1.0)
    assert tags.code_for("04A224B2C35E81") is None
    assert tags.code_for("not a uid") is None


def test_a_garbled_code_is_never_enrolled():
    tags = Enrolments(EventStore(":memory:"))
    with pytest.raises(BadScan, match="did not read right"):
        tags.enrol(TAG_A, "SRS17M", "sugarrr", t=1.0)  # two neighbours swapped
    with pytest.raises(BadScan):
        tags.enrol(TAG_A, "SRS71", "sugarrr", t=1.0)   # a character lost
    assert tags.code_for(TAG_A) is None and tags.all() == []


def test_a_card_of_another_game_is_refused():
    tags = Enrolments(EventStore(":memory:"))
    with pytest.raises(BadScan, match="Sugar Heist"):
        tags.enrol(TAG_A, "SRS71M", "sugar-heist", t=1.0)
    with pytest.raises(ValueError, match="sugarrr"):
        tags.enrol(TAG_A, "SRS71M", "chess", t=1.0)
    assert tags.all() == []


@pytest.mark.parametrize("uid", ["", "04A2", "04A224B2C35E8", "ZZA224B2C35E80", "04A224B2C35E8000"])
def test_a_malformed_uid_is_refused(uid):
    with pytest.raises(ValueError, match="tag UID"):
        Enrolments(EventStore(":memory:")).enrol(uid, "SRS71M", "sugarrr", t=1.0)


def test_all_can_be_narrowed_to_one_game():
    tags = Enrolments(EventStore(":memory:"))
    tags.enrol(TAG_B, "SRS72K", "sugarrr", t=2.0)
    tags.enrol(TAG_A, "SRS71M", "sugarrr", t=1.0)
    assert [e.code for e in tags.all("sugarrr")] == ["SRS71M", "SRS72K"]
    assert tags.all("sugar-heist") == []
