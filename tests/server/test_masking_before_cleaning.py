"""A secret reaches no answer even when it holds characters the cleaning of agent text removes.

SL-05 (forwarded secrets masked) against P-02's cleaning.
"""

from __future__ import annotations

import pytest

from cursor_cloud_agents.redact import MASK, Redactor
from cursor_cloud_agents.server.pipeline.answers import Answers

CRLF_KEY = "-----BEGIN KEY-----\r\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\r\nBKcwggSjAgEAAoIBAQC7\r\n-----END KEY-----"
"""An env_vars value as a Windows editor saves a PEM key: CRLF line ends, where cleaning drops each CR."""


@pytest.mark.parametrize("permanent", [True, False], ids=["forwarded", "per-call"])
def test_a_secret_with_carriage_returns_echoed_by_an_agent_is_masked_in_the_answer(permanent: bool) -> None:
    """Cleaning removes the CRs, after which the text no longer holds the secret as given: it is masked
    before the cleaning as well as after."""
    redactor = Redactor()
    redactor.add(CRLF_KEY, permanent=permanent)
    answers = Answers(redactor, 38_000)
    data, text = answers.render({"result": f"The key is {CRLF_KEY} as asked.", f"k{CRLF_KEY}": 1})
    assert "MIIEvQ" not in text and "BKcwgg" not in text
    assert data["result"] == f"The key is {MASK} as asked."
    assert answers.prepare(data) == data  # preparing stays idempotent
