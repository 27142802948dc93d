"""How a request reached askdocs, believed from trusted proxies only (pure).

A request whose peer is in ``server.trusted_proxies`` (addresses or CIDRs) may say, through
its proxy's headers, who the client is, the scheme it used and the host it asked for: the
RFC 7239 ``Forwarded`` header when present, else ``X-Forwarded-For``, ``X-Forwarded-Proto``
and ``X-Forwarded-Host``. The hops are read right to left (each proxy appends its own last):
every address that is itself a trusted proxy is skipped and the first that is not is the
client; the scheme and host are the ones that hop recorded, so the outermost trusted proxy's
view of the client's request wins. ``X-Forwarded-Proto`` and ``-Host`` give the value at the
same position when they list one per ``X-Forwarded-For`` entry, else their first value. A
scheme other than http(s) or a malformed host is ignored. A request from any other peer is
taken as it came, whatever its headers say; nothing is trusted by default.

``host_key`` compares hosts the way an origin does (case, default port), for
``server.public_url``; ``start_up_warnings`` are what ``askdocs serve`` says about settings
that look like a proxy set-up gone wrong.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from askdocs.settings import Settings, proxy_network

MAX_ADDRESS_CHARS = 100
MAX_HOPS = 32  # a longer chain is not believed at all
SCHEMES = ("http", "https")
DEFAULT_PORTS = {"http": "80", "https": "443"}
_HOST = re.compile(r"(?:[a-z0-9._-]{1,253}|\[[0-9a-f:.]{2,45}\])(?::[0-9]{1,5})?")
_PAIR = re.compile(r'\s*([A-Za-z]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;,"\s]*)\s*([;,]|$)')


@dataclass(frozen=True)
class Arrival:
    """A request as askdocs takes it: the client address, the scheme, the ``Host``."""

    client: str | None
    scheme: str
    host: str | None


@dataclass(frozen=True)
class Hop:
    """One proxy's record of the request it received (what it saw, any part unknown)."""

    address: str | None
    scheme: str | None = None
    host: str | None = None


class TrustedProxies:
    """``server.trusted_proxies``: the networks whose forwarded headers are believed."""

    def __init__(self, entries: Sequence[str]) -> None:
        self.networks = tuple(proxy_network(entry) for entry in entries)

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusts(self, address: str | None) -> bool:
        ip = parse_ip(address)
        if ip is None:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip.version == net.version and ip in net for net in self.networks)


def arrival(seen: Arrival, headers: Mapping[str, str], trusted: TrustedProxies) -> Arrival:
    """``seen`` as the outermost trusted proxy saw it (``headers``: lower-case names, each
    repeated header joined with commas); unchanged unless the peer is trusted."""
    if not trusted.trusts(seen.client):
        return seen
    hops = forwarded_hops(headers)
    if not hops or len(hops) > MAX_HOPS:
        return seen
    hop = client_hop(hops, trusted)
    return Arrival(
        client=hop.address or seen.client,
        scheme=hop.scheme if hop.scheme in SCHEMES else seen.scheme,
        host=hop.host if hop.host is not None and valid_host(hop.host) else seen.host,
    )


def client_hop(hops: Sequence[Hop], trusted: TrustedProxies) -> Hop:
    """The right-most hop whose address is not a trusted proxy (else the left-most)."""
    for hop in reversed(hops[1:]):
        if not trusted.trusts(hop.address):
            return hop
    return hops[0]


def forwarded_hops(headers: Mapping[str, str]) -> list[Hop]:
    """The hops the headers record, left (first proxy) to right (the nearest)."""
    if "forwarded" in headers:
        return rfc7239_hops(headers["forwarded"])
    addresses = _list(headers.get("x-forwarded-for"))
    schemes = _list(headers.get("x-forwarded-proto"))
    hosts = _list(headers.get("x-forwarded-host"))
    if not addresses and (schemes or hosts):  # the scheme or host alone: the peer is the client
        return [Hop(None, _at(schemes, 0, 1), _at(hosts, 0, 1))]
    return [
        Hop(address(value), _at(schemes, i, len(addresses)), _at(hosts, i, len(addresses)))
        for i, value in enumerate(addresses)
    ]


def rfc7239_hops(value: str) -> list[Hop]:
    """``Forwarded: for=...;proto=...;host=..., for=...``; malformed: no hops at all."""
    hops: list[Hop] = []
    pairs: dict[str, str] = {}
    position = 0
    while position < len(value):
        match = _PAIR.match(value, position)
        if match is None or match.end() == position:
            return []
        name, raw, separator = match.groups()
        pairs.setdefault(name.lower(), _unquote(raw))
        position = match.end()
        if separator != ";":
            hops.append(_hop(pairs))
            pairs = {}
    return hops


def _hop(pairs: Mapping[str, str]) -> Hop:
    scheme = pairs.get("proto")
    host = pairs.get("host")
    return Hop(address(pairs.get("for", "")), scheme.lower() if scheme else None, host)


def _unquote(raw: str) -> str:
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        return re.sub(r"\\(.)", r"\1", raw[1:-1])
    return raw


def _list(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


def _at(values: Sequence[str], index: int, hops: int) -> str | None:
    if not values:
        return None
    chosen = values[index] if len(values) == hops else values[0]
    return chosen.lower()


def address(value: str) -> str | None:
    """A hop's address without brackets or port (``[2001:db8::1]:4711``, ``192.0.2.1:80``);
    anything that is not an address (``unknown``, an obfuscated ``_name``) as it came."""
    text = value.strip()[:MAX_ADDRESS_CHARS]
    if not text:
        return None
    if text.startswith("[") and "]" in text:
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    ip = parse_ip(text)
    return str(ip) if ip is not None else text


def parse_ip(value: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address((value or "").strip("[]"))
    except ValueError:
        return None


def valid_host(host: str) -> bool:
    return len(host) <= 255 and _HOST.fullmatch(host.lower()) is not None


def host_key(host: str, scheme: str) -> str:
    """``host[:port]`` in lower case, without ``scheme``'s default port."""
    name = host.strip().lower().rstrip(".")
    if name.endswith(":" + DEFAULT_PORTS.get(scheme, "")) and not name.endswith("]"):
        name = name.rsplit(":", 1)[0]
    return name


def start_up_warnings(settings: Settings) -> list[str]:
    """What ``askdocs serve`` says at start-up about the proxy settings (nothing if sound)."""
    server = settings.server
    notes = []
    if settings.auth.public_url:
        notes.append(
            "auth.public_url is read as server.public_url, which replaces it (it now also "
            "sets the sign-in origin, Secure cookies and HSTS): move it to [server]"
        )
    loopback = is_loopback_bind(server.host)
    if server.public_url and loopback and not server.trusted_proxies:
        notes.append(
            f"server.public_url is {server.public_url} but server.trusted_proxies is empty: "
            "every visitor seems to come from your proxy's address (one rate-limit identity "
            "for all) and its X-Forwarded-* headers are ignored; set "
            'server.trusted_proxies = ["127.0.0.1"] (your proxy\'s address)'
        )
    return notes


def is_loopback_bind(host: str) -> bool:
    ip = parse_ip(host)
    return host.strip("[]").lower() == "localhost" or (ip is not None and ip.is_loopback)
