"""What every command receives: the global options, and settings built from them once."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from askdocs.cli.logs import configure_logging
from askdocs.errors import ConfigError
from askdocs.settings import Settings, load_settings


@dataclass
class CliContext:
    data_dir: Path | None = None
    config_file: Path | None = None
    json: bool = False
    verbose: int = 0
    quiet: int = 0
    _settings: Settings | None = field(default=None, repr=False)

    def apply(self, values: Mapping[str, object]) -> None:
        """Merge options given after the subcommand (they win when given)."""
        for name in ("data_dir", "config_file"):
            value = values.get(name)
            if isinstance(value, Path):
                setattr(self, name, value)
                self._settings = None
        self.json = self.json or bool(values.get("json"))
        self.verbose += _count(values.get("verbose"))
        self.quiet += _count(values.get("quiet"))
        configure_logging(self.verbosity)

    @property
    def verbosity(self) -> int:
        """-1 or less: quiet; 0: default (info records); 1 or more: verbose."""
        return self.verbose - self.quiet

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            settings = load_settings(self.config_file, data_dir=self.data_dir)
            check_data_dir(settings.data_dir)
            self._settings = settings
        return self._settings


def check_data_dir(path: Path) -> None:
    """A usable data dir is a folder, or does not exist yet under a folder (made on first
    write). Anything else is one clear ``ConfigError`` (exit 2), not an OSError later."""
    if path.exists():
        if not path.is_dir():
            raise ConfigError(f"data dir {path} is not a folder")
        return
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise ConfigError(f"data dir {path} cannot be created: {parent} is not a folder")


def _count(value: object) -> int:
    return value if isinstance(value, int) else 0
