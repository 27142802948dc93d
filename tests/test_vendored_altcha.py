"""askdocs serves the ALTCHA widget itself, from a committed copy of the npm package pinned
in tests/node/package.json (scripts/vendor-altcha): the copy must be that package's files,
byte for byte, with its licence, and ship in the package data the wheel carries."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NODE = REPO / "tests" / "node"
FILES = {
    "altcha.js": "dist/external/altcha.min.js",
    "altcha.css": "dist/external/altcha.css",
    "pbkdf2.js": "dist/workers/pbkdf2.js",
    "LICENSE.txt": "LICENSE.txt",
}


def vendored() -> Path:
    return Path(str(resources.files("askdocs.web").joinpath("static/vendor/altcha")))


def test_the_vendored_widget_is_the_pinned_npm_package() -> None:
    pinned = json.loads((NODE / "package.json").read_text())["dependencies"]["altcha"]
    package = NODE / "node_modules" / "altcha"
    assert package.is_dir(), "run scripts/install-test-deps (tests/node packages)"
    assert json.loads((package / "package.json").read_text())["version"] == pinned
    assert (vendored() / "VERSION.txt").read_text().strip() == pinned
    for name, source in FILES.items():
        assert (vendored() / name).read_bytes() == (package / source).read_bytes(), name


def test_the_licence_travels_with_the_widget() -> None:
    assert "MIT License" in (vendored() / "LICENSE.txt").read_text()
