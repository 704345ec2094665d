"""The server through the TypeScript SDK client, the library Claude Code, OpenCode and the Cursor CLI build on.

`scripts/ts_client_check.mjs` runs in a scratch folder outside the repo where `@modelcontextprotocol/sdk` is
installed with npm (once, then reused), against the server spawned over stdio in simulated mode; it starts in
the background when collection ends (`tests/e2e/ts_check.py`), so its 6 s wait overlaps the other tests. Without
node and npm on PATH the test is skipped, saying so; an npm install that fails is a failure, with npm's words.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e import ts_check


@pytest.fixture(scope="module")
def report(request: pytest.FixtureRequest) -> dict[str, Any]:
    """What the script printed: the check started in the background at the end of collection (see ts_check)."""
    return ts_check.outcome(request.config)


def test_an_image_result_reaches_the_ts_client_as_text_then_image_without_structured_content(
    report: dict[str, Any],
) -> None:
    """D-28 (issue 22), the shape every client hands on: JSON text first, the image block after, no
    `structuredContent` (which Codex would show alone); an answer without an image keeps it."""
    image = report["image"]
    assert image["content_types"] == ["text", "image"] and image["has_structured_content"] is False
    assert image["image_mime_type"] == "image/png" and image["image_base64_chars"] > 1000
    assert {"mime_type", "width", "height", "url"} <= set(image["text_json_keys"])
    assert report["plain"] == {"content_types": ["text"], "has_structured_content": True}


def test_a_wait_longer_than_the_clients_timeout_finishes_on_progress_as_opencode_calls_it(
    report: dict[str, Any],
) -> None:
    """D-29: OpenCode calls with resetTimeoutOnProgress and an onprogress callback: a 6 s wait under a 3 s
    timeout answers (timed_out, not a client error) because progress came at least every 2.5 s."""
    wait = report["wait"]
    assert wait["is_error"] is False and wait["timed_out"] is True and wait["ms"] >= 5500
    times = [0] + [entry["at_ms"] for entry in wait["progress"]] + [wait["ms"]]
    assert max(later - earlier for earlier, later in zip(times, times[1:], strict=False)) < 3000
    assert report["protocol_asked"] == "2025-11-25" and report["server"]["name"] == "cursor-cloud-agents"
