"""Visitor identity without storing addresses: a keyed hash of the client address.

The id is HMAC-SHA256 over the address (IPv6: its /64 network, which one subscriber usually
holds whole) with a secret key: the install's ``visitor`` key (``askdocs.keys``: from
``ask.visitor_hash_key``, else stored in the database, so every replica counts a visitor
under the same id). Addresses are never stored or logged. Behind a reverse proxy the
address is the one ``server.trusted_proxies`` vouch for (``guard.proxies``).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress

UNKNOWN = "unknown"


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
