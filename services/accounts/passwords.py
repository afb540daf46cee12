"""Passwords: the rules a new one meets, and argon2id hashing off the event loop.

The cost is OWASP's first argon2id configuration (Password Storage Cheat Sheet): 19 MiB of
memory, 2 passes, 1 lane. A hash records its own parameters, so raising the cost later
rehashes each password at its owner's next sign-in (``Hasher.check`` says when).
"""

from __future__ import annotations

import asyncio
import enum
from concurrent.futures import Executor

import argon2
from zxcvbn.frequency_lists import FREQUENCY_LISTS

MIN_CHARS = 8
MAX_CHARS = 256  # a longer password is refused before it reaches the hash
# The 30,000 most common passwords of the zxcvbn project's leaked-password list.
COMMON = frozenset(word.casefold() for word in FREQUENCY_LISTS["passwords"])


class PasswordProblem(enum.Enum):
    """Why a new password is refused; the value is the reason a client sees."""

    LENGTH = "password_length"
    COMMON = "password_common"


class BadPassword(ValueError):
    def __init__(self, problem: PasswordProblem, detail: str) -> None:
        super().__init__(detail)
        self.problem = problem


def check_new(password: str) -> None:
    """Refuse a password a new account may not have.

    Raises:
        BadPassword: shorter than 8 or longer than 256 characters, or on the common list
            (compared case-insensitively).
    """
    if not MIN_CHARS <= len(password) <= MAX_CHARS:
        raise BadPassword(
            PasswordProblem.LENGTH, f"a password is {MIN_CHARS}–{MAX_CHARS} characters"
        )
    if password.casefold() in COMMON:
        raise BadPassword(
            PasswordProblem.COMMON, "this password is among the most common ones: choose another"
        )


class Hasher:
    """argon2id hashes, computed in ``executor`` so the event loop keeps serving meanwhile."""

    def __init__(
        self,
        executor: Executor | None = None,
        time_cost: int = 2,
        memory_kib: int = 19 * 1024,
        parallelism: int = 1,
    ) -> None:
        self._hasher = argon2.PasswordHasher(
            time_cost=time_cost,
            memory_cost=memory_kib,
            parallelism=parallelism,
            type=argon2.Type.ID,
        )
        self._executor = executor
        # Checked against when a name is unknown, so that answer costs a hash like any other.
        self._decoy = self._hasher.hash("a password that nobody has")

    async def hash(self, password: str) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._hasher.hash, password)

    async def check(self, stored: str | None, password: str) -> tuple[bool, bool]:
        """Return whether ``password`` matches ``stored``, and whether to store a new hash.

        With no ``stored`` hash (an unknown name) the decoy is checked instead, and the
        answer is no: the time taken does not tell an unknown name from a wrong password.
        """
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._check, stored, password)

    def _check(self, stored: str | None, password: str) -> tuple[bool, bool]:
        try:
            self._hasher.verify(stored or self._decoy, password)
        except (argon2.exceptions.VerificationError, argon2.exceptions.InvalidHashError):
            return False, False
        if stored is None:
            return False, False
        return True, self._hasher.check_needs_rehash(stored)
