"""The public pages: a static site of every game as an observer sees it.

``judge publish DIR`` (and the daemon after each cycle that moved a game on,
when ``[publish] dir`` is set) writes plain HTML and CSS, readable without
JavaScript and on a phone:

* ``index.html``: every game with its kind, status and phase, and the leagues;
* ``judge_games/<game>/index.html``: the game now (its public report and map), the
  history of its turns with every public event (in Diplomacy the orders and
  their results, public once adjudicated) and the press marked public;
* ``judge_games/<game>/<k>.html``: turn ``k`` (0 is the set-up): what happened in
  it and the position it left, with its map;
* ``leagues/<league>.html``: standings, ratings and reliability, addresses
  masked as they are for anyone outside the league.

Privacy: the only paths from a game to a page are ``game.view(state, None)``
(the observer's view), events whose audience is public, the outcome, the
turn's and decision's names and the press its sender marked public (PRESS TO
PUBLIC). The seed is shown once the game is over, as its final report shows
it; seats' addresses and tokens never.

The work is split so that the part that decides what a page says is pure:
:func:`walk` turns a game's log into :class:`Turn` records (states and the
public events of each turn), :func:`game_pages` and :func:`site_pages`
render records to ``{path: bytes}``, and :func:`publish` reads the store,
renders what changed since the last run (a manifest in the folder records a
signature per game) and writes only files whose bytes changed, each
atomically (a web server never serves half a page). Files it wrote before
that are no longer part of the site (a turn rolled back) are removed; files
it did not write are never touched.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any, TextIO

import jinja2
from markupsafe import Markup

from judge import reports
from judge.game import adjudicator as adj
from judge.game import league, registry
from judge.game.engine import JSON, Event, State
from judge.game.spec import Game
from judge.site import publish_text as say

log = logging.getLogger("judge")

#: Draws a game's map from a view: ``(game id, view, format) -> bytes``, or
#: raises :class:`NoPicture` for a game it cannot draw.
Draw = Callable[[str, Mapping[str, JSON], str], bytes]

#: Bumped when the pages change shape, so that a new version re-renders all.
SITE_VERSION = 2

#: Reports a run's progress: ``(games done, games in all, game's name)``.
Progress = Callable[[int, int, str], None]

MANIFEST = ".publish.json"
"""The folder's record of what :func:`publish` wrote (per game: signature, files)."""

FORMATS = ("svg", "png")


class NoPicture(Exception):
    """The game has no map to draw (the picture module does not know it)."""


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Turn:
    """One game turn as the public saw it: its name (``"S1901M"``; ``"set-up"``
    for the start), the log entry it ended at, the state it left and the
    public events that happened in it. ``current``: the turn still going on
    (``state`` is the position now)."""

    label: str
    n: int
    state: State
    events: tuple[Event, ...]
    current: bool = False


@dataclass(frozen=True)
class Press:
    """A press message its sender marked public."""

    sender: str
    phase: str
    at: str
    text: str


@dataclass(frozen=True)
class GameInfo:
    """What the games table says of a game that is public."""

    name: str
    kind: str
    status: str
    phase: str
    created: str
    updated: str
    seed_hash: str
    seed: str = ""
    """Shown only once the game is over (``""`` before)."""
    league: str = ""
    outcome: Mapping[str, JSON] | None = None
    deadline: str = ""
    """When the decision open now closes (ISO, UTC; ``""``: none open)."""
    grace_until: str = ""
    """Late orders are taken until then (ISO, UTC; ``""``: no grace)."""
    orders_in: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    """``(seats whose orders are in, seats still due)`` for the open order
    set, when the game shows that to all (setting ``orders_in all``); None
    otherwise."""

    @property
    def phase_words(self) -> str:
        return say.phase_words(self.phase)


@dataclass(frozen=True)
class GameRecord:
    """A game ready to render: its facts, its turns, its public press."""

    info: GameInfo
    turns: tuple[Turn, ...] = ()
    press: tuple[Press, ...] = ()
    roles: tuple[str, ...] = ()


def walk(game: Game, rows: Iterable[Mapping[str, Any]], seed: bytes) -> list[Turn]:
    """The turns of a game from its log (rows as the store holds them, the
    payload as JSON text or a dict), replayed through the adjudicator. A turn
    ends where ``game.turn`` changes (or the game ends); the events kept are
    the public ones logged with its entries."""
    table: adj.Table | None = None
    turns: list[Turn] = []
    label = ""
    events: list[Event] = []
    last_n = 0
    for row in rows:
        payload = row["payload"]
        if isinstance(payload, str):
            payload = json.loads(payload)
        entry = {"kind": row["kind"], "role": row["role"], "payload": payload}
        table = adj.apply_entry(game, table, entry, seed).table
        last_n = int(row["n"])
        events += [e for e in map(Event.from_json, payload.get("events", []))
                   if e.audience is None]
        now = "end" if table.outcome is not None else game.turn(table.state)
        if now != label:
            turns.append(Turn(label or "set-up", last_n, table.state, tuple(events)))
            events = []
            label = now
    going_on = table is not None and table.outcome is None and turns and turns[-1].n != last_n
    # The turn going on: shown once something public happened in it.
    if table is not None and going_on and (
            events or game.view(table.state, None) != game.view(turns[-1].state, None)):
        turns.append(Turn(label, last_n, table.state, tuple(events), current=True))
    return turns


# --------------------------------------------------------------------------- rendering


def _template_dir() -> Path:
    return reports.TEMPLATE_DIRS[0] / "publish"


@cache
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_template_dir())),
        autoescape=True,  # every value is escaped; nothing here is trusted HTML
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    return env


@cache
def _templates_digest() -> str:
    """A digest of the site's templates and style sheet: a change re-renders all."""
    h = hashlib.sha256(str(SITE_VERSION).encode())
    folder = _template_dir()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def _render(template: str, **context: Any) -> bytes:
    return _env().get_template(template).render(**context).encode("utf-8")


def slug(name: str) -> str:
    """A file name for a game or league name (names are letters, digits, ``-``
    and ``_`` by the grammar; anything else is spelled out in hex)."""
    return "".join(c if c.isalnum() or c in "-_" else f"~{ord(c):x}" for c in name.lower())


@dataclass(frozen=True)
class _Stage:
    """A turn as a page shows it."""

    number: int
    label: str
    report: str
    events: tuple[str, ...]
    picture: str
    current: bool
    roles: tuple[str, ...] = ()
    board: str = ""
    """The game's board drawn as HTML (``publish/board/<game>.html.j2``), if any."""

    @property
    def words(self) -> str:
        """The turn's name in words (``Spring 1901, movement``)."""
        return say.phase_words(self.label)

    @property
    def html(self) -> Markup:
        """The report as HTML: headings, tables, lists."""
        return say.report_html(self.report)

    @property
    def groups(self) -> list[say.Group]:
        """The turn's public lines, those naming a seat grouped under it."""
        return say.group_by_seat(self.events, self.roles)


def _picture(draw: Draw | None, fmt: str, kind: str, view: Mapping[str, JSON]) -> bytes | None:
    if draw is None:
        return None
    try:
        return draw(kind, view, fmt)
    except NoPicture:
        return None


def _board(kind: str) -> Any:
    """The module of a game's board template (its ``board(view)`` macro and
    the ``replaces`` list of view keys the text report then leaves out), or
    None for a game that has none."""
    try:
        template = _env().get_template(f"board/{kind}.html.j2")
    except jinja2.TemplateNotFound:
        return None
    return template.module


def _clock(now: datetime | None) -> dict[str, Any]:
    """What every page's template needs to speak of times: the publish time
    and the helpers that put times in words."""
    moment = now or datetime.now(UTC)

    def until(text: str) -> str:
        then = say.parse_utc(text)
        return say.relative(then, moment) if then else ""

    def past(text: str) -> bool:
        then = say.parse_utc(text)
        return then is not None and then <= moment

    return {"now": moment, "when": say.when, "until": until, "past": past}


def game_pages(record: GameRecord, *, draw: Draw | None = None, fmt: str = "svg",
               have: Callable[[str, str], bool] = lambda path, key: False,
               title: str = "", now: datetime | None = None,
               site: str = "") -> tuple[dict[str, bytes], dict[str, str]]:
    """The pages of one game: ``({path: bytes}, {picture path: key})``,
    paths relative to the site's root. A picture whose path and key ``have``
    already stored (a turn drawn by an earlier run) is not drawn again: it is
    left out of the pages and named in the keys. ``now``: the publish time
    (the deadline is said as "in 14 hours" from it); ``site``: the site's
    title."""
    info = record.info
    game = registry.get(info.kind)
    base = f"games/{slug(info.name)}"
    files: dict[str, bytes] = {}
    keys: dict[str, str] = {}
    stages: list[_Stage] = []
    board = _board(info.kind)
    for number, turn in enumerate(record.turns):
        view = game.view(turn.state, None)
        if info.outcome is not None and number == len(record.turns) - 1 and "phase_title" in view:
            # The map's title names the turn the game ended after, not the
            # phase that would have come next ("Spring 1903" for a game over in 1902).
            view = {**view, "phase_title": f"Final position, after {say.phase_words(turn.label)}"}
        drawn = ""
        shown: Mapping[str, JSON] = view
        if board is not None:  # the board as HTML; the text report without its text form
            drawn = str(board.board(view))
            shown = {k: (type(v)() if k in board.replaces and isinstance(v, list | dict | str)
                         else v) for k, v in view.items()}
        report = reports.game_report(game, shown, turn.events, None, info.name)
        pic_path = ""
        key = hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest()[:20]
        path = f"{base}/{number}.{fmt}"
        if have(path, key):
            pic_path, keys[path] = path, key
        else:
            got = _picture(draw, fmt, info.kind, view)
            if got is not None:
                files[path] = got
                pic_path, keys[path] = path, key
        stages.append(_Stage(number, turn.label, report.strip("\n"),
                             tuple(game.localize(e.text, None) for e in turn.events),
                             pic_path.rsplit("/", 1)[-1] if pic_path else "", turn.current,
                             record.roles, drawn))
    context = {"info": info, "title": title or game.title, "stages": stages,
               "press": record.press, "roles": record.roles, "root": "../../", "slug": slug,
               "site": site, "words": say.phase_words, **_clock(now)}
    files[f"{base}/index.html"] = _render("game.html.j2", **context)
    for i, stage in enumerate(stages):
        files[f"{base}/{stage.number}.html"] = _render(
            "turn.html.j2", **context, stage=stage,
            before=stages[i - 1] if i > 0 else None,
            after=stages[i + 1] if i + 1 < len(stages) else None)
    return files, keys


@dataclass(frozen=True)
class LeagueTable:
    """A league as its public page shows it (addresses masked)."""

    name: str
    scoring: str
    games: tuple[str, ...]
    data: Mapping[str, JSON]


def mask(address: str) -> str:
    """An address as anyone outside a league sees it: ``an...@example.org``."""
    local, _, domain = address.partition("@")
    return f"{local[:2]}...@{domain}"


def league_table(name: str, scoring: str, games: Sequence[str],
                 results: Sequence[league.GameResult], running: Sequence[str]) -> LeagueTable:
    """The public form of a league's standings (pure): every address masked."""
    data = league.to_json(name, scoring, results, running)
    for key in ("standings", "ratings", "reliability"):
        for row in data[key]:
            row["player"] = mask(str(row["player"]))
    for row in data["reliability"]:  # the page says how often a player was on time
        row["on_time"] = say.on_time(int(row["owed"]), int(row["missed"]))
    for row in data["games"]:
        row["players"] = {r: mask(str(a)) for r, a in row["players"].items()}
    return LeagueTable(name, scoring, tuple(games), data)


def site_pages(games: Sequence[GameInfo], leagues: Sequence[LeagueTable],
               titles: Mapping[str, str], *, now: datetime | None = None,
               site: str = "") -> dict[str, bytes]:
    """The pages that list everything: the index, the leagues, the style sheet."""
    clock = _clock(now)
    files = {
        "index.html": _render("index.html.j2", games=games, leagues=leagues, titles=titles,
                              slug=slug, root="", site=site, **clock),
        "style.css": (_template_dir() / "style.css").read_bytes(),
    }
    for lg in leagues:
        files[f"leagues/{slug(lg.name)}.html"] = _render(
            "league.html.j2", league=lg, data=lg.data, slug=slug, root="../", site=site,
            **clock)
    return files


# --------------------------------------------------------------------------- the store


def game_info(store: Any, row: Mapping[str, Any], defaults: Mapping[str, Any] | None = None,
              clocks: Mapping[str, Mapping[str, Any]] | None = None) -> GameInfo:
    """The public facts of the game of games-table ``row`` (``defaults``:
    the config's game settings, which the game's own override; ``clocks``:
    the deadlines table by game, read once for many games). The game's
    table is read only when a fact needs it (the outcome, who has orders in)."""
    over = row["status"] == "finished"
    settings = {**(defaults or {}), **json.loads(row["settings"] or "{}")}
    running = row["status"] == "active"
    # with orders_in gm, only the GM's STATUS says who has sent orders
    need_table = row["table_json"] and (over or (running and settings.get("orders_in") == "all"))
    table = adj.Table.loads(row["table_json"]) if need_table else None
    outcome = table.outcome if over and table is not None else None
    deadline = grace = ""
    orders_in = None
    if running:
        clock = (clocks.get(row["name"]) if clocks is not None
                 else store.deadline(row["name"]))
        if clock:
            deadline, grace = clock["deadline"] or "", clock.get("grace_until") or ""
        if table is not None and table.outcome is None:
            orders_in = _orders_in(store, row["name"], row["game"], table)
    return GameInfo(
        name=row["name"], kind=row["game"], status=row["status"], phase=row["phase"] or "",
        created=row["created"] or "", updated=row["updated"] or "",
        seed_hash=row["seed_hash"] or "", seed=row["seed"] if over else "",
        league=store.league_of(row["name"]) or "", outcome=outcome,
        deadline=deadline, grace_until=grace, orders_in=orders_in)


def _orders_in(store: Any, name: str, kind: str,
               table: adj.Table) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """Who has sent orders for the open order set and who has not (seats
    that left the game owe none), as every seat's report says it."""
    try:
        game = registry.get(kind)
    except registry.UnknownGame:
        return None
    gone = {s.role for s in store.seats(name) if s.role and s.status in ("resigned", "ejected")}
    ordering = adj.ordering_roles(game, table) - gone
    if not ordering:
        return None
    sent = ordering & set(table.submitted)
    return tuple(sorted(sent)), tuple(sorted(ordering - sent))


def game_record(judge: Any, name: str) -> GameRecord:
    """Read one game from the store: its public facts, its turns replayed
    from the log, its public press. (``judge`` is a :class:`judge.service.Judge`.)"""
    store = judge.store
    row = store.game(name)
    if row is None:
        raise KeyError(name)
    game = registry.get(row["game"])
    table = adj.Table.loads(row["table_json"]) if row["table_json"] else None
    info = game_info(store, row, judge.config.settings)
    turns: list[Turn] = []
    roles: tuple[str, ...] = ()
    if table is not None:
        turns = walk(game, store.actions(row["name"]), bytes.fromhex(row["seed"]))
        roles = tuple(game.roles(table.state))
    press = tuple(Press(p["sender"], p["phase"], p["at"], p["text"])
                  for p in store.public_press(row["name"]))
    return GameRecord(info, tuple(turns), press, roles)


def _signature(store: Any, row: Mapping[str, Any], fmt: str, info: GameInfo,
               now: datetime, site: str) -> str:
    """What a game's pages depend on: a change re-renders them (the
    deadline's distance in words too: "in 14 hours" becomes "in 13 hours")."""
    then = say.parse_utc(info.deadline)
    parts = [_templates_digest(), fmt, row["status"], row["phase"], row["seed_hash"],
             store.last_of_kinds(row["name"], sorted(adj.MOVES)),
             len(store.public_press(row["name"])), store.league_of(row["name"]) or "",
             info.deadline, info.grace_until, info.orders_in,
             say.relative(then, now) if then else "", _grace_words(info, now), site]
    return json.dumps(parts)


def _grace_words(info: GameInfo, now: datetime) -> str:
    grace = say.parse_utc(info.grace_until)
    return say.relative(grace, now) if grace else ""


def site_title(judge: Any) -> str:
    """The site's title: ``[publish] title``, else "Games of <the judge's address>"."""
    config = judge.config
    return str(config.publish_title or f"Games of {config.address}")


class TerminalProgress:
    """A progress line on a terminal: ``publishing 12/31: spring26``,
    rewritten in place as each game's turn comes, cleared by :meth:`clear`."""

    WIDTH = 78

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def __call__(self, done: int, total: int, name: str) -> None:
        line = f"publishing {done}/{total}: {name}"[:self.WIDTH]
        self.stream.write("\r" + line.ljust(self.WIDTH))
        self.stream.flush()

    def clear(self) -> None:
        self.stream.write("\r" + " " * self.WIDTH + "\r")
        self.stream.flush()


def terminal_progress(stream: TextIO) -> TerminalProgress | None:
    """A :class:`TerminalProgress` on ``stream`` when it is a terminal; None
    when it is not (a log or a pipe gets only the summary line)."""
    return TerminalProgress(stream) if stream.isatty() else None


@dataclass
class Published:
    """What one run did."""

    games: int = 0
    rendered: int = 0
    pictures: int = 0
    written: int = 0
    removed: int = 0
    seconds: float = 0.0
    paths: list[str] = field(default_factory=list)

    def line(self, folder: Path) -> str:
        return (f"published {self.games} game(s) to {folder}: {self.rendered} rendered, "
                f"{self.pictures} map(s) drawn, {self.written} file(s) written, "
                f"{self.removed} removed, in {self.seconds:.2f} s")


def _load_manifest(folder: Path) -> dict[str, Any]:
    try:
        raw = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"games": {}, "files": []}
    if not isinstance(raw, dict) or not isinstance(raw.get("games"), dict):
        return {"games": {}, "files": []}
    return raw


def _own_folder(folder: Path, parts: Sequence[str]) -> Path:
    """``folder/<parts>`` as real folders: a symbolic link in the way (one
    that leads anywhere, or nowhere) is removed and a folder made in its
    place, so that the site is never written through a link, and a dangling
    one stops nothing."""
    path = folder
    for part in parts:
        path = path / part
        if path.is_symlink():
            log.warning("publish: %s is a symbolic link; replaced by a folder (the site is "
                        "written only inside %s)", path, folder)
            path.unlink()
        path.mkdir(exist_ok=True)
    return path


def _write(folder: Path, rel: str, data: bytes) -> bool:
    """Write ``data`` to ``folder/rel`` atomically unless it holds those
    bytes. Nothing is read or written through a symbolic link: a link at
    ``rel`` or on the way to it is replaced (:func:`_own_folder`)."""
    parts = Path(rel).parts
    if not parts or Path(rel).is_absolute() or ".." in parts:
        raise ValueError(f"not a path inside the site: {rel!r}")
    path = folder / rel
    linked = any(folder.joinpath(*parts[:i]).is_symlink() for i in range(1, len(parts) + 1))
    try:
        if not linked and path.read_bytes() == data:
            return False
    except OSError:
        pass
    _own_folder(folder, parts[:-1])
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True


def default_draw() -> Draw:
    """The maps of judge.pictures (the view carries the last phase's orders,
    which it draws over the position); :class:`NoPicture` for a game it
    does not draw."""
    from judge.game import draw as by_id

    def draw(kind: str, view: Mapping[str, JSON], fmt: str) -> bytes:
        if not by_id.supported(kind):
            raise NoPicture(kind)
        return by_id.picture(kind, view, fmt=fmt)

    return draw


def publish(judge: Any, folder: Path, *, fmt: str = "svg", draw: Draw | None = None,
            force: bool = False, progress: Progress | None = None) -> Published:
    """Write the public site of every game of ``judge`` into ``folder``
    (created if need be). A game whose signature is unchanged since the last
    run keeps its pages; with ``force`` every page is rendered again.
    ``progress`` is told of each game as its turn comes. The pages say times
    from the judge's clock (``judge.now()``)."""
    if fmt not in FORMATS:
        raise ValueError(f"pictures are {' or '.join(FORMATS)}, not {fmt!r}")
    started = time.perf_counter()
    now = judge.now()
    site = site_title(judge)
    defaults = judge.config.settings
    folder.mkdir(parents=True, exist_ok=True)
    store = judge.store
    old = _load_manifest(folder)
    done = Published()
    manifest: dict[str, Any] = {"games": {}, "files": []}
    infos: list[GameInfo] = []
    titles: dict[str, str] = {}
    owned: set[str] = set()
    rows: list[tuple[dict[str, Any], Game, str, GameInfo]] = []
    clocks = {str(c["game"]): c for c in store.deadlines()}
    for name in store.game_names():
        row = store.game(name)
        if row is None or row["status"] == "cancelled":
            continue  # cancelled before START (judge.lifecycle): never played, on no page
        try:
            game = registry.get(row["game"])
        except registry.UnknownGame:
            continue
        info = game_info(store, row, defaults, clocks)
        rows.append((row, game, _signature(store, row, fmt, info, now, site), info))
    site_sig = json.dumps([[r["name"], sig] for r, _, sig, _ in rows]
                          + [[lg["name"], lg["scoring"], store.league_games(lg["name"])]
                             for lg in store.leagues()])
    if (not force and old.get("site") == site_sig
            and all((folder / f).is_file() for f in old.get("files", []))):
        done.games = len(rows)
        done.seconds = time.perf_counter() - started
        return done  # nothing changed since the last run
    manifest["site"] = site_sig
    for row, game, sig, info in rows:
        name = row["name"]
        titles[row["game"]] = game.title
        before = old["games"].get(name, {})
        infos.append(info)
        done.games += 1
        if progress is not None:
            progress(done.games, len(rows), name)
        files_before = list(before.get("files", []))
        if (not force and before.get("sig") == sig
                and all((folder / f).is_file() for f in files_before)):
            manifest["games"][name] = before
            owned.update(files_before)
            continue
        pictures_before: dict[str, str] = dict(before.get("pictures", {}))

        def have(path: str, key: str, known: dict[str, str] = pictures_before) -> bool:
            return not force and known.get(path) == key and (folder / path).is_file()

        record = game_record(judge, name)
        files, keys = game_pages(record, draw=draw, fmt=fmt, have=have, title=game.title,
                                 now=now, site=site)
        done.rendered += 1
        for rel, data in files.items():
            if rel in keys:
                done.pictures += 1
            if _write(folder, rel, data):
                done.written += 1
                done.paths.append(rel)
        names = sorted(set(files) | set(keys))
        manifest["games"][name] = {"sig": sig, "files": names, "pictures": keys}
        owned.update(names)
    with store.atomic():  # a finished game's league summary is kept on first use
        tables = _league_tables(judge)
    for rel, data in site_pages(infos, tables, titles, now=now, site=site).items():
        owned.add(rel)
        if _write(folder, rel, data):
            done.written += 1
            done.paths.append(rel)
    root = folder.resolve()
    for rel in sorted(set(old.get("files", [])) - owned):
        target = folder / rel
        if root not in target.resolve().parents:
            continue  # the manifest names a file outside the site: never touched
        if target.is_file():
            target.unlink()
            done.removed += 1
            parent = target.parent  # a game no longer shown leaves no empty folder
            while parent.resolve() != root and not any(parent.iterdir()):
                parent.rmdir()
                parent = parent.parent
    manifest["files"] = sorted(owned)
    _write(folder, MANIFEST, (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())
    done.seconds = time.perf_counter() - started
    return done


def _league_tables(judge: Any) -> list[LeagueTable]:
    from judge.commands import league as league_commands

    out = []
    for row in judge.store.leagues():
        lrow, results, running = league_commands.results(judge, row["name"])
        shown = [g for g in judge.store.league_games(lrow["name"])
                 if (judge.store.game(g) or {}).get("status") != "cancelled"]  # on no page
        out.append(league_table(lrow["name"], lrow["scoring"], shown, results, running))
    return out


def after_cycle(judge: Any) -> str | None:
    """The daemon's hook: publish into ``[publish] dir`` if the config names
    one; a line saying what was written, or None when nothing changed. A
    failure is logged and does not stop the daemon (the next cycle tries
    again)."""
    folder = judge.config.publish_path
    if folder is None:
        return None
    try:
        done = publish(judge, folder, fmt=judge.config.publish_pictures, draw=default_draw())
    except Exception:
        log.exception("publishing to %s failed; trying again after the next cycle", folder)
        return None
    return done.line(folder) if done.written or done.removed else None
