"""Trailing lines that no command of the game recognises at all (sign-offs,
signatures without "-- ", disclaimers, mobile footers), after the last line
the judge read, are listed as not read: they do not make the seat not ready
nor ask for the mail again. A line that reads as a malformed order is still
refused with its correction (judge.signoff documents the rule per game).
Through the real Maildir pipeline."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from judge.game import registry
from judge.signoff import reads_as_order
from tests.core.conftest import Post
from tests.reading.conftest import GAMES, Table

FOOTERS = {
    "sign-off": "Kind regards,\nMove Coordinator | Hold Fast Logistics\n12 Dock Road, London",
    "disclaimer": ("This e-mail and any files transmitted with it are confidential and "
                   "intended solely\nfor the use of the individual to whom it is addressed. "
                   "If you have received\nthis e-mail in error please notify the sender."),
    "windows-mail": "Thanks!\nSent from Mail for Windows 10",
    "outlook-android": "Anna\n\nDownload Outlook for Android",
}


@pytest.mark.parametrize("footer", sorted(FOOTERS))
def test_classic_footer_after_bare_orders(tables: Callable[[str], Table], footer: str) -> None:
    t = tables("classic")
    t.send("Russia", f"{t.signon('Russia')}\nA Mos - Ukr\nF Sev - Bla\n\n{FOOTERS[footer]}\n")
    text = t.ack_text("Russia")
    assert "Every line was accepted." in text, text
    assert "send your orders again" not in text
    assert {a.text for a in t.table().held("Russia")} == {"A Mos - Ukr", "F Sev - Bla"}
    assert "Russia" not in t.table().unready
    for line in FOOTERS[footer].splitlines():  # the client's footer line too
        if line.strip():
            assert f"{line.strip()}\n        -> not read" in text, (line, text)


MOBILE = ("Sent from my iPhone", "Sent from Mail for Windows 10", "Get Outlook for Android",
          "Download Outlook for Android", "Sent from Yahoo Mail on Android",
          "Sent from my Galaxy", "Von meinem iPhone gesendet")


@pytest.mark.parametrize("footer", MOBILE)
def test_a_mobile_footer_is_listed_as_not_read(
        tables: Callable[[str], Table], footer: str) -> None:
    """A client's footer line cuts the mail (what is below it is the
    client's, or the quoted original), and is listed as not read; the seat
    is ready. A judge line quoted below it is neither read nor listed."""
    t = tables("classic")
    report = Post.text(t.mails_to("Russia")[-1])
    quoted = "\n".join(f"> {line}" for line in report.splitlines())
    t.send("Russia", f"{t.signon('Russia')}\nA Mos - Ukr\nF Sev - Bla\n\n{footer}\n\n"
                     f"On Mon, 2 Mar 2026 at 13:00, Judge <judge@example.org> wrote:\n"
                     f"{quoted}\n")
    text = t.ack_text("Russia")
    assert "Every line was accepted." in text, text
    assert f"   4  {footer}\n        -> not read: a signature or a mail client's footer" \
        in text, text
    assert "wrote:" not in text.split("was read as follows:", 1)[1]
    assert {a.text for a in t.table().held("Russia")} == {"A Mos - Ukr", "F Sev - Bla"}
    assert "Russia" not in t.table().unready


def test_a_signature_is_listed_not_read_and_bounded(tables: Callable[[str], Table]) -> None:
    """RFC 3676 section 4.3: "-- " opens the signature. Its lines are never
    read as commands, even one that looks like an order, and are listed as
    not read: five of them, then how many more."""
    t = tables("classic")
    signature = ["Anna Smith", "A Mos - Sev", "Hold Fast Logistics", "12 Dock Road",
                 "London", "E14 9XX", "+44 20 7946 0000", "Sent from my iPhone"]
    t.send("Russia", f"{t.signon('Russia')}\nA Mos - Ukr\nF Sev - Bla\n-- \n"
                     + "\n".join(signature) + "\n")
    text = t.ack_text("Russia")
    assert "Every line was accepted." in text, text
    for k, line in enumerate(signature[:5]):
        assert f"{4 + k:4d}  {line}\n        -> not read" in text, (line, text)
    assert "   9  (and 3 more lines)\n        -> not read" in text, text
    assert "E14 9XX" not in text
    assert {a.text for a in t.table().held("Russia")} == {"A Mos - Ukr", "F Sev - Bla"}
    assert "Russia" not in t.table().unready


def test_a_malformed_order_after_the_orders_is_still_refused(
        tables: Callable[[str], Table]) -> None:
    t = tables("classic")
    t.send("Russia", f"{t.signon('Russia')}\nA Mos - Ukr\nF Sev Bla\nKind regards,\nAnna\n")
    text = t.ack_text("Russia")
    assert 'line 3: "F Sev Bla"' in text  # refused, with what is wrong
    assert "expected H, -, S or C after the unit" in text
    assert "Kind regards,\n        -> not read" in text
    assert "Russia" in t.table().unready  # a refused order line: not ready


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_sign_off_not_read_and_malformed_line_refused(
        tables: Callable[[str], Table], game_id: str) -> None:
    """In each game: a legal line, then a sign-off: the line is read, the
    sign-off is not; a malformed line of the game's own verb or unit (the
    legal line's first word(s) with a word no card, place or piece has) is
    refused however late it comes."""
    t = tables(game_id)
    role, line = t.drive_to(lambda x: True)
    t.send(role, f"{t.signon(role)}\n{line}\n\nKind regards,\nAnna Smith | Head of Logistics\n"
                 "Sent from Mail for Windows 10\n")
    text = t.ack_text(role)
    assert "Every line was accepted." in text, text
    assert "Kind regards,\n        -> not read" in text
    assert "Anna Smith | Head of Logistics\n        -> not read" in text
    assert role not in t.table().unready
    words = line.split()
    malformed = " ".join([*words[:2 if len(words[0]) == 1 else 1], "zzqx"])
    assert reads_as_order(registry.get(game_id), malformed)
    t.send(role, f"{t.signon(role)}\nSTATUS\n{malformed}\nCheers,\n")
    text = t.ack_text(role)
    assert f'"{malformed}"' in text.split("were not accepted", 1)[1], text
    assert "Cheers,\n        -> not read" in text


@pytest.mark.parametrize(("game_id", "line", "order"), [
    ("classic", "A pleasure doing business", False),
    ("classic", "A Mos Ukr", True),
    ("classic", "Mso - Ukr", True),
    ("classic", "FROBNICATE", True),
    ("classic", "John Smith - Director", False),
    ("three_kingdoms", "M7 DISBND", True),
    ("three_kingdoms", "War and peace, as they say.", False),
    ("conflict_of_alliances", "PLAY mounted-atack", True),
    ("conflict_of_alliances", "Take care!", False),
    ("kingdom_wars", "USE Atack S7", True),
    ("kingdom_wars", "Pass my regards to your team.", False),
    ("conquest_tactics", "MOVE B2", True),
    ("conquest_tactics", "Move Coordinator | Hold Fast Logistics", False),
    ("conquest_tactics", "www.holdfast.example", False),
])
def test_the_rule_per_game(game_id: str, line: str, order: bool) -> None:
    assert reads_as_order(registry.get(game_id), line) is order


def test_a_sign_off_at_the_end_of_an_unclosed_orders_block(
        tables: Callable[[str], Table]) -> None:
    """ORDERS without END runs to the end of the mail: its orders stand, the
    sign-off at its end is not read, the seat stays ready."""
    t = tables("classic")
    t.send("Russia", f"{t.signon('Russia')}\nORDERS\nA Mos - Ukr\nF Sev - Bla\n\nKind regards,\n"
                     "Anna Smith\nSent from Mail for Windows 10\n")
    text = t.ack_text("Russia")
    assert {a.text for a in t.table().held("Russia")} == {"A Mos - Ukr", "F Sev - Bla"}
    assert "Kind regards,\n        -> not read" in text
    assert "Anna Smith\n        -> not read" in text
    assert "ORDERS is not closed" in text  # still said, with what was assumed
    assert "Russia" not in t.table().unready


def test_a_move_without_its_hyphen_last_is_refused_with_its_correction(
        tables: Callable[[str], Table]) -> None:
    """A Diplomacy move written from its province without the hyphen, last
    in the mail, is a malformed order (the game's move is written
    "A Mos - Ukr", HELP shows it), not a sign-off: it is refused with the
    move it would be; two short words that are no places stay a sign-off."""
    t = tables("classic")
    t.send("Russia", f"{t.signon('Russia')}\nF Sev - Bla\nMos Ukr\n")
    text = t.ack_text("Russia")
    errors = text.split("were not accepted", 1)[1]
    assert 'line 3: "Mos Ukr"' in errors, text
    assert 'did you mean "A Mos - Ukr"?' in errors, text
    assert {a.text for a in t.table().held("Russia")} == {"F Sev - Bla"}
    assert "Russia" in t.table().unready  # the phase waits for the seat to mend it
    t.send("Russia", f"{t.signon('Russia')}\nF Sev - Bla\nA Mos Ukr\n\nIan Fox\n")
    text = t.ack_text("Russia")
    assert 'line 3: "A Mos Ukr"' in text and 'did you mean "A Mos - Ukr"?' in text, text
    assert "Ian Fox\n        -> not read" in text, text
