"""Spit events -> SpitEvent messages (no event names a face-down card; see the engine)."""

from __future__ import annotations

from games.codec import result_to_proto
from games.spit import events as ev
from games.spit.codec.cards import card_to_proto, maybe_card_to_proto
from photofinish.game.v1 import game_pb2, spit_pb2


def event_to_proto(event: ev.Event) -> game_pb2.Event:
    """Return ``event`` in the Event envelope."""
    return game_pb2.Event(spit=_spit_event(event))


def _spit_event(event: ev.Event) -> spit_pb2.SpitEvent:
    match event:
        case ev.Pressed(seat=seat):
            return spit_pb2.SpitEvent(pressed=spit_pb2.SpitPressed(seat=seat))
        case ev.Dealt():
            return spit_pb2.SpitEvent(dealt=_dealt(event))
        case ev.Spat(seat=seat, pile=pile, card=card):
            spat = spit_pb2.SpitSpat(seat=seat, pile=pile, card=card_to_proto(card))
            return spit_pb2.SpitEvent(spat=spat)
        case ev.Reshuffled(spit_counts=counts):
            reshuffled = spit_pb2.SpitReshuffled(spit_counts=list(counts))
            return spit_pb2.SpitEvent(reshuffled=reshuffled)
        case ev.Blocked():
            return spit_pb2.SpitEvent(blocked=spit_pb2.SpitBlocked())
        case ev.Played(seat=seat, stock=stock, pile=pile, card=card):
            played = spit_pb2.SpitPlayed(
                seat=seat, stock=stock, pile=pile, card=card_to_proto(card)
            )
            return spit_pb2.SpitEvent(played=played)
        case ev.Moved(seat=seat, src=src, dst=dst, card=card):
            moved = spit_pb2.SpitMoved(seat=seat, src=src, dst=dst, card=card_to_proto(card))
            return spit_pb2.SpitEvent(moved=moved)
        case ev.Revealed(seat=seat, stock=stock, card=card):
            revealed = spit_pb2.SpitRevealed(seat=seat, stock=stock, card=card_to_proto(card))
            return spit_pb2.SpitEvent(revealed=revealed)
        case ev.RoundEnded(round_no=round_no, finisher=finisher, taken=taken, card_counts=counts):
            ended = spit_pb2.SpitRoundEnded(
                round_no=round_no, finisher=finisher, taken=taken, card_counts=list(counts)
            )
            return spit_pb2.SpitEvent(round_ended=ended)
        case ev.PausedBy(seat=seat):
            return spit_pb2.SpitEvent(paused=spit_pb2.SpitPausedBy(seat=seat))
        case ev.ResumedBy(seat=seat):
            return spit_pb2.SpitEvent(resumed=spit_pb2.SpitResumedBy(seat=seat))
        case ev.Ended(outcome=outcome):
            winner, termination = result_to_proto(outcome)
            ended_match = spit_pb2.SpitEnded(winner=winner, termination=termination)
            return spit_pb2.SpitEvent(ended=ended_match)
    raise TypeError(f"{event!r} is not a Spit event")


def _dealt(event: ev.Dealt) -> spit_pb2.SpitDealt:
    stock = [
        spit_pb2.StockPile(top=maybe_card_to_proto(top), hidden=hidden)
        for top, hidden in zip(event.tops, event.hidden, strict=True)
    ]
    return spit_pb2.SpitDealt(
        round_no=event.round_no, seat=event.seat, stock=stock, spit_count=event.spit_count
    )
