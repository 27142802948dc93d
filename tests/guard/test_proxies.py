"""Forwarded headers are believed from trusted proxies only (pure): who the client is, the
scheme and the host, for X-Forwarded-* and RFC 7239 ``Forwarded`` alike."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from askdocs.errors import ConfigError
from askdocs.guard.proxies import (
    Arrival,
    TrustedProxies,
    address,
    arrival,
    host_key,
    rfc7239_hops,
    start_up_warnings,
)
from askdocs.settings import Settings, load_settings

LOCAL = TrustedProxies(["127.0.0.1", "10.0.0.0/8"])
FROM_PROXY = Arrival("127.0.0.1", "http", "127.0.0.1:8000")


def test_nothing_is_believed_by_default() -> None:
    headers = {"x-forwarded-for": "203.0.113.7", "x-forwarded-proto": "https"}
    assert arrival(FROM_PROXY, headers, TrustedProxies([])) == FROM_PROXY


def test_an_untrusted_peer_is_taken_as_it_came() -> None:
    seen = Arrival("198.51.100.1", "http", "docs.example")
    headers = {"x-forwarded-for": "203.0.113.7", "x-forwarded-host": "evil.example"}
    assert arrival(seen, headers, LOCAL) == seen


def test_x_forwarded_headers_from_a_trusted_proxy() -> None:
    headers = {
        "x-forwarded-for": "203.0.113.7",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "Docs.Example",
    }
    assert arrival(FROM_PROXY, headers, LOCAL) == Arrival("203.0.113.7", "https", "docs.example")


def test_the_client_is_the_right_most_address_that_is_no_trusted_proxy() -> None:
    """A client may write its own X-Forwarded-For: whatever stands left of the first
    untrusted address is the client's own say, never believed."""
    headers = {"x-forwarded-for": "1.1.1.1, 198.51.100.9, 10.0.0.2"}
    assert arrival(FROM_PROXY, headers, LOCAL).client == "198.51.100.9"
    only_proxies = {"x-forwarded-for": "10.0.0.3, 10.0.0.2"}
    assert arrival(FROM_PROXY, only_proxies, LOCAL).client == "10.0.0.3"


def test_proto_and_host_of_the_hop_that_saw_the_client() -> None:
    headers = {
        "x-forwarded-for": "198.51.100.9, 10.0.0.2",
        "x-forwarded-proto": "https, http",
        "x-forwarded-host": "docs.example, internal:8080",
    }
    assert arrival(FROM_PROXY, headers, LOCAL) == Arrival("198.51.100.9", "https", "docs.example")
    one_value = {"x-forwarded-for": "198.51.100.9, 10.0.0.2", "x-forwarded-proto": "https"}
    assert arrival(FROM_PROXY, one_value, LOCAL).scheme == "https"


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"x-forwarded-proto": "gopher"}, ("http", "127.0.0.1:8000")),
        ({"x-forwarded-host": "a b"}, ("http", "127.0.0.1:8000")),
        ({"x-forwarded-host": "docs.example/path"}, ("http", "127.0.0.1:8000")),
        ({"x-forwarded-host": "x" * 300}, ("http", "127.0.0.1:8000")),
        ({"x-forwarded-host": "[2001:db8::1]:8443"}, ("http", "[2001:db8::1]:8443")),
    ],
)
def test_a_bad_scheme_or_host_is_ignored(
    headers: dict[str, str], expected: tuple[str, str]
) -> None:
    came = arrival(FROM_PROXY, {"x-forwarded-for": "203.0.113.7", **headers}, LOCAL)
    assert (came.scheme, came.host) == expected
    assert came.client == "203.0.113.7"


def test_rfc7239_forwarded_wins_over_x_forwarded() -> None:
    headers = {
        "forwarded": 'for=198.51.100.9;proto=https;host="docs.example", For="[2001:db8::7]:4711"',
        "x-forwarded-for": "203.0.113.1",
    }
    trusted = TrustedProxies(["127.0.0.1", "2001:db8::/64"])
    assert arrival(FROM_PROXY, headers, trusted) == Arrival("198.51.100.9", "https", "docs.example")
    assert arrival(FROM_PROXY, headers, LOCAL).client == "2001:db8::7"


@pytest.mark.parametrize(
    "value", ["for=1.2.3.4;", 'for="unterminated', "for=1.2.3.4, ", "=x", "for 1.2.3.4"]
)
def test_a_malformed_forwarded_header_says_nothing(value: str) -> None:
    assert rfc7239_hops(value) == []
    assert arrival(FROM_PROXY, {"forwarded": value}, LOCAL) == FROM_PROXY


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("192.0.2.1", "192.0.2.1"),
        ("192.0.2.1:4711", "192.0.2.1"),
        ("[2001:db8::1]:80", "2001:db8::1"),
        ("2001:DB8::1", "2001:db8::1"),
        ("unknown", "unknown"),
        ("_hidden", "_hidden"),
        ("", None),
    ],
)
def test_hop_addresses(raw: str, expected: str | None) -> None:
    assert address(raw) == expected


def test_ipv4_mapped_peers_and_cidrs() -> None:
    assert LOCAL.trusts("::ffff:10.1.2.3")
    assert LOCAL.trusts("10.255.0.1")
    assert not LOCAL.trusts("11.0.0.1")
    assert not LOCAL.trusts("unknown")
    assert not LOCAL.trusts(None)


def test_a_very_long_chain_is_not_believed() -> None:
    headers = {"x-forwarded-for": ", ".join(["10.0.0.1"] * 40)}
    assert arrival(FROM_PROXY, headers, LOCAL) == FROM_PROXY


@settings(deadline=None)  # a bound per example on a loaded machine is no verdict
@given(st.text(max_size=200), st.text(max_size=200), st.text(max_size=200))
def test_any_headers_from_an_untrusted_peer_change_nothing(a: str, b: str, c: str) -> None:
    seen = Arrival("203.0.113.50", "http", "docs.example")
    headers = {"forwarded": a, "x-forwarded-for": b, "x-forwarded-host": c}
    assert arrival(seen, headers, LOCAL) == seen


@settings(deadline=None)
@given(st.text(max_size=300))
def test_any_forwarded_value_parses_or_is_refused(value: str) -> None:
    for hop in rfc7239_hops(value):
        assert hop.address is None or len(hop.address) <= 100


def test_host_key_drops_the_default_port() -> None:
    assert host_key("Docs.Example:443", "https") == "docs.example"
    assert host_key("docs.example:8443", "https") == "docs.example:8443"
    assert host_key("[::1]:80", "http") == "[::1]"


def test_settings_normalise_public_url_and_proxies() -> None:
    settings = Settings(
        server={"public_url": "HTTPS://Docs.Example:443/", "trusted_proxies": ["10.1.2.3/8"]}
    )
    assert settings.server.public_url == "https://docs.example"
    assert settings.server.trusted_proxies == ["10.0.0.0/8"]


@pytest.mark.parametrize(
    "server",
    [
        {"public_url": "docs.example"},
        {"public_url": "https://docs.example/docs"},
        {"public_url": "ftp://docs.example"},
        {"trusted_proxies": ["proxy.internal"]},
    ],
)
def test_bad_proxy_settings_are_refused(server: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"public_url|trusted_proxies"):
        Settings(server=server)


def test_the_old_trusted_proxy_header_is_refused_with_directions() -> None:
    with pytest.raises(ConfigError, match=r"replaced by server\.trusted_proxies"):
        load_settings(None, server={"trusted_proxy_header": "x-forwarded-for"})


def test_the_old_auth_public_url_is_read_and_warned_about() -> None:
    settings = Settings(auth={"public_url": "https://docs.example/"})
    assert settings.server.public_url == "https://docs.example"
    assert any("auth.public_url" in note for note in start_up_warnings(settings))
    with pytest.raises(ValueError, match="differ"):
        Settings(auth={"public_url": "https://a.example"}, server={"public_url": "https://b.x"})


def test_serve_warns_about_a_public_url_on_loopback_without_a_trusted_proxy() -> None:
    lonely = Settings(server={"public_url": "https://docs.example"})
    [note] = start_up_warnings(lonely)
    assert "server.trusted_proxies is empty" in note
    trusted = Settings(server={"public_url": "https://docs.example", "trusted_proxies": ["::1"]})
    assert start_up_warnings(trusted) == []
    public_bind = Settings(server={"public_url": "https://docs.example", "host": "0.0.0.0"})
    assert start_up_warnings(public_bind) == []
    assert start_up_warnings(Settings()) == []
