from __future__ import annotations

from pathlib import Path

import pytest

from askdocs.errors import ConfigError
from askdocs.settings import load_settings


def test_file_then_env_then_arguments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "askdocs.toml"
    config.write_text('redis_url = "redis://file"\n[ask]\ndaily_visitor_limit = 3\n')
    monkeypatch.setenv("ASKDOCS_REDIS_URL", "redis://env")
    settings = load_settings(config, data_dir=tmp_path)
    assert settings.redis_url == "redis://env"
    assert settings.ask.daily_visitor_limit == 3
    assert settings.data_dir == tmp_path


def test_missing_config_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "nope.toml")


def test_unknown_key_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "askdocs.toml"
    config.write_text("no_such_setting = 1\n")
    with pytest.raises(ConfigError, match="no_such_setting"):
        load_settings(config)


def test_relative_root_paths_are_relative_to_the_config_file(tmp_path: Path) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    config = folder / "askdocs.toml"
    config.write_text(
        '[[sites]]\nid = "a"\n[[sites.roots]]\npath = "docs"\n'
        '[[sites.roots]]\npath = "/srv/abs"\naudience = "developer"\n'
    )
    [site] = load_settings(config).sites
    assert [root.path for root in site.roots] == [folder / "docs", Path("/srv/abs")]
