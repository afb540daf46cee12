"""Enums hashed by identity: what a view or a cached message looks up by them costs no call.

``enum.Enum`` hashes a member by its name, a Python call every time a member (or a card,
tile end or state holding one) is a dict key or a set member: cached messages, gate and
port tables. A member is the only instance of its value, so its identity hash (in C) is as
good.
"""

from __future__ import annotations

import enum


class IdentityEnum(enum.Enum):
    """An ``enum.Enum`` hashed by identity."""

    __hash__ = object.__hash__
