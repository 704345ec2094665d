"""The one guarded path for reading and opening the files the product keeps: a state file must be a regular
file, read bounded, its values checked, without ever blocking on one that is not.

A FIFO, a device or a socket where a state file belongs would hold an `open()` (or a read) until a writer
or a reader came; a folder, a symlink loop or a file without read permission fails the open; a file of
gigabytes, or one line of tens of megabytes without a newline, would be held whole in memory; JSON's
`1e999999` reads as infinity and `NaN` as a float that no JSON writer takes back. So every state file
(the store of paid acts and the previous version's files it migrates, the status line's cache, the task
records, the recordings and the traces replayed from them) is opened and read through here:

- `open_regular`: opened without blocking and checked on the descriptor itself (a file swapped in between
  a check and the open cannot slip through);
- `read_lines`: at most `max_bytes` from an offset, in chunks, a line past `max_line_bytes` skipped without
  ever being held whole (it reads as `TOO_LONG`, which no reader can parse); read from the descriptor, so a
  file renamed over the path during the read does not mix two files;
- `json_value`: JSON whose numbers are finite and of a sane size (`NaN`, `Infinity`, `1e999999` and
  integers of more than 18 digits refused as not JSON of ours).

An `OSError` from here names the problem (`not a regular file (a FIFO)`, `over 67108864 bytes`); each
reader says it on stderr with the file and what to do. Standard library only: the status line's fast path
loads it too.
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHUNK_BYTES = 64 * 1024
TOO_LONG = "\x00line too long\x00"
"""What a line past the bound reads as: not JSON, so every reader counts it as unreadable."""
MAX_INTEGER_DIGITS = 18
"""No number a state file holds (times, counts, cents) comes near; beyond it an integer is not ours."""


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


@dataclass
class Lines:
    """The lines read from a file: each decoded (invalid UTF-8 replaced), a line past the bound as `TOO_LONG`."""

    lines: list[str] = field(default_factory=list[str])
    end: int = 0
    """The offset after the last byte read (where a later read of the same file goes on)."""
    too_long: int = 0


def read_lines(path: Path, *, max_bytes: int, max_line_bytes: int) -> Lines:
    """Every line of the regular file `path`, read bounded (`lines_of`).

    Raises:
        OSError: not a regular file, cannot be opened, or over `max_bytes` (the message says which).
    """
    descriptor = open_regular(path, os.O_RDONLY)
    try:
        return lines_of(descriptor, path, offset=0, max_bytes=max_bytes, max_line_bytes=max_line_bytes)
    finally:
        os.close(descriptor)


def lines_of(descriptor: int, path: Path, *, offset: int, max_bytes: int, max_line_bytes: int) -> Lines:
    """The lines from `offset` to the end of an open regular file, reading at most `max_bytes`: memory stays
    under one chunk plus one line of `max_line_bytes`, whatever the file holds. The last line needs no newline
    (a line torn by a crash is read as it stands).

    Raises:
        OSError: the file holds more than `max_bytes` past `offset` (EFBIG), or cannot be read.
    """
    found = Lines()
    found.lines = list(_each_line(descriptor, path, offset, max_bytes, max_line_bytes, found))
    return found


def stream_lines(path: Path, *, max_bytes: int, max_line_bytes: int) -> Iterator[str]:
    """Each line of the regular file `path`, one at a time (`lines_of`'s bounds, without holding them all): for a
    file read once and folded as it goes (the previous version's files, when migrated).

    Raises:
        OSError: not a regular file, cannot be opened or read, or over `max_bytes` (raised where the read reaches
            it: a caller acts on what it gathered only once the whole file was read).
    """
    descriptor = open_regular(path, os.O_RDONLY)
    try:
        yield from _each_line(descriptor, path, 0, max_bytes, max_line_bytes, Lines())
    finally:
        os.close(descriptor)


def _each_line(
    descriptor: int, path: Path, offset: int, max_bytes: int, max_line_bytes: int, found: Lines
) -> Iterator[str]:
    """The lines of `lines_of`, yielded as they are read; `found` keeps the end offset and the lines too long."""
    pending = bytearray()
    skipping = False
    read = 0
    while chunk := os.pread(descriptor, CHUNK_BYTES, offset + read):
        read += len(chunk)
        if read > max_bytes:
            raise OSError(errno.EFBIG, f"over {max_bytes} bytes", str(path))
        start = 0
        while start <= len(chunk):
            newline = chunk.find(b"\n", start)
            piece = memoryview(chunk)[start : len(chunk) if newline < 0 else newline]
            if not skipping and len(pending) + len(piece) > max_line_bytes:
                skipping, found.too_long = True, found.too_long + 1
                pending.clear()
            if not skipping:
                pending += piece
            if newline < 0:
                break
            yield TOO_LONG if skipping else pending.decode("utf-8", "replace")
            pending.clear()
            skipping, start = False, newline + 1
    if pending or skipping:
        yield TOO_LONG if skipping else pending.decode("utf-8", "replace")
    found.end = offset + read


def _refused_constant(constant: str) -> Any:
    raise ValueError(f"{constant} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is out of range")
    return value


def _sane_integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise ValueError(f"an integer of {len(text)} digits is out of range")
    return int(text)


def json_value(text: str) -> object:
    """`text` parsed as JSON whose every number is finite and of at most 18 digits.

    Raises:
        ValueError: not JSON, or a number out of range (`NaN`, `Infinity`, `1e999999`, a 19-digit integer).
    """
    return _DECODER.decode(text)


_DECODER = json.JSONDecoder(parse_constant=_refused_constant, parse_float=_finite_float, parse_int=_sane_integer)
"""Made once: `json.loads` with hooks makes a decoder per call, a third of the time of a line of a state file."""
