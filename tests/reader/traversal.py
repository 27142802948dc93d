"""Generated path-traversal variants for the article and asset routes (seed FS-01).

Each variant is the raw request-target text after the route prefix, exactly as a client
would put it on the wire (percent-encoding included). Targets name files beside and above
the docs root, including the canary file ``secret.txt`` placed next to it.
"""

from __future__ import annotations

from pathlib import Path

DOT_DOT_SLASH = [
    "../",
    "..%2f",
    "..%2F",
    "%2e%2e/",
    "%2e%2e%2f",
    "%2E%2E%2F",
    ".%2e/",
    "%2e./",
    "%252e%252e%252f",
    "..%252f",
    "%252e%252e/",
    "..\\",
    "..%5c",
    "%2e%2e%5c",
    "..%255c",
    "%c0%ae%c0%ae/",
    "%c0%ae%c0%ae%c0%af",
    "..%c0%af",
    "%e0%80%ae%e0%80%ae/",
    "..%c1%9c",
    "%ef%bc%8e%ef%bc%8e%ef%bc%8f",  # fullwidth ．．／
    "%ef%bc%8e%ef%bc%8e/",  # ．．/
    "%e2%80%a5/",  # ‥/
    "%ef%b9%92%ef%b9%92/",  # ﹒﹒/
    "..%e2%88%95",  # ..∕
    "....//",
    "..;/",
    ".../",
    "..%00/",
]
TARGETS = ["secret.txt", "secret", "etc/passwd"]
SPECIAL = [
    "/etc/passwd",
    "%2fetc%2fpasswd",
    "//etc/passwd",
    "file:///etc/passwd",
    "index%00",
    "index%00.md",
    "index.md",
    "index.",
    "index%20",
    "index/",
    "guide//install",
    "%2e",
    "%2e%2e",
    "..",
    ".",
    "a/" * 3000 + "index",
    "../" * 12 + "etc/passwd",
    "%2e%2e%2f" * 12 + "etc/passwd",
    "..%2f..%2fdev%2fapi",
    "../dev/api",
    "api",
    "C:%5cWindows%5cwin.ini",
    "%5c%5cserver%5cshare",
    "guide/install%0d%0aX-Injected:%201",
]


def article_variants(base: Path) -> list[str]:
    """Slug variants: every dot-dot form at depth 1 and 3 before each target, the specials,
    and the absolute path of the canary file itself."""
    variants = [
        prefix * depth + target
        for prefix in DOT_DOT_SLASH
        for depth in (1, 3)
        for target in TARGETS
        if depth == 1 or target == "etc/passwd"
    ]
    canary = str(base / "secret.txt")
    return [*variants, *SPECIAL, canary, canary.replace("/", "%2f")]


def asset_id_variants(secret_id: str) -> list[str]:
    """Asset-id variants: dot-dot forms before the canary names, and a well-formed id of the
    image beside the root."""
    return [
        *(prefix + name for prefix in DOT_DOT_SLASH for name in ("secret.png", "secret.txt")),
        secret_id,
        secret_id.replace(".png", ".txt"),
        "..%2f" + secret_id,
    ]
