"""Conquest Tactics by mail: the standing answers each player holds from the
start (DEFEND with an instant when a blow would destroy its card or brings
3 or more damage) are told to it in its first report, and each time one
plays a card for it, with how to change them; through the Maildir pipeline.
"""

from __future__ import annotations

import json

from judge.game.engine import Event
from tests.conquest_tactics.test_mail import ADDR, FORCES, NAME, N, S, _set_up, _text
from tests.conquest_tactics.test_mail_defects import _start, _until
from tests.core.conftest import Post


def test_the_first_report_tells_each_player_its_standing_answers(post: Post) -> None:
    players, _ = _start(post, "south=humans north=malice")
    for role in (S, N):
        first = next(_text(m) for m in players.outbox.mails
                     if m["To"] == ADDR[role] and "report for" in str(m["Subject"]))
        assert "Standing answers: the judge answers these windows for you at once" in first
        for line in ("POLICY instant DEFEND WHEN CAN AND LETHAL",
                     "POLICY instant DEFEND WHEN CAN AND INCOMING 3", "POLICY instant PASS"):
            assert f"    {line}\n" in first, first
        assert "To change them: POLICY <window> ASK" in first


def test_a_player_is_told_when_its_standing_answer_plays_an_instant(post: Post) -> None:
    """The bots play by mail, every window answered by the standing answers,
    until one of them plays an instant for a player (DEFEND): that player's
    next mail says so, and how to be asked instead."""
    players, _ = _start(post, "south=humans north=malice")
    _set_up(players, FORCES)
    played: list[tuple[str, str]] = []

    def defended(state: object) -> bool:
        for row in post.judge.store.actions(NAME):
            p = json.loads(row["payload"])
            if row["kind"] == "act" and p.get("by") == "policy" and p.get("held"):
                text = str(p["action"]["text"])
                if text != "PASS":
                    played.append((str(row["role"]), text))
        return bool(played)
    _until(players, defended, steps=600)
    role, text = played[0]
    told = [Event.from_json(e).text for row in post.judge.store.actions(NAME)
            for e in json.loads(row["payload"]).get("events", [])
            if e.get("audience") == [role]]
    said = [x for x in told if x.startswith("Your standing answer for instant windows")]
    assert said and f"played for you: {text}." in said[0], told[-5:]
    assert "POLICY instant ASK" in said[0]
    players.tick(hours=30)
    mails = " ".join(" ".join(_text(m).split()) for m in players.outbox.mails
                     if m["To"] == ADDR[role])
    assert " ".join(said[0].split()) in mails
