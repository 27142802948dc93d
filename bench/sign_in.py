"""Password sign-in cost and its constant-time failure, measured on this machine.

usage: python bench/sign_in.py [--rounds 30] [--json]

Creates a throwaway SQLite database with one account and measures, with the real argon2id
parameters (``askdocs.users.passwords``), the wall time of ``Accounts.check_password`` for:
the right password, a wrong password, an unknown email address, and an account that has no
password. The last three are the failures an attacker can tell apart only by timing; the
report gives each one's median and the largest difference between the failure medians, and
the cost of a session lookup (``SessionStore.find``), which every signed-in request pays.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from askdocs.db import Database
from askdocs.errors import AuthError
from askdocs.settings import load_settings
from askdocs.users.accounts import Accounts

PASSWORD = "correct horse battery staple"


def _timed(call: Callable[[], object], rounds: int) -> list[float]:
    spent = []
    for _ in range(rounds):
        started = time.perf_counter()
        with contextlib.suppress(AuthError):
            call()
        spent.append((time.perf_counter() - started) * 1000)
    return spent


def measure(rounds: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(data_dir=Path(tmp))
        db = Database.open(settings)
        try:
            accounts = Accounts(settings, db)
            user = accounts.users.create_user("ada@example.com")
            accounts.set_password(user.id, PASSWORD)
            accounts.users.create_user("nopass@example.com")
            cases = {
                "right_password_ms": lambda: accounts.check_password("ada@example.com", PASSWORD),
                "wrong_password_ms": lambda: accounts.check_password("ada@example.com", "nope!"),
                "unknown_email_ms": lambda: accounts.check_password("who@example.com", PASSWORD),
                "no_password_ms": lambda: accounts.check_password("nopass@example.com", PASSWORD),
            }
            spent: dict[str, list[float]] = {name: [] for name in cases}
            for _ in range(rounds):  # interleaved, so load drift hits every case alike
                for name, call in cases.items():
                    spent[name] += _timed(call, 1)
            result = {name: statistics.median(values) for name, values in spent.items()}
            token = accounts.sessions.create(user.id, "password").token
            result["session_lookup_ms"] = statistics.median(
                _timed(lambda: accounts.sessions.find(token), rounds * 10)
            )
        finally:
            db.close()
    failures = [result[k] for k in ("wrong_password_ms", "unknown_email_ms", "no_password_ms")]
    result["failure_spread_ms"] = max(failures) - min(failures)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.rounds)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for name, value in result.items():
        print(f"{name:>20}: {value:8.2f}")


if __name__ == "__main__":
    main()
