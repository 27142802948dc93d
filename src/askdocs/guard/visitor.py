"""Visitor identity without storing addresses: a keyed hash of the client address.

The id is HMAC-SHA256 over the address (IPv6: its /64 network, which one subscriber usually
holds whole) with a secret key: from ``ask.visitor_hash_key``, else generated once and kept
in ``<data dir>/visitor-hash-key``. Addresses are never stored or logged. Behind a reverse
proxy the address is the one ``server.trusted_proxies`` vouch for (``guard.proxies``).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from pathlib import Path

from askdocs.auth.keys import write_secret_file
from askdocs.settings import Settings

KEY_FILE = "visitor-hash-key"
UNKNOWN = "unknown"


def visitor_key(settings: Settings) -> bytes:
    configured = settings.ask.visitor_hash_key
    if configured is not None and configured.get_secret_value():
        return configured.get_secret_value().encode("utf-8")
    return _persisted(settings.data_dir / KEY_FILE).encode("ascii")


def visitor_id(key: bytes, address: str) -> str:
    digest = hmac.new(key, _network(address).encode("utf-8"), hashlib.sha256)
    return digest.hexdigest()[:32]


def _network(address: str) -> str:
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address[:100]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _persisted(path: Path) -> str:
    try:
        existing = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        existing = ""
    if len(existing) >= 32:
        return existing
    return write_secret_file(path, secrets.token_urlsafe(32))
