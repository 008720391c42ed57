"""The mail corpus: every file in corpus/ gets exactly the treatment that
corpus/expected.yaml names for it, at the decoding level (drop / refuse /
cleaned lines and the header facts), and the file list and the expectations
match one to one.

The ``pipeline`` field (what the whole judge does) is checked here only for
consistency (known values, duplicates that really are duplicates); the service
tests act on it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from judge.mail.mailin import Limits, delivery_report, parse_mail

CORPUS = Path(__file__).parent / "corpus"
EXPECTED: dict[str, dict[str, Any]] = yaml.safe_load(
    (CORPUS / "expected.yaml").read_text(encoding="utf-8")
)
FILES = sorted(p.name for p in CORPUS.glob("*.eml"))
PIPELINE = {"process", "ignore", "refuse-reply", "auth-failure", "duplicate"}


def raw_of(name: str) -> bytes:
    """The bytes of corpus file ``name``; an ``inflate_to`` entry has its last
    body line repeated until the mail reaches that size."""
    raw = (CORPUS / name).read_bytes()
    size = EXPECTED[name].get("inflate_to")
    if size:
        last = raw.rstrip(b"\n").rsplit(b"\n", 1)[1] + b"\n"
        raw += last * ((size - len(raw)) // len(last) + 1)
        assert len(raw) >= size
    return raw


def test_every_file_has_an_entry_and_every_entry_a_file() -> None:
    assert len(FILES) >= 45
    assert set(FILES) == set(EXPECTED)


def test_pipeline_values_are_known() -> None:
    for name, entry in EXPECTED.items():
        assert entry["pipeline"] in PIPELINE, name
        # a mail is dropped, refused or has lines: exactly one verdict
        assert sum(k in entry for k in ("drop", "refuse", "lines")) == 1, name
        if "drop" in entry:
            assert entry["pipeline"] == "ignore", name


@pytest.mark.parametrize("name", FILES)
def test_decoding(name: str) -> None:
    entry = EXPECTED[name]
    raw = raw_of(name)
    mail = parse_mail(raw)
    if "drop" in entry:
        assert mail.drop is not None and mail.drop.startswith(entry["drop"]), mail.drop
    else:
        assert mail.drop is None, mail.drop
    if "refuse" in entry:
        assert mail.refuse is not None and mail.refuse.startswith(entry["refuse"]), mail.refuse
        assert mail.lines == ()
    elif "drop" not in entry:
        assert mail.refuse is None, mail.refuse
    if "lines" in entry:
        assert [line for line in mail.lines if line] == (entry["lines"] or [])
    checks = {
        "subject": mail.subject,
        "from": mail.from_addr,
        "from_name": mail.from_name,
        "reply_to": mail.reply_to,
        "in_reply_to": mail.in_reply_to,
        "attachments": list(mail.attachments),
        "auth_results": len(mail.auth_results),
    }
    for key, got in checks.items():
        if key in entry:
            assert got == entry[key], key
    for prefix, got in zip(entry.get("attachments_prefix", []), mail.attachments, strict=False):
        assert got.startswith(prefix)
    if "attachments_prefix" in entry:
        assert len(mail.attachments) == len(entry["attachments_prefix"])


@pytest.mark.parametrize("name", FILES)
def test_never_leaks_quoted_text_or_signature(name: str) -> None:
    """No cleaned line is a quoted line, whatever the file."""
    mail = parse_mail(raw_of(name))
    assert not any(line.lstrip().startswith(">") for line in mail.lines)
    assert "--" not in [line.strip() for line in mail.lines]


@pytest.mark.parametrize("name", [n for n in FILES if "report" in EXPECTED[n]])
def test_delivery_reports(name: str) -> None:
    expected = EXPECTED[name]["report"]
    report = delivery_report(raw_of(name))
    assert report is not None
    assert report.kind == expected["kind"]
    assert list(report.failed) == expected["failed"]
    if "status" in expected:
        assert [s.status for s in report.statuses] == expected["status"]
    if "actions" in expected:
        assert [s.action for s in report.statuses] == expected["actions"]
    assert report.original_message_id == expected["original_message_id"]
    assert [list(h) for h in report.original_headers] == expected["original_headers"]


@pytest.mark.parametrize("name", [n for n in FILES if "report" not in EXPECTED[n]])
def test_other_mail_is_not_a_delivery_report(name: str) -> None:
    assert delivery_report(raw_of(name)) is None


def test_duplicates_are_named_and_real() -> None:
    mails = {name: parse_mail(raw_of(name)) for name in FILES}
    for name, entry in EXPECTED.items():
        if "resend_of" in entry:  # the same body in a new mail: not a duplicate
            original = entry["resend_of"]
            assert entry["pipeline"] == "process"
            assert mails[name].message_id != mails[original].message_id
            assert mails[name].body_hash == mails[original].body_hash
            assert mails[name].from_addr == mails[original].from_addr
        if entry["pipeline"] != "duplicate":
            assert "duplicate_of" not in entry, name
            continue
        original = entry["duplicate_of"]
        assert original in mails and EXPECTED[original]["pipeline"] != "duplicate"
        assert entry["duplicate_by"] == "message-id"
        assert mails[name].message_id == mails[original].message_id
    # and no two other files share a Message-ID
    ids = [m.message_id for n, m in mails.items() if EXPECTED[n]["pipeline"] != "duplicate"]
    assert len(ids) == len(set(ids))


def test_too_large_mail_still_gives_the_answer_address() -> None:
    name = next(n for n in FILES if "inflate_to" in EXPECTED[n])
    raw = raw_of(name)
    assert len(raw) >= 5 * 1024 * 1024
    mail = parse_mail(raw)
    assert mail.refuse == f"too large: {len(raw)} bytes"
    assert mail.from_addr == "john@example.co.uk"
    assert mail.message_id == "<20240603195000.big@kestrel.example.co.uk>"
    # the same mail under a limit it fits is decoded
    small = parse_mail(raw, Limits(max_bytes=len(raw), max_lines=10**6))
    assert small.refuse is None and small.lines[:2] == (
        "SIGNON corpus England entoken-9Kd4",
        "STATUS",
    )
