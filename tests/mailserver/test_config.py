"""Mail configuration without servers: the schema, secrets, init URLs, VERP,
and the transports' behaviour when nothing answers. (No ``mailserver``
marker: these run everywhere.)"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from bench.support.mailservers import free_port
from judge import config as cfg
from judge import mailconfig
from judge.mail.imap import ImapInbound, ImapSettings, MemoryCheckpoint
from judge.mail.mailout import ServerUnavailable, verp_address, verp_token
from judge.mail.smtp import SmtpOutbound, SmtpSettings


def load(tmp_path: Path, text: str) -> cfg.Config:
    (tmp_path / "judge.toml").write_text(text)
    return cfg.load(tmp_path)


IMAP = """
[mail.in]
transport = "imap"
host = "mail.example.org"
username = "judge"
password_env = "JUDGE_IMAP_PASSWORD"
"""


def test_the_default_config_fits_the_schema(tmp_path: Path) -> None:
    cfg.init_home(tmp_path)
    config = cfg.load(tmp_path)
    assert config.mail_in["transport"] == "maildir" and config.attachments == "refuse"
    assert config.max_commands == 200 and config.replies_per_hour == 20
    assert config.creates_per_mail == 1 and config.strangers_per_hour == 30


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        (IMAP.replace('username = "judge"', 'username = "judge"\npassword = "hunter2"'),
         "[mail.in]: unknown key 'password'"),
        (IMAP.replace('password_env = "JUDGE_IMAP_PASSWORD"', ""),
         "[mail.in]: give exactly one of password_env"),
        (IMAP + 'password_file = "secret"\n', "[mail.in]: give exactly one of password_env"),
        (IMAP.replace('host = "mail.example.org"', 'host = "mail.example.org"\nsecurity = "ssl"'),
         "[mail.in] security: 'ssl' is not one of"),
        ('[mail.in]\ntransport = "pop3"\n', "[mail.in] transport: 'pop3' is not one of"),
        ('[mail.out]\ntransport = "smtp"\nhost = "mx.example.org"\nusername = "judge"\n',
         "[mail.out]: give exactly one of password_env"),
        ('[mail.out]\ntransport = "smtp"\nhost = "mx"\npassword_env = "X"\n',
         "[mail.out]: 'username' is a dependency of 'password_env'"),
        ('[limits]\nattachments = "maybe"\n', "[limits] attachments: 'maybe' is not one of"),
        ('[judge]\nadress = "judge@example.org"\n', "[judge]: unknown key 'adress'"),
        ('[mail.in]\ntransport = "imap"\nhost = "h"\nusername = "u"\npassword_env = "X"\n'
         "idle_seconds = 3600\n", "[mail.in] idle_seconds: 3600 is greater than the maximum"),
    ],
)  # fmt: skip
def test_schema_names_what_is_wrong(tmp_path: Path, text: str, complaint: str) -> None:
    with pytest.raises(cfg.ConfigError) as info:
        load(tmp_path, text)
    assert complaint in str(info.value)


def test_secrets_come_from_the_environment_or_a_file(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    section: dict[str, Any] = {"password_env": "JUDGE_T_PW"}
    monkeypatch.delenv("JUDGE_T_PW", raising=False)
    with pytest.raises(cfg.ConfigError, match="JUDGE_T_PW is not set"):
        mailconfig.secret(section, tmp_path, "IMAP")
    monkeypatch.setenv("JUDGE_T_PW", "s3cret")
    assert mailconfig.secret(section, tmp_path, "IMAP") == "s3cret"
    with pytest.raises(cfg.ConfigError, match="cannot read the SMTP password file"):
        mailconfig.secret({"password_file": "missing"}, tmp_path, "SMTP")
    (tmp_path / "pw").write_text("")
    with pytest.raises(cfg.ConfigError, match="is empty"):
        mailconfig.secret({"password_file": "pw"}, tmp_path, "SMTP")
    (tmp_path / "pw").write_text("line one\n")
    (tmp_path / "pw").chmod(0o600)
    assert mailconfig.secret({"password_file": "pw"}, tmp_path, "SMTP") == "line one"
    # systemd's LoadCredential= folder, named through the environment.
    section = {"password_file": "${CREDENTIALS_DIRECTORY}/pw"}
    monkeypatch.delenv("CREDENTIALS_DIRECTORY", raising=False)
    with pytest.raises(cfg.ConfigError, match="names an environment variable that is not set"):
        mailconfig.secret(section, tmp_path, "IMAP")
    monkeypatch.setenv("CREDENTIALS_DIRECTORY", str(tmp_path))
    assert mailconfig.secret(section, tmp_path / "elsewhere", "IMAP") == "line one"


def test_the_password_never_reaches_the_database_or_a_repr(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_IMAP_PASSWORD", "hunter2-secret")
    (tmp_path / "judge.toml").write_text(cfg.DEFAULT_CONFIG.replace(
        '[mail.in]\ntransport = "maildir"\npath = "mail/in"\n', IMAP))  # fmt: skip
    from judge.service import Judge

    judge = Judge.open(tmp_path)
    assert isinstance(judge.inbound, ImapInbound)
    assert judge.inbound.settings.password == "hunter2-secret"
    assert "hunter2" not in repr(judge.inbound.settings)
    judge.close()
    assert b"hunter2" not in (tmp_path / "judge.db").read_bytes()


@pytest.mark.parametrize(
    ("url", "kind", "section"),
    [
        ("imaps://judge@mail.example.org", "imap",
         {"host": "mail.example.org", "port": 993, "security": "tls", "username": "judge"}),
        ("imap://judge@mail.example.org/Judge/In", "imap",
         {"port": 143, "security": "starttls", "folder": "Judge/In"}),
        ("imaps://judge%40gmail.com@imap.gmail.com", "imap",
         {"host": "imap.gmail.com", "username": "judge@gmail.com"}),
        ("smtp://judge@mail.example.org", "smtp", {"port": 587, "security": "starttls"}),
        ("smtps://judge@mail.example.org:2465", "smtp", {"port": 2465, "security": "tls"}),
        ("smtp+plain://127.0.0.1:2525", "smtp", {"security": "none", "port": 2525}),
    ],
)  # fmt: skip
def test_server_urls(url: str, kind: str, section: dict[str, Any]) -> None:
    got = mailconfig.server_section(url, kind, "PW")
    assert got["transport"] == kind
    for key, value in section.items():
        assert got[key] == value
    assert ("password_env" in got) == ("username" in got)


@pytest.mark.parametrize(
    ("url", "kind", "complaint"),
    [
        ("imaps://judge:hunter2@mail.example.org", "imap", "put no password in the IMAP URL"),
        ("smtp://judge@mail.example.org", "imap", "is not an IMAP URL"),
        ("imaps://mail.example.org", "imap", "names no user"),
        ("smtp://mx.example.org/box", "smtp", "takes no path"),
    ],
)
def test_bad_server_urls(url: str, kind: str, complaint: str) -> None:
    with pytest.raises(cfg.ConfigError, match=complaint):
        mailconfig.server_section(url, kind, "PW")


def test_config_text_is_a_valid_config(tmp_path: Path) -> None:
    text = mailconfig.config_text(
        "judge@example.org",
        mailconfig.server_section("imaps://judge@mail.example.org", "imap", "IMAP_PW"),
        mailconfig.server_section("smtp://judge@mail.example.org", "smtp", "SMTP_PW"),
    )
    raw = tomllib.loads(text)
    assert raw["judge"]["domain"] == "example.org"
    assert raw["mail"]["out"]["password_env"] == "SMTP_PW"
    assert raw["limits"] and raw["settings"]  # the rest of the default file is kept
    config = load(tmp_path, text)
    assert config.mail_in["host"] == "mail.example.org"


def test_verp_round_trip() -> None:
    address = verp_address("Judge <judge@example.org>", "<0f1e2d3c@example.org>")
    assert address == "judge+bounce-0f1e2d3c@example.org"
    assert verp_token(address, "judge@example.org") == "0f1e2d3c"
    assert verp_token("JUDGE+BOUNCE-0F1E2D3C@Example.org", "judge@example.org") == "0f1e2d3c"
    assert verp_token("judge@example.org", "judge@example.org") is None
    assert verp_token("judge+bounce-x@other.example", "judge@example.org") is None
    assert verp_address("judge@example.org", "<a1@x>", "-") == "judge-bounce-a1@example.org"
    # A local part that would pass RFC 5321's 64 octets keeps the plain address.
    assert verp_address("j" * 40 + "@example.org", "<" + "f" * 32 + "@x>") == "j" * 40 + \
        "@example.org"


def test_imap_backoff_doubles_while_nobody_answers() -> None:
    now = [1000.0]
    settings = ImapSettings("127.0.0.1", free_port(), "judge", "pw", security="none",
                            reconnect_min=1, reconnect_max=8, timeout=5)  # fmt: skip
    t = ImapInbound(settings, MemoryCheckpoint(), clock=lambda: now[0])
    delays = []
    for _ in range(5):
        assert list(t.fetch()) == []  # refused: nothing, and no exception
        delays.append(t._retry_at - now[0])
        assert list(t.fetch()) == []  # within the backoff: not even a try
        now[0] = t._retry_at
    assert delays == [1, 2, 4, 8, 8]


def test_smtp_connection_refused_is_server_unavailable() -> None:
    t = SmtpOutbound(SmtpSettings("127.0.0.1", free_port(), security="none", timeout=5))
    with pytest.raises(ServerUnavailable, match=r"SMTP 127\.0\.0\.1"):
        t.send("judge@example.org", "north@example.org", b"Subject: x\r\n\r\nhi\r\n")
    t.close()


DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


@pytest.mark.parametrize("name", ["judge-selfhosted.toml", "judge-hosted.toml"])
def test_the_example_configs_load(name: str, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "judge.toml").write_text((DEPLOY / name).read_text())
    for key in ("imap", "smtp"):
        (tmp_path / key).write_text(f"{key}-secret\n")
        (tmp_path / key).chmod(0o600)
    monkeypatch.setenv("CREDENTIALS_DIRECTORY", str(tmp_path))
    monkeypatch.setenv("JUDGE_IMAP_PASSWORD", "imap-secret")
    monkeypatch.setenv("JUDGE_SMTP_PASSWORD", "smtp-secret")
    config = cfg.load(tmp_path)
    imap = mailconfig.imap_settings(config.mail_in, tmp_path)
    smtp = mailconfig.smtp_settings(config.mail_out, tmp_path)
    assert (imap.security, imap.port, imap.password) == ("tls", 993, "imap-secret")
    assert (smtp.security, smtp.port, smtp.password) == ("starttls", 587, "smtp-secret")
    assert mailconfig.envelope_sender(config, "<abc123@x>").split("@")[0].endswith(
        "+bounce-abc123")


def test_the_unit_runs_judge_serve_as_its_own_user() -> None:
    unit = (DEPLOY / "judge.service").read_text()
    lines = {line.split("=", 1)[0]: line.split("=", 1)[1]
             for line in unit.splitlines() if "=" in line and not line.startswith("#")}
    assert lines["User"] == "judge" and lines["Restart"] == "on-failure"
    assert lines["ExecStart"].endswith("judge serve")


def test_missing_secrets_stop_serve_but_not_other_commands(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from judge.cli import main
    from judge.service import Judge

    monkeypatch.delenv("JUDGE_IMAP_PASSWORD", raising=False)
    (tmp_path / "judge.toml").write_text(cfg.DEFAULT_CONFIG.replace(
        '[mail.in]\ntransport = "maildir"\npath = "mail/in"\n', IMAP))  # fmt: skip
    judge = Judge.open(tmp_path)
    assert isinstance(judge.inbound, mailconfig.MissingSecretInbound)
    assert list(judge.inbound.fetch()) == []
    judge.close()
    result = CliRunner().invoke(main, ["--home", str(tmp_path), "game", "list"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["--home", str(tmp_path), "serve", "--once"])
    assert result.exit_code == 1
    assert "JUDGE_IMAP_PASSWORD is not set" in result.output
