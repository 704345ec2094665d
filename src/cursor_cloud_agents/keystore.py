"""Where `cursor-cloud-agents login` keeps the API key, and how every face finds it again (issue 44).

A client started from a desktop launcher does not inherit the shell's variables, and the portable plugin
formats forbid a secret in a file (`mcp.json`), so the server must find its key itself. `login` stores it
once; `config.py` asks `find` for it whenever `CURSOR_API_KEY` is not set (the variable always wins), so the
server, the terminal commands, the SDK, `verify` and `doctor` find it the same way, in one place.

Two places, one used at a time:
- the system keychain, through `keyring` (macOS Keychain, Windows Credential Locker, the Secret Service of a
  Linux desktop), imported only when it is needed (it costs about 0.1 s to load);
- where keyring has no usable keychain (its `fail` or `null` backend: a headless Linux), the file
  `api-key` in the configuration folder, `$XDG_CONFIG_HOME/cursor-cloud-agents/` (an absolute
  XDG_CONFIG_HOME) or else `~/.config/cursor-cloud-agents/`: the folder 0700, the file 0600, written
  whole or not at all. A key file that others could read, or that is not a regular file of this user's, is
  refused with what to do, never used.

The file is looked at first (it costs nothing), then the keychain. `login` stores into one place and
clears the other, so the two never disagree. The locations come from the mapping handed in (never from
the process environment): a mapping that names no home (`HOME`, `XDG_CONFIG_HOME`) has no stored key,
which keeps `Settings.from_env({...})` a pure function in tests.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cursor_cloud_agents.guards.regularfile import open_regular

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

SERVICE = "cursor-cloud-agents"
"""The keychain entry's service name."""
ACCOUNT = "api-key"
"""The keychain entry's user name: one key per person."""
FOLDER_NAME = "cursor-cloud-agents"
FILE_NAME = "api-key"
MAX_KEY_BYTES = 4096
"""Far above any Cursor key: a bigger file is not a key of ours."""


class KeyStoreError(Exception):
    """The stored key cannot be used or kept; the message says where and what to do (never the key)."""


@dataclass(frozen=True)
class StoredKey:
    """A key `login` stored, and where it was found (what `doctor` shows)."""

    value: str
    place: str


def config_folder(env: Mapping[str, str]) -> Path | None:
    """`$XDG_CONFIG_HOME/cursor-cloud-agents` (absolute only, as the XDG spec says), else
    `$HOME/.config/cursor-cloud-agents`; None when the mapping names neither."""
    xdg = env.get("XDG_CONFIG_HOME") or ""
    if Path(xdg).is_absolute():
        return Path(xdg) / FOLDER_NAME
    home = env.get("HOME") or ""
    if Path(home).is_absolute():
        return Path(home) / ".config" / FOLDER_NAME
    return None


def key_file(env: Mapping[str, str]) -> Path | None:
    """Where the key is kept when there is no keychain."""
    folder = config_folder(env)
    return None if folder is None else folder / FILE_NAME


def find(env: Mapping[str, str]) -> StoredKey | None:
    """The key `login` stored, or None.

    Raises:
        KeyStoreError: a key file is there but unsafe or unreadable, or the keychain failed to answer.
    """
    path = key_file(env)
    if path is None:
        return None
    value = _read_file(path)
    if value is not None:
        return StoredKey(value, f"the file {path}")
    keychain = _keychain()
    if keychain is None:
        return None
    try:
        value = keychain.get_password(SERVICE, ACCOUNT)
    except Exception as exc:  # keyring's backends raise their own errors (a locked keychain, D-Bus gone)
        raise KeyStoreError(
            f"the system keychain could not be read ({type(exc).__name__}): unlock it, or set CURSOR_API_KEY"
        ) from None
    return StoredKey(value.strip(), _keychain_place(keychain)) if value and value.strip() else None


def save(env: Mapping[str, str], key: str) -> str:
    """Store `key` in the keychain, or in the key file where there is none; clear the other place.
    Returns where it went (for the person to read).

    Raises:
        KeyStoreError: nowhere to keep it (no home, or the folder cannot be written).
    """
    path = key_file(env)
    if path is None:
        raise KeyStoreError("no home folder to keep the key in: set HOME (or XDG_CONFIG_HOME)")
    keychain = _keychain()
    if keychain is not None:
        try:
            keychain.set_password(SERVICE, ACCOUNT, key)  # pyright: ignore[reportUnknownMemberType]  # keyring's wrapper
        except Exception:  # a keychain that refuses (locked, no agent): the file is the fallback
            keychain = None
    if keychain is not None:
        _remove_file(path)
        return _keychain_place(keychain)
    _write_file(path, key)
    return f"the file {path} (readable by you only)"


def remove(env: Mapping[str, str]) -> list[str]:
    """Remove the stored key from both places; returns the places it was removed from."""
    removed: list[str] = []
    path = key_file(env)
    if path is None:
        return removed
    if _remove_file(path):
        removed.append(f"the file {path}")
    keychain = _keychain()
    if keychain is not None:
        with contextlib.suppress(Exception):  # keyring raises PasswordDeleteError when there is nothing
            keychain.delete_password(SERVICE, ACCOUNT)
            removed.append(_keychain_place(keychain))
    return removed


def _keychain() -> KeyringBackend | None:
    """keyring's backend, or None where it has no usable keychain (its fail or null backend)."""
    try:
        import keyring  # imported here: only a process without CURSOR_API_KEY or a file pays for it
        from keyring.backends import fail, null
    except ImportError:  # pragma: no cover  # a dependency of the package; a broken install uses the file
        return None
    backend = keyring.get_keyring()
    return None if isinstance(backend, fail.Keyring | null.Keyring) else backend


def _keychain_place(backend: KeyringBackend) -> str:
    return f"the system keychain ({type(backend).__module__.rsplit('.', 1)[-1]})"


def _read_file(path: Path) -> str | None:
    try:
        descriptor = open_regular(path, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as exc:
        why = "a symbolic link" if exc.errno == errno.ELOOP else exc.strerror or type(exc).__name__
        raise KeyStoreError(f"the key file {path} cannot be used ({why}): remove it and run login again") from None
    try:
        facts = os.fstat(descriptor)
        if facts.st_uid != os.getuid():
            raise KeyStoreError(f"the key file {path} belongs to another user: remove it and run login again")
        if stat.S_IMODE(facts.st_mode) & 0o077:
            raise KeyStoreError(f"the key file {path} can be read by others: run `chmod 600 {path}`, then retry")
        data = os.read(descriptor, MAX_KEY_BYTES + 1)
    finally:
        os.close(descriptor)
    value = data.decode("utf-8", "replace").strip()
    if not value or len(data) > MAX_KEY_BYTES:
        raise KeyStoreError(f"the key file {path} holds no key: run `cursor-cloud-agents login` again")
    return value


def _write_file(path: Path, key: str) -> None:
    """Write the key whole or not at all: a temporary file of mode 0600 in the folder, then renamed over."""
    folder = path.parent
    temporary = folder / f".{FILE_NAME}.{os.getpid()}.tmp"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(folder, 0o700)  # a folder made earlier with the umask's mode: only its owner may list it
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()  # left by a process of the same id that died mid-write
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            os.write(descriptor, key.encode() + b"\n")
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise KeyStoreError(f"the key could not be written to {folder} ({exc.strerror}): make it writable") from None


def _remove_file(path: Path) -> bool:
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise KeyStoreError(f"the key file {path} could not be removed ({exc.strerror})") from None
    return True
