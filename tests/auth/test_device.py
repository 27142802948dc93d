"""Device cookies (``askdocs.auth.device``): sealed, bound to one account, and they age out."""

from __future__ import annotations

from askdocs.auth.device import DeviceMark, recognised, seal, unseal

KEY = b"k" * 32
DAY = 86400


def test_a_device_cookie_is_recognised_for_its_account_only() -> None:
    mark = DeviceMark.fresh("Ada@Example.com", 1000)
    value = seal(KEY, mark)
    assert recognised(KEY, value, "ada@example.com", 1000 + DAY, 180 * DAY) == mark.device
    assert recognised(KEY, value, "bob@example.com", 1000, 180 * DAY) is None


def test_altered_foreign_or_old_cookies_are_not_recognised() -> None:
    value = seal(KEY, DeviceMark.fresh("ada@example.com", 1000))
    body, _, mac = value.rpartition(".")
    assert unseal(KEY, body + "." + mac[::-1], 1000, DAY) is None
    assert unseal(b"x" * 32, value, 1000, DAY) is None
    assert unseal(KEY, value, 1000 + DAY, DAY) is None
    assert unseal(KEY, value, 999, DAY) is None  # issued in the future
    for junk in ("", ".", "a.b", "é.é.é.é", None):
        assert unseal(KEY, junk, 1000, DAY) is None
