"""The picture of a Conquest Tactics field: a known position against its
stored image, what it shows (every troop and base, marks, the action, the
panel), that a seat's picture differs from the observers' only by its
frame, and that no card in a hand is ever named.

Write the stored image again after a deliberate change to the drawing (and
look at it): ``python -m tests.pictures.goldens``.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from bench.support.positions import conquest_tactics, conquest_tactics_steps
from judge.game.draw import picture
from judge_games.conquest_tactics import GAME
from judge_games.conquest_tactics import field as F
from judge_games.conquest_tactics import picture as ct
from judge_games.conquest_tactics.table import card
from tests.pictures.goldens import GOLDEN
from tests.pictures.test_kingdom_wars import differing, texts

STORED = GOLDEN / "conquest_tactics.png"


@cache
def steps() -> tuple[dict[str, Any], ...]:
    return tuple(conquest_tactics_steps())


def known(role: str | None = None) -> dict[str, Any]:
    """A reader's view of the known position (the last of :func:`steps`)."""
    return dict(GAME.view(steps()[-1], role))


def svg_of(view: dict[str, Any]) -> str:
    return picture("conquest_tactics", view, fmt="svg").decode()


def in_south_frame(view: dict[str, Any]) -> dict[str, Any]:
    """A seat's view turned to South's frame, as the observers see the field
    (the reader's hand, which the picture never draws, left out)."""
    role = view["frame"]

    def turn(space: Any) -> Any:
        return F.to_frame(space, role) if space else space

    troops = [{**t, "at": turn(t["at"])} for t in view["troops"]]
    troops.sort(key=lambda t: (int(t["at"][1]), t["at"]))
    players = [{**p, "base": {**p["base"], "at": turn(p["base"]["at"])} if p["base"] else None}
               for p in view["players"]]
    action = view["action"]
    if action:
        action = {**action, "from": turn(action["from"]), "at": turn(action["at"])}
    out = {**view, "frame": F.SOUTH, "role": None, "troops": troops, "players": players,
           "action": action}
    out.pop("you", None)
    return out


# --------------------------------------------------------------------------- the known position


def test_the_known_position_looks_as_stored() -> None:
    png = picture("conquest_tactics", conquest_tactics())
    assert png.startswith(b"\x89PNG")
    assert differing(png, STORED.read_bytes()) < 0.0001


def test_the_stored_image_comparison_sees_one_point_of_damage() -> None:
    view = known()
    view["troops"] = [{**t, "damage": t["damage"] + 1} if t["at"] == "B2" else t
                      for t in view["troops"]]
    assert differing(picture("conquest_tactics", view), STORED.read_bytes()) > 0.0001


def test_the_known_position_has_what_the_picture_must_show() -> None:
    view = known()
    troops = view["troops"]
    assert any(t["equipment"] for t in troops) and any(t["buff"] for t in troops)
    assert any(t["debuff"] for t in troops) and any(t["damage"] for t in troops)
    assert view["action"] and view["action"]["from"] and view["action"]["at"]
    assert any(v["done"] for p in view["players"] for v in p["victories"])
    assert any(p["trophies"] for p in view["players"])
    assert all(p["hand"] for p in view["players"] if p["role"] == F.NORTH)


def test_every_troop_and_base_appears_with_its_figures() -> None:
    for role in (None, F.SOUTH, F.NORTH):
        view = known(role)
        svg = svg_of(view)
        shown = texts(svg)
        drawn = re.findall(r'class="region troop-([A-E][1-5])"', svg)
        assert sorted(drawn) == sorted(t["at"] for t in view["troops"])
        bases = re.findall(r'class="region base-([A-E][1-5])"', svg)
        assert sorted(bases) == sorted(p["base"]["at"] for p in view["players"])
        for p in view["players"]:
            b = p["base"]
            assert f"Base {b['health'] - b['damage']}/{b['health']}" in shown
        width = ct.CELL - 20
        for t in view["troops"]:
            for line in ct.name_lines(t["name"], width):
                assert line in shown, t["name"]
            assert f"dmg {t['damage']}/{t['health']}" in shown
            assert f"L{t['level']}" in shown
        marks = sum(len(t["equipment"]) + bool(t["buff"]) + bool(t["debuff"])
                    for t in view["troops"])
        # (one "E" is the column letter)
        assert shown.count("E") - 1 + shown.count("+") + shown.count("−") == marks
        # the grid as the reader names it, and the action as an arrow
        assert all(c in shown for c in "ABCDE") and all(str(r) in shown for r in range(1, 6))
        assert svg.count(f'fill="{ct.ARROW}"') == 1  # the arrowhead
        a = view["action"]
        assert any(f"{a['from']} → {a['at']}" in t for t in shown)


def test_the_panel_says_turn_initiative_and_each_players_counts() -> None:
    view = known(F.NORTH)
    shown = texts(svg_of(view))
    assert f"Turn {view['turn']} · Play (an instant)" in shown
    assert f"Initiative: {view['initiative']}" in shown
    assert f"To act: {', '.join(view['acting'])}" in shown
    for p in view["players"]:
        done = sum(v["done"] for v in p["victories"])
        assert f"Victory conditions {done} of {len(p['victories'])}" in shown
        assert f"TP {p['tp']}" in shown
        assert f"Hand {p['hand']} · supply {p['supply']}" in shown
        assert f"Trophies {len(p['trophies'])}" + (
            ": " + ", ".join(p["trophies"]) if p["trophies"] else "") in shown
    assert "The field as North reads it: row 1 is North's edge." in shown


def test_each_reader_has_its_own_edge_at_the_bottom() -> None:
    """North's A1 is South's E5: the same troop stands in opposite corners
    of the two pictures, and each reader's deployment zone is the bottom
    two rows, tinted in its colour."""
    state = steps()[-1]
    corner = next(t for t in state["troops"].values() if t["at"] == "E5")
    for role, name in ((F.SOUTH, "E5"), (F.NORTH, "A1")):
        view = dict(GAME.view(state, role))
        assert next(t for t in view["troops"] if t["at"] == name)["card"] == corner["card"]
        svg = svg_of(view)
        for space in ("A1", "E2"):
            assert f'class="region space-{space}" d="' in svg
            tint = re.search(rf'class="region space-{space}" d="[^"]*" fill="([^"]+)"', svg)
            assert tint and tint.group(1) == ct.TINTS[role]
        top = re.search(r'class="region space-C5" d="[^"]*" fill="([^"]+)"', svg)
        assert top and top.group(1) == ct.TINTS[F.other(role)]


@cache
def public_svg(i: int) -> str:
    return svg_of(dict(GAME.view(steps()[i], None)))


def test_a_seats_picture_differs_from_the_observers_only_by_its_frame() -> None:
    """At every step of the known play: South's picture is the observers',
    byte for byte, and North's, turned to South's frame, is too."""
    for i, state in enumerate(steps()):
        public = public_svg(i)
        assert svg_of(dict(GAME.view(state, F.SOUTH))) == public, i
        north = dict(GAME.view(state, F.NORTH))
        assert svg_of(in_south_frame(north)) == public, i
        if state["troops"]:
            assert svg_of(north) != public, i


def test_no_card_in_a_hand_is_named() -> None:
    """No picture, of any reader at any step, names a card in either hand
    (unless the same card is face up elsewhere: a troop of that name on the
    field, a trophy, a Victory Condition...), by its name or its token's."""
    checked = 0
    for state in steps():
        view = dict(GAME.view(state, None))
        faceup = {t["name"] for t in view["troops"]}
        faceup |= {x for t in view["troops"] for x in [*t["equipment"], t["buff"], t["debuff"]]
                   if x}
        for p in view["players"]:
            faceup |= {*p["trophies"], *(v["name"] for v in p["victories"])}
            faceup |= {p["base"]["name"]} if p["base"] else set()
        tokens = {ct.short_name(n) for n in faceup}
        hidden = {card(c).name for r in F.ROLES for c in state["p"][r]["hand"]} - faceup
        for reader in (None, F.SOUTH, F.NORTH):
            shown = texts(svg_of(dict(GAME.view(state, reader))))
            joined = " | ".join(shown)
            for name in sorted(hidden):
                assert name not in joined, (reader, name)
                if ct.short_name(name) not in tokens:
                    assert ct.short_name(name) not in shown, (reader, name)
                checked += 1
    assert checked > 100


def test_names_stay_legible() -> None:
    """Nothing smaller than 11 px, and no name cut short in the known position."""
    for role in (None, F.NORTH):
        svg = svg_of(known(role))
        sizes = [float(v) for v in re.findall(r'font-size="([0-9.]+)"', svg)]
        assert sizes and min(sizes) >= 11
        assert not [t for t in texts(svg) if t.endswith("…")]


def test_every_troop_name_fits_its_token() -> None:
    from judge_games.conquest_tactics.cards import POOL

    for c in POOL.cards.values():
        if c.type == "troop":
            lines = ct.name_lines(c.name, ct.CELL - 20)
            assert 1 <= len(lines) <= 3 and not any(t.endswith("…") for t in lines), c.name


def test_the_deployment_draws_the_bases_on_an_empty_field() -> None:
    view = dict(GAME.view(steps()[0], F.NORTH))
    assert view["stage"] == "deploy" and not view["troops"]
    svg = svg_of(view)
    assert len(re.findall(r'class="region space-', svg)) == 25
    assert len(re.findall(r'class="region base-', svg)) == 2
    assert not re.findall(r'class="region troop-', svg)
    assert f"Turn {view['turn']} · Deployment" in texts(svg)
