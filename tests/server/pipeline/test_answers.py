"""The slicing helpers: JSON string costs counted exactly, and slices that never overrun their room."""

from __future__ import annotations

import json

import pytest

from cursor_cloud_agents.server.pipeline.answers import char_cost, fit_chars, size

SAMPLES = ["plain", 'quote " and \\ backslash', "tab\tnew\nline\r", "été 漢字 🚀", "\x00\x01\x1f\x7f", "\u2028\u2029"]


@pytest.mark.parametrize("text", SAMPLES)
def test_char_costs_add_up_to_the_json_encoding(text: str) -> None:
    """The room computation counts each character as the toolkit's compact UTF-8 JSON does."""
    encoded = json.dumps(text, ensure_ascii=False).encode()
    assert sum(char_cost(char) for char in text) == len(encoded) - 2


@pytest.mark.parametrize("room", [0, 1, 5, 17, 100])
def test_fit_chars_never_overruns_its_room(room: int) -> None:
    """A slice of `fit_chars` characters always encodes within `room` bytes, and one more would not."""
    text = "".join(SAMPLES) * 3
    taken = fit_chars(text, 2, 1000, room)
    assert len(json.dumps(text[2 : 2 + taken], ensure_ascii=False).encode()) - 2 <= room
    if 2 + taken < len(text):
        assert len(json.dumps(text[2 : 3 + taken], ensure_ascii=False).encode()) - 2 > room


def test_size_of_drops_nulls_as_the_toolkit_does() -> None:
    """None values are not sent, so they are not counted."""
    assert size({"a": None, "b": [1, {"c": None}]}) == len(b'{"b":[1,{}]}')
