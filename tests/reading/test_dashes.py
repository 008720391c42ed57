"""Typographic dashes and arrows read as the move hyphen and arrow, in every
game's grammar, through the real Maildir pipeline (judge.mail.typography, applied
once where judge.grammar prepares lines)."""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from judge.mail.typography import ARROWS, DASHES, plain_marks
from tests.reading.conftest import GAMES, NAME, Table, address

#: Every dash a mail client or a paste may put where the player typed "-".
DASH_NAMES = {
    "\u2013": "en dash (Outlook's autocorrect)",
    "\u2014": "em dash",
    "\u2212": "minus sign",
    "\u2011": "non-breaking hyphen",
    "\u2010": "hyphen",
    "\u2012": "figure dash",
}


def test_the_tables_cover_the_named_marks() -> None:
    assert set(DASH_NAMES) <= set(DASHES)
    assert {"\u2192", "\u21d2"} <= set(ARROWS)
    assert plain_marks("A Mos \u2013 Ukr") == "A Mos - Ukr"
    assert plain_marks("A8\u21925") == "A8->5"
    assert plain_marks("A Mos \u2014> Ukr") == "A Mos -> Ukr"


def _accepted(text: str) -> bool:
    return "Every line was accepted." in text and "not accepted" not in text


@pytest.mark.parametrize("mark", sorted(DASH_NAMES), ids=lambda m: DASH_NAMES[m])
def test_classic_move_with_a_typographic_dash(tables: Callable[[str], Table], mark: str) -> None:
    t = tables("classic")
    t.send("Russia", f"{t.signon('Russia')}\nA Mos {mark} Ukr\nF Sev {mark} Bla\n")
    text = t.ack_text("Russia")
    assert _accepted(text), text
    assert "-> ok: A Mos - Ukr" in text and "-> ok: F Sev - Bla" in text
    assert {a.text for a in t.table().held("Russia")} == {"A Mos - Ukr", "F Sev - Bla"}


@pytest.mark.parametrize("arrow", ["\u2192", "\u21d2", "\u2013>", "\u2014>"])
def test_classic_move_with_an_arrow(tables: Callable[[str], Table], arrow: str) -> None:
    t = tables("classic")
    t.send("Russia", f"{t.signon('Russia')}\nA Mos {arrow} Ukr\nA War S A Mos{arrow}Ukr\n")
    text = t.ack_text("Russia")
    assert _accepted(text), text
    assert {a.text for a in t.table().held("Russia")} == {"A Mos - Ukr", "A War S A Mos - Ukr"}


@pytest.mark.parametrize("entity", ["&#8211;", "&ndash;", "&mdash;", "&minus;", "&#x2192;",
                                    "&rarr;", "&rArr;"])
def test_classic_html_entity_forms(tables: Callable[[str], Table], entity: str) -> None:
    """The HTML-only path decodes the entity, then the grammar reads the mark."""
    t = tables("classic")
    msg = EmailMessage()
    msg["From"] = address("Russia")
    msg["To"] = t.judge.config.address
    msg["Subject"] = "orders"
    msg["Message-ID"] = make_msgid(domain="players.example")
    msg.set_content(f"<html><body><div>{t.signon('Russia')}</div>"
                    f"<div>A Mos {entity} Ukr</div></body></html>", subtype="html")
    t.deliver(bytes(msg))
    text = t.ack_text("Russia")
    assert _accepted(text), text
    assert [a.text for a in t.table().held("Russia")] == ["A Mos - Ukr"]


def _variant(line: str, dash: str) -> str:
    """``line`` as a mail client may turn it: its arrow a typographic one,
    its hyphens ``dash``."""
    if "->" in line:
        return line.replace("->", "\u2192")
    return line.replace("-", dash)


#: The fast tier reads the en dash in every game but Kingdom Wars, and the
#: non-breaking hyphen (read by the same code) in the games quick to bring to
#: a line with a hyphen; CI reads both in every game.
SLOW_DASHES = {("en-dash", "kingdom_wars"), ("nb-hyphen", "kingdom_wars"),
               ("nb-hyphen", "three_kingdoms")}


@pytest.mark.parametrize(("game_id", "dash"), [
    pytest.param(g, d, id=f"{name}-{g}",
                 marks=pytest.mark.slow if (name, g) in SLOW_DASHES else ())
    for name, d in (("en-dash", "\u2013"), ("nb-hyphen", "\u2011")) for g in GAMES])
def test_every_game_reads_typographic_marks(tables: Callable[[str], Table], game_id: str,
                                            dash: str) -> None:
    """A legal line of each game that holds a hyphen or an arrow (a move, a
    card or area with a hyphen in its name), sent with typographic marks,
    does what the ASCII line does."""
    t = tables(game_id)
    role, line = t.drive_to(lambda x: "-" in x)
    sent = _variant(line, dash)
    assert sent != line and plain_marks(sent) == line
    before = t.judge.store.last_action(NAME)
    t.send(role, f"{t.signon(role)}\n{sent}\n")
    text = t.ack_text(role)
    assert _accepted(text), text
    assert t.judge.store.last_action(NAME) > before  # it was carried out or held
