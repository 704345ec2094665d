"""Drive (a): `claude -p` with our server; the fake model cancels a running run and deletes an agent.

Prints, per question the server asked: how it went out (`elicitation/create` on a 2025-11-25 connection,
an `input_required` result on a 2026-07-28 one), what Claude Code answered and how fast, and the text
the model was handed for each call. Extra `claude` flags go after `--`, e.g.
`claude_print_consent.py -- --permission-mode bypassPermissions`; `--legacy` sets
MCP_PROTOCOL_NEGOTIATION=legacy (an `initialize` handshake); `--hook` installs an `Elicitation` hook in
the scratch HOME's settings.json that accepts.
"""

from __future__ import annotations

import argparse
import json
import subprocess

import harness
from harness import Json

PREFIX = {"prefix": "mcp__cursor__"}  # Claude Code defers MCP tools: not offered until ToolSearch loads them


def settings_with_hook() -> Json:
    answer = {"hookSpecificOutput": {"hookEventName": "Elicitation", "action": "accept", "content": {"confirm": True}}}
    command = f"printf '%s' '{json.dumps(answer)}'"
    return {"hooks": {"Elicitation": [{"matcher": "cursor", "hooks": [{"type": "command", "command": command}]}]}}


def prepare_home(scratch: harness.Scratch, hook: bool) -> None:
    state = {
        "hasCompletedOnboarding": True,
        "customApiKeyResponses": {"approved": [harness.DUMMY_ANTHROPIC_KEY[-20:]], "rejected": []},
        "projects": {str(scratch.project): {"hasTrustDialogAccepted": True, "allowedTools": []}},
    }
    (scratch.home / ".claude.json").write_text(json.dumps(state))
    (scratch.home / ".claude").mkdir(exist_ok=True)
    (scratch.home / ".claude" / "settings.json").write_text(json.dumps(settings_with_hook() if hook else {}))


def mcp_config(scratch: harness.Scratch, wire: str) -> str:
    server_env = ("CURSOR_MCP_ALLOW_WRITES=1", "CURSOR_MCP_ALLOW_DELETE=1")
    command = harness.tee_command(scratch.root / wire, *server_env, stderr=scratch.root / "server-stderr.log")
    config = {"mcpServers": {"cursor": {"type": "stdio", "command": command[0], "args": command[1:]}}}
    path = scratch.root / "mcp.json"
    path.write_text(json.dumps(config))
    return str(path)


def report_questions(wire: harness.Path) -> None:
    asked: dict[object, float] = {}
    start = None
    for t, direction, msg in harness.frames(wire):
        start = start or t
        method = msg.get("method")
        if direction == "s2c" and method == "elicitation/create":
            asked[msg["id"]] = t
            question = harness.short(msg["params"].get("message"), 160)
            harness.say(f"  +{t - start:7.3f}s server asks (elicitation/create id={msg['id']}): {question}")
        elif direction == "c2s" and method is None and msg.get("id") in asked:
            took = (t - asked[msg["id"]]) * 1000
            answer = json.dumps(msg.get("result") or msg.get("error"))
            harness.say(f"  +{t - start:7.3f}s client answers in {took:.0f} ms: {answer}")
        elif (
            direction == "s2c"
            and isinstance(msg.get("result"), dict)
            and msg["result"].get("resultType") == "input_required"
        ):
            asked[("round", msg["id"])] = t
            requests = msg["result"].get("inputRequests") or {}
            for key, request in requests.items():
                text = (request.get("params") or {}).get("message")
                question = harness.short(text, 160)
                harness.say(
                    f"  +{t - start:7.3f}s server answers call id={msg['id']} input_required [{key}]: {question}"
                )
        elif direction == "c2s" and method == "tools/call":
            params = msg.get("params") or {}
            responses = params.get("inputResponses")
            line = f"  +{t - start:7.3f}s client tools/call id={msg['id']} {params.get('name')}"
            if responses is not None:
                line += f" with inputResponses={json.dumps(responses)}"
            harness.say(line)


def report_model(requests: list[Json]) -> None:
    for request in requests:
        if request.get("chosen", "").startswith("side") or "messages" not in request.get("body", {}):
            continue
        harness.say(f"  request -> {request['chosen']}")
        last = request["body"]["messages"][-1]
        for block in last.get("content") if isinstance(last.get("content"), list) else []:
            if block.get("type") == "tool_result":
                content = block.get("content")
                harness.say(
                    f"    model is told (is_error={block.get('is_error', False)}): {harness.short(content, 700)}"
                )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--legacy", action="store_true")
    parser.add_argument("--hook", action="store_true")
    parser.add_argument(
        "--env", action="append", default=[], help="NAME=VALUE for claude (IS_SANDBOX=1 lets root skip permissions)"
    )
    parser.add_argument("extra", nargs="*")
    args = parser.parse_args()
    claude = harness.client("claude")
    ids = harness.world_ids()
    running = ids["Fix the flaky login test"]
    finished = ids["Add a README with setup instructions"]
    scratch = harness.Scratch.new("claude-print-consent")
    prepare_home(scratch, args.hook)
    steps: list[Json] = [
        {
            "tool": "cursor_cancel_run",
            "args": {"agent_id": running["id"], "run_id": running["latest_run_id"]},
            **PREFIX,
        },
        {"tool": "cursor_delete_agent", "args": {"agent_id": finished["id"]}, **PREFIX},
        {"say": "Scripted end of the turn."},
    ]
    model = harness.FakeModelProcess(scratch, steps)
    config = mcp_config(scratch, "wire.jsonl")
    env = scratch.env(ANTHROPIC_BASE_URL=model.url, ANTHROPIC_API_KEY=harness.DUMMY_ANTHROPIC_KEY)
    env.update(item.split("=", 1) for item in args.env)
    if args.legacy:
        env["MCP_PROTOCOL_NEGOTIATION"] = "legacy"
    command = [str(claude), "-p", "Cancel the flaky-test run, then delete the README agent.", "--mcp-config", config]
    command += ["--strict-mcp-config", "--allowedTools", "mcp__cursor", "--output-format", "stream-json", "--verbose"]
    command += args.extra
    version = subprocess.run([str(claude), "--version"], capture_output=True, text=True, env=env).stdout.strip()
    harness.say(f"claude {version}; scratch {scratch.root}; flags {args.extra}")
    harness.say(f"legacy={args.legacy} hook={args.hook} env={args.env}")
    try:
        done = subprocess.run(command, cwd=scratch.project, env=env, capture_output=True, text=True, timeout=180)
    finally:
        model.close()
    (scratch.root / "claude-stdout.jsonl").write_text(done.stdout)
    (scratch.root / "claude-stderr.log").write_text(done.stderr)
    harness.say(f"claude exited {done.returncode}")
    harness.say("wire (questions and calls):")
    report_questions(scratch.root / "wire.jsonl")
    harness.say("fake model:")
    report_model(model.requests())
    for line in done.stdout.splitlines():
        event = json.loads(line)
        if event.get("type") == "result":
            harness.say(f"final result: {harness.short(event.get('result'), 300)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
