"""Configuration typos are errors naming the file and line (or variable) and the closest
valid key; every settings table forbids unknown keys; messages never repeat a value."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from askdocs.config.shape import field_shapes
from askdocs.config.strict import env_problems, unknown_keys
from askdocs.errors import ConfigError
from askdocs.settings import Settings, load_settings


def _tables(model: type[BaseModel]) -> list[type[BaseModel]]:
    found = [model]
    for shape in field_shapes(model).values():
        if shape.model is not None:
            found += _tables(shape.model)
    return found


def test_every_settings_table_refuses_unknown_keys() -> None:
    tables = _tables(Settings)
    assert len(tables) > 15
    assert all(table.model_config.get("extra") == "forbid" for table in tables)


def _load(tmp_path: Path, text: str) -> str:
    config = tmp_path / "askdocs.toml"
    config.write_text(text)
    with pytest.raises(ConfigError) as raised:
        load_settings(config, data_dir=tmp_path)
    return raised.value.message


def test_a_misspelt_site_key_names_its_line_and_the_right_key(tmp_path: Path) -> None:
    text = '[[sites]]\nid = "docs"\npublik = false\n[[sites.roots]]\npath = "."\n'
    message = _load(tmp_path, text)
    assert message == (
        f'{tmp_path / "askdocs.toml"}:3: unknown key "publik" in [[sites]] #1; '
        'did you mean "public"?'
    )


def test_a_misspelt_server_key_and_an_unknown_section(tmp_path: Path) -> None:
    message = _load(tmp_path, "[server]\nprot = 8001\n\n[servr]\nhost = 'x'\n")
    file = tmp_path / "askdocs.toml"
    assert message.splitlines() == [
        f'{file}:2: unknown key "prot" in [server]; did you mean "port"?',
        f"{file}:4: unknown section [servr]; did you mean [server]?",
    ]


def test_a_root_key_inline_or_in_its_own_table(tmp_path: Path) -> None:
    text = (
        '[[sites]]\nid = "a"\nroots = [{ path = ".", audiance = "user" }]\n'
        '[[sites]]\nid = "b"\n[[sites.roots]]\npath = "."\nincldue = ["*.md"]\n'
    )
    lines = _load(tmp_path, text).splitlines()
    assert lines[0].endswith(
        ':3: unknown key "audiance" in [[sites.roots]] #1.1; did you mean "audience"?'
    ), lines
    assert lines[1].endswith(
        ':8: unknown key "incldue" in [[sites.roots]] #2.1; did you mean "include"?'
    )


def test_unknown_variables_are_refused_with_the_closest_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASKDOCS_SERVER__PROT", "8001")
    with pytest.raises(ConfigError) as raised:
        load_settings(data_dir=tmp_path)
    assert raised.value.message == (
        "ASKDOCS_SERVER__PROT: unknown setting server.prot; did you mean ASKDOCS_SERVER__PORT?"
    )


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("ASKDOCS_PROT", "1", "unknown setting prot; did you mean ASKDOCS_PORT?"),
        (
            "askdocs_servr__port",
            "1",
            "unknown setting servr.port; did you mean ASKDOCS_SERVER__PORT?",
        ),
        ("ASKDOCS_SERVER__PORT__X", "1", "server.port has no sub-settings"),
        ("ASKDOCS_ZZZ", "1", "unknown setting zzz"),
        (
            "ASKDOCS_SITES",
            '[{"id": "a", "roots": [], "publc": true}]',
            'unknown key "publc" in [[sites]] #1; did you mean "public"?',
        ),
        (
            "ASKDOCS_AUTH__OIDC",
            '{"isuer": "https://id.example"}',
            'unknown key "isuer" in [auth.oidc]; did you mean "issuer"?',
        ),
    ],
)
def test_variable_problems(name: str, value: str, expected: str) -> None:
    [problem] = env_problems({name: value}, Settings)
    assert (problem.where, problem.what) == (name, expected)


def test_known_variables_and_free_maps_are_accepted() -> None:
    env = {
        "ASKDOCS_SERVER__PORT": "1",
        "ASKDOCS_DATA_DIR": "/x",
        "ASKDOCS_MCP_TOKEN": "t",
        "ASKDOCS_PORT": "8000",
        "ASKDOCS_AUTH__OIDC__ISSUER": "https://id.example",
        "OTHER_VARIABLE": "1",
    }
    assert env_problems(env, Settings) == []
    values = {
        "sites": [{"id": "a", "roots": [{"path": ".", "page_kinds": {"news/**": "changelog"}}]}]
    }
    assert list(unknown_keys(values, Settings)) == []


def test_an_invalid_value_is_one_line_at_its_place_without_the_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASKDOCS_REDIS_URL", "5")
    message = _load(
        tmp_path, '[server]\nport = 99999\n[auth]\npublic_url = ["postgres://u:hunter2@h"]\n'
    )
    file = tmp_path / "askdocs.toml"
    assert message.splitlines() == [
        f"{file}:2: server.port: Input should be less than or equal to 65535",
        f"{file}:4: auth.public_url: Input should be a valid string",
    ]
    assert "hunter2" not in message


def test_invalid_toml_names_its_line(tmp_path: Path) -> None:
    message = _load(tmp_path, "[server]\nport = \n")
    assert message.startswith(f"{tmp_path / 'askdocs.toml'}:2: not valid TOML: ")
