"""What every command receives: the global options, and settings built from them once."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from askdocs.settings import Settings, load_settings


@dataclass
class CliContext:
    data_dir: Path | None = None
    config_file: Path | None = None
    _settings: Settings | None = field(default=None, repr=False)

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            self._settings = load_settings(self.config_file, data_dir=self.data_dir)
        return self._settings
