"""The cmark pathological inputs (commonmark/cmark test/pathological_tests.py), sized."""

from __future__ import annotations

from collections.abc import Callable

Case = Callable[[int], str]
CASES: dict[str, Case] = {
    "nested strong emph": lambda n: "*a **a " * n + "b" + " a** a*" * n,
    "many emph closers with no openers": lambda n: "a_ " * n,
    "many emph openers with no closers": lambda n: "_a " * n,
    "many link closers with no openers": lambda n: "a]" * n,
    "many link openers with no closers": lambda n: "[a" * n,
    "mismatched openers and closers": lambda n: "*a_ " * n,
    "openers and closers multiple of 3": lambda n: "a**b" + "c* " * n,
    "link openers and emph closers": lambda n: "[ a_" * n,
    "pattern [ (]( repeated": lambda n: "[ (](" * n,
    "nested brackets": lambda n: "[" * n + "a" + "]" * n,
    "nested block quotes": lambda n: "> " * n + "a",
    "deeply nested lists": lambda n: "".join("  " * i + "* a\n" for i in range(min(n, 3000))),
    "U+0000 in input": lambda n: "abc\u0000de\u0000" * n,
    "backticks": lambda n: "".join("e" + "`" * i for i in range(min(n, 700))),
    "unclosed links A": lambda n: "[a](<b" * n,
    "unclosed links B": lambda n: "[a](b" * n,
    "reference amplification": lambda n: "[a]: <" + "u" * 900 + ">\n\n" + "[x][a] " * n,
}


def sized(case: Case, max_chars: int) -> str:
    """The case with the largest repeat count whose text fits in ``max_chars``."""
    low, high = 1, max_chars
    while low < high:
        middle = (low + high + 1) // 2
        if len(case(middle)) <= max_chars:
            low = middle
        else:
            high = middle - 1
    return case(low)
