"""The conversation around the rules: every mail states true facts (the
deadline of the decision it asks for, in the seat's own zone; what still
has no order), and the first report already names the new phase's deadline."""

from __future__ import annotations

from tests.core.conftest import Post
from tests.core.helpers import GM_ADDR, token_in

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def _classic(post: Post) -> dict[str, str]:
    post.send(GM_ADDR, "CREATE dip classic\n")
    gm = token_in(post, GM_ADDR)
    tokens = {}
    for power in POWERS:
        address = f"{power.lower()}@players.example"
        post.send(address, f"JOIN dip {power}\n")
        tokens[power] = token_in(post, address)
    post.send(GM_ADDR, f"SIGNON dip GM {gm}\nSTART\n")
    return tokens


def test_the_acknowledgement_gives_the_deadline_and_the_units_left(post: Post) -> None:
    tokens = _classic(post)
    france = "france@players.example"
    post.new()
    post.send(france, f"SIGNON dip France {tokens['France']}\nSET TIMEZONE Europe/Paris\n"
                      "A Par - Bur\n")
    text = post.text([m for m in post.new() if m["To"] == france][-1])
    # The game started at 12:00 UTC on 1 March with 48 hours for orders.
    assert "The deadline of S1901M is Tue 03 Mar 2026 13:00 CET." in text
    assert "Still without orders (they hold if you send none): F Bre, A Mar." in text
    assert text.count("Still without orders") == 1
    post.send(france, f"SIGNON dip France {tokens['France']}\nF Bre - Mao\nA Mar - Spa\n")
    text = post.text([m for m in post.new() if m["To"] == france][-1])
    assert "Still without orders" not in text and "The deadline of S1901M" in text


def test_every_report_gives_the_deadline_of_its_own_phase(post: Post) -> None:
    """Every turn report stated the previous phase's deadline (the first report
    none): the reports were queued before the new phase's clock was set."""
    tokens = _classic(post)
    first = [m for m in post.sent() if "report for" in str(m["Subject"])]
    assert len(first) == 7
    assert all("Deadline: Tue 03 Mar 2026 12:00 UTC" in post.text(m) for m in first)
    post.new()
    post.clock.advance(hours=5)
    for power in POWERS:
        post.send(f"{power.lower()}@players.example",
                  f"SIGNON dip {power} {tokens[power]}\nORDERS\nEND\n")
    reports = [m for m in post.new() if "report for" in str(m["Subject"])]
    assert len(reports) == 7 and all("F1901M" in str(m["Subject"]) for m in reports)
    # F1901M opened at 17:00 on 1 March: its deadline is 48 hours later.
    assert all("Deadline: Tue 03 Mar 2026 17:00 UTC" in post.text(m) for m in reports)
