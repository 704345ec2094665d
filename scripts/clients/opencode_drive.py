"""Drive (e): `opencode run` with our server: handshake, capabilities, the tool names the model is offered,
the per-call time limit against our progress notifications, and the `notifications/cancelled` it sends.

    opencode_drive.py [--timeout-ms 8000 (0: unset)] [--wait-seconds 30] [--server-delay S]
                      [--provider anthropic|openai-compatible]

The fake model calls `cursor_get_account`, then `cursor_wait` on a long simulated run for
`--wait-seconds`, with OpenCode's per-server `timeout` set to `--timeout-ms`: if progress resets its
clock the wait ends on time, else it is cut at the timeout. The provider is OpenCode's bundled anthropic
one pointed at the fake model (`options.baseURL`), or an openai-compatible one.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess

import harness
from claude_tasks_tmux import summarize_wire
from harness import Json

from cursor_cloud_agents import clients


def opencode_config(model_url: str, server: list[str], timeout_ms: int, provider: str) -> Json:
    models = {"fake-model": {"name": "Fake model", "tool_call": True, "limit": {"context": 200000, "output": 8192}}}
    if provider == "anthropic":
        providers = {
            "anthropic": {
                "options": {"baseURL": f"{model_url}/v1", "apiKey": harness.DUMMY_ANTHROPIC_KEY},
                "models": models,
            }
        }
        model = "anthropic/fake-model"
    else:
        options = {"baseURL": f"{model_url}/v1", "apiKey": harness.DUMMY_OPENAI_KEY}
        providers = {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "Fake", "options": options, "models": models}}
        model = "fake/fake-model"
    return {
        "$schema": "https://opencode.ai/config.json",
        "model": model,
        "small_model": model,
        "provider": providers,
        "autoupdate": False,
        "share": "disabled",
        "permission": {"edit": "allow", "bash": "allow", "webfetch": "deny"},
        "mcp": {
            "cursor": {
                "type": "local",
                "command": server,
                "enabled": True,
                **({"timeout": timeout_ms} if timeout_ms else {}),
            }
        },
    }


def cancellations(wire: harness.Path) -> None:
    answered: dict[object, float] = {}
    calls: dict[object, str] = {}
    for t, direction, msg in harness.frames(wire):
        if direction == "c2s" and msg.get("method") == "tools/call":
            calls[msg["id"]] = msg["params"]["name"]
        elif direction == "s2c" and msg.get("id") in calls and "method" not in msg:
            answered[msg["id"]] = t
        elif direction == "c2s" and msg.get("method") == "notifications/cancelled":
            params = msg.get("params") or {}
            request = params.get("requestId")
            after = (
                f"{(t - answered[request]) * 1000:.0f} ms after its answer"
                if request in answered
                else "before any answer"
            )
            harness.say(
                f"  notifications/cancelled for {request} ({calls.get(request)}), {after}: {params.get('reason')!r}"
            )


def progress_gaps(wire: harness.Path) -> None:
    times = [
        t
        for t, direction, msg in harness.frames(wire)
        if direction == "s2c" and msg.get("method") == "notifications/progress"
    ]
    gaps = [round(b - a, 1) for a, b in zip(times, times[1:], strict=False)]
    harness.say(f"  {len(times)} progress notifications; gaps (s): {gaps}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout-ms", type=int, default=8000)
    parser.add_argument("--wait-seconds", type=int, default=30)
    parser.add_argument("--server-delay", type=float, default=0.0, help="delay the server's start by this much")
    parser.add_argument("--provider", choices=["anthropic", "openai-compatible"], default="anthropic")
    parser.add_argument("--readme", action="store_true", help="the server entry `config opencode` prints, as is")
    args = parser.parse_args()
    opencode = harness.client("opencode")
    flaky = harness.world_ids()["Fix the flaky login test"]
    scratch = harness.Scratch.new("opencode")
    steps: list[Json] = [
        {"tool": "cursor_get_account", "args": {}},
        {"tool": "cursor_wait", "args": {"runs": [{"agent_id": flaky["id"]}], "wait_seconds": args.wait_seconds}},
        {"say": "Scripted end of the turn."},
    ]
    model = harness.FakeModelProcess(scratch, steps)
    wire = scratch.root / "wire.jsonl"
    server = harness.tee_command(wire, stderr=scratch.root / "server-stderr.log", delay=args.server_delay)
    config = opencode_config(model.url, server, args.timeout_ms, args.provider)
    env = scratch.env(ANTHROPIC_API_KEY=harness.DUMMY_ANTHROPIC_KEY)
    if args.readme:  # the registration as written, its command a wrapper that starts the tee
        wrapper = scratch.root / "bin" / clients.COMMAND
        wrapper.parent.mkdir(exist_ok=True)
        wrapper.write_text(f'#!/bin/sh\nexec {shlex.join(server)} "$@"\n')
        wrapper.chmod(0o755)
        written = json.loads(clients.snippet("opencode", str(wrapper)).text)
        config["mcp"] = written["mcp"]
        env["CURSOR_API_KEY"] = "unused-in-simulated-mode"  # what {env:CURSOR_API_KEY} reads; the tee drops it
        args.timeout_ms = config["mcp"][clients.SERVER_NAME]["timeout"]
    (scratch.project / "opencode.json").write_text(json.dumps(config, indent=1))
    version = subprocess.run([str(opencode), "--version"], capture_output=True, text=True, env=env).stdout.strip()
    harness.say(f"opencode {version}; provider {args.provider}; timeout {args.timeout_ms} ms; scratch {scratch.root}")
    command = [str(opencode), "run", "--print-logs", "Check the account, then wait for the flaky-test run."]
    try:
        done = subprocess.run(command, cwd=scratch.project, env=env, capture_output=True, text=True, timeout=240)
    finally:
        model.close()
    (scratch.root / "opencode-stdout.txt").write_text(done.stdout)
    (scratch.root / "opencode-stderr.log").write_text(done.stderr)
    harness.say(f"opencode exited {done.returncode}")
    harness.say("wire:")
    summarize_wire(wire)
    cancellations(wire)
    progress_gaps(wire)
    harness.say("fake model requests:")
    for request in model.requests():
        body = request.get("body") or {}
        names = [t.get("name") or (t.get("function") or {}).get("name") for t in body.get("tools") or []]
        ours = harness.short([n for n in names if n and "cursor" in n], 300)
        harness.say(f"  {request['path']} -> {request['chosen'][:80]}; tools: {ours}")
        messages = body.get("messages") or []
        last = messages[-1] if messages else {}
        content = last.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    harness.say(f"    model is told: {harness.short(block.get('content'), 400)}")
        elif last.get("role") == "tool":
            harness.say(f"    model is told: {harness.short(content, 400)}")
    harness.say(f"stdout: {harness.short(done.stdout, 600)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
