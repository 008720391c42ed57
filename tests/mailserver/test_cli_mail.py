"""``judge init --imap ... --smtp ...``, ``judge check-mail`` and ``judge
serve`` against the real servers."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench.support.mailplayers import JUDGE, Mail, judge_config
from bench.support.mailservers import MailServers, free_port
from judge import config as cfg
from judge.cli import main


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)
    return result.exit_code, result.output


def test_init_with_servers_then_check_mail(servers: MailServers, tmp_path: Path) -> None:
    home = tmp_path / "league"
    code, out = run(
        "init", "--home", str(home), "--address", JUDGE,
        "--imap", f"imap+plain://judge@127.0.0.1:{servers.dovecot.imap_port}",
        "--smtp", f"smtp+plain://127.0.0.1:{servers.smtp.port}",
    )  # fmt: skip
    assert code == 0, out
    assert "JUDGE_IMAP_PASSWORD" in out and "check-mail" in out
    raw = tomllib.loads((home / "judge.toml").read_text())
    assert raw["mail"]["in"] == {
        "transport": "imap", "host": "127.0.0.1", "port": servers.dovecot.imap_port,
        "security": "none", "username": "judge", "password_env": "JUDGE_IMAP_PASSWORD",
    }  # fmt: skip
    assert raw["mail"]["out"]["transport"] == "smtp" and "password_env" not in raw["mail"]["out"]
    assert raw["judge"]["address"] == JUDGE and raw["judge"]["domain"] == "localhost"
    assert "judge" not in (home / "judge.toml").read_text().split("password_env")[0][-40:]
    assert (home / "judge.db").exists()
    # A second init does not overwrite the file.
    code, out = run("init", "--home", str(home), "--imap", "imaps://x@example.org")
    assert code == 1 and "exists" in out

    code, out = run("--home", str(home), "check-mail", env={"JUDGE_IMAP_PASSWORD": "judge"})
    assert code == 0, out
    assert "ok   IMAP none judge@127.0.0.1" in out and "IDLE yes, MOVE yes, UIDPLUS yes" in out
    assert "folder Processed created" in out and "folder Failed created" in out
    assert "envelope sender <judge+bounce-" in out and "accepted" in out
    assert "FAIL" not in out


def _home(tmp_path: Path, text: str) -> Path:
    home = tmp_path / "h"
    home.mkdir(exist_ok=True)
    (home / "judge.toml").write_text(text)
    return home


def test_check_mail_says_what_is_wrong(servers: MailServers, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JUDGE_TEST_IMAP_PASSWORD", raising=False)
    home = _home(tmp_path, judge_config(servers))
    code, out = run("--home", str(home), "check-mail")
    assert code == 1
    assert "the environment variable JUDGE_TEST_IMAP_PASSWORD is not set" in out

    code, out = run("--home", str(home), "check-mail", env={"JUDGE_TEST_IMAP_PASSWORD": "nope"})
    assert code == 1 and "login refused for 'judge'" in out and "JUDGE_TEST_IMAP_PASSWORD" in out

    closed = free_port()
    home = _home(tmp_path, judge_config(servers, imap={"port": closed},
                                        smtp={"port": closed}))  # fmt: skip
    code, out = run("--home", str(home), "check-mail", env={"JUDGE_TEST_IMAP_PASSWORD": "judge"})
    assert code == 1
    assert out.count("connection refused by 127.0.0.1:") == 2

    # TLS against a server whose certificate the system does not trust.
    home = _home(tmp_path, judge_config(
        servers, imap={"security": "tls", "host": "localhost", "port": servers.dovecot.imaps_port},
        smtp={"security": "starttls", "host": "localhost"},
    ))  # fmt: skip
    code, out = run("--home", str(home), "check-mail", env={"JUDGE_TEST_IMAP_PASSWORD": "judge"})
    assert code == 1 and out.count("is not trusted") == 2 and "set cafile" in out

    # TLS spoken to the plain-text port.
    home = _home(tmp_path, judge_config(servers, imap={"security": "tls"}))
    code, out = run("--home", str(home), "check-mail", "--timeout", "5",
                    env={"JUDGE_TEST_IMAP_PASSWORD": "judge"})  # fmt: skip
    assert code == 1 and "speaks plain text" in out

    # ... and with the certificate trusted, both work over TLS and STARTTLS with AUTH.
    home = _home(tmp_path, judge_config(
        servers,
        imap={"security": "tls", "host": "localhost", "port": servers.dovecot.imaps_port,
              "cafile": str(servers.cert)},
        smtp={"security": "starttls", "host": "localhost", "cafile": str(servers.cert),
              "username": "judge", "password_env": "JUDGE_TEST_IMAP_PASSWORD"},
    ))  # fmt: skip
    code, out = run("--home", str(home), "check-mail", env={"JUDGE_TEST_IMAP_PASSWORD": "judge"})
    assert code == 0, out
    assert "SMTP starttls judge@localhost" in out and "logged in" in out


def test_serve_once_reads_and_answers_by_the_servers(servers: MailServers, home: Path,
                                                     judge: object, mail: Mail) -> None:
    mail.send("north@localhost", "HELP\n")
    code, out = run("--home", str(home), "serve", "--once")
    assert code == 0, out
    assert "from north@localhost: processed" in out
    answers = mail.inbox("north")
    assert len(answers) == 1 and answers[0]["Auto-Submitted"] == "auto-replied"
    assert servers.count("judge") == 0 and servers.count("judge", "Processed") == 1
    assert cfg.load(home).mail_in["transport"] == "imap"
