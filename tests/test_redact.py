"""The redactor: secrets masked in every form they travel in (docs/architecture.md, tool contract 8)."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from cursor_cloud_agents.redact import ENCODINGS, MASK, PARTIAL_RUN, RECENT_VALUES, RedactingFormatter, Redactor

KEY_FOR_RUNS = "key_ab12cd34ef56gh78ij90kl12mn34op56qr78st90"

KEY = "key_canary_0123456789+/=abcdef ghij"


def test_every_encoding_of_a_secret_is_masked() -> None:
    """docs/reliability.md §2.5: every form the masker's list holds (raw, base64, Basic-auth, URL-encoded,
    JSON-escaped, hex), taken from that one list."""
    redactor = Redactor([KEY])
    for encoding in ENCODINGS:
        form = encoding.encode(KEY)
        assert redactor.mask(f"before {form} after") == f"before {MASK} after", encoding


def test_the_safety_page_lists_exactly_the_encodings_the_masker_masks() -> None:
    """S-14: docs/safety.md's list of encodings is the masker's (hex was masked nowhere, and listed nowhere)."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "safety.md").read_text()
    listed = re.search(r"raw and encoded \(([^)]*)\)", page)
    assert listed is not None, "docs/safety.md no longer says which encodings are masked"
    families = {encoding.family for encoding in ENCODINGS} - {"raw"}
    assert {name.strip() for name in listed.group(1).split(",")} == families


def test_authorization_credentials_are_masked_even_when_unknown() -> None:
    """docs/reliability.md SL-02: an echoed Authorization header never shows its credential."""
    redactor = Redactor()
    text = redactor.mask("headers: Authorization: Bearer sk_live_unknown_token_123 and Basic dXNlcjpwYXNzd29yZA==")
    assert "sk_live_unknown_token_123" not in text and "dXNlcjpwYXNzd29yZA==" not in text


def test_a_short_value_is_masked_only_as_a_whole_word() -> None:
    """Reference: a value shorter than 8 characters does not mangle the text around it."""
    redactor = Redactor(["en"])
    assert redactor.mask("agent en route") == f"agent {MASK} route"


def test_structures_are_masked_in_keys_and_values_without_changing_their_shape() -> None:
    """Tool contract 8: results and errors keep their JSON shape."""
    redactor = Redactor([KEY])
    data = {"message": f"echo {KEY}", "items": [KEY, 3, None], KEY: True}
    assert redactor.mask_data(data) == {"message": f"echo {MASK}", "items": [MASK, 3, None], MASK: True}


def test_recent_values_are_forgotten_after_the_bound_but_permanent_ones_never() -> None:
    """Reference: the 4096 most recent env_vars values are masked; the key stays masked."""
    redactor = Redactor([KEY])
    redactor.add("first_env_value_000", permanent=False)
    for index in range(RECENT_VALUES):
        redactor.add(f"later_env_value_{index:05d}", permanent=False)
    assert redactor.mask("first_env_value_000") == "first_env_value_000"
    assert redactor.mask(f"later_env_value_{RECENT_VALUES - 1:05d} {KEY}") == f"{MASK} {MASK}"


def test_the_log_formatter_masks_messages_arguments_and_tracebacks() -> None:
    """Reference: the formatter masks the key, including in tracebacks."""
    formatter = RedactingFormatter(Redactor([KEY]))
    try:
        raise ValueError(f"boom {KEY}")
    except ValueError:
        import sys

        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed with %s", (KEY,), sys.exc_info())
    line = formatter.format(record)
    assert KEY not in line and "boom" in line and line.count(MASK) == 2


@pytest.mark.parametrize(
    "shown",
    [KEY_FOR_RUNS[:24], KEY_FOR_RUNS[-15:], KEY_FOR_RUNS[5:17], KEY_FOR_RUNS[3:40]],
    ids=["prefix", "suffix", "middle", "long-run"],
)
def test_any_run_of_twelve_characters_of_the_key_is_masked(shown: str) -> None:
    """Issue 13: an upstream 401 quoted the first 24 characters of the key; any run of 12 or more is masked."""
    masked = Redactor([KEY_FOR_RUNS]).mask(f"Invalid API key {shown}...")
    assert not any(KEY_FOR_RUNS[i : i + PARTIAL_RUN] in masked for i in range(len(KEY_FOR_RUNS) - PARTIAL_RUN + 1))
    assert masked.startswith("Invalid API key ***")


def test_a_run_shorter_than_twelve_characters_is_left_alone() -> None:
    """Fewer than 12 characters could be anything: masking them would mangle ordinary text."""
    assert Redactor([KEY_FOR_RUNS]).mask(f"id {KEY_FOR_RUNS[:11]}") == f"id {KEY_FOR_RUNS[:11]}"


def test_a_value_cannot_forge_a_log_line_nor_hide_text_in_it() -> None:
    """Issue 13: a name holding CR/LF forged lines on stderr; NUL and U+202E were logged raw."""
    record = logging.LogRecord("t", logging.INFO, __file__, 1, "tool=%s name=%s", ("x", "a\r\nFAKE ok\x00\u202e"), None)
    line = RedactingFormatter(Redactor(), "%(message)s").format(record)
    assert line == "tool=x name=a\\r\\nFAKE ok\\x00\\u202e"


def test_a_per_call_value_running_into_a_quoted_part_of_the_key_is_masked_with_it() -> None:
    """The permanent secrets and the per-call values have a pattern each: where their matches overlap, the
    union is masked (one combined pattern left the key's run after the value, 11 characters, in clear)."""
    redactor = Redactor(["abcdefghijklmnopqrst"])
    redactor.add("prefix-abc", permanent=False)
    assert redactor.mask("got prefix-abcdefghijklmn!") == f"got {MASK}!"
    assert redactor.mask("prefix-abc then abcdefghijklm") == f"{MASK} then {MASK}"


def test_adding_a_per_call_value_keeps_every_permanent_secret_masked() -> None:
    """Adding per-call values never drops the permanent pattern (compiled once, kept apart)."""
    redactor = Redactor([KEY_FOR_RUNS])
    assert redactor.mask(KEY_FOR_RUNS[:20]) == MASK
    for index in range(3):
        redactor.add(f"per-call-value-{index}", permanent=False)
        assert redactor.mask(f"{KEY_FOR_RUNS[5:30]} per-call-value-{index}") == f"{MASK} {MASK}"
