"""Where `login` keeps the key and how every face finds it (issue 44): `keystore`, and `Settings.from_env`
looking there when `CURSOR_API_KEY` is not set."""

from __future__ import annotations

import os
import stat
from collections.abc import Generator
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.errors import KeyringLocked, PasswordDeleteError

from cursor_cloud_agents import keystore
from cursor_cloud_agents.config import Settings

KEY = "key_0123456789abcdef0123456789abcdef"


class MemoryKeychain(KeyringBackend):
    """A keychain of the test's own (keyring's backend interface), so no test touches this machine's."""

    priority = 1  # pyright: ignore[reportAssignmentType, reportIncompatibleMethodOverride]  # keyring's class property

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.entries.pop((service, username), None) is None:
            raise PasswordDeleteError("none")


@pytest.fixture
def keychain() -> Generator[MemoryKeychain, None, None]:
    before = keyring.get_keyring()
    chain = MemoryKeychain()
    keyring.set_keyring(chain)
    yield chain
    keyring.set_keyring(before)


def home(tmp_path: Path) -> dict[str, str]:
    return {"HOME": str(tmp_path)}


def test_without_a_keychain_the_key_goes_to_a_file_only_its_owner_reads_i_01(tmp_path: Path) -> None:
    """I-01: headless Linux (keyring's fail backend): the file is 0600 in a 0700 folder, under ~/.config."""
    os.umask(0o022)
    place = keystore.save(home(tmp_path), KEY)
    path = tmp_path / ".config" / "cursor-cloud-agents" / "api-key"
    assert str(path) in place and path.read_text() == KEY + "\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert keystore.find(home(tmp_path)) == keystore.StoredKey(KEY, f"the file {path}")
    assert list(path.parent.iterdir()) == [path]  # no temporary left beside it


def test_xdg_config_home_names_the_folder_when_absolute_only(tmp_path: Path) -> None:
    """The XDG rule: a relative XDG_CONFIG_HOME is ignored; a mapping naming no home has no stored key."""
    assert keystore.config_folder({"XDG_CONFIG_HOME": str(tmp_path), "HOME": "/x"}) == tmp_path / "cursor-cloud-agents"
    assert keystore.config_folder({"XDG_CONFIG_HOME": "rel", "HOME": "/x"}) == Path("/x/.config/cursor-cloud-agents")
    assert keystore.config_folder({}) is None and keystore.find({}) is None


def test_a_key_file_others_can_read_is_refused_with_the_fix_i_02(tmp_path: Path) -> None:
    """I-02: a key file made readable by the group (a copy, a backup restored) is never used."""
    keystore.save(home(tmp_path), KEY)
    path = keystore.key_file(home(tmp_path))
    assert path is not None
    path.chmod(0o640)
    with pytest.raises(keystore.KeyStoreError, match="chmod 600"):
        keystore.find(home(tmp_path))
    settings = Settings.from_env(home(tmp_path))
    assert settings.api_key is None and settings.key_problem is not None and "chmod 600" in settings.key_problem
    assert KEY not in settings.key_problem


def test_a_key_file_that_is_a_symbolic_link_is_refused_i_03(tmp_path: Path) -> None:
    """I-03: a link planted where the key file belongs (to another file of the person's) is not followed."""
    folder = tmp_path / ".config" / "cursor-cloud-agents"
    folder.mkdir(parents=True)
    target = tmp_path / "elsewhere"
    target.write_text(KEY)
    target.chmod(0o600)
    (folder / "api-key").symlink_to(target)
    with pytest.raises(keystore.KeyStoreError, match="symbolic link"):
        keystore.find(home(tmp_path))


def test_the_variable_comes_first_then_the_stored_key_and_the_source_is_named_i_04(tmp_path: Path) -> None:
    """I-04: CURSOR_API_KEY wins over the stored key; unset, empty or a placeholder, the stored one is used."""
    keystore.save(home(tmp_path), KEY)
    by_variable = Settings.from_env(home(tmp_path) | {"CURSOR_API_KEY": "key_from_the_variable"})
    assert by_variable.api_key is not None and by_variable.api_key.reveal() == "key_from_the_variable"
    assert by_variable.key_source == "CURSOR_API_KEY"
    for given in ({}, {"CURSOR_API_KEY": ""}, {"CURSOR_API_KEY": "${CURSOR_API_KEY}"}):
        settings = Settings.from_env(home(tmp_path) | given)
        assert settings.api_key is not None and settings.api_key.reveal() == KEY and settings.key_problem is None
        assert settings.key_source is not None and settings.key_source.startswith("stored in the file")


def test_a_malformed_variable_is_reported_not_replaced_by_the_stored_key(tmp_path: Path) -> None:
    """A pasted `Bearer ` prefix is a key the person meant to use: say so rather than quietly use another."""
    keystore.save(home(tmp_path), KEY)
    settings = Settings.from_env(home(tmp_path) | {"CURSOR_API_KEY": "Bearer key_1"})
    assert settings.api_key is None and settings.key_problem is not None and "Bearer" in settings.key_problem


def test_simulated_mode_never_reads_the_stored_key(tmp_path: Path) -> None:
    """CURSOR_MCP_FIXTURE=1 (and the SDK's simulated=True) takes no real key, stored or not."""
    keystore.save(home(tmp_path), KEY)
    settings = Settings.from_env(home(tmp_path) | {"CURSOR_MCP_FIXTURE": "1"})
    assert settings.simulated and settings.api_key is None and settings.key_source is None


def test_no_key_anywhere_says_how_to_log_in(tmp_path: Path) -> None:
    """The problem as the model reads it (a call's CONFIGURATION_MISSING) and as the person does (doctor's FAIL
    line, a command's refusal) names `login`; the settings say only what is missing, each face where to fix it."""
    from cursor_cloud_agents.core import Advice, Code, Step, ToolFailure
    from cursor_cloud_agents.server.pipeline.words import for_model
    from cursor_cloud_agents.terminal.words import key_problem

    problem = Settings.from_env(home(tmp_path)).key_problem
    assert problem == "CURSOR_API_KEY is not set and no key is stored"
    to_model = for_model(ToolFailure(Code.CONFIGURATION_MISSING, problem, advice=Advice(Step.SET_KEY)))
    assert "cursor-cloud-agents login" in to_model and "cursor-cloud-agents login" in key_problem(problem)


def test_with_a_keychain_the_key_goes_there_and_no_file_is_left_i_05(tmp_path: Path, keychain: MemoryKeychain) -> None:
    """I-05: a usable keychain takes the key, and a file left by an earlier headless login is removed, so the
    two places never disagree; logout empties both."""
    path = keystore.key_file(home(tmp_path))
    assert path is not None
    path.parent.mkdir(parents=True)
    path.write_text("old_key\n")
    path.chmod(0o600)
    place = keystore.save(home(tmp_path), KEY)
    assert "keychain" in place and not path.exists()
    assert keychain.entries == {(keystore.SERVICE, keystore.ACCOUNT): KEY}
    found = keystore.find(home(tmp_path))
    assert found is not None and found.value == KEY and "keychain" in found.place
    assert keystore.remove(home(tmp_path)) == [place] and keychain.entries == {}
    assert keystore.find(home(tmp_path)) is None and keystore.remove(home(tmp_path)) == []


def test_a_keychain_that_fails_to_answer_is_reported_not_taken_for_no_key(
    tmp_path: Path, keychain: MemoryKeychain, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A locked keychain: the problem says so, instead of claiming no key was ever stored."""

    def locked(service: str, username: str) -> str | None:
        raise KeyringLocked("locked")

    monkeypatch.setattr(keychain, "get_password", locked)
    settings = Settings.from_env(home(tmp_path))
    assert settings.key_problem is not None and "keychain could not be read (KeyringLocked)" in settings.key_problem
