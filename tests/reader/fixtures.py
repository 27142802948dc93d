"""A small documentation tree with images, translations, an administrator guide, a
developer root and a canary file beside the docs root (never to be served)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from askdocs.settings import RootConfig, Settings, SiteConfig

CANARY = "CANARY-7f3a9c-outside-the-docs-root"
SITE_ID = "fx"


def png_bytes(width: int = 2, height: int = 2, seed: int = 0) -> bytes:
    """A valid PNG (``seed`` changes the pixels, so the bytes and the hash)."""
    raw = b"".join(b"\x00" + bytes([seed % 256, 80, 160]) * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9"
GIF = (
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00"
    b"\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)
WEBP = (
    b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00/\x00\x00\x00"
    b"\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"
)
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>'

PAGES: dict[str, str] = {
    "index.md": """---
title: Welcome to Fixture
order: 0
---

# Welcome to Fixture

Start with [installing](guide/install.md) or read about
[configuration](guide/configure.md#cache-settings).

![The Fixture logo](img/logo.png)

## Images that are refused

![Fake PNG](img/fake.png) ![Vector](img/vector.svg) ![Remote](https://tracker.example/pixel.png?d=secret)
![](img/logo.png) ![Too big](img/big.png) ![Outside](../secret.png) ![Linked](img/link.png)

## Other images

![A photo](img/photo.jpg "A title") ![An animation](img/anim.gif) ![A webp](img/pic.webp)

## Links

[Unknown page](guide/missing.md), [a folder](guide/), [outside](../secret.txt),
[developer page](../dev/api.md), [external](https://example.com/x), [mail](mailto:a@example.com),
[anchor here](#links), [bad anchor](#nope), [by slug](/docs/guide/configure),
[script](javascript:alert(1)), [data](data:text/html,<b>x</b>).
""",
    "guide/install.md": """---
title: Installing
order: 1
related: [guide/configure, admin/backup]
---

# Installing

## Install with pip {#pip}

Run `pip install fixture`.

## Install from source

Clone and install. Then [configure it](configure.md).
""",
    "guide/install.cs.md": """---
title: Instalace
---

# Instalace

## Instalace pomocí pip {#pip}

Spusťte `pip install fixture`.
""",
    "guide/configure.md": """---
title: Configuring
order: 2
---

# Configuring

## Cache settings

Set `cache = true`.

| key | default |
|:----|--------:|
| cache | `false` |
""",
    "admin/backup.md": """---
title: Backing up
admin: true
---

# Backing up

## Back up the data folder

Copy the data folder while the server is stopped.
""",
}
DEV_PAGES = {"api.md": "---\ntitle: Internal API\n---\n\n# Internal API\n\nSECRET-DEV-NOTE\n"}


def build_tree(base: Path) -> Path:
    """Write the tree under ``base``; returns the docs root (``base/docs``)."""
    docs = base / "docs"
    for rel, text in PAGES.items():
        path = docs / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    images = docs / "img"
    images.mkdir(parents=True, exist_ok=True)
    (images / "logo.png").write_bytes(png_bytes())
    (images / "fake.png").write_bytes(JPEG)
    (images / "vector.svg").write_bytes(SVG)
    (images / "big.png").write_bytes(png_bytes() + b"\x00" * (11 * 1024 * 1024))
    (images / "photo.jpg").write_bytes(JPEG)
    (images / "anim.gif").write_bytes(GIF)
    (images / "pic.webp").write_bytes(WEBP)
    (base / "secret.txt").write_text(CANARY, encoding="utf-8")
    (base / "secret.png").write_bytes(png_bytes(seed=99) + CANARY.encode())
    (images / "link.png").symlink_to(base / "secret.png")
    dev = base / "dev"
    dev.mkdir(parents=True, exist_ok=True)
    for rel, text in DEV_PAGES.items():
        (dev / rel).write_text(text, encoding="utf-8")
    return docs


def site_config(base: Path) -> SiteConfig:
    return SiteConfig(
        id=SITE_ID,
        name="Fixture",
        roots=[
            RootConfig(path=base / "docs", audience="user"),
            RootConfig(path=base / "dev", audience="developer"),
        ],
    )


def fixture_settings(base: Path, **extra: object) -> Settings:
    values: dict[str, object] = {
        "data_dir": base / "data",
        "sites": [site_config(base)],
        "server": {"index_in_background": False},
        "reader": {"render_timeout_seconds": 5.0, "render_workers": 1},
        **extra,
    }
    return Settings.model_validate(values)
