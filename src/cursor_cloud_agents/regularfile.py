"""Opening a state file that must be a regular file, without ever blocking on one that is not.

A FIFO, a device or a socket where a state file belongs would hold an `open()` (or a read) until a writer
or a reader came: the store of paid acts, the recording folder and the status line's cache all open their
files through here. Standard library only: the status line's fast path loads it too.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


def open_regular(path: Path, flags: int) -> int:
    """A descriptor of `path`, refused unless it is a regular file (checked on the descriptor itself).

    Opened without blocking: a FIFO or a device where the file belongs is refused at once, instead of
    waiting for a writer that never comes."""
    descriptor = os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC, 0o600)
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, f"not a regular file ({kind_of(mode)})", str(path))
        os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def kind_of(mode: int) -> str:
    kinds = {stat.S_ISFIFO: "a FIFO", stat.S_ISCHR: "a device", stat.S_ISBLK: "a device", stat.S_ISSOCK: "a socket"}
    return next((name for test, name in kinds.items() if test(mode)), "a folder" if stat.S_ISDIR(mode) else "other")
