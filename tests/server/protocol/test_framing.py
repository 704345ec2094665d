"""The stdio wire's lines (issue 23): split on CR, LF and CRLF however the bytes arrive, an over-long line kept as
its two ends. `read_lines` is called directly on a stream that trickles."""

from __future__ import annotations

import io

import pytest

from cursor_cloud_agents.server.protocol.framing import read_lines


class Trickle(io.RawIOBase):
    """A stream that gives at most `step` bytes per read, as a pipe written in small pieces does."""

    def __init__(self, data: bytes, step: int) -> None:
        self._data = data
        self._step = step

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1, /) -> bytes:
        piece, self._data = self._data[: min(size, self._step)], self._data[min(size, self._step) :]
        return piece


def lines_of(data: bytes, *, step: int = 1 << 20, max_bytes: int = 1 << 20, keep: int = 16) -> list[tuple[str, bytes]]:
    delivered: list[tuple[str, bytes]] = []
    read_lines(Trickle(data, step), delivered.append, max_bytes=max_bytes, keep=keep)
    return delivered


@pytest.mark.parametrize("step", [1, 2, 3, 7, 1 << 20], ids=["1-byte", "2-bytes", "3-bytes", "7-bytes", "whole"])
def test_cr_lf_and_crlf_each_end_a_line_however_the_bytes_arrive(step: int) -> None:
    """B-11: a bare CR separates two messages as LF and CRLF do (the SDK's own reader splits on all three;
    two pings separated by a CR were both lost), whatever the reads cut, and empty lines give nothing."""
    data = b"one\rtwo\nthree\r\nfour\r\r\n\nfive"
    assert lines_of(data, step=step) == [
        ("line", b"one"),
        ("line", b"two"),
        ("line", b"three"),
        ("line", b"four"),
        ("line", b"five"),
        ("eof", b""),
    ]


@pytest.mark.parametrize("step", [1, 5, 1 << 20])
def test_a_line_over_the_cap_is_delivered_as_its_two_ends_whatever_ends_it(step: int) -> None:
    """B-04 with a CR: an over-long line is cut at a CR as at an LF, kept as its head and tail only."""
    data = b"H" * 8 + b"m" * 100 + b"T" * 8 + b"\rnext\n"
    assert lines_of(data, step=step, max_bytes=50, keep=8) == [
        ("long", b"H" * 8 + b"\n" + b"T" * 8),
        ("line", b"next"),
        ("eof", b""),
    ]
