"""One mail never stalls the judge: each hostile input of issue 26, through
the real Maildir pipeline, is refused, trimmed or moved aside before its
costly stage, and the ordinary mail behind it is handled in the same cycle.

What shows "before its costly stage" is what the costly function was given
(patched to count), never a timing; bench/hostile.py has the timings.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import judge.mail.mailin
import judge.mail.redact
from judge.mail import bounds
from judge.store import Store
from tests.core.conftest import Post
from tests.core.helpers import start_sealed
from tests.hostile.support import mails_to, one_cycle, raw_mail, size

SEAT = "north@players.example"


def _spy(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, arg: int = 0) -> list[Any]:
    """Patch ``owner.name`` to record its argument ``arg`` on every call."""
    seen: list[Any] = []
    real: Callable[..., Any] = getattr(owner, name)

    def spy(*args: Any, **kw: Any) -> Any:
        seen.append(args[arg] if len(args) > arg else None)
        return real(*args, **kw)

    monkeypatch.setattr(owner, name, spy)
    return seen


def _status_behind(post: Post) -> tuple[bytes, str]:
    """A seat's ordinary STATUS mail, and the address its answer goes to."""
    seats = start_sealed(post)
    post.new()
    return raw_mail(SEAT, seats.signon("North") + "\nSTATUS\n"), SEAT


def _handled(post: Post, address: str) -> str:
    """The text of the one answer ``address`` got in this cycle."""
    got = mails_to(post.new(), address)
    assert len(got) == 1, [m["Subject"] for m in got]
    return post.text(got[0])


def _runs_of_non_starters(text: str) -> int:
    longest = run = 0
    for ch in text:
        run = run + 1 if unicodedata.combining(ch) else 0
        longest = max(longest, run)
    return longest


# --------------------------------------------------------------------------- headers


def test_a_subject_of_25000_encoded_words_is_refused_unparsed(
        post: Post, monkeypatch: pytest.MonkeyPatch) -> None:
    """925 KB of RFC 2047 words (under max_bytes) took 176 s and 11 GB: the
    email package read it when the mail was filed and the reply's Re: subject
    was folded. Now no header beyond the bounds reaches a parser."""
    behind, seat = _status_behind(post)
    words = " ".join(f"=?utf-8?q?attack_on_the_capital_{i % 10}?=" for i in range(25_000))
    hostile = raw_mail("mallory@evil.example", "HELP\n", subject=words)
    assert 900_000 < len(hostile) < post.judge.config.max_bytes
    decoded = _spy(monkeypatch, judge.mail.mailin, "decode_header")
    redacted = _spy(monkeypatch, judge.mail.redact, "_redact_mime")
    lines = one_cycle(post, hostile, behind)
    assert "refused: its Subject header has 900,008 characters" in lines[0]
    assert "processed" in lines[1]
    assert all(len(str(v)) <= post.judge.config.max_header_chars for v in decoded)
    assert all(not bounds.header_breach(raw) for raw in redacted)
    mails = post.new()
    [answer] = mails_to(mails, "mallory@evil.example")
    assert "limits.max_header_chars" in post.text(answer)
    assert size(answer) < 4_000 and "not read" in str(answer["Subject"])
    assert "signed on as North in g1" in post.text(mails_to(mails, seat)[0])
    # The kept copy holds a short Subject in its place.
    kept = next((post.home / "mail" / "in" / ".Processed" / "cur").iterdir()).read_bytes()
    assert len(kept) < 2_000 and b"(not read: " in kept


def test_encoded_words_beyond_the_bound_are_refused_unparsed(
        post: Post, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under max_header_chars, but more than max_encoded_words words."""
    behind, seat = _status_behind(post)
    words = " ".join(f"=?utf-8?q?w{i % 10}?=" for i in range(500))
    decoded = _spy(monkeypatch, judge.mail.mailin, "decode_header")
    lines = one_cycle(post, raw_mail("mallory@evil.example", "HELP\n", subject=words), behind)
    assert "refused: its Subject header holds 500 encoded words" in lines[0]
    assert "processed" in lines[1]
    assert all(str(v).count("=?") <= post.judge.config.max_encoded_words for v in decoded)
    mails = post.new()
    assert "limits.max_encoded_words" in post.text(mails_to(mails, "mallory@evil.example")[0])
    assert len(mails_to(mails, seat)) == 1


def test_a_subject_of_one_megabyte_gives_a_short_reply(post: Post) -> None:
    """A 1 MB Subject gave a 2 MB reply: its Re: subject and its echo."""
    behind, seat = _status_behind(post)
    hostile = raw_mail("mallory@evil.example", "HELP\n", subject="attack " * 150_000)
    lines = one_cycle(post, hostile, behind)
    assert "limits.max_header_chars" in lines[0] and "processed" in lines[1]
    mails = post.new()
    [answer] = mails_to(mails, "mallory@evil.example")
    assert size(answer) < 4_000
    assert len(str(answer["Subject"])) <= post.judge.config.max_echo_chars + 10
    assert len(mails_to(mails, seat)) == 1


def test_a_long_subject_within_the_bounds_is_echoed_cut(post: Post) -> None:
    """A Subject under max_header_chars is read, and quoted at most
    max_echo_chars long (then ...), in the reply's Subject and its text."""
    subject = "Re: " + "x" * 5_000
    one_cycle(post, raw_mail("anna@players.example", "LIST\n", subject=subject))
    [answer] = post.new()
    limit = post.judge.config.max_echo_chars
    assert str(answer["Subject"]) == "Re: " + "x" * limit + "..."
    assert "x" * (limit + 1) not in post.text(answer)


def test_from_is_the_angle_address_whatever_its_display_name_says(post: Post) -> None:
    """From: france@x.test <attacker@evil.test> was read as france@x.test."""
    seats = start_sealed(post)
    post.new()
    forged = raw_mail(f"{SEAT} <attacker@evil.example>", seats.signon("North") + "\nSTATUS\n")
    lines = one_cycle(post, forged)
    assert "from attacker@evil.example: auth-failure" in lines[0]
    assert "sent from an unregistered address" in lines[0]
    row = post.judge.store.db.conn.execute(
        "select from_addr from inbox order by rowid desc limit 1").fetchone()
    assert row[0] == "attacker@evil.example"
    assert [m["To"] for m in post.new()] == [SEAT]  # the notice to the seat only


# --------------------------------------------------------------------------- body lines


def test_a_long_line_of_combining_marks_is_refused_before_it_is_normalised(
        post: Post, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stranger's 240 KB HELP line of combining marks of mixed classes cost
    80 s in NFC (canonical reordering of the run costs its square)."""
    behind, seat = _status_behind(post)
    marks = "HELP a" + "\u0301\u0316" * 120_000
    cleaned = _spy(monkeypatch, judge.mail.mailin, "clean_body")
    lines = one_cycle(post, raw_mail("mallory@evil.example", marks + "\n"), behind)
    assert "refused: line 1 has 240,006 characters" in lines[0]
    assert "processed" in lines[1]
    assert all(bounds.longest_line(text)[1] <= post.judge.config.max_line_chars
               for text in cleaned)
    mails = post.new()
    [answer] = mails_to(mails, "mallory@evil.example")
    assert "limits.max_line_chars" in post.text(answer) and size(answer) < 4_000
    assert len(mails_to(mails, seat)) == 1


def test_combining_marks_within_the_line_bound_reach_normalisation_stream_safe(
        post: Post, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under max_line_chars the line is read, but every text normalised (the
    body's NFC, each line's NFKC, the kept copy's masking) has at most 30
    non-starters in a row (UAX #15 Stream-Safe Text Format)."""
    seats = start_sealed(post)
    post.new()
    normalised = _spy(monkeypatch, unicodedata, "normalize", arg=1)
    body = seats.signon("North") + "\nHELP a" + "\u0301\u0316" * 4_000 + "\n"
    lines = one_cycle(post, raw_mail(SEAT, body))
    assert "processed" in lines[0]
    texts = [t for t in normalised if isinstance(t, str) and "\u0301" in t]
    assert texts and max(_runs_of_non_starters(t) for t in texts) <= bounds.MAX_NON_STARTERS
    answer = post.text(mails_to(post.new(), SEAT)[0])
    assert "no game, card or rule called" in answer and "..." in answer


def test_a_help_topic_of_two_megabytes_gives_a_short_reply(post: Post) -> None:
    """A 1.9 MB HELP topic gave a 5.8 MB reply (the line quoted three times)."""
    behind, seat = _status_behind(post)
    hostile = raw_mail("mallory@evil.example", "HELP " + "x" * 1_900_000 + "\n")
    lines = one_cycle(post, hostile, behind)
    assert "limits.max_line_chars" in lines[0] and "processed" in lines[1]
    mails = post.new()
    [answer] = mails_to(mails, "mallory@evil.example")
    assert size(answer) < 4_000
    assert len(mails_to(mails, seat)) == 1


def test_a_help_topic_within_the_bounds_is_quoted_cut(post: Post) -> None:
    one_cycle(post, raw_mail("anna@players.example", "HELP " + "y" * 5_000 + "\n"))
    [answer] = post.new()
    text = post.text(answer)
    assert "y" * 201 not in text and "y" * 200 + "..." in text
    assert size(answer) < 6_000


# --------------------------------------------------------------------------- size


def test_a_mail_of_28_megabytes_is_refused_and_filed_without_its_body(
        post: Post, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 28 MB mail refused as too large still cost 305 MB: it was parsed
    whole by the email package when it was filed."""
    behind, seat = _status_behind(post)
    hostile = raw_mail("mallory@evil.example", "HELP\n" + ("z" * 76 + "\n") * 370_000)
    assert len(hostile) > 28_000_000
    parsed = _spy(monkeypatch, judge.mail.mailin, "message_from_bytes")
    redacted = _spy(monkeypatch, judge.mail.mailin, "redact_raw")
    lines = one_cycle(post, hostile, behind)
    assert f"refused: too large: {len(hostile)} bytes" in lines[0]
    assert "processed" in lines[1]
    assert all(len(raw) < post.judge.config.max_bytes for raw in parsed)
    assert all(len(raw) < 10_000 for raw in redacted)
    kept = [p.read_bytes() for p in (post.home / "mail" / "in" / ".Processed" / "cur").iterdir()]
    big = [k for k in kept if b"was not kept" in k]
    assert len(big) == 1 and len(big[0]) < 2_000 and b"limits.max_bytes" in big[0]
    mails = post.new()
    assert "too large" in post.text(mails_to(mails, "mallory@evil.example")[0])
    assert len(mails_to(mails, seat)) == 1


# --------------------------------------------------------------------------- tokens


def test_199_wrong_signons_cost_no_token_check(post: Post,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A 7 KB mail of 199 wrong SIGNONs cost 11-19 s of scrypt."""
    behind, seat = _status_behind(post)
    checks = _spy(monkeypatch, Store, "check_token", arg=1)
    body = "".join(f"SIGNON g1 North abcdefghjk{i:06d}\n" for i in range(199)) + "STATUS\n"
    lines = one_cycle(post, raw_mail(SEAT, body), behind)
    assert "refused: it holds 199 SIGNON lines" in lines[0]
    assert "processed" in lines[1]
    assert len(checks) == 1  # the ordinary mail's own token
    texts = [post.text(m) for m in mails_to(post.new(), seat)]
    assert any("limits.max_signons" in t for t in texts)


def test_a_strangers_guesses_cost_nothing_and_never_lock_the_seat_out(
        post: Post, monkeypatch: pytest.MonkeyPatch) -> None:
    """Guesses from an address that is not the seat's are refused whatever
    the token, unchecked; the seat's own mail goes on being read."""
    seats = start_sealed(post)
    post.new()
    checks = _spy(monkeypatch, Store, "check_token", arg=1)
    guesses = [raw_mail("mallory@evil.example", f"SIGNON g1 North guess{i:011d}a\nSTATUS\n")
               for i in range(30)]
    lines = one_cycle(post, *guesses, raw_mail(SEAT, seats.signon("North") + "\nSTATUS\n"))
    assert all("sent from an unregistered address" in line for line in lines[:30])
    assert "processed" in lines[30]
    assert len(checks) == 1


def test_wrong_tokens_from_the_seats_address_are_checked_at_most_n_an_hour(
        post: Post, monkeypatch: pytest.MonkeyPatch) -> None:
    """A forged From of the seat's own address: limits.token_failures_per_hour
    wrong tokens are checked, the rest refused unchecked; an hour later the
    seat's token is read again."""
    seats = start_sealed(post)
    post.new()
    checks = _spy(monkeypatch, Store, "check_token", arg=1)
    limit = post.judge.config.token_failures_per_hour
    forged = [raw_mail(SEAT, f"SIGNON g1 North guess{i:011d}a\nSTATUS\n")
              for i in range(limit + 5)]
    lines = one_cycle(post, *forged)
    assert sum("North: wrong token" in line for line in lines) == limit
    assert sum("limits.token_failures_per_hour" in line for line in lines) == 5
    assert len(checks) == limit
    post.clock.advance(hours=1, minutes=1)
    lines = one_cycle(post, raw_mail(SEAT, seats.signon("North") + "\nSTATUS\n"))
    assert "processed" in lines[0]


# --------------------------------------------------------------------------- strangers


def test_observe_join_and_create_from_strangers_are_within_strangers_per_hour(
        post: Post) -> None:
    """61 forged CREATE mails made 61 games; 60 forged OBSERVEs got 60
    answers and a public report every turn."""
    post.judge.config.strangers_per_hour = 3
    creates = [raw_mail(f"s{i}@forged.example", f"CREATE x{i} sealed_bids\n") for i in range(5)]
    lines = one_cycle(post, *creates)
    assert sum("processed" in line for line in lines) == 3
    assert sum("limits.strangers_per_hour" in line for line in lines) == 2
    assert len(post.judge.store.game_names()) == 3
    post.clock.advance(hours=2)
    observes = [raw_mail(f"o{i}@forged.example", "OBSERVE x0\n") for i in range(5)]
    lines = one_cycle(post, *observes)
    assert sum("processed" in line for line in lines) == 3
    assert post.judge.store.observers("x0") == []  # nobody follows before confirming


def test_observe_follows_only_once_the_code_comes_back(post: Post) -> None:
    start_sealed(post)
    post.new()
    one_cycle(post, raw_mail("fan@watch.example", "OBSERVE g1\n"))
    asked = post.text(post.new()[0])
    code = re.search(r"OBSERVE g1 ([A-Z2-7]{10})", asked)
    assert code is not None and post.judge.store.observers("g1") == []
    # The code is the address's own: another address cannot use it.
    one_cycle(post, raw_mail("other@watch.example", f"OBSERVE g1 {code.group(1)}\n"))
    assert "is not the code sent to this address" in post.text(post.new()[0])
    one_cycle(post, raw_mail("fan@watch.example", f"OBSERVE g1 {code.group(1)}\n"))
    assert "you follow g1" in post.text(post.new()[0])
    assert post.judge.store.observers("g1") == ["fan@watch.example"]


def test_the_kept_copy_of_an_ordinary_mail_is_unchanged(post: Post, tmp_path: Path) -> None:
    """The bounds leave ordinary mail alone: filed byte for byte."""
    raw = raw_mail("anna@players.example", "LIST\n", subject="=?utf-8?q?Bonjour?= list")
    one_cycle(post, raw)
    [kept] = list((post.home / "mail" / "in" / ".Processed" / "cur").iterdir())
    assert kept.read_bytes() == raw


@pytest.mark.parametrize(("header", "name", "address"), [
    ("france@x.test <attacker@evil.test>", "france@x.test", "attacker@evil.test"),
    ('"France <f@x.test>" <a@b.test>', "France <f@x.test>", "a@b.test"),
    ('"Doe, Jane" <jane@b.test>, eve@evil.test', "Doe, Jane", "jane@b.test"),
    ("=?utf-8?q?Fran=C3=A7ois?= <f@x.test>", "François", "f@x.test"),
    ("jane@b.test (Jane, at home)", "Jane, at home", "jane@b.test"),
    ("<@relay.test:jane@b.test>", "", "jane@b.test"),
    ("Jane <not an address>", "", ""),
])
def test_from_reads_the_mailbox_the_angle_address_names(header: str, name: str,
                                                        address: str) -> None:
    mail = judge.mail.mailin.parse_mail(raw_mail(header, "HELP\n"))
    assert (mail.from_name, mail.from_addr) == (name, address)


def test_stream_safe_text_normalises_as_before_and_in_runs_of_30() -> None:
    """UAX #15 section 13: ordinary text is unchanged; a longer run of
    non-starters gets a CGJ after every 30."""
    for text in ("Bonjour à tous", "Ångström", "Tiếng Việt", "e\u0301\u0316" * 3, "ＳＩＧＮＯＮ"):
        assert bounds.stream_safe(text) == text
    run = "a" + "\u0301\u0316" * 40
    safe = bounds.stream_safe(run)
    assert safe.replace(bounds.CGJ, "") == run
    assert _runs_of_non_starters(safe) == bounds.MAX_NON_STARTERS
    assert _runs_of_non_starters(unicodedata.normalize("NFC", safe)) <= bounds.MAX_NON_STARTERS


def test_a_long_references_header_is_trimmed_and_the_mail_read(
        post: Post, monkeypatch: pytest.MonkeyPatch) -> None:
    """A header the judge does not act on (References of a long thread, a
    trace header) beyond a bound does not refuse the mail: it is read
    without that header, which no parser sees."""
    seats = start_sealed(post)
    post.new()
    refs = " ".join(f"<m{i}.thread@players.example>" for i in range(800))
    decoded = _spy(monkeypatch, judge.mail.mailin, "message_from_bytes")
    raw = raw_mail(SEAT, seats.signon("North") + "\nSTATUS\n",
                   headers=f"References: {refs}\r\nX-Trace: {'t' * 20_000}\r\n")
    lines = one_cycle(post, raw)
    assert "processed" in lines[0]
    assert all(not bounds.header_breach(r) for r in decoded)
    assert "signed on as North in g1" in post.text(mails_to(post.new(), SEAT)[0])
