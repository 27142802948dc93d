"""The one rule for what an email address is (``askdocs.auth.emails``)."""

from __future__ import annotations

import pytest

from askdocs.auth.emails import normalise_email
from askdocs.errors import InvalidInput


@pytest.mark.parametrize(
    "value",
    ["x@evil.example@corp.test", "x", "@corp.test", "x@", "a b@corp.test", "x@corp..test",
     "x@-corp.test", "x@corp.test.", "x@co rp.test", "x\t@corp.test", "x@corp_test.com"],
)  # fmt: skip
def test_what_is_not_an_address(value: str) -> None:
    with pytest.raises(InvalidInput):
        normalise_email(value)


@pytest.mark.parametrize(
    ("value", "kept"),
    [(" Ada@Example.COM ", "ada@example.com"), ("root@localhost", "root@localhost"),
     ("a.b+c@xn--bcher-kva.example", "a.b+c@xn--bcher-kva.example")],
)  # fmt: skip
def test_addresses_are_trimmed_and_lower_cased(value: str, kept: str) -> None:
    assert normalise_email(value) == kept
