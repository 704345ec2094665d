"""The server through the TypeScript SDK client, the library Claude Code, OpenCode and the Cursor CLI build on.

`scripts/ts_client_check.mjs` runs in a scratch folder outside the repo where `@modelcontextprotocol/sdk` is
installed with npm (once, then reused), against the server spawned over stdio in simulated mode. Without node
and npm on PATH the test is skipped, saying so; an npm install that fails is a failure, with npm's words.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

SDK = "@modelcontextprotocol/sdk@1.32.2"
SCRIPT = Path(__file__).parents[2] / "scripts" / "ts_client_check.mjs"
SCRATCH = Path(tempfile.gettempdir()) / "cursor-cloud-agents-ts-sdk-1.32.2"


def sdk_folder() -> Path:
    """The scratch folder holding the SDK, installed on first use (into a fresh folder, renamed into place)."""
    if (SCRATCH / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        return SCRATCH
    fresh = Path(tempfile.mkdtemp(prefix="ts-sdk-", dir=SCRATCH.parent))
    npm = ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(fresh), SDK]
    installed = subprocess.run(npm, capture_output=True, text=True, timeout=300, check=False)
    assert installed.returncode == 0, f"npm install {SDK} failed:\n{installed.stderr[-2000:]}"
    try:
        fresh.rename(SCRATCH)
    except OSError:  # another run installed it meanwhile
        shutil.rmtree(fresh, ignore_errors=True)
    return SCRATCH


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not on PATH: the TypeScript SDK client check needs them (Node 20 or newer)")
    folder = sdk_folder()
    script = folder / SCRIPT.name
    shutil.copyfile(SCRIPT, script)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path_factory.mktemp("home"))}
    command = ["node", str(script), sys.executable, "-m", "cursor_cloud_agents"]
    ran = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env, check=False)
    assert ran.returncode == 0, ran.stderr[-3000:]
    return json.loads(ran.stdout)


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
