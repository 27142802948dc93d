"""The install's keys in the database: stored once and wrapped, shared by every ring (replica)
on the database, imported from an older install's data-dir files, rotated with a grace
period, and unreadable with another secrets key."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import jwt as pyjwt
import pytest
from cryptography.fernet import Fernet
from sqlalchemy import select

from askdocs.auth.jwt import verify
from askdocs.db import Database
from askdocs.db.replica_models import InstallKeyRow
from askdocs.errors import ConfigError
from askdocs.keys import KEY_NAMES, KeyRing, SecretBox
from askdocs.settings import Settings, load_settings


def ring(db: Database, data_dir: Path, **settings: object) -> KeyRing:
    return KeyRing(load_settings(data_dir=data_dir, **settings), lambda: db)


def stored(db: Database) -> list[InstallKeyRow]:
    with db.session() as session:
        return list(session.scalars(select(InstallKeyRow).order_by(InstallKeyRow.name)))


def test_each_key_is_stored_once_wrapped_and_read_by_every_replica(
    db: Database, tmp_path: Path
) -> None:
    box = SecretBox.from_settings(load_settings(data_dir=tmp_path / "a"))
    first = KeyRing(load_settings(data_dir=tmp_path / "a"), lambda: db, box)
    keys = {name: first.signing(name) for name in KEY_NAMES}
    # another replica: its own data dir, the same database and secrets key
    second = KeyRing(load_settings(data_dir=tmp_path / "b"), lambda: db, box)
    assert {name: second.signing(name).secret for name in KEY_NAMES} == {
        name: key.secret for name, key in keys.items()
    }
    rows = stored(db)
    assert [(r.name, r.version) for r in rows] == [("confirmation", 1), ("jwt", 1), ("visitor", 1)]
    for row in rows:
        assert keys[row.name].secret not in row.wrapped.encode()  # never in the clear
        assert keys[row.name].secret.hex() not in row.wrapped
    assert not [p.name for p in (tmp_path / "a").iterdir() if p.name != "provider-secrets.key"]


def test_replicas_racing_on_first_use_agree(db: Database, tmp_path: Path) -> None:
    box = SecretBox.from_settings(load_settings(data_dir=tmp_path))
    rings = [KeyRing(load_settings(data_dir=tmp_path), lambda: db, box) for _ in range(6)]
    found: list[bytes] = []
    threads = [
        threading.Thread(target=lambda r=r: found.append(r.signing("jwt").secret)) for r in rings
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(found) == 6
    assert len(set(found)) == 1
    assert [r.version for r in stored(db)] == [1]


def test_an_older_install_keeps_its_data_dir_keys(db: Database, tmp_path: Path) -> None:
    (tmp_path / "jwt-signing-key").write_text("j" * 48)
    now = int(time.time())
    claims = {"sub": "u1", "iat": now, "exp": now + 60, "iss": "askdocs", "aud": "askdocs-api"}
    issued_before = pyjwt.encode(claims, "j" * 48, algorithm="HS256")  # no kid, as before
    (tmp_path / "assistant-confirmation-token").write_text("ab" * 32)
    (tmp_path / "visitor-hash-key").write_text("v" * 40)
    keys = ring(db, tmp_path)
    assert keys.signing("jwt").secret == b"j" * 48
    assert keys.signing("confirmation").secret == bytes.fromhex("ab" * 32)
    assert keys.signing("visitor").secret == b"v" * 40
    assert verify(issued_before, load_settings(data_dir=tmp_path), keys).sub == "u1"
    (tmp_path / "jwt-signing-key").write_text("k" * 48)  # after the import the file is not read
    assert ring(db, tmp_path).signing("jwt").secret == b"j" * 48


def test_a_configured_key_wins_and_is_not_stored(db: Database, tmp_path: Path) -> None:
    keys = ring(db, tmp_path, auth={"jwt_signing_key": "c" * 40})
    assert (keys.signing("jwt").version, keys.signing("jwt").secret) == (0, b"c" * 40)
    assert keys.verifying("jwt") == (keys.signing("jwt"),)
    assert stored(db) == []
    with pytest.raises(ConfigError) as info:
        keys.rotate("jwt", 0)
    assert info.value.code == "key_configured"


def test_rotation_signs_with_the_new_version_and_keeps_the_old_for_the_grace(
    db: Database, tmp_path: Path
) -> None:
    keys, other = ring(db, tmp_path), ring(db, tmp_path)
    old = other.signing("confirmation")  # the other replica read version 1 before
    new = keys.rotate("confirmation", 3600)
    assert (old.version, new.version) == (1, 2)
    assert keys.signing("confirmation") == new
    assert [k.version for k in keys.verifying("confirmation")] == [2, 1]
    assert other.signing("confirmation").version == 1  # until it re-reads...
    assert other.version("confirmation", 2) == new  # ...which an unknown version makes it do
    keys.rotate("confirmation", 0)
    assert [k.version for k in keys.verifying("confirmation")] == [3]


def test_another_secrets_key_cannot_read_the_stored_keys(db: Database, tmp_path: Path) -> None:
    ring(db, tmp_path / "a").signing("jwt")
    with pytest.raises(ConfigError) as info:
        ring(db, tmp_path / "b").signing("jwt")  # its own generated secrets key
    assert info.value.code == "secrets_key_mismatch"
    assert "same admin.secrets_key" in info.value.message


def test_rotating_the_secrets_key(db: Database, tmp_path: Path) -> None:
    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    before = ring(db, tmp_path, admin={"secrets_key": old})
    secret = before.signing("visitor").secret
    both = ring(db, tmp_path, admin={"secrets_key": f"{new}, {old}"})
    assert both.signing("visitor").secret == secret  # the old key still decrypts
    assert both.rewrap() == 1
    after = ring(db, tmp_path, admin={"secrets_key": new})
    assert after.signing("visitor").secret == secret
    with pytest.raises(ConfigError):
        ring(db, tmp_path, admin={"secrets_key": old}).signing("visitor")


def test_a_malformed_secrets_key_is_a_configuration_error(tmp_path: Path) -> None:
    settings: Settings = load_settings(data_dir=tmp_path, admin={"secrets_key": "short"})
    with pytest.raises(ConfigError):
        SecretBox.from_settings(settings).encrypt("x")
