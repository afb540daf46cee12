"""Glicko-2 rating arithmetic (Glickman, "Example of the Glicko-2 system", 2013). Pure.

Parameters follow Lichess, which players of online games know: a new player starts at
1500 with RD 500 and volatility 0.09, τ = 0.75, RD is kept within 45–500, and a rating
is provisional while its RD is 110 or more. RD grows with inactivity, one rating period
per ``DAYS_PER_PERIOD`` days.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glickman's step 2: converts between the Glicko and Glicko-2 scales
START_RATING = 1500.0
START_RD = 500.0
START_VOLATILITY = 0.09
TAU = 0.75
RD_MIN = 45.0
RD_MAX = 500.0
PROVISIONAL_RD = 110.0
DAYS_PER_PERIOD = 1 / 0.21436  # Lichess: 0.21436 rating periods a day
CONVERGENCE = 0.000001


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating on the Glicko scale."""

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY

    @property
    def is_provisional(self) -> bool:
        return self.rd >= PROVISIONAL_RD


@dataclass(frozen=True, slots=True)
class Result:
    """One game of a rating period: the opponent's rating before it and our score."""

    opponent: Rating
    score: float  # 1 win, 0.5 draw, 0 loss


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Return σ' by the Illinois iteration of step 5."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate(
    player: Rating, results: Sequence[Result], tau: float = TAU, bounded: bool = True
) -> Rating:
    """Return the player's rating after one rating period with ``results``.

    With no results only the RD grows (step 6). ``bounded`` keeps RD within
    ``RD_MIN``–``RD_MAX``; the paper's example is checked unbounded.
    """
    mu, phi = (player.rating - START_RATING) / SCALE, player.rd / SCALE
    if not results:
        return _bound(
            Rating(
                player.rating, math.sqrt(phi**2 + player.volatility**2) * SCALE, player.volatility
            ),
            bounded,
        )
    opponents = [
        ((r.opponent.rating - START_RATING) / SCALE, r.opponent.rd / SCALE, r.score)
        for r in results
    ]
    v_inverse = 0.0
    improvement = 0.0
    for mu_j, phi_j, score in opponents:
        expected = _expected(mu, mu_j, phi_j)
        v_inverse += _g(phi_j) ** 2 * expected * (1 - expected)
        improvement += _g(phi_j) * (score - expected)
    v = 1 / v_inverse
    sigma = _new_volatility(player.volatility, phi, v, v * improvement, tau)
    phi_star = math.sqrt(phi**2 + sigma**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * improvement
    return _bound(Rating(new_mu * SCALE + START_RATING, new_phi * SCALE, sigma), bounded)


def decay(player: Rating, idle_days: float) -> Rating:
    """Return the rating with its RD grown for ``idle_days`` without games (step 6)."""
    periods = max(0.0, idle_days) / DAYS_PER_PERIOD
    phi = player.rd / SCALE
    grown = math.sqrt(phi**2 + periods * player.volatility**2) * SCALE
    return _bound(Rating(player.rating, grown, player.volatility), True)


def _bound(rating: Rating, bounded: bool) -> Rating:
    if not bounded:
        return rating
    rd = min(RD_MAX, max(RD_MIN, rating.rd))
    return Rating(rating.rating, rd, rating.volatility)
