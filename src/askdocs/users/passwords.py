"""Password hashing (argon2id through argon2-cffi) and the password policy.

``verify`` spends the same argon2 work whether or not the account exists or has a password:
a missing hash is checked against a fixed dummy hash, so the time of a failure does not say
which of the two it was.
"""

from __future__ import annotations

from functools import lru_cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from askdocs.error_codes import ErrorCode
from askdocs.errors import InvalidInput

MAX_PASSWORD_CHARS = 1024


# OWASP's argon2id recommendation: 19 MiB, 2 passes, 1 lane. One lane because more lanes
# only help on idle cores; a stored hash with other parameters is upgraded at sign-in.
TIME_COST, MEMORY_KIB, LANES = 2, 19 * 1024, 1


@lru_cache(maxsize=1)
def hasher() -> PasswordHasher:
    return PasswordHasher(time_cost=TIME_COST, memory_cost=MEMORY_KIB, parallelism=LANES)


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    return hasher().hash("askdocs dummy password for constant-time failures")


def check_policy(password: str, min_chars: int) -> str:
    """The password when acceptable; ``InvalidInput`` ``weak_password`` otherwise."""
    if len(password) < min_chars:
        raise InvalidInput(
            f"the password must have at least {min_chars} characters", code=ErrorCode.WEAK_PASSWORD
        )
    if len(password) > MAX_PASSWORD_CHARS or not password.strip():
        raise InvalidInput("the password is not acceptable", code=ErrorCode.WEAK_PASSWORD)
    return password


def hash_password(password: str) -> str:
    return hasher().hash(password)


def verify(stored: str | None, password: str) -> bool:
    """True when ``password`` matches ``stored``; a None ``stored`` still costs one check."""
    try:
        return hasher().verify(stored or _dummy_hash(), password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    return hasher().check_needs_rehash(stored)
