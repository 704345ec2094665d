"""Drive (b): `codex exec` calls `cursor_read_artifact` on an image artifact; does its next request to the
model API carry the image (`input_image`)?

    codex_image.py [--server real|full|no-structured|image-first] [--model NAME] [-c KEY=VALUE ...]

`real` is our server (simulated, through the tee); the others are the stub server of
stub_artifact_server.py answering the real server's recorded result in that shape (also through the tee).
`--model` picks what Codex believes it talks to: a name it does not know (the default) offers every tool
up front; a known one (e.g. gpt-5.5) may put the tools behind its tool search or code mode. Codex gets a
temporary CODEX_HOME whose config.toml names the fake model API as a custom provider.
"""

from __future__ import annotations

import argparse
import json
import subprocess

import harness
from harness import Json

# What a model in code mode would write: call the tool, show what the result object holds, and forward each
# block (the JavaScript sees the whole MCP result; only what it passes to text()/image() reaches the model).
CODE_MODE_SCRIPT = """const r = await tools.mcp__cursor__cursor_read_artifact(%s);
const types = (r.content || []).map((b) => b.type);
text("keys: " + JSON.stringify(Object.keys(r)) + " content types: " + JSON.stringify(types));
for (const block of r.content || []) { if (block.type === "image") image(block); else text(block.text); }"""


def config_toml(model_url: str, model: str, server: list[str], extra: list[str]) -> str:
    lines = [
        f'model = "{model}"',
        'model_provider = "fake"',
        'approval_policy = "never"',
        'sandbox_mode = "read-only"',
        *extra,
        "",
        "[model_providers.fake]",
        'name = "fake model API (loopback)"',
        f'base_url = "{model_url}/v1"',
        'wire_api = "responses"',
        'env_key = "FAKE_OPENAI_API_KEY"',
        "request_max_retries = 0",
        "stream_max_retries = 0",
        "",
        "[mcp_servers.cursor]",
        f"command = {json.dumps(server[0])}",
        f"args = {json.dumps(server[1:])}",
        "startup_timeout_sec = 30",
        "required = true",
    ]
    return "\n".join(lines) + "\n"


def server_command(scratch: harness.Scratch, kind: str, recorded: Json) -> list[str]:
    wire = scratch.root / "wire.jsonl"
    if kind == "real":
        return harness.tee_command(wire, stderr=scratch.root / "server-stderr.log")
    result = scratch.root / "recorded-result.json"
    result.write_text(json.dumps(recorded))
    stub = [str(harness.PYTHON), str(harness.HERE / "stub_artifact_server.py"), str(result), kind]
    return [*harness.tee_command(wire, stderr=scratch.root / "server-stderr.log"), *stub]


def describe_output(output: object) -> str:
    if isinstance(output, str):
        return f"a string of {len(output)} chars: {harness.short(output, 300)}"
    if isinstance(output, list):
        parts: list[str] = []
        for item in output:
            kind = item.get("type") if isinstance(item, dict) else type(item).__name__
            if kind == "input_image":
                parts.append(f"input_image({harness.short(item.get('image_url', ''), 60)})")
            else:
                parts.append(f"{kind}({harness.short(item.get('text', ''), 200)})")
        return f"a list: {parts}"
    return harness.short(output, 300)


def report(requests: list[Json]) -> None:
    for request in requests:
        body = request.get("body") or {}
        items = body.get("input") if isinstance(body.get("input"), list) else []
        tools = [tool.get("name") or tool.get("type") for tool in body.get("tools") or []]
        harness.say(f"  {request['path']} -> {request['chosen'][:90]}; {len(tools)} tools offered: {tools[:8]}...")
        for item in items:
            if item.get("type") == "tool_search_output":
                found = [t.get("name") for t in item.get("tools") or []]
                harness.say(f"    tool_search_output: {harness.short(found, 300)} {harness.short(item, 200)}")
            if item.get("type") in {"function_call_output", "custom_tool_call_output"}:
                harness.say(f"    {item['type']} for {item.get('call_id')}: {describe_output(item.get('output'))}")
        images = json.dumps(body).count('"input_image"')
        if request["chosen"].startswith("step") and images:
            harness.say(f"    the request carries {images} input_image item(s)")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default="real", choices=["real", "full", "no-structured", "image-first"])
    parser.add_argument("--model", default="fake-model")
    parser.add_argument("--code-mode", action="store_true", help="call through Codex's JavaScript exec tool")
    parser.add_argument("--code-namespace", default="", help="namespace of the exec call item (default none)")
    parser.add_argument("--tool-search", action="store_true", help="first call Codex's tool_search (known models)")
    parser.add_argument("-c", dest="config", action="append", default=[], help="extra top-level config.toml line")
    args = parser.parse_args()
    codex = harness.client("codex")
    agent = harness.world_ids()["Take screenshots of the settings page"]
    call = {"agent_id": agent["id"], "path": "artifacts/screenshot.png"}
    recorded = harness.probe_call("cursor_read_artifact", call)
    scratch = harness.Scratch.new(f"codex-image-{args.server}")
    steps: list[Json] = [{"tool": "cursor_read_artifact", "args": call}, {"say": "I looked at the screenshot."}]
    if args.code_mode:
        steps[0] = {"custom": "exec", "namespace": args.code_namespace, "input": CODE_MODE_SCRIPT % json.dumps(call)}
    if args.tool_search:
        steps.insert(0, {"tool_search": "cursor read artifact image"})
    model = harness.FakeModelProcess(scratch, steps)
    codex_home = scratch.root / "codex-home"
    codex_home.mkdir()
    config = config_toml(model.url, args.model, server_command(scratch, args.server, recorded), args.config)
    (codex_home / "config.toml").write_text(config)
    env = scratch.env(CODEX_HOME=str(codex_home), FAKE_OPENAI_API_KEY=harness.DUMMY_OPENAI_KEY)
    version = subprocess.run([str(codex), "--version"], capture_output=True, text=True, env=env).stdout.strip()
    harness.say(f"{version}; server={args.server} model={args.model}; scratch {scratch.root}")
    command = [str(codex), "exec", "--json", "--skip-git-repo-check", "Show me the screenshot artifact."]
    try:
        done = subprocess.run(command, cwd=scratch.project, env=env, capture_output=True, text=True, timeout=180)
    finally:
        model.close()
    (scratch.root / "codex-stdout.jsonl").write_text(done.stdout)
    (scratch.root / "codex-stderr.log").write_text(done.stderr)
    harness.say(f"codex exited {done.returncode}")
    for _t, direction, msg in harness.frames(scratch.root / "wire.jsonl"):
        if direction == "s2c" and isinstance(msg.get("result"), dict) and "content" in msg["result"]:
            kinds = [block.get("type") for block in msg["result"]["content"]]
            harness.say(
                f"  server's result: content {kinds}, structuredContent: {'structuredContent' in msg['result']}"
            )
    harness.say("fake model requests:")
    report(model.requests())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
