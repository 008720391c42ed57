"""The public site: what its pages show, that publishing again changes only
what changed, the daemon's hook, the command and the config key."""

from __future__ import annotations

import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from judge import cli
from judge import config as cfg
from judge.commands import league as league_commands
from judge.site import publish
from tests.core.conftest import Post
from tests.core.helpers import CLASSIC_POWERS, GM_ADDR
from tests.publish.conftest import address_of, play, site_text, start
from tests.publish.test_privacy import SPELLERS, view_dump


def gm(tokens: dict[str, str], game: str = "g1") -> str:
    return f"SIGNON {game} GM {tokens['GM']}"


class Links(HTMLParser):
    """The relative links (href, src) of a page, and whether it has a viewport."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.viewport = False
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        got = dict(attrs)
        for key in ("href", "src"):
            value = got.get(key)
            if value and "://" not in value and not value.startswith("data:"):
                self.links.append(value)
        if tag == "meta" and got.get("name") == "viewport":
            self.viewport = True
        self.scripts += tag == "script"


def check_pages(folder: Path) -> int:
    """Every page has a viewport and no script, and every link leads to a file."""
    pages = sorted(folder.rglob("*.html"))
    for page in pages:
        parsed = Links()
        parsed.feed(page.read_text(encoding="utf-8"))
        assert parsed.viewport, page
        assert parsed.scripts == 0, page
        for link in parsed.links:
            assert (page.parent / link).resolve().is_file(), f"{page}: {link}"
    return len(pages)


def test_a_classic_game_page_by_page(post: Post, tmp_path: Path) -> None:
    tokens = start(post, "classic", list(CLASSIC_POWERS))
    france = f"SIGNON g1 France {tokens['France']}"
    post.send(address_of("France"), f"{france}\nA Par - Bur\nA Mar - Spa\n")
    post.send(GM_ADDR, f"{gm(tokens)}\nPROCESS\n")  # at Sun 1 Mar 2026 12:00 UTC
    post.clock.advance(hours=10)
    out = tmp_path / "site"
    done = publish.publish(post.judge, out, draw=view_dump)
    assert done.games == 1 and done.rendered == 1 and done.pictures == 2
    files = site_text(out)
    assert {"index.html", "style.css", "games/g1/index.html", "games/g1/0.html",
            "games/g1/1.html", "games/g1/0.svg", "games/g1/1.svg"} <= set(files)
    index = files["index.html"].decode()
    # The phase in words, the deadline (orders_hours 48) in UTC and from the publish time.
    assert re.search(r"g1</a></td>\s*<td[^>]*>Diplomacy</td>\s*<td[^>]*><span[^>]*>active</span>"
                     r"</td>\s*<td[^>]*>Fall 1901, movement</td>\s*<td[^>]*>"
                     r'<time datetime="2026-03-03T12:00:00\+00:00">Tue 3 Mar 2026, 12:00 UTC'
                     r"</time> \(in 38 hours\)</td>", index)
    assert "<title>All games &middot; Games of judge@localhost</title>" in index
    turn = files["games/g1/1.html"].decode()
    assert "g1: Spring 1901, movement</h1>" in turn and "S1901M" not in turn
    # The orders grouped by power, in the powers' order.
    assert re.search(r"<strong>France</strong>\s*<ul>\s*<li>F Bre \(no order: holds\) \(ok\)</li>"
                     r"\s*<li>A Mar - Spa \(ok\)</li>\s*<li>A Par - Bur \(ok\)</li>", turn)
    powers = re.findall(r'<li class="seat"><strong>(\w+)</strong>', turn)
    assert powers == sorted(powers) == list(CLASSIC_POWERS)
    assert "<li>Fall 1901" not in turn  # that turn has not been played
    game = files["games/g1/index.html"].decode()
    assert "Now: Fall 1901, movement" in game and "The position after Spring 1901, movement" in game
    assert 'href="1.html">Spring 1901, movement</a>' in game
    assert re.search(r"<strong>Deadline:</strong> <time [^>]*>Tue 3 Mar 2026, 12:00 UTC</time>, "
                     r"<strong>in 38 hours</strong>", game)
    assert "As of Sun 1 Mar 2026, 22:00 UTC" in game
    # The report: its supply centres a table, its headings headings; no <pre>.
    assert '<h3 class="report">SUPPLY CENTRES (18 to win)</h3>' in game
    assert "<tr><td>France</td><td>3 centres,</td><td>3 units</td></tr>" in game
    assert "<pre>" not in game
    assert "Orders in from" not in game  # orders_in is gm: only the GM's STATUS says it
    assert check_pages(out) == 4


def test_who_has_orders_in_shows_when_the_game_shows_it_to_all(
        post: Post, tmp_path: Path) -> None:
    tokens = start(post, "classic", list(CLASSIC_POWERS))
    post.send(GM_ADDR, f"{gm(tokens)}\nSET orders_in all\n")
    out = tmp_path / "site"
    publish.publish(post.judge, out, draw=view_dump)
    page = (out / "games/g1/index.html").read_text()
    assert "Orders in from: nobody yet. Still due from: " + ", ".join(CLASSIC_POWERS) in page
    for power in ("France", "Italy"):
        post.send(address_of(power), f"SIGNON g1 {power} {tokens[power]}\nA Par - Bur\n"
                  if power == "France" else f"SIGNON g1 {power} {tokens[power]}\nA Ven H\n")
    done = publish.publish(post.judge, out, draw=view_dump)
    assert done.rendered == 1  # orders in: the page changes, though nothing public moved
    page = (out / "games/g1/index.html").read_text()
    assert ("Orders in from: France, Italy. Still due from: Austria, England, Germany, "
            "Russia, Turkey.") in page
    assert "A Par - Bur" not in page  # who has ordered, never what
    # Time passing re-renders the page when the deadline's distance in words changes.
    assert publish.publish(post.judge, out, draw=view_dump).rendered == 0
    post.clock.advance(hours=3)
    assert publish.publish(post.judge, out, draw=view_dump).rendered == 1
    assert "in 45 hours" in (out / "games/g1/index.html").read_text()
    post.clock.advance(hours=46)
    publish.publish(post.judge, out, draw=view_dump)
    page = (out / "games/g1/index.html").read_text()
    assert re.search(r"Deadline passed:</strong> <time [^>]*>Tue 3 Mar 2026, 12:00 UTC</time> "
                     r"\(1 hour ago\)\.\s*Late orders are taken until <time [^>]*>Wed 4 Mar 2026, "
                     r"12:00 UTC</time> \(in 23 hours\)", page)


def test_publishing_again_writes_only_what_changed(post: Post, tmp_path: Path) -> None:
    tokens = start(post, "classic", list(CLASSIC_POWERS))
    post.send(GM_ADDR, f"{gm(tokens)}\nPROCESS\n")
    out = tmp_path / "site"
    (out / "games").mkdir(parents=True)
    (out / "games" / "README.txt").write_text("the operator's own file\n")
    publish.publish(post.judge, out, draw=view_dump)
    first = site_text(out)
    again = publish.publish(post.judge, out, draw=view_dump)
    assert (again.rendered, again.written, again.removed) == (0, 0, 0)
    assert site_text(out) == first
    # Orders held are not public: the pages stay as they were.
    post.send(address_of("France"), f"SIGNON g1 France {tokens['France']}\nA Par - Bur\n")
    assert publish.publish(post.judge, out, draw=view_dump).rendered == 0
    # A new phase: that game is rendered again; the maps drawn before are kept.
    post.send(GM_ADDR, f"{gm(tokens)}\nPROCESS\n")
    moved = publish.publish(post.judge, out, draw=view_dump)
    assert (moved.rendered, moved.pictures) == (1, 1)
    assert "games/g1/2.html" in moved.paths and "games/g1/0.svg" not in moved.paths
    # Forced: everything is rendered, nothing differs, so nothing is written.
    forced = publish.publish(post.judge, out, draw=view_dump, force=True)
    assert (forced.rendered, forced.pictures, forced.written) == (1, 3, 0)
    # Rolled back: the turn that is gone leaves the site; the operator's file stays.
    post.send(GM_ADDR, f"{gm(tokens)}\nROLLBACK\n")
    back = publish.publish(post.judge, out, draw=view_dump)
    assert back.removed == 2
    assert not (out / "games" / "g1" / "2.html").exists()
    assert (out / "games" / "README.txt").read_text() == "the operator's own file\n"
    assert check_pages(out) == 4


def test_a_league_page_masks_addresses_and_a_finished_game_shows_its_seed(
        post: Post, tmp_path: Path) -> None:
    judge = post.judge
    with judge.store.atomic():
        league_commands.create_league(judge, "autumn", "draw-size", GM_ADDR)
    post.send(GM_ADDR, "CREATE g1 counterspell players=3 rounds=1\n")
    with judge.store.atomic():
        league_commands.add_game(judge, "autumn", "g1", "forming")
    tokens: dict[str, str] = {}
    from tests.core.helpers import token_in

    gm_token = token_in(post, GM_ADDR)
    for role in SPELLERS:
        post.send(address_of(role), f"JOIN g1 {role}\n")
        tokens[role] = token_in(post, address_of(role))
    post.send(GM_ADDR, f"SIGNON g1 GM {gm_token}\nSTART\n")
    play(post, tokens, 200)
    row = judge.store.game("g1")
    assert row is not None and row["status"] == "finished"
    out = tmp_path / "site"
    publish.publish(judge, out, draw=view_dump)
    files = site_text(out)
    page = files["leagues/autumn.html"].decode()
    assert "am...@players.example" in page and "amber@players.example" not in page
    assert "Standings" in page and 'href="../games/g1/index.html"' in page
    text = b"\n".join(files.values()).decode()
    assert "@players.example" not in text.replace("...@players.example", "")
    game = files["games/g1/index.html"].decode()
    assert row["seed"] in game and "The game is over" in game
    assert 'href="leagues/autumn.html"' in files["index.html"].decode()
    assert check_pages(out) >= 4


def test_the_command_and_the_daemon_publish(post: Post, tmp_path: Path) -> None:
    tokens = start(post, "classic", list(CLASSIC_POWERS))
    home = post.home
    runner = CliRunner()
    out = tmp_path / "by-hand"
    got = runner.invoke(cli.main, ["--home", str(home), "publish", str(out)])
    assert got.exit_code == 0, got.output
    assert "published 1 game(s)" in got.output and (out / "games/g1/index.html").is_file()
    got = runner.invoke(cli.main, ["--home", str(home), "publish"])
    assert got.exit_code != 0 and "[publish] dir" in got.output
    # Configured: `serve --once` writes the site after its cycle, then only on change.
    with (home / cfg.CONFIG_NAME).open("a") as f:
        f.write('\n[publish]\ndir = "public"\npictures = "png"\ntitle = "The Oak Street <club>"\n')
    assert cfg.load(home).publish_path == home / "public"
    post.deliver(post.raw(GM_ADDR, f"{gm(tokens)}\nPROCESS\n"))
    got = runner.invoke(cli.main, ["--home", str(home), "serve", "--once"])
    assert got.exit_code == 0, got.output
    assert "published 1 game(s)" in got.output
    page = (home / "public/games/g1/index.html").read_text()
    assert "Fall 1901, movement" in page
    assert '<a class="site" href="../../index.html">The Oak Street &lt;club&gt;</a>' in page
    assert "<title>g1 &middot; The Oak Street &lt;club&gt;</title>" in page
    got = runner.invoke(cli.main, ["--home", str(home), "serve", "--once"])
    assert got.exit_code == 0 and "published" not in got.output


def test_the_command_help_shows_dir_optional_and_a_terminal_sees_progress(
        post: Post, tmp_path: Path) -> None:
    got = CliRunner().invoke(cli.main, ["publish", "--help"])
    assert "Usage: main publish [OPTIONS] [DIR]" in got.output
    assert publish.terminal_progress(io.StringIO()) is None  # a pipe or a log: no progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Terminal()
    shown = publish.terminal_progress(tty)
    assert shown is not None
    for name in ("g1", "g2"):
        start(post, "classic", list(CLASSIC_POWERS), game=name)
    calls: list[tuple[int, int, str]] = []

    def both(done: int, total: int, name: str) -> None:
        calls.append((done, total, name))
        shown(done, total, name)

    publish.publish(post.judge, tmp_path / "site", draw=view_dump, progress=both)
    assert calls == [(1, 2, "g1"), (2, 2, "g2")]
    shown.clear()
    assert tty.getvalue().split("\r")[1:] == [
        "publishing 1/2: g1".ljust(78), "publishing 2/2: g2".ljust(78), " " * 78, ""]


@pytest.mark.parametrize("bad", ['[publish]\ndirectory = "x"\n', '[publish]\npictures = "gif"\n'])
def test_a_wrong_publish_key_is_named(tmp_path: Path, bad: str) -> None:
    home = tmp_path / "home"
    cfg.init_home(home)
    with (home / cfg.CONFIG_NAME).open("a") as f:
        f.write("\n" + bad)
    with pytest.raises(cfg.ConfigError) as err:
        cfg.load(home)
    assert "publish" in str(err.value)


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_the_maps_are_drawn_by_the_picture_module(post: Post, tmp_path: Path, fmt: str) -> None:
    tokens = start(post, "classic", list(CLASSIC_POWERS))
    post.send(GM_ADDR, f"{gm(tokens)}\nPROCESS\n")
    start(post, "counterspell", SPELLERS, "players=3", game="g2")
    out = tmp_path / "site"
    done = publish.publish(post.judge, out, fmt=fmt, draw=publish.default_draw())
    assert done.pictures == 2  # classic's two turns; Counterspell has no map
    head = (out / f"games/g1/1.{fmt}").read_bytes()[:200]
    assert head.startswith(b"\x89PNG") if fmt == "png" else b"<svg" in head
    assert not list((out / "games/g2").glob(f"*.{fmt}"))
    assert "<img" not in (out / "games/g2/index.html").read_text()
    assert f'<img src="1.{fmt}"' in (out / "games/g1/index.html").read_text()


def test_a_manifest_naming_files_outside_the_site_removes_none(post: Post, tmp_path: Path) -> None:
    start(post, "classic", list(CLASSIC_POWERS))
    out = tmp_path / "site"
    publish.publish(post.judge, out, draw=view_dump)
    outside = tmp_path / "precious.txt"
    outside.write_text("keep me\n")
    manifest = json.loads((out / publish.MANIFEST).read_text())
    manifest["files"] += ["../precious.txt", str(outside)]
    manifest["site"] = ""
    (out / publish.MANIFEST).write_text(json.dumps(manifest))
    done = publish.publish(post.judge, out, draw=view_dump)
    assert done.removed == 0 and outside.read_text() == "keep me\n"
