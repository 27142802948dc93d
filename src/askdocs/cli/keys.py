"""``askdocs keys``: the install's signing keys in the database (operator).

``list`` shows every stored version (never a key), ``rotate NAME`` stores a new version that
signs from then on (every replica picks it up within ``server.change_poll_seconds``), and
``rewrap`` encrypts every stored secret again with the newest secrets key.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import click

from askdocs.cli.context import CliContext
from askdocs.keys import KEY_NAMES, Key, KeyRing, key_name, standalone_ring

DEFAULT_GRACE_SECONDS = 86400


@contextmanager
def ring_of(obj: CliContext) -> Iterator[KeyRing]:
    with standalone_ring(obj.settings) as ring:
        yield ring


@click.group()
def keys() -> None:
    """The signing keys every replica shares (stored in the database, encrypted)."""


@keys.command("list")
@click.pass_obj
def list_keys(obj: CliContext) -> None:
    """One line per stored key version: name, version, created, verifies until."""
    with ring_of(obj) as ring:
        for name in KEY_NAMES:
            ring.signing(name)  # a key never used yet is made now, so the list is whole
        found = ring.listing()
    for key in found:
        click.echo(json.dumps(_json(key)) if obj.json else _line(key))


@keys.command("rotate")
@click.argument("name", type=click.Choice(KEY_NAMES))
@click.option(
    "--grace",
    type=click.FloatRange(min=0),
    default=DEFAULT_GRACE_SECONDS,
    show_default=True,
    help="Seconds the previous versions still verify (0: refuse them at once).",
)
@click.pass_obj
def rotate(obj: CliContext, name: str, grace: float) -> None:
    """Store a new version of key NAME that signs from now on."""
    with ring_of(obj) as ring:
        key = ring.rotate(key_name(name), grace)
    click.echo(f"{name} key version {key.version} signs from now on; older versions verify "
               f"for {grace:g} s more")  # fmt: skip


@keys.command("rewrap")
@click.pass_obj
def rewrap(obj: CliContext) -> None:
    """Encrypt every stored secret again with the newest secrets key."""
    with ring_of(obj) as ring:
        count = ring.rewrap()
    click.echo(f"{count} stored secret(s) encrypted with the newest secrets key")


def _json(key: Key) -> dict[str, object]:
    return {
        "name": key.name,
        "version": key.version,
        "createdAt": _iso(key.created_at),
        "retireAt": _iso(key.retire_at),
    }


def _line(key: Key) -> str:
    until = _iso(key.retire_at) or "-"
    return f"{key.name}\t{key.version}\t{_iso(key.created_at)}\t{until}"


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat(timespec="seconds") if moment else None
