"""Building matches: seats from the seed's coin, modes, rating, options, assignments."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from games.bot import Level
from games.registry import BID, SPIT
from services.common import identity
from services.common.identity import Player, PlayerId
from services.common.opening import codec, matches
from services.common.opening.matches import MatchId, Mode, assignment, is_swapped
from tests.matchmaking.tickets import player

ANN, BOB = player("Ann"), player("Bob")
ROBO = Player(PlayerId("bot-7"), "Robo", bot=True)
ID = MatchId("m1")
seeds = st.integers(0, 2**63 - 1)


def test_the_seat_coin_is_fixed_by_the_seed_and_fair_over_many_seeds() -> None:
    flips = [is_swapped(seed) for seed in range(10_000)]
    assert flips == [is_swapped(seed) for seed in range(10_000)]
    assert 4_800 < sum(flips) < 5_200


def test_the_seed_coin_decides_who_sits_in_seat_0() -> None:
    straight = next(seed for seed in range(100) if not is_swapped(seed))
    swapped = next(seed for seed in range(100) if is_swapped(seed))
    assert matches.online(ANN, BOB, SPIT, True, ID, straight).players == (ANN, BOB)
    assert matches.online(ANN, BOB, SPIT, True, ID, swapped).players == (BOB, ANN)


@given(seeds, st.booleans())
def test_both_people_of_an_online_match_hold_one_seat_each(seed: int, rated: bool) -> None:
    spec = matches.online(ANN, BOB, BID, rated, ID, seed)
    ann, bob = assignment(spec, ANN.id), assignment(spec, BOB.id)
    assert sorted([*ann.seats, *bob.seats]) == [0, 1]
    assert spec.mode is Mode.ONLINE and spec.rated is rated and ann.rated is rated
    assert ann.player_names == bob.player_names == tuple(p.name for p in spec.players)


@given(seeds)
def test_a_match_against_the_computer_is_never_rated_and_only_spit_pauses(seed: int) -> None:
    spit = matches.computer(ANN, ROBO, SPIT, Level.HARD, ID, seed)
    bid = matches.computer(ANN, ROBO, BID, Level.HARD, ID, seed)
    for spec in (spit, bid):
        assert spec.mode is Mode.COMPUTER and not spec.rated and spec.bot_level is Level.HARD
        assert set(spec.players) == {ANN, ROBO}
        assert len(assignment(spec, ANN.id).seats) == 1
    assert spit.pausable and not bid.pausable


def test_hot_seat_gives_one_person_both_seats_under_two_names() -> None:
    spec = matches.hotseat(ANN, BID, ID, 5)
    mine = assignment(spec, ANN.id)
    assert spec.mode is Mode.HOTSEAT and not spec.rated and not spec.pausable
    assert [p.id for p in spec.players] == [ANN.id, ANN.id]
    assert mine.seats == (0, 1) and mine.player_names == ("Ann (1)", "Ann (2)")


def test_a_caller_without_an_account_session_is_a_guest_and_stays_one_in_the_match() -> None:
    named = [(identity.PLAYER_ID, "g_1"), (identity.PLAYER_NAME, "Ann%20K")]
    guest = identity.caller(named)
    member = identity.caller([*named, (identity.SESSION_ID, "s_1")])
    assert (guest.name, guest.guest, member.guest) == ("Ann K", True, False)
    # The flag reaches every seat of the match, hot-seat's two included, and its wire form.
    for spec in (
        matches.online(guest, BOB, SPIT, False, ID, 1),
        matches.hotseat(guest, BID, ID, 1),
    ):
        created = codec.match_created(spec)
        assert [p.guest for p in created.players] == [p.guest for p in spec.players]
        assert [codec.decode_player(p) for p in created.players] == list(spec.players)
    assert [p.guest for p in matches.hotseat(guest, BID, ID, 1).players] == [True, True]
    assert not ROBO.guest and not codec.encode_player(ROBO).guest


def test_fresh_ids_are_url_safe_and_fresh_seeds_fit_63_bits() -> None:
    ids = {matches.fresh_match_id() for _ in range(100)}
    assert len(ids) == 100
    assert all(set(i) <= set(string.ascii_letters + string.digits + "-_") for i in ids)
    assert all(0 <= matches.fresh_seed() < 2**63 for _ in range(100))


def test_no_match_id_begins_with_a_dash_that_a_command_line_takes_for_an_option() -> None:
    # One random url-safe id in 64 would: 5,000 draws meet one all but surely.
    ids = [matches.fresh_match_id() for _ in range(5_000)]
    assert not [i for i in ids if i.startswith("-")]
    assert {len(i) for i in ids} == {16}
