"""Where `artifacts --get` writes: a clean name, inside its folder, a new file, never through a link.

Without `--output`, the file is named after the artifact path's last step, cleaned of terminal escapes,
hidden, bidi and control characters (`clean.for_terminal`) and of path separators; a name left empty,
`.` or `..` is refused. The folder (the working directory, or `--output`'s) is opened once, and the file is
created relative to that descriptor with O_CREAT | O_EXCL | O_NOFOLLOW: an existing file, a link in the
file's place (even a dangling one) or a folder swapped for a link after the check cannot move the bytes
elsewhere. Every refusal is a `UsageError` (exit 2, one line), and nothing is written.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from cursor_cloud_agents.terminal.clean import for_terminal
from cursor_cloud_agents.terminal.exits import UsageError

_SEPARATORS = str.maketrans("", "", "/\\")
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def file_name(artifact_path: str) -> str:
    """The name a download takes without `--output`: the path's last step, cleaned (UsageError if none is left)."""
    name = for_terminal(PurePosixPath(artifact_path).name).translate(_SEPARATORS).strip()
    if name in ("", ".", ".."):
        raise UsageError("the artifact's name leaves no usable file name; give --output FILE (nothing was sent)")
    return name


@dataclass(frozen=True)
class Destination:
    """A folder opened once and the name of the new file in it."""

    folder: Path
    name: str
    descriptor: int

    @property
    def shown(self) -> str:
        """The file as the person reads it."""
        return str(self.folder / self.name)

    def write(self, data: bytes) -> None:
        """Create the file (it must not exist, and is never a link) in the opened folder, and write `data`."""
        try:
            handle = os.open(self.name, _CREATE, 0o666, dir_fd=self.descriptor)
        except FileExistsError:
            raise UsageError(f"{self.shown} exists now; choose another --output (nothing was written)") from None
        except OSError as exc:
            raise UsageError(f"{self.shown} cannot be created ({exc.strerror}); nothing was written") from None
        with os.fdopen(handle, "wb") as file:
            file.write(data)


@contextmanager
def destination(artifact_path: str, output: str | None) -> Generator[Destination]:
    """The place a download goes, checked before anything is sent (UsageError otherwise)."""
    if output == "-":
        raise UsageError("artifacts are written to a file, never to the terminal: give --output FILE")
    folder, name = (Path(output).parent, Path(output).name) if output else (Path.cwd(), file_name(artifact_path))
    if name in ("", ".", ".."):
        raise UsageError(f"--output {output!r} names a folder, not a file")
    try:
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise UsageError(f"the folder {folder} cannot be used ({exc.strerror}); nothing was sent") from None
    try:
        place = Destination(folder, name, descriptor)
        if _exists(place):
            raise UsageError(f"{place.shown} exists; choose another --output (nothing was downloaded)")
        yield place
    finally:
        os.close(descriptor)


def _exists(place: Destination) -> bool:
    """Whether anything, a link included (even one to nowhere), has the file's name in the folder."""
    try:
        os.stat(place.name, dir_fd=place.descriptor, follow_symlinks=False)
    except FileNotFoundError:
        return False
    except OSError as exc:  # a name too long for the file system, a folder we may not read
        raise UsageError(f"{place.shown} cannot be created ({exc.strerror}); nothing was sent") from None
    return True
