"""Drive (f): does an image artifact reach the model? `claude -p` and `opencode run` read one.

    image_drives.py [claude|opencode ...]   (default: both)

The fake model calls `cursor_read_artifact` on the demo world's PNG screenshot; the drive prints the
server's result shape on the wire (content blocks, whether it has `structuredContent`) and what the next
request to the model API carries: the tool result's blocks, and how many are images. (Codex: `codex_image.py`.)
"""

from __future__ import annotations

import argparse
import json
import subprocess
from typing import Any

import harness
from claude_print_consent import PREFIX, mcp_config, prepare_home
from harness import Json
from opencode_drive import opencode_config

PATH = "artifacts/screenshot.png"


def result_shape(wire: harness.Path) -> str:
    for _, direction, msg in harness.frames(wire):
        result = msg.get("result") if direction == "s2c" else None
        if isinstance(result, dict) and "content" in result:
            blocks = [block.get("type") for block in result["content"]]
            if "image" in blocks:
                return f"content {blocks}, structuredContent: {'structuredContent' in result}"
    return "no image result on the wire"


def images_in(value: Any) -> int:
    """How many image parts a request body carries anywhere (Anthropic `image`, OpenAI-style `image_url`)."""
    if isinstance(value, dict):
        kind = value.get("type")
        own = 1 if kind in ("image", "image_url", "input_image") or "image_url" in value else 0
        return own + sum(images_in(item) for item in value.values())
    if isinstance(value, list):
        return sum(images_in(item) for item in value)
    return 0


def report(model: harness.FakeModelProcess, wire: harness.Path) -> None:
    harness.say(f"  server's result: {result_shape(wire)}")
    for request in model.requests():
        body = request.get("body") or {}
        harness.say(f"  {request['path']} -> {request['chosen'][:70]}; image parts in the request: {images_in(body)}")


def claude(ids: dict[str, Json]) -> None:
    binary = harness.client("claude")
    shots = ids["Take screenshots of the settings page"]
    scratch = harness.Scratch.new("claude-print-image")
    prepare_home(scratch, hook=False)
    steps: list[Json] = [
        {"tool": "cursor_read_artifact", "args": {"agent_id": shots["id"], "path": PATH}, **PREFIX},
        {"say": "I looked at the screenshot."},
    ]
    model = harness.FakeModelProcess(scratch, steps)
    config = mcp_config(scratch, "wire.jsonl")
    env = scratch.env(ANTHROPIC_BASE_URL=model.url, ANTHROPIC_API_KEY=harness.DUMMY_ANTHROPIC_KEY)
    command = [str(binary), "-p", "Look at the settings screenshot.", "--mcp-config", config, "--strict-mcp-config"]
    command += ["--allowedTools", "mcp__cursor", "--output-format", "stream-json", "--verbose"]
    version = subprocess.run([str(binary), "--version"], capture_output=True, text=True, env=env).stdout.strip()
    harness.say(f"claude {version}; scratch {scratch.root}")
    try:
        done = subprocess.run(command, cwd=scratch.project, env=env, capture_output=True, text=True, timeout=180)
    finally:
        model.close()
    harness.say(f"claude exited {done.returncode}")
    report(model, scratch.root / "wire.jsonl")


def opencode(ids: dict[str, Json]) -> None:
    binary = harness.client("opencode")
    shots = ids["Take screenshots of the settings page"]
    scratch = harness.Scratch.new("opencode-image")
    steps: list[Json] = [
        {"tool": "cursor_read_artifact", "args": {"agent_id": shots["id"], "path": PATH}},
        {"say": "I looked at the screenshot."},
    ]
    model = harness.FakeModelProcess(scratch, steps)
    wire = scratch.root / "wire.jsonl"
    server = harness.tee_command(wire, stderr=scratch.root / "server-stderr.log")
    config = opencode_config(model.url, server, 0, "anthropic")
    (scratch.project / "opencode.json").write_text(json.dumps(config, indent=1))
    env = scratch.env(ANTHROPIC_API_KEY=harness.DUMMY_ANTHROPIC_KEY)
    version = subprocess.run([str(binary), "--version"], capture_output=True, text=True, env=env).stdout.strip()
    harness.say(f"opencode {version}; scratch {scratch.root}")
    try:
        done = subprocess.run(
            [str(binary), "run", "Look at the settings screenshot."],
            cwd=scratch.project,
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
        )
    finally:
        model.close()
    harness.say(f"opencode exited {done.returncode}")
    report(model, wire)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("clients", nargs="*", help="claude, opencode (default: both)")
    args = parser.parse_args()
    ids = harness.world_ids()
    for name in args.clients or ["claude", "opencode"]:
        {"claude": claude, "opencode": opencode}[name](ids)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
