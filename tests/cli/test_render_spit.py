"""The Spit board drawn from real engine views: stock piles, centre piles, gates and races."""

from __future__ import annotations

from clients.cli.input import to_one
from clients.cli.render_spit import playable, render_spit
from games import spit
from games.seats import SEATS
from photofinish.arbitration.v1 import arbitration_pb2
from tests.cli.positions import NAMES, spit_update, walk_until


def _position() -> tuple[spit.State, tuple[object, ...]]:
    start = spit.new_match(spit.Options(), 3)
    return walk_until(spit, start, lambda s: s.version > 12, seed=1)


def _side_line(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"stock    {name}"))


def test_both_sides_show_each_stock_top_its_hidden_count_and_the_spit_pile() -> None:
    state, events = _position()
    text = render_spit(spit_update(state, 0, events))
    for seat, name in enumerate(NAMES):
        line = _side_line(text, name)
        side = state.sides[seat]
        for number, pile in enumerate(side.stock):
            top = str(pile[-1]) if pile else "—"
            hidden = f"+{len(pile) - 1}" if len(pile) > 1 else ""
            assert f"{number + 1}:{top}{hidden}" in line.split()
        assert line.endswith(f"spit pile {len(side.spit)}")
    assert _side_line(text, NAMES[0]).startswith("stock    Ada (you)")
    assert text.index("Ada (you)") < text.index("stock    Bea")


def test_the_centre_shows_both_tops_and_sizes() -> None:
    state, events = _position()
    text = render_spit(spit_update(state, 1, events))
    for number, pile in enumerate(state.centre):
        cards = "card" if len(pile) == 1 else "cards"
        assert f"pile {number + 1}: {pile[-1]} ({len(pile)} {cards})" in text


def test_hints_name_the_plays_and_a_move_the_engine_allows() -> None:
    state, events = _position()
    for seat in SEATS:
        hints = playable(spit_update(state, seat, events).view.spit, seat)
        legal = {  # the engine's words, with piles counted from 1 as the CLI shows them
            to_one(" ".join(str(c).split()[:3])) for c in spit.legal_commands(state, seat)
        }
        assert {h for h in hints if h.startswith("play")} == {
            c for c in legal if c.startswith("play")
        }
        assert {h for h in hints if h.startswith("move")} <= legal


def test_a_race_notice_names_both_cards_the_pile_and_the_gap() -> None:
    state, events = _position()
    update = spit_update(state, 0, events)
    update.race.CopyFrom(
        arbitration_pb2.Race(
            pile=0, landed_seat=1, landed_card="6♥", refused_seat=0, refused_card="8♠", gap_us=1234
        )
    )
    assert "race     your 8♠ lost pile 1 to 6♥ by 1.234 ms" in render_spit(update)
    mirrored = spit_update(state, 1, events)
    mirrored.race.CopyFrom(update.race)
    assert "race     your 6♥ beat 8♠ on pile 1 by 1.234 ms" in render_spit(mirrored)


def test_the_start_gate_says_who_still_has_to_press_ready() -> None:
    state = spit.new_match(spit.Options(), 8)
    state = spit.apply(state, SEATS[0], spit.Ready()).state
    text = render_spit(spit_update(state, 0))
    assert "gate     start: waiting for Bea to press ready" in text
    assert "can " not in text


def test_a_shared_device_labels_both_sides_by_name_and_hints_for_both() -> None:
    state, events = _position()
    text = render_spit(spit_update(state, 0, events), viewer=-1)
    assert "(you)" not in text
    assert _side_line(text, "Ada") and _side_line(text, "Bea")
