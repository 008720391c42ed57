"""The judge's home folder and its config file.

Every command finds its home by ``--home DIR``, else ``$JUDGE_HOME``, else the
current folder. The home holds ``judge.toml``, the database and, with the
embedded defaults, the Maildir folders ``mail/in`` and ``mail/out``.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from judge.game.scheduler import DEFAULT_SETTINGS

if TYPE_CHECKING:  # the mail stack is loaded only by what reads mail
    import jsonschema

    from judge.mail.mailin import Limits

CONFIG_NAME = "judge.toml"

DEFAULT_CONFIG = """\
# judge configuration. Paths are relative to this file's folder.

[judge]
# The address players write to, and the domain of outgoing Message-IDs.
address = "judge@localhost"
domain = "localhost"
database = "judge.db"
# Addresses allowed to CREATE games by mail ("*" for anyone).
creators = ["*"]
# Seconds between polls of the inbox in `judge serve`.
poll_seconds = 30
# Days a sent mail is kept in the outbox (its text, tokens masked, without
# attachments), then deleted.
keep_sent_days = 30

[mail.in]
transport = "maildir"
path = "mail/in"

[mail.out]
# "maildir" writes each outgoing mail into a Maildir; "stdout" prints it.
transport = "maildir"
path = "mail/out"

[limits]
max_bytes = 2000000
max_lines = 1000
# Commands in one mail, replies to one address per hour (mail beyond that is
# still carried out, unanswered), and what to do with attachments ("refuse":
# the mail is not read and its sender is told why; "ignore").
max_commands = 200
replies_per_hour = 20
attachments = "refuse"
# What one mail, one seat or one stranger may cause; beyond a limit the mail
# is refused whole, with one reply that names the limit.
creates_per_mail = 1
joins_per_mail = 3
creates_per_day = 3
press_per_hour = 30
press_recipients_per_mail = 20
strangers_per_hour = 30
# The largest mail the judge sends, in bytes (its text, HTML and pictures
# together): a press that would make a larger one is refused, with a reply
# naming the limit (common mail servers take 10 to 25 MB).
max_out_bytes = 10000000
# How far the clock may move forward between two cycles before the judge
# stops processing phases until the operator confirms (judge clock confirm).
max_clock_jump_hours = 6
# The budget of one mail: seconds and megabytes its handling may take; a
# mail beyond it is moved to Failed and the cycle goes on (0: no limit).
mail_seconds = 60
mail_memory_mb = 1024
# Bounds on one mail, so that no mail costs more than its size: a header
# field (folded lines together) and its RFC 2047 encoded words, a body line,
# SIGNON lines (each costs a slow token check), and how much of a line a
# reply quotes back (then "..."). Beyond a bound the mail is refused with one
# short reply naming the limit (a header the judge does not read, such as a
# long References list, is dropped instead and the mail read). Wrong tokens
# one address may send for one seat in an hour; beyond it that address's
# SIGNONs for the seat are refused unchecked (a stranger's guesses never
# lock the seat's own address out).
max_header_chars = 16000
max_encoded_words = 200
max_line_chars = 10000
max_signons = 10
max_echo_chars = 200
token_failures_per_hour = 10

# The public pages (judge publish): with dir set, `judge serve` writes them
# there after each cycle that moved a game on; maps as "svg" or "png"; the
# site's title heads every page.
# [publish]
# dir = "public"
# pictures = "svg"
# title = "Games of judge@example.org"

# Defaults for every new game; a GM changes them per game with SET.
[settings]
orders_hours = 48.0
action_hours = 24.0
grace_hours = 24.0
reminder_hours = 12.0
max_extend_hours = 72.0
window_hours = 12.0
window_min_minutes = 0.0
press = "white"
joins = "open"
abandon_after = 3.0
gm_copies = "no"
draw_votes = "secret"
max_absence_days = 14.0
orders_in = "gm"
picture = "png"
"""


@dataclass
class Config:
    home: Path
    address: str = "judge@localhost"
    domain: str = "localhost"
    database: str = "judge.db"
    """An SQLite file (relative to the home) or a ``postgresql://`` URL."""
    database_secret: dict[str, Any] = field(default_factory=dict)
    """Where the PostgreSQL password is (``password_env`` or ``password_file``
    of ``[judge]``); empty: the URL (or libpq's own files) carry it."""
    creators: list[str] = field(default_factory=lambda: ["*"])
    poll_seconds: float = 30.0
    keep_sent_days: float = 30.0
    mail_in: dict[str, Any] = field(default_factory=lambda: {"transport": "maildir",
                                                              "path": "mail/in"})
    mail_out: dict[str, Any] = field(default_factory=lambda: {"transport": "maildir",
                                                               "path": "mail/out"})
    max_bytes: int = 2_000_000
    max_lines: int = 1_000
    max_commands: int = 200
    replies_per_hour: int = 20
    attachments: str = "refuse"
    creates_per_mail: int = 1
    joins_per_mail: int = 3
    creates_per_day: int = 3
    press_per_hour: int = 30
    press_recipients_per_mail: int = 20
    strangers_per_hour: int = 30
    max_out_bytes: int = 10_000_000
    """Bytes of the largest mail the judge sends; a press that would pass it
    is refused."""
    max_clock_jump_hours: float = 6.0
    """Hours the clock may move forward between two cycles before phases wait
    for the operator's ``judge clock confirm``."""
    mail_seconds: float = 60.0
    """Seconds one mail's handling may take (judge.budget)."""
    mail_memory_mb: int = 1024
    """Megabytes of memory one mail's handling may add (judge.budget)."""
    max_header_chars: int = 16_000
    max_encoded_words: int = 200
    max_line_chars: int = 10_000
    max_signons: int = 10
    max_echo_chars: int = 200
    token_failures_per_hour: int = 10
    settings: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_SETTINGS))
    publish_dir: str = ""
    """Where the daemon writes the public pages ("": it does not)."""
    publish_pictures: str = "svg"
    publish_title: str = ""
    """The site's title on every public page ("": "Games of <address>")."""

    @property
    def publish_path(self) -> Path | None:
        """The folder of the public pages, if the config names one."""
        return self.path(self.publish_dir) if self.publish_dir else None

    def mail_limits(self) -> Limits:
        """The bounds a mail is read within (``[limits]``)."""
        from judge.mail.mailin import Limits  # not at import: `judge adjudicate` reads no mail

        return Limits(self.max_bytes, self.max_lines, self.max_header_chars,
                      self.max_encoded_words, self.max_line_chars)

    @property
    def db_path(self) -> Path:
        """The SQLite file (meaningless for PostgreSQL: see :attr:`postgres`)."""
        return self.home / self.database

    @property
    def postgres(self) -> bool:
        """Whether ``judge.database`` names a PostgreSQL database (a URL)."""
        return self.database.startswith(("postgresql://", "postgres://"))

    def path(self, rel: str) -> Path:
        p = Path(rel)
        return p if p.is_absolute() else self.home / p


class ConfigError(Exception):
    """The config file is missing or wrong; the message says what to do."""


def find_home(option: str | None) -> Path:
    if option:
        return Path(option)
    env = os.environ.get("JUDGE_HOME")
    if env:
        return Path(env)
    return Path.cwd()


def init_home(home: Path) -> Path:
    """Write a default config (unless one exists) and the Maildir folders."""
    home.mkdir(parents=True, exist_ok=True)
    cfg = home / CONFIG_NAME
    if not cfg.exists():
        cfg.write_text(DEFAULT_CONFIG, encoding="utf-8")
    return cfg


SCHEMA = "config.schema.json"

def _where(path: Any) -> str:
    parts = [str(p) for p in path]
    if not parts:
        return "the file"
    # [mail.in] host -> "[mail.in] host"
    if len(parts) >= 2 and parts[0] == "mail":
        section, rest = f"[mail.{parts[1]}]", parts[2:]
    else:
        section, rest = f"[{parts[0]}]", parts[1:]
    return section + (" " + ".".join(rest) if rest else "")


def validate(raw: dict[str, Any], source: str = "judge.toml") -> None:
    """Raise :class:`ConfigError` unless ``raw`` (the parsed TOML) fits
    ``schemas/config.schema.json``: one line per wrong key, every wrong key
    of the file at once (values out of their bounds too)."""
    import jsonschema  # not at import: only a config being loaded is checked

    from judge import reports  # the schemas' loader (and cache)

    schema = reports.load_schema(SCHEMA)
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(raw), key=lambda e: (len(e.path), list(e.path)))
    lines: list[str] = []
    for error in errors:
        line = _complaint(error)
        if line not in lines:
            lines.append(line)
    if len(lines) == 1:
        raise ConfigError(f"{source}: {lines[0]}")
    if lines:
        raise ConfigError(f"{source}: {len(lines)} errors:\n" + "\n".join(f"  {x}" for x in lines))


def _complaint(err: jsonschema.ValidationError) -> str:
    """One schema error as ``[section] key: what is wrong``."""
    chain = [err]
    # Descend into if/then and oneOf wrappers to the most specific complaint.
    while err.context:
        err = sorted(err.context, key=lambda e: -len(e.path))[0]
        chain.append(err)
    message = err.message
    if any(e.validator == "oneOf" and "password_env" in json.dumps(e.schema) for e in chain):
        message = "give exactly one of password_env (an environment variable) or password_file"
    elif err.validator == "additionalProperties":
        extra = re.findall(r"'([^']+)'", message)
        message = "unknown key " + ", ".join(repr(x) for x in extra) if extra else message
    return f"{_where(err.absolute_path)}: {message}"


def load(home: Path) -> Config:
    cfg_file = home / CONFIG_NAME
    if not cfg_file.exists():
        raise ConfigError(f"no {CONFIG_NAME} in {home}: run `judge init --home {home}` first")
    try:
        raw = tomllib.loads(cfg_file.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{cfg_file}: {exc}") from exc
    validate(raw, str(cfg_file))
    j = raw.get("judge", {})
    mail = raw.get("mail", {})
    limits = raw.get("limits", {})
    settings = dict(DEFAULT_SETTINGS)
    for key, value in raw.get("settings", {}).items():
        if key not in DEFAULT_SETTINGS:
            raise ConfigError(f"{cfg_file}: unknown setting {key!r} in [settings]")
        settings[key] = value
    config = Config(
        home=home,
        address=str(j.get("address", "judge@localhost")),
        domain=str(j.get("domain", "localhost")),
        database=str(j.get("database", "judge.db")),
        database_secret={k: j[k] for k in ("password_env", "password_file") if k in j},
        creators=[str(c).lower() for c in j.get("creators", ["*"])],
        poll_seconds=float(j.get("poll_seconds", 30)),
        keep_sent_days=float(j.get("keep_sent_days", 30)),
        mail_in=dict(mail.get("in", {"transport": "maildir", "path": "mail/in"})),
        mail_out=dict(mail.get("out", {"transport": "maildir", "path": "mail/out"})),
        max_bytes=int(limits.get("max_bytes", 2_000_000)),
        max_lines=int(limits.get("max_lines", 1_000)),
        max_commands=int(limits.get("max_commands", 200)),
        replies_per_hour=int(limits.get("replies_per_hour", 20)),
        attachments=str(limits.get("attachments", "refuse")),
        creates_per_mail=int(limits.get("creates_per_mail", 1)),
        joins_per_mail=int(limits.get("joins_per_mail", 3)),
        creates_per_day=int(limits.get("creates_per_day", 3)),
        press_per_hour=int(limits.get("press_per_hour", 30)),
        press_recipients_per_mail=int(limits.get("press_recipients_per_mail", 20)),
        strangers_per_hour=int(limits.get("strangers_per_hour", 30)),
        max_out_bytes=int(limits.get("max_out_bytes", 10_000_000)),
        max_clock_jump_hours=float(limits.get("max_clock_jump_hours", 6)),
        mail_seconds=float(limits.get("mail_seconds", 60)),
        mail_memory_mb=int(limits.get("mail_memory_mb", 1024)),
        max_header_chars=int(limits.get("max_header_chars", 16_000)),
        max_encoded_words=int(limits.get("max_encoded_words", 200)),
        max_line_chars=int(limits.get("max_line_chars", 10_000)),
        max_signons=int(limits.get("max_signons", 10)),
        max_echo_chars=int(limits.get("max_echo_chars", 200)),
        token_failures_per_hour=int(limits.get("token_failures_per_hour", 10)),
        settings=settings,
        publish_dir=str(raw.get("publish", {}).get("dir", "")),
        publish_pictures=str(raw.get("publish", {}).get("pictures", "svg")),
        publish_title=str(raw.get("publish", {}).get("title", "")),
    )
    # Transports and their keys are checked by the schema (validate).
    return config
