"""What the public pages say in words (judge.site.publish_text): each game's
phases, times in UTC and from the publish time, a text report's columns as
HTML tables, a turn's lines grouped by seat, the on-time rate."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from judge.site import publish_text as say
from tests.core.helpers import CLASSIC_POWERS

NOW = datetime(2026, 12, 3, 9, 36, tzinfo=UTC)


@pytest.mark.parametrize(("phase", "words"), [
    ("S1901M", "Spring 1901, movement"),
    ("F1901R", "Fall 1901, retreats"),
    ("W1902A", "Winter 1902, adjustments"),
    ("S350M", "Spring 350, movement"),  # Warring States counts its turns from 350
    ("set-up", "The set-up"),
    ("Great Turn 4, supply adjustments", "Great Turn 4, supply adjustments"),  # Three Kingdoms
    ("set-up: Player1 places a capital", "Set-up: Player1 places a capital"),
    ("turn 1 step 16: Lianheng to act", "Turn 1 step 16: Lianheng to act"),  # Conflict of Alliances
    ("round 1, seat A's turn #18: seat A's Play Phase",
     "Round 1, seat A's turn #18: seat A's Play Phase"),  # Kingdom Wars
    ("turn 2 Mobilize", "Turn 2 Mobilize"),  # Conquest Tactics
    ("S1901X", "S1901X"),  # not a Diplomacy phase: left as it is
])
def test_each_games_phases_in_words(phase: str, words: str) -> None:
    assert say.phase_words(phase) == words


def test_times_in_words_and_from_now() -> None:
    assert say.when("2026-12-03T23:36:00+00:00") == "Thu 3 Dec 2026, 23:36 UTC"
    assert say.when("2026-12-04T00:36:00+01:00") == "Thu 3 Dec 2026, 23:36 UTC"
    assert say.when("") == "" and say.when("soon") == ""
    assert say.relative(NOW + timedelta(hours=14), NOW) == "in 14 hours"
    assert say.relative(NOW + timedelta(hours=13, minutes=40), NOW) == "in 14 hours"
    assert say.relative(NOW + timedelta(minutes=40), NOW) == "in 40 minutes"
    assert say.relative(NOW + timedelta(hours=1), NOW) == "in 1 hour"
    assert say.relative(NOW + timedelta(hours=47), NOW) == "in 47 hours"
    assert say.relative(NOW + timedelta(days=3, hours=2), NOW) == "in 3 days"
    assert say.relative(NOW - timedelta(hours=3), NOW) == "3 hours ago"
    assert say.relative(NOW + timedelta(seconds=20), NOW) == "now"


def test_the_on_time_rate_is_the_share_made_in_time() -> None:
    assert say.on_time(0, 0) is None
    assert say.on_time(4, 4) == 0.0  # missed everything: never on time
    assert say.on_time(4, 1) == 0.75
    assert say.on_time(5, 0) == 1.0


def test_a_report_becomes_headings_tables_and_lists() -> None:
    text = (
        "WINTER 1901 ADJUSTMENTS RESULTS\n\nFrance:\n  Build A Mar\n\n"
        "SUPPLY CENTRES (18 to win)\n"
        "  Austria     3 centres,  3 units\n"
        "  France      4 centres,  3 units: builds 1\n"
        "  Austria: Bud, Tri, Vie\n\n"
        "NEXT PHASE: Spring 1902 movement <soon>\n")
    got = str(say.report_html(text))
    assert '<h3 class="report">WINTER 1901 ADJUSTMENTS RESULTS</h3>' in got
    assert '<h3 class="report">France:</h3>\n<ul><li>Build A Mar</li></ul>' in got
    assert '<h3 class="report">SUPPLY CENTRES (18 to win)</h3>' in got
    assert ('<div class="scroll"><table class="report"><tbody>'
            "<tr><td>Austria</td><td>3 centres,</td><td>3 units</td></tr>"
            "<tr><td>France</td><td>4 centres,</td><td>3 units: builds 1</td></tr>"
            "</tbody></table></div>\n<ul><li>Austria: Bud, Tri, Vie</li></ul>") in got
    assert "<p>NEXT PHASE: Spring 1902 movement &lt;soon&gt;</p>" in got  # escaped
    # Every word of the text is on the page.
    plain = text.replace("<", "&lt;").replace(">", "&gt;").split()
    assert [w for w in plain if w not in got] == []


def test_a_grid_with_column_letters_gets_a_head_row() -> None:
    grid = ("The field:\n"
            "           A          B          C\n"
            "  2        .       N:BASE        .\n"
            "  1     S:Arch1       .       S:Foot0\n")
    got = str(say.report_html(grid))
    assert "<thead><tr><th></th><th>A</th><th>B</th><th>C</th></tr></thead>" in got
    assert "<tr><th>2</th><td>.</td><td>N:BASE</td><td>.</td></tr>" in got


def test_lines_with_a_tag_apart_are_not_taken_for_a_table() -> None:
    text = "Qin:\n  A Nan - Xia  [bounce]\n  A Yin S A Nan - Den  [void]\n"
    got = str(say.report_html(text))
    assert "<table" not in got
    assert "<li>A Nan - Xia  [bounce]</li><li>A Yin S A Nan - Den  [void]</li>" in got


def test_a_turns_lines_are_grouped_by_seat_in_the_seats_order() -> None:
    lines = ["Spring 1901 movement:", "Turkey: F Ank H (ok)", "Austria: A Bud - Ser (ok)",
             "France: A Par - Bur (bounce)", "Austria: F Tri H (ok)", "Spring 1901 retreats: none",
             "Nobody: a line that names no seat"]
    got = say.group_by_seat(lines, CLASSIC_POWERS)
    assert got == [
        say.Group("", ("Spring 1901 movement:",)),
        say.Group("Austria", ("A Bud - Ser (ok)", "F Tri H (ok)")),
        say.Group("France", ("A Par - Bur (bounce)",)),
        say.Group("Turkey", ("F Ank H (ok)",)),
        say.Group("", ("Spring 1901 retreats: none",)),
        say.Group("", ("Nobody: a line that names no seat",)),
    ]
    assert say.group_by_seat(["seat A plays Dodge."], list("ABC")) == [
        say.Group("", ("seat A plays Dodge.",))]
