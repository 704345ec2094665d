"""The redactor: secrets masked in every form they travel in (ARCHITECTURE.md, tool contract 8)."""

from __future__ import annotations

import base64
import json
import logging
from urllib.parse import quote, quote_plus

from cursor_cloud_agents.redact import MASK, RECENT_VALUES, RedactingFormatter, Redactor

KEY = "key_canary_0123456789+/=abcdef ghij"


def forms(value: str) -> list[str]:
    return [
        value,
        base64.b64encode(value.encode()).decode(),
        base64.b64encode(f"{value}:".encode()).decode(),
        quote(value, safe=""),
        quote_plus(value),
        json.dumps(value)[1:-1],
    ]


def test_every_encoding_of_a_secret_is_masked() -> None:
    """RELIABILITY §2.5: raw, base64, Basic-auth, URL-encoded and JSON-escaped forms."""
    redactor = Redactor([KEY])
    for form in forms(KEY):
        assert redactor.mask(f"before {form} after") == f"before {MASK} after", form


def test_authorization_credentials_are_masked_even_when_unknown() -> None:
    """RELIABILITY SL-02: an echoed Authorization header never shows its credential."""
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
