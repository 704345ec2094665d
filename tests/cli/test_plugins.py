"""The package every client installs (issue 44): generated from one source (`cli/plugins.py`, `make plugins`), at the
package's version everywhere, with no key in any file, and the skill in the Agent Skills format."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from cursor_cloud_agents import __version__
from cursor_cloud_agents.cli import plugins
from cursor_cloud_agents.clients import COMMAND

ROOT = Path(__file__).resolve().parents[2]
SKILL = ROOT / "skills" / "delegate-to-cursor" / "SKILL.md"
SECRET_LIKE = re.compile(r"\$\{|\{env:|(?:key|sk|crsr)[_-][A-Za-z0-9]{12,}", re.IGNORECASE)
"""A placeholder a client would expand into the key, or something shaped like a key."""


def strings(value: Any) -> list[str]:
    """Every key and string value inside a parsed JSON document."""
    if isinstance(value, dict):
        pairs: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]  # parsed JSON
        return [text for key, item in pairs.items() for text in [key, *strings(item)]]
    if isinstance(value, list):
        items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]  # parsed JSON
        return [text for item in items for text in strings(item)]
    return [value] if isinstance(value, str) else []


@pytest.mark.parametrize("path", list(plugins.MANIFESTS))
def test_each_committed_manifest_is_what_make_plugins_renders_byte_for_byte(path: str) -> None:
    """A hand edit, or a change of cli/plugins.py without `make plugins`, fails here."""
    assert (ROOT / path).read_text() == plugins.rendered()[path]


@pytest.mark.parametrize("path", list(plugins.MANIFESTS))
def test_each_manifest_parses_and_names_the_packages_version_i_08(path: str) -> None:
    """I-08: one version everywhere, the package's (pyproject reads it from `__version__`)."""
    data = json.loads((ROOT / path).read_text())
    versions = [data[key] for key in ("version",) if key in data]
    versions += [package["version"] for package in data.get("packages", [])]
    if path not in ("mcp.json", "opencode.json", ".claude-plugin/marketplace.json"):  # formats without a version
        assert versions and set(versions) == {__version__}


@pytest.mark.parametrize("path", list(plugins.MANIFESTS))
def test_no_manifest_holds_a_key_or_a_placeholder_for_one_i_09(path: str) -> None:
    """I-09: the server finds its key itself (CURSOR_API_KEY or `login`): no file passes one, not even `${...}`;
    server.json only declares the variable (optional, secret) without a value."""
    data = json.loads((ROOT / path).read_text())
    assert [text for text in strings(data) if SECRET_LIKE.search(text)] == []
    named = [text for text in strings(data) if "CURSOR_API_KEY" in text]
    if path == "server.json":
        [key] = [v for v in data["packages"][0]["environmentVariables"] if v["name"] == "CURSOR_API_KEY"]
        assert key["isSecret"] is True and key["isRequired"] is False and not {"value", "default"} & set(key)
    else:
        assert named == []


def test_the_planted_key_shapes_are_caught() -> None:
    """The check above, planted: a placeholder, a key-shaped value."""
    assert SECRET_LIKE.search("${CURSOR_API_KEY}") and SECRET_LIKE.search("{env:CURSOR_API_KEY}")
    assert SECRET_LIKE.search("key_0123456789abcdef0123") and not SECRET_LIKE.search("api.cursor.com")


def test_every_client_starts_the_installed_command_with_nothing_else() -> None:
    """The same entry everywhere: the console script (pyproject's), no argument, no environment."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert plugins.SERVER == {"command": COMMAND} and COMMAND in project["scripts"]
    assert plugins.registry_server()["packages"][0]["identifier"] == project["name"] == COMMAND


def test_the_registry_entry_keeps_the_registrys_rules() -> None:
    """The MCP registry's server.json: a `namespace/name` name, a description of 100 characters at most, an
    exact package version (never `latest`), a stdio transport."""
    data = json.loads((ROOT / "server.json").read_text())
    assert re.fullmatch(r"[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+", data["name"]) and len(data["description"]) <= 100
    [package] = data["packages"]
    assert package["registryType"] == "pypi" and package["transport"] == {"type": "stdio"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", package["version"])


def test_the_codex_and_cursor_manifests_point_at_files_that_exist() -> None:
    for path in (".codex-plugin/plugin.json", ".cursor-plugin/plugin.json"):
        data = json.loads((ROOT / path).read_text())
        assert (ROOT / data["mcpServers"]).is_file() and (ROOT / data["skills"] / "delegate-to-cursor").is_dir()


def front_matter(text: str) -> dict[str, str]:
    match = re.match(r"---\n(.*?)\n---\n", text, re.DOTALL)
    assert match, "no YAML front matter"
    fields: dict[str, str] = {}
    for line in match.group(1).splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return fields


def test_the_skill_has_a_name_matching_its_folder_and_a_description_i_10() -> None:
    """I-10: Agent Skills' front matter: `name` (lowercase, hyphens, its folder's name) and a `description` of at
    most 1,024 characters; the whole skill is short, since every client reads it into the model's context."""
    text = SKILL.read_text()
    fields = front_matter(text)
    assert fields["name"] == SKILL.parent.name and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", fields["name"])
    assert 0 < len(fields["description"]) <= 1024
    assert len(text.splitlines()) <= 80
