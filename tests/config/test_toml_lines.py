"""Where each key of a TOML file is written (config/toml_lines.py, pure)."""

from __future__ import annotations

import tomllib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from askdocs.config.toml_lines import key_lines, line_of

TEXT = """\
data_dir = "/srv/askdocs"   # top level

[server]
port = 8001
auth.public_url = "x"

[[sites]]
id = "docs"
roots = [{ path = "docs", audience = "user" }]
hostnames = [
  "a.example",
  "b.example",
]
public = false

[[sites]]
id = "api"

[[sites.roots]]
path = "api"

[[sites.roots]]
"path" = 'more'
description = \"\"\"
public = true
\"\"\"
ask_enabled = true
"""


def test_tables_keys_and_arrays_of_tables_have_their_lines() -> None:
    lines = key_lines(TEXT)
    assert lines[("data_dir",)] == 1
    assert lines[("server",)] == 3
    assert lines[("server", "port")] == 4
    assert lines[("server", "auth", "public_url")] == 5
    assert lines[("sites", 0)] == 7
    assert lines[("sites", 0, "roots", 0, "audience")] == 9
    assert lines[("sites", 0, "public")] == 14
    assert lines[("sites", 1, "id")] == 17
    assert lines[("sites", 1, "roots", 0, "path")] == 20
    assert lines[("sites", 1, "roots", 1, "path")] == 23


def test_lines_inside_multi_line_values_are_not_keys() -> None:
    lines = key_lines(TEXT)
    assert ("sites", 0, "a.example") not in lines
    assert ("sites", 1, "roots", 1, "public") not in lines  # inside the """ string
    assert lines[("sites", 1, "roots", 1, "ask_enabled")] == 27


def test_an_unplaced_path_answers_its_closest_parent() -> None:
    lines = key_lines(TEXT)
    assert line_of(lines, ("sites", 0, "roots", 0, "publik")) == 9
    assert line_of(lines, ("nowhere",)) is None


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(
        st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True),
        st.dictionaries(
            st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True), st.integers(), max_size=4
        ),
        max_size=4,
    )
)
def test_every_key_of_a_generated_file_is_found_on_its_own_line(
    tables: dict[str, dict[str, int]],
) -> None:
    text = "".join(
        f"[{name}]\n" + "".join(f"{key} = {value}\n" for key, value in keys.items())
        for name, keys in tables.items()
    )
    assert tomllib.loads(text) == tables
    lines = key_lines(text)
    rows = text.splitlines()
    for name, keys in tables.items():
        assert rows[lines[(name,)] - 1] == f"[{name}]"
        for key in keys:
            assert rows[lines[(name, key)] - 1].startswith(f"{key} = ")
