"""`judge publish` writes only inside its folder: a symbolic link where a
page or a folder of the site should be (one leading out of the site, or a
dangling one) is replaced, never written through, and stops nothing."""

from __future__ import annotations

import os
from pathlib import Path

from judge.site import publish
from tests.core.conftest import Post
from tests.core.helpers import CLASSIC_POWERS
from tests.publish.conftest import start
from tests.publish.test_privacy import view_dump


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_linked_game_folder_leading_out_of_the_site_is_not_written_through(
    post: Post, tmp_path: Path
) -> None:
    start(post, "classic", list(CLASSIC_POWERS))
    out = tmp_path / "site"
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "index.html").write_text("someone else's page\n")
    (out / "games").mkdir(parents=True)
    os.symlink(outside, out / "games" / "g1")
    before = _tree(outside)
    done = publish.publish(post.judge, out, draw=view_dump)
    assert _tree(outside) == before  # nothing written, nothing removed out there
    game = out / "games" / "g1"
    assert not game.is_symlink() and game.is_dir()
    assert (game / "index.html").read_bytes() != b"someone else's page\n"
    assert "games/g1/index.html" in done.paths


def test_a_linked_page_is_replaced_not_written_through(post: Post, tmp_path: Path) -> None:
    start(post, "classic", list(CLASSIC_POWERS))
    out = tmp_path / "site"
    publish.publish(post.judge, out, draw=view_dump)
    outside = tmp_path / "precious.html"
    outside.write_text("keep me\n")
    page = out / "games" / "g1" / "index.html"
    page.unlink()
    os.symlink(outside, page)
    publish.publish(post.judge, out, draw=view_dump, force=True)
    assert outside.read_text() == "keep me\n"
    assert not page.is_symlink() and b"g1" in page.read_bytes()


def test_a_dangling_link_does_not_stop_a_publish(post: Post, tmp_path: Path) -> None:
    start(post, "classic", list(CLASSIC_POWERS))
    out = tmp_path / "site"
    out.mkdir()
    os.symlink(tmp_path / "gone", out / "games")  # leads nowhere
    done = publish.publish(post.judge, out, draw=view_dump)
    assert done.games == 1 and (out / "games" / "g1" / "index.html").is_file()
    assert not (tmp_path / "gone").exists()
    # And a second run, with a dangling link where a page was, goes on too.
    os.remove(out / "games" / "g1" / "0.html")
    os.symlink(tmp_path / "gone.html", out / "games" / "g1" / "0.html")
    publish.publish(post.judge, out, draw=view_dump, force=True)
    assert (out / "games" / "g1" / "0.html").is_file()
    assert not (tmp_path / "gone.html").exists()
