"""A recording keeps every exchange, and no secret, whatever characters the text holds.

SL-05 (each registered secret masked everywhere it is written), in issue 15's recordings.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cursor_cloud_agents.api.record import Exchange, Recorder
from cursor_cloud_agents.redact import ENCODINGS, MASK, Encoding, Redactor

ENV_VALUE = 'pässwörd"Zanzibar-77'
"""A per-call env_vars value with a non-ASCII letter and a quote: JSON with ensure_ascii=False writes it as
`pässwörd\\"Zanzibar-77`, neither its raw form nor its ASCII-escaped JSON form."""


def error_quoting(value: str) -> Exchange:
    body = json.dumps({"error": {"code": "invalid_env", "message": f"bad value {value}"}}).encode()
    return Exchange("POST", "/v1/agents", {}, None, 400, {"content-type": "application/json"}, body)


def recorded(directory: Path) -> str:
    return "".join(path.read_text(encoding="utf-8") for path in sorted(directory.glob("trace-*.jsonl")))


def test_a_per_call_value_with_a_quote_and_a_non_ascii_letter_is_masked_in_the_recorded_line(tmp_path: Path) -> None:
    """An error that quotes an env_vars value is recorded with the value masked, as the JSON line spells it."""
    redactor = Redactor()
    redactor.add(ENV_VALUE, permanent=False)
    Recorder(tmp_path, mask=redactor.mask).exchange(error_quoting(ENV_VALUE))
    line = recorded(tmp_path)
    assert "Zanzibar" not in line and MASK in line
    assert json.loads(line)["body"]["json"]["error"]["message"] == f"bad value {MASK}"


@pytest.mark.parametrize("permanent", [True, False], ids=["key-or-forwarded", "per-call"])
def test_the_redactor_masks_the_non_ascii_json_spelling_of_a_secret_whole(permanent: bool) -> None:
    """The form `json.dumps(..., ensure_ascii=False)` writes (recordings, terminal JSON) is masked whole."""
    redactor = Redactor()
    redactor.add(ENV_VALUE, permanent=permanent)
    masked = redactor.mask(json.dumps({"said": ENV_VALUE}, ensure_ascii=False))
    assert masked == json.dumps({"said": MASK})


def test_an_answer_holding_a_lone_surrogate_is_still_recorded_as_json_that_reads_back(tmp_path: Path) -> None:
    """A JSON escape can carry a lone surrogate (an agent's text, kept with keep_text): the exchange is written,
    not dropped with an encoding error, and the line reads back to the same text."""
    body = b'{"id":"run-1","result":"half \\ud83d of a pair"}'
    exchange = Exchange("GET", "/v1/agents/bc-1/runs/run-1", {}, None, 200, {}, body)
    Recorder(tmp_path, mask=Redactor().mask, keep_text=True).exchange(exchange)
    lines = recorded(tmp_path).splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0])["body"]["json"]["result"] == "half \ud83d of a pair"


KEY = "key_canary_0123456789+/=abcdef ghij"
FORWARDED = "fwd-value/with+plus=and space"


@pytest.mark.parametrize("encoding", ENCODINGS, ids=lambda encoding: f"{encoding.family}-{encoding.variant}")
@pytest.mark.parametrize(
    ("secret", "permanent"),
    [(KEY, True), (FORWARDED, True), (ENV_VALUE, False)],
    ids=["key", "forwarded", "env-vars"],
)
def test_a_body_echoing_a_secret_in_any_listed_encoding_is_recorded_masked(
    tmp_path: Path, encoding: Encoding, secret: str, permanent: bool
) -> None:
    """S-15: an upstream body that echoes the key, a forwarded value or an env_vars value, in any form of the
    masker's list (taken from that list: hex was recorded as it came), is recorded masked, as JSON and as text."""
    redactor = Redactor()
    redactor.add(secret, permanent=permanent)
    form = encoding.encode(secret)
    recorder = Recorder(tmp_path, mask=redactor.mask)
    recorder.exchange(error_quoting(form))
    not_json = f"<html>bad value {form}</html>".encode()
    recorder.exchange(Exchange("GET", "/v1/me", {}, None, 502, {"content-type": "text/html"}, not_json))
    line = recorded(tmp_path)
    assert form not in line and secret not in line
    assert line.count(MASK) >= 2
