"""The newcomer's mistakes and the commands that spare them: `judge mail`
puts a mail in the inbox, a mail dropped beside the inbox is reported, and
every reply the limits hold back is logged."""

from __future__ import annotations

import logging
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from judge import config as cfg
from judge import daemon
from judge.cli import main
from judge.commands import league as league_commands
from tests.core.conftest import Post

#: The store and the mail pipeline on SQLite and on PostgreSQL (tests/conftest.py).
BOTH_BACKENDS = True


def _cli(post: Post, *args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--home", str(post.home), *args], input=stdin)
    return result.exit_code, result.output


def test_judge_mail_puts_a_saved_mail_in_the_inbox(post: Post) -> None:
    saved = post.home / "join.eml"
    saved.write_bytes(post.raw("anna@players.example", "LIST\n", subject="what is on"))
    code, out = _cli(post, "mail", str(saved))
    assert code == 0, out
    landed = list((post.home / "mail" / "in" / "new").iterdir())
    assert len(landed) == 1 and landed[0].read_bytes() == saved.read_bytes()
    assert not list((post.home / "mail" / "in" / "tmp").iterdir())  # written, then moved
    post.judge.cycle()
    [reply] = post.new()
    assert reply["To"] == "anna@players.example" and reply["Subject"] == "Re: what is on"


def test_judge_mail_from_standard_input_with_a_sender(post: Post) -> None:
    code, out = _cli(post, "mail", "--from", "anna@players.example", "-", stdin="LIST\n")
    assert code == 0, out
    post.judge.cycle()
    [reply] = post.new()
    assert reply["To"] == "anna@players.example" and "LIST" in post.text(reply)


def test_judge_mail_refuses_text_that_is_not_a_mail(post: Post) -> None:
    code, out = _cli(post, "mail", "-", stdin="JOIN g1 France\n")
    assert code == 1
    assert "no From header" in out and "--from ADDRESS" in out
    assert not list((post.home / "mail" / "in" / "new").iterdir())


def test_a_mail_beside_the_inbox_is_reported_by_check_mail_and_serve(
        post: Post, caplog: pytest.LogCaptureFixture) -> None:
    (post.home / "mail" / "in" / "orders.eml").write_bytes(
        post.raw("anna@players.example", "LIST\n"))
    code, out = _cli(post, "check-mail")
    assert code == 1
    assert "orders.eml" in out and "never read" in out and "mail/in/new" in out
    post.judge.close()
    with caplog.at_level(logging.WARNING, logger="judge"):
        daemon.serve(post.home, once=True, echo=lambda _line: None)
    assert any("orders.eml" in r.getMessage() and "never read" in r.getMessage()
               for r in caplog.records)
    # moved where it belongs, it is read
    (post.home / "mail" / "in" / "orders.eml").unlink()
    code, out = _cli(post, "check-mail")
    assert code == 0 and "never read" not in out


def test_a_reply_held_back_from_a_stranger_is_logged(
        post: Post, caplog: pytest.LogCaptureFixture) -> None:
    """A mistyped JOIN, then another within the hour: the second gets no
    reply (an unknown address is answered once an hour) and the log says so."""
    post.send("anna@players.example", "JOIN nosuchgame\n")
    assert len(post.new()) == 1
    with caplog.at_level(logging.WARNING, logger="judge"):
        post.send("anna@players.example", "JOIN nosuchgame2\n")
    assert post.new() == []
    assert any("not answering anna@players.example" in r.getMessage()
               for r in caplog.records)


def test_a_league_gm_is_no_stranger(post: Post) -> None:
    """The league's GM writes HELP, then a mail with two CREATEs (one over
    limits.creates_per_mail): the refusal is answered, though an unknown
    address would have had its one reply of the hour already."""
    with post.judge.store.atomic():
        league_commands.create_league(post.judge, "autumn", "draw-size", "lea@league.example")
    post.send("lea@league.example", "HELP\n")
    post.send("lea@league.example", "CREATE a1 sealed_bids\nCREATE a2 sealed_bids\n")
    replies = [m for m in post.new() if m["To"] == "lea@league.example"]
    assert len(replies) == 2
    assert "limits.creates_per_mail" in post.text(replies[1])


README = Path(__file__).resolve().parents[2] / "README.md"


def _cell_value(text: str) -> object:
    text = text.strip().strip("`")
    if text.endswith(" MB"):
        return int(float(text[:-3]) * 1_000_000)
    try:
        return int(text)
    except ValueError:
        return text


def test_the_readme_gives_every_limit_with_its_true_default(tmp_path: Path) -> None:
    """Each `[limits]` key `judge init` writes is in the README's table, with
    the default the judge uses and the file it writes carries."""
    written = tomllib.loads(cfg.DEFAULT_CONFIG)["limits"]
    used = cfg.Config(home=tmp_path)
    documented: dict[str, object] = {}
    for row in README.read_text().splitlines():
        if not row.startswith("| `limits."):
            continue
        cells = row.strip("|").split("|")
        keys = re.findall(r"`limits\.(\w+)`", cells[0])
        values = [_cell_value(v) for v in cells[-1].split(",")]
        assert len(keys) == len(values), row
        documented.update(zip(keys, values, strict=True))
    assert set(documented) == set(written)
    for key, value in documented.items():
        assert written[key] == value == getattr(used, key), key


def test_the_readme_names_every_game_setting_and_what_a_fresh_machine_needs() -> None:
    text = " ".join(README.read_text().split())
    for key in tomllib.loads(cfg.DEFAULT_CONFIG)["settings"]:
        assert f"`{key}`" in text, key
    assert "sudo apt-get install python3-venv" in text
