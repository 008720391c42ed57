"""What people install is what CI tests: the wheel and the sdist, built from
the checkout, installed away from it and played by mail.

    python tests/install/artefacts.py            # every check below
    python tests/install/artefacts.py --only wheel,user
    python tests/install/artefacts.py --only ""  # build and check the contents only

1. **Build** the wheel and the sdist (``python -m build``) from a clean copy
   of the checkout: the files git tracks, as the working tree has them.
2. **Contents**: every file git tracks under the packages' folders
   (``judge``, ``judge_games``, ``templates``, ``schemas``) is in the wheel
   and in the sdist; a missing one fails the run with its name.
3. **Install and play**, each in a fresh folder outside the checkout, the
   checkout on no ``sys.path`` (the installed ``judge.__file__`` must lie in
   the install):

   * ``wheel``: a fresh venv, ``pip install`` of the wheel;
   * ``sdist``: a fresh venv, ``pip install`` of the sdist (pip builds it);
   * ``user``: ``pip install --user`` of the wheel into a clean ``HOME``;
   * ``image``: the container's steps without Docker (Dockerfile): the wheel
     in a fresh venv owned by root, a system user of its own (created for the
     run when this runs as root) running ``deploy/docker-entrypoint.sh`` on a
     home laid out as the image's volume (``/var/lib/judge``).

   In each, mails go into the home's Maildir inbox and ``judge serve --once``
   handles them: a ``HELP``, a ``CREATE`` of each of the six games, every
   seat's ``JOIN``, the GM's ``START``, then every seat answers what its
   report says it owes until each game has had a full decision round (every
   seat has decided once and a report with its picture came after). A mail
   filed in Failed, a reply that refuses a line, a report without its
   picture or a traceback fails the run, naming the cause.

This file imports nothing of the judge: it drives the installed ``judge``
command only, as an operator's mail server and players would. ``--trace``
prints how long each ``judge serve --once`` took; ``--keep`` keeps the work
folder (the installs, the homes and their mail).
"""

from __future__ import annotations

import argparse
import email
import email.policy
import itertools
import os
import pwd
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[2]

PACKAGE_FOLDERS = ("judge", "judge_games", "templates", "schemas")
"""The folders the packages are built from (pyproject.toml)."""

IN_WHEEL = {"templates": "judge/_data/templates", "schemas": "judge/_data/schemas"}
"""Folders that ship under another name (pyproject.toml's package-dir)."""

SCENARIOS = ("wheel", "sdist", "user", "image")

JUDGE_ADDRESS = "judge@localhost"  # `judge init`'s default

GAMES: dict[str, tuple[str, tuple[str, ...]]] = {
    # game id: (CREATE options, the seats in the order they join)
    "classic": ("", ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")),
    "warring_states": ("", ("Qin", "Chu", "Zhao", "Wei", "Han", "Yan", "Qi")),
    "three_kingdoms": ("length=3", tuple(f"Player{n}" for n in range(1, 7))),
    "conflict_of_alliances": ("", ("Lianheng", "Alliance")),
    "kingdom_wars": ("seats=4", ("A", "B", "C", "D")),
    "conquest_tactics": ("turn_limit=12", ("South", "North")),
}

TRACE = False
"""Print how long each `judge serve --once` took (--trace)."""

MAX_CYCLES = 14
"""`judge serve --once` cycles after START before a game that has not had
its decision round fails the run."""


class CheckFailed(Exception):
    """What an artefact got wrong, in words."""


# -- building and contents ----------------------------------------------------


def clean_copy(dest: Path) -> Path:
    """The files of the checkout that a fresh clone has (those git tracks, as
    they are in the working tree), copied to ``dest``: a build there sees no
    leftovers (an editable install's ``judge.egg-info`` lists files that
    setuptools would otherwise ship whatever pyproject.toml says)."""
    try:
        done = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                              check=True, timeout=60)
        names = [n for n in done.stdout.decode().split("\0") if n]
    except (OSError, subprocess.SubprocessError):
        names = []
    if not names:  # not a git checkout: everything but what a build or a venv leaves
        skip = {".git", ".venv", "build", "dist", "__pycache__"}
        names = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")
                 if p.is_file() and not skip & set(p.relative_to(ROOT).parts)
                 and not any(part.endswith(".egg-info") for part in p.parts)]
    for name in names:
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


def build(out: Path) -> tuple[Path, Path]:
    """The wheel and the sdist of the checkout (a clean copy of it), built
    into ``out``."""
    source = clean_copy(out.parent / "source")
    run([sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out), str(source)],
        cwd=out, what="python -m build")
    (wheel,) = out.glob("judge-*.whl")
    (sdist,) = out.glob("judge-*.tar.gz")
    return wheel, sdist


def tracked_files(root: Path = ROOT) -> list[str]:
    """The files git tracks under :data:`PACKAGE_FOLDERS` (without git, the
    files there, caches left out)."""
    try:
        done = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--", *PACKAGE_FOLDERS],
                              capture_output=True, check=True, timeout=60)
        names = [n for n in done.stdout.decode().split("\0") if n]
        if names:
            return sorted(n for n in names if (root / n).is_file())
    except (OSError, subprocess.SubprocessError):
        pass
    return sorted(p.relative_to(root).as_posix() for top in PACKAGE_FOLDERS
                  for p in (root / top).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


def wheel_name(source: str) -> str:
    """Where the tracked file ``source`` lies inside the wheel."""
    top, _, rest = source.partition("/")
    return f"{IN_WHEEL[top]}/{rest}" if top in IN_WHEEL else source


def missing_from_wheel(wheel: Path, sources: Sequence[str]) -> list[str]:
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    return [s for s in sources if wheel_name(s) not in names]


def missing_from_sdist(sdist: Path, sources: Sequence[str]) -> list[str]:
    with tarfile.open(sdist) as t:
        names = {PurePosixPath(*PurePosixPath(n).parts[1:]).as_posix() for n in t.getnames()}
    return [s for s in sources if s not in names]


def check_contents(wheel: Path, sdist: Path, sources: Sequence[str]) -> None:
    problems = [f"{s} is not in the wheel {wheel.name} (as {wheel_name(s)})"
                for s in missing_from_wheel(wheel, sources)]
    problems += [f"{s} is not in the sdist {sdist.name}"
                 for s in missing_from_sdist(sdist, sources)]
    if problems:
        raise CheckFailed("files the code reads are missing from the artefacts "
                          "(pyproject.toml [tool.setuptools.package-data]):\n  "
                          + "\n  ".join(problems))


# -- running things -----------------------------------------------------------


def run(args: Sequence[str], *, cwd: Path, env: dict[str, str] | None = None,
        what: str = "", timeout: float = 600) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    if done.returncode != 0:
        raise CheckFailed(f"{what or args[0]} exited with {done.returncode}:\n"
                          f"{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return done


def clean_env(path: Sequence[Path], home: Path) -> dict[str, str]:
    """An environment that knows nothing of the checkout: no PYTHON* or
    JUDGE_* variables, ``path`` first on PATH, ``home`` as HOME."""
    keep = {k: v for k, v in os.environ.items()
            if not k.startswith(("PYTHON", "JUDGE_", "VIRTUAL_ENV", "PIP_USER"))}
    keep["PATH"] = os.pathsep.join([*map(str, path), "/usr/local/bin", "/usr/bin", "/bin"])
    keep["HOME"] = str(home)
    return keep


def base_python() -> str:
    """The interpreter this one's venv was made from (a venv cannot take a
    ``--user`` install)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (Path(sys.base_prefix) / "bin" / version,
                      Path(sys.base_prefix) / "bin" / "python3"):
        if candidate.exists():
            return str(candidate)
    return shutil.which("python3") or sys.executable


@dataclass
class Install:
    """An installed judge: how to run it, and where its home is."""

    label: str
    python: Path
    home: Path
    env: dict[str, str]
    prefix: Path
    """Where ``judge`` must be imported from."""
    command: list[str] = field(default_factory=lambda: ["judge"])
    """The judge command (the image runs it through its entrypoint)."""
    user: str | None = None
    """The user that runs it (the image's own), or None for this one."""

    def wrap(self, args: Sequence[str]) -> list[str]:
        if self.user is None:
            return list(args)
        env = [f"{k}={v}" for k, v in self.env.items()
               if k in ("PATH", "HOME", "JUDGE_HOME", "LANG", "LC_ALL", "TZ")]
        runuser = shutil.which("runuser") or "/usr/sbin/runuser"
        return [runuser, "-u", self.user, "--", "env", "-i", *env, *args]

    def judge(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(self.wrap([*self.command, *args]), cwd=self.home.parent,
                              env=self.env, capture_output=True, text=True, timeout=600)
        if "Traceback" in done.stderr:
            raise CheckFailed(f"[{self.label}] judge {' '.join(args)}: a traceback\n"
                              f"{done.stderr[-4000:]}")
        if check and done.returncode != 0:
            raise CheckFailed(f"[{self.label}] judge {' '.join(args)} exited with "
                              f"{done.returncode}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
        return done

    def where(self) -> None:
        """The judge imported is the installed one, not the checkout."""
        done = subprocess.run(self.wrap([str(self.python), "-c",
                                         "import judge, sys; print(judge.__file__); "
                                         "print(repr(sys.path))"]),
                              cwd=self.home.parent, env=self.env, capture_output=True, text=True,
                              timeout=120)
        if done.returncode != 0:
            raise CheckFailed(f"[{self.label}] import judge failed:\n{done.stderr[-2000:]}")
        found = Path(done.stdout.splitlines()[0]).resolve()
        if not found.is_relative_to(self.prefix.resolve()) or found.is_relative_to(ROOT):
            raise CheckFailed(f"[{self.label}] judge was imported from {found}, not from the "
                              f"install in {self.prefix}")
        if str(ROOT) in done.stdout.splitlines()[1]:
            raise CheckFailed(f"[{self.label}] the checkout {ROOT} is on sys.path")


def pip_install(python: str | Path, args: Sequence[str], env: dict[str, str], cwd: Path,
                label: str) -> None:
    run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *args],
        cwd=cwd, env=env, what=f"[{label}] pip install")


def venv_install(label: str, artefact: Path, work: Path) -> Install:
    venv = work / "venv"
    run([base_python(), "-m", "venv", str(venv)], cwd=work, what=f"[{label}] python -m venv")
    home = work / "home"
    home.mkdir()
    env = clean_env([venv / "bin"], home)
    pip_install(venv / "bin" / "python", [str(artefact)], env, work, label)
    return Install(label, venv / "bin" / "python", work / "judge", env, venv)


def user_install(wheel: Path, work: Path) -> Install:
    home = work / "home"
    home.mkdir()
    python = base_python()
    env = clean_env([home / ".local" / "bin"], home)
    env["PIP_BREAK_SYSTEM_PACKAGES"] = "1"  # a distribution's Python refuses --user otherwise
    has_pip = subprocess.run([python, "-m", "pip", "--version"], cwd=work, env=env,
                             capture_output=True, timeout=120, check=False)
    if has_pip.returncode != 0:
        raise CheckFailed(f"[user] {python} has no pip, so `pip install --user` cannot be "
                          "tried (on Debian: apt-get install python3-pip)")
    pip_install(python, ["--user", str(wheel)], env, work, "user")
    site = run([python, "-c", "import site; print(site.getusersitepackages())"], cwd=work,
               env=env, what="[user] site").stdout.strip()
    if not (home / ".local" / "bin" / "judge").is_file():
        raise CheckFailed("[user] pip install --user made no ~/.local/bin/judge")
    return Install("user", Path(python), work / "judge", env, Path(site))


def python_for(user: str, work: Path) -> str:
    """A Python the image's user can run, with venv (the image's lives in
    /usr/local; this machine's may live in a folder only root may enter)."""
    runuser = shutil.which("runuser") or "/usr/sbin/runuser"
    for candidate in dict.fromkeys([base_python(), "/usr/local/bin/python3", "/usr/bin/python3"]):
        if not Path(candidate).exists():
            continue
        tried = subprocess.run([runuser, "-u", user, "--", candidate, "-c",
                                "import venv, ensurepip"], cwd=work, capture_output=True,
                               timeout=60, check=False)
        if tried.returncode == 0:
            return candidate
    raise CheckFailed(f"[image] no Python with venv that the user {user} may run "
                      f"(tried {base_python()}, /usr/local/bin/python3, /usr/bin/python3)")


def image_install(wheel: Path, work: Path) -> tuple[Install, Callable[[], None]]:
    """The Dockerfile's steps: the wheel installed by root, the entrypoint
    beside it, a system user ``judge`` (here one made for the run) whose home
    is the volume, ``JUDGE_HOME`` set to it; the entrypoint runs ``judge
    init`` on the first start."""
    for folder in (work.parent, work):  # the user reads the install, as in the image
        folder.chmod(0o755)
    volume = work / "var" / "lib" / "judge"
    volume.parent.mkdir(parents=True)
    volume.parent.chmod(0o755)
    user: str | None = None
    cleanup: Callable[[], None] = lambda: None  # noqa: E731
    python = base_python()
    if os.geteuid() == 0:
        user = f"judge{os.getpid() % 100000}"
        run([shutil.which("useradd") or "/usr/sbin/useradd", "--system", "--home-dir",
             str(volume), "--create-home", "--shell", "/usr/sbin/nologin", user],
            cwd=work, what="useradd")

        def cleanup() -> None:
            subprocess.run([shutil.which("userdel") or "/usr/sbin/userdel", user],
                           capture_output=True, timeout=60, check=False)

        python = python_for(user, work)
    else:
        volume.mkdir()
    venv = work / "usr"
    run([python, "-m", "venv", str(venv)], cwd=work, what="[image] python -m venv")
    env = clean_env([venv / "bin"], work)
    pip_install(venv / "bin" / "python", ["--no-cache-dir", str(wheel)], env, work, "image")
    entry = venv / "bin" / "judge-entrypoint"
    shutil.copy(ROOT / "deploy" / "docker-entrypoint.sh", entry)
    entry.chmod(0o755)
    env = {**env, "HOME": str(volume), "JUDGE_HOME": str(volume), "PYTHONUNBUFFERED": "1"}
    install = Install("image", venv / "bin" / "python", volume, env, venv,
                      command=["judge-entrypoint"], user=user)
    return install, cleanup


# -- playing by mail ----------------------------------------------------------


@dataclass
class Seat:
    game: str
    role: str
    address: str
    token: str = ""
    answered: bool = False
    """Sent a decision the judge accepted."""
    pending: str | None = None
    """The body of its latest report that says it owes something, unanswered."""


@dataclass
class Table:
    game: str
    name: str
    gm: str
    seats: dict[str, Seat]
    gm_token: str = ""
    started: bool = False
    done: bool = False
    """A report with its picture came after every seat had decided once."""
    last_owed: str = ""


class Post:
    """The home's Maildir: mails in, the judge's replies out."""

    def __init__(self, install: Install) -> None:
        self.install = install
        self.inbox = install.home / "mail" / "in" / "new"
        self.outbox = install.home / "mail" / "out" / "new"
        self.read: set[str] = set()
        self.count = 0

    def send(self, sender: str, subject: str, body: str) -> None:
        self.count += 1
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = JUDGE_ADDRESS
        msg["Subject"] = subject
        msg["Date"] = format_datetime(datetime.now(UTC))
        msg["Message-ID"] = make_msgid(f"check{self.count}", "players.example")
        msg.set_content(body)
        tmp = self.install.home / "mail" / "in" / "tmp" / f"check-{self.count}.eml"
        tmp.write_bytes(msg.as_bytes(policy=email.policy.SMTP))
        if self.install.user is not None:
            pw = pwd.getpwnam(self.install.user)
            os.chown(tmp, pw.pw_uid, pw.pw_gid)
        os.replace(tmp, self.inbox / tmp.name)  # as a delivery agent does: tmp/, then new/

    def serve(self) -> list[email.message.EmailMessage]:
        """One `judge serve --once`; the replies it wrote. A mail filed in
        Failed fails the check with the reason the judge logged."""
        began = time.monotonic()
        done = self.install.judge("serve", "--once")
        if TRACE:
            print(f"  serve: {time.monotonic() - began:.1f} s", flush=True)
        failed = [line for line in done.stderr.splitlines() if "set aside (Failed)" in line]
        folder = self.install.home / "mail" / "in" / ".Failed"
        filed = [p.name for sub in ("cur", "new") if (folder / sub).is_dir()
                 for p in (folder / sub).iterdir()]
        if failed or filed:
            raise CheckFailed(f"[{self.install.label}] mail filed in Failed: "
                              + ("\n  ".join(failed) or ", ".join(filed)))
        out = []
        for path in sorted(self.outbox.iterdir()):
            if path.name in self.read:
                continue
            self.read.add(path.name)
            parsed = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            assert isinstance(parsed, EmailMessage)
            out.append(parsed)
        return out


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    return part.get_content() if isinstance(part, EmailMessage) else ""


def pictures(msg: EmailMessage) -> list[str]:
    """The names of the PNG pictures in ``msg``, inline in its HTML part or
    attached (checked: PNG data)."""
    names = []
    for part in msg.walk():
        if part.get_content_type() == "image/png":
            data = part.get_payload(decode=True)
            if isinstance(data, bytes) and data.startswith(b"\x89PNG\r\n\x1a\n"):
                names.append(part.get_filename() or "?")
    return names


SIGNON = re.compile(r"SIGNON (\S+) (\S+) ([a-z0-9]{8,})\b")


def first_choice(line: str) -> str:
    """One line of a choices list (``x|y`` stands for one of them): the first."""
    return " ".join(word.split("|")[0] for word in line.split())


def answer(game: str, role: str, report: str) -> list[str]:
    """What seat ``role`` sends for what its report says it owes: the first
    of its choices when the report lists them, else a plain legal answer of
    the game's own form; raises CheckFailed when the report gives neither."""
    lines = report.splitlines()
    if "Your choices (x|y: send one of them):" in lines:
        at = lines.index("Your choices (x|y: send one of them):")
        choices = [ln.strip() for ln in lines[at + 1:] if ln.startswith("  ")]
        return [first_choice(choices[0])]
    if game in ("classic", "warring_states", "three_kingdoms"):
        # Every unit holds (a unit without an order holds; these say so).
        mine = next((ln for ln in lines if ln.startswith(f"  {role}: ")
                     and re.search(r"\b[AF] \w", ln)), None)
        if mine is not None and "UNITS" in lines:
            units = [u.strip() for u in mine.split(":", 1)[1].split(",")]
            return [f"{u} H" for u in units if u]
    if game == "kingdom_wars" and "Generals dealt to you:" in lines:
        at = lines.index("Generals dealt to you:")
        listed = list(itertools.takewhile(lambda ln: ln.startswith("  "), lines[at + 1:]))
        dealt = [re.match(r"  (.+?) \((\w+),", ln) for ln in listed]
        by_kingdom: dict[str, list[str]] = {}
        for m in dealt:
            if m and m.group(2) != "Neutral":
                by_kingdom.setdefault(m.group(2), []).append(m.group(1))
        two = next(names for names in by_kingdom.values() if len(names) >= 2)
        return [f"GENERALS {two[0]} AND {two[1]}"]
    if game == "conquest_tactics" and any(ln.startswith("First send BASE") for ln in lines):
        return ["BASE C1"]
    owed = next((ln for ln in lines if ln.startswith("You owe:")), "(nothing owed)")
    raise CheckFailed(f"no answer known for {game} {role}: {owed}")


def allow_strangers(home: Path, count: int) -> None:
    """The run brings ``count`` new addresses within minutes: more than
    ``judge init``'s ``strangers_per_hour``, which an operator of a busy
    judge raises so (the file keeps its owner: it is rewritten in place)."""
    config = home / "judge.toml"
    text = config.read_text(encoding="utf-8")
    changed, found = re.subn(r"(?m)^strangers_per_hour = \d+$",
                             f"strangers_per_hour = {count}", text)
    if found != 1:
        raise CheckFailed(f"{config} has no line strangers_per_hour = N to raise")
    config.write_text(changed, encoding="utf-8")


def play(install: Install) -> None:
    """HELP, then the six games by mail, each to a full decision round."""
    label = install.label
    post = Post(install)
    allow_strangers(install.home, 1 + sum(1 + len(roles) for _, roles in GAMES.values()))
    if not post.inbox.is_dir():
        raise CheckFailed(f"[{label}] `judge init` made no Maildir inbox {post.inbox}")
    post.send("newcomer@players.example", "help", "HELP")
    tables: dict[str, Table] = {}
    for number, (game, (options, roles)) in enumerate(GAMES.items(), 1):
        slug = game.replace("_", "-")
        name = f"g{number}"
        seats = {r: Seat(game, r, f"{r.lower()}.{slug}@players.example") for r in roles}
        tables[name] = Table(game, name, f"gm.{slug}@players.example", seats)
        post.send(tables[name].gm, f"create {name}", f"CREATE {name} {game} {options}".strip())
    replies = post.serve()
    help_reply = [m for m in replies if m["To"] == "newcomer@players.example"]
    if not help_reply or "CREATE" not in text_of(help_reply[0]):
        raise CheckFailed(f"[{label}] HELP had no reply listing the commands")
    for t in tables.values():
        t.gm_token = token(replies, t.gm, t.name, "GM", label)
        for seat in t.seats.values():
            post.send(seat.address, f"join {t.name}", f"JOIN {t.name} {seat.role}")
    replies = post.serve()
    for t in tables.values():
        for seat in t.seats.values():
            seat.token = token(replies, seat.address, t.name, seat.role, label)
        post.send(t.gm, f"start {t.name}", f"SIGNON {t.name} GM {t.gm_token}\nSTART")
    replies = post.serve()
    for cycle in range(MAX_CYCLES):
        note_reports(tables, replies, label)
        if all(t.done for t in tables.values()):
            return
        sent = 0
        for t in tables.values():
            for seat in t.seats.values():
                if seat.pending is None:
                    continue
                lines = answer(t.game, seat.role, seat.pending)
                body = "\n".join([f"SIGNON {t.name} {seat.role} {seat.token}", "ORDERS",
                                  *lines, "END"])
                post.send(seat.address, f"orders {t.name} {seat.role} {cycle}", body)
                seat.pending = None
                sent += 1
        if not sent:
            break
        replies = post.serve()
    late = [f"{t.name} ({t.game}): {t.last_owed or 'no report owed anything'}"
            for t in tables.values() if not t.done]
    if late:
        raise CheckFailed(f"[{label}] no full decision round by mail in:\n  " + "\n  ".join(late))


def token(replies: Sequence[EmailMessage], address: str, name: str, role: str,
          label: str) -> str:
    for msg in replies:
        if msg["To"] == address:
            for m in SIGNON.finditer(text_of(msg)):
                if m.group(1) == name and m.group(2) == role:
                    return m.group(3)
    raise CheckFailed(f"[{label}] no token for {role} of {name} came to {address}: "
                      + " | ".join(text_of(m)[:300] for m in replies if m["To"] == address))


def note_reports(tables: dict[str, Table], replies: Sequence[EmailMessage], label: str) -> None:
    """Check the acknowledgements; note each seat's latest owed report; a
    game is done when a report with its picture follows every seat's
    accepted decision."""
    by_address = {s.address: (t, s) for t in tables.values() for s in t.seats.values()}
    for msg in replies:
        found = by_address.get(str(msg["To"]))
        if found is None:
            continue
        t, seat = found
        body = text_of(msg)
        subject = str(msg["Subject"])
        if subject.startswith("Re: orders "):
            if "Every line was accepted." not in body:
                raise CheckFailed(f"[{label}] {t.game}: a line of {seat.role} was refused:\n"
                                  + body[:3000])
            seat.answered = True
            continue
        drawn = pictures(msg)
        if f"report for {seat.role}" in subject and not drawn:
            raise CheckFailed(f"[{label}] {t.game}: the report {subject!r} has no picture")
        if drawn and all(s.answered for s in t.seats.values()):
            t.done = True
        owed = next((ln for ln in body.splitlines() if ln.startswith("You owe:")), None)
        seat.pending = body if owed and not t.done else None
        if owed:
            t.last_owed = f"{seat.role}: {owed}"


# -- the whole check ----------------------------------------------------------


def scenario(label: str, wheel: Path, sdist: Path, folder: Path,
             cleanups: list[Callable[[], None]]) -> str:
    """Install as ``label`` says, play, and say how it went."""
    began = time.monotonic()
    folder.mkdir()
    if label == "wheel":
        install = venv_install(label, wheel, folder)
    elif label == "sdist":
        install = venv_install(label, sdist, folder)
    elif label == "user":
        install = user_install(wheel, folder)
    else:
        install, cleanup = image_install(wheel, folder)
        cleanups.append(cleanup)
    install.where()
    if label != "image":
        install.judge("--home", str(install.home), "init")
        install.env["JUDGE_HOME"] = str(install.home)
    else:
        install.judge("serve", "--once")  # the first start: the entrypoint's `judge init`
    play(install)
    status = install.judge("status", check=False)
    if status.returncode != 0:
        raise CheckFailed(f"[{label}] judge status after the games exited with "
                          f"{status.returncode}:\n{status.stdout}")
    who = f" as the user {install.user}" if install.user else ""
    return (f"artefacts: {label}: installed{who}, HELP and the six games played by mail "
            f"({time.monotonic() - began:.0f} s)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(SCENARIOS),
                        help=f"which installs to play (of {', '.join(SCENARIOS)})")
    parser.add_argument("--wheel", type=Path, help="check this wheel (with --sdist) unbuilt")
    parser.add_argument("--sdist", type=Path)
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument("--trace", action="store_true", help="time each serve cycle")
    args = parser.parse_args(argv)
    global TRACE
    TRACE = args.trace
    only = [s for s in args.only.split(",") if s]
    unknown = set(only) - set(SCENARIOS)
    if unknown:
        parser.error(f"unknown: {', '.join(sorted(unknown))}")
    work = Path(tempfile.mkdtemp(prefix="judge-artefacts-"))
    cleanups: list[Callable[[], None]] = []
    try:
        start = time.monotonic()
        if args.wheel and args.sdist:
            wheel, sdist = args.wheel.resolve(), args.sdist.resolve()
        else:
            dist = work / "dist"
            dist.mkdir()
            wheel, sdist = build(dist)
        sources = tracked_files()
        check_contents(wheel, sdist, sources)
        print(f"artefacts: {wheel.name} and {sdist.name} hold the {len(sources)} files "
              "git tracks in " + ", ".join(PACKAGE_FOLDERS), flush=True)
        with ThreadPoolExecutor(max_workers=2) as pool:  # two installs at a time
            futures = [pool.submit(scenario, label, wheel, sdist, work / label, cleanups)
                       for label in only]
            failures = []
            for future in futures:
                try:
                    print(future.result(), flush=True)
                except CheckFailed as exc:
                    failures.append(str(exc))
                except Exception as exc:  # a fault of this check: say where
                    failures.append(f"{type(exc).__name__}: {exc}")
        if failures:
            raise CheckFailed("\n".join(failures))
        print(f"artefacts: ok ({time.monotonic() - start:.0f} s)")
        return 0
    except CheckFailed as exc:
        print(f"artefacts: FAILED: {exc}", file=sys.stderr)
        return 1
    finally:
        for cleanup in cleanups:
            cleanup()
        if args.keep:
            print(f"artefacts: kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
