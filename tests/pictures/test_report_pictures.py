"""Every turn report of a game that draws itself carries its picture: PNG by
default, SVG or none with ``SET picture``; one rendering serves every reader
whose view draws alike."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from pathlib import Path

from bench.support.classic_mail import GM_ADDR, POWERS, ClassicByMail, StillClock, address
from judge import config as cfg
from judge.game import draw
from judge.service import Judge
from judge.store import set_kdf_cost


def _sent(home: Path, to: str) -> list[EmailMessage]:
    out = []
    for path in sorted((home / "mail" / "out").glob("*/*")):
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        assert isinstance(msg, EmailMessage)
        if msg["To"] == to:
            out.append(msg)
    return out


def _pictures(msg: EmailMessage) -> list[tuple[str, str, bytes]]:
    """The pictures of a mail: attached (SVG) or shown inline (PNG, in the
    HTML part's multipart/related)."""
    return [(str(p.get_filename()), p.get_content_type(), p.get_content())
            for p in msg.walk() if p.get_content_maintype() == "image"]


def test_reports_carry_the_picture_and_the_setting_changes_it(tmp_path: Path) -> None:
    set_kdf_cost(2**8)
    home = tmp_path / "home"
    cfg.init_home(home)
    clock = StillClock()
    judge = Judge.open(home, now=clock)
    try:
        game = ClassicByMail(judge, home, clock, name="g1", seed=7)
        game.setup(max_year=1902)
        starts = [m for m in _sent(home, address("England")) if "report" in str(m["Subject"])]
        assert starts, "England got its start report"
        (name, kind, data), = _pictures(starts[-1])
        assert kind == "image/png" and data.startswith(b"\x89PNG") and name.endswith(".png")
        view = game.game.view(game.table().state, "England")
        assert data == draw.picture("classic", view)
        game.deliver(GM_ADDR, f"SIGNON g1 GM {game.gm_token}\nSET picture svg\n", "set")
        game.cycle()
        game.send_orders(list(POWERS))
        game.cycle()
        phase = game.phase()
        later = [m for m in _sent(home, address("France"))
                 if "report" in str(m["Subject"]) and phase in str(m["Subject"])]
        (name, kind, data), = _pictures(later[0])
        assert kind == "image/svg+xml" and data.startswith(b"<svg") and name.endswith(".svg")
        game.deliver(GM_ADDR, f"SIGNON g1 GM {game.gm_token}\nSET picture none\n", "set")
        game.cycle()
        game.send_orders(sorted(game.owing()))
        game.cycle()
        phase = game.phase()
        last = [m for m in _sent(home, address("France"))
                if "report" in str(m["Subject"]) and phase in str(m["Subject"])]
        assert len(last) == 1 and not _pictures(last[0]), [m["Subject"] for m in last]
    finally:
        judge.close()


def test_a_bad_picture_setting_is_refused_quoting_the_line(tmp_path: Path) -> None:
    set_kdf_cost(2**8)
    home = tmp_path / "home"
    cfg.init_home(home)
    clock = StillClock()
    judge = Judge.open(home, now=clock)
    try:
        game = ClassicByMail(judge, home, clock, name="g1", seed=7)
        game.setup(max_year=1902)
        game.deliver(GM_ADDR, f"SIGNON g1 GM {game.gm_token}\nSET picture gif\n", "set")
        game.cycle()
        # The reply to that mail quotes the refused line (mail/out's file names
        # do not keep the order in which the replies were written).
        bodies = [m.get_body(("plain",)) for m in _sent(home, GM_ADDR)]
        quoting = [b for b in bodies if b is not None and "SET picture gif" in b.get_content()]
        assert quoting and any("picture" in b.get_content() for b in quoting)
    finally:
        judge.close()
