"""Drive (c): interactive Claude Code under tmux with our server: does it declare the Tasks extension, does
`cursor_wait` become a task, and what does it send after both are restarted with `claude --resume`?

Phase 1: the fake model creates an agent (a simulated run of ~22 s) and waits for it with `cursor_wait`;
we watch the wire for `tasks/get` and the fake model's log for the model being woken with the result.
Phase 2: the model waits on a long run (10 min); once it is a task, Claude Code is ended (/exit), then
started again with `--resume SESSION`, with a new server process behind a new wire log; we watch what it
sends for the old task for `--after-resume` seconds (default 30).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from pathlib import Path

import harness
from claude_print_consent import prepare_home
from harness import Json
from tmux import Pane

PREFIX = {"prefix": "mcp__cursor__"}
READY = ("for shortcuts", "shift+tab to cycle", "mode on")
NEW_AGENT = "bc-0e5a1c2d-7f3b-4c6a-9d8e-1a2b3c4d5e6f"


def mcp_config(scratch: harness.Scratch, wire: Path) -> Path:
    command = harness.tee_command(wire, "CURSOR_MCP_ALLOW_WRITES=1", stderr=scratch.root / "server-stderr.log")
    path = scratch.root / "mcp.json"
    path.write_text(
        json.dumps({"mcpServers": {"cursor": {"type": "stdio", "command": command[0], "args": command[1:]}}})
    )
    return path


def start_claude(scratch: harness.Scratch, model: harness.FakeModelProcess, wire: Path, extra: list[str]) -> Pane:
    env = scratch.env(ANTHROPIC_BASE_URL=model.url, ANTHROPIC_API_KEY=harness.DUMMY_ANTHROPIC_KEY)
    command = [str(harness.client("claude")), "--mcp-config", str(mcp_config(scratch, wire)), "--strict-mcp-config"]
    # Default permission mode: auto mode (2.1.332's default) would ask the model API to classify each call.
    command += ["--allowedTools", "mcp__cursor", "--permission-mode", "default", *extra]
    launcher = Pane.launcher(scratch.root / f"launch-{wire.stem}.sh", env, scratch.project, command)
    pane = Pane(f"harness-{scratch.root.name}-{wire.stem}"[-60:].replace(".", "-"), launcher)
    if not pane.wait_for_any(READY, 60):
        (scratch.root / f"screen-{wire.stem}-start.txt").write_text(pane.screen())
        harness.say("Claude Code did not reach its prompt in 60 s; screen:\n" + pane.screen())
    return pane


def main_turns(model: harness.FakeModelProcess) -> int:
    """Assistant turns in the newest main-conversation request, plus the answer we gave it."""
    main = [r for r in model.requests() if str(r.get("chosen", "")).startswith("step")]
    if not main:
        return 0
    return sum(1 for m in main[-1]["body"]["messages"] if m.get("role") == "assistant") + 1


def then(model: harness.FakeModelProcess, steps: list[Json]) -> None:
    """Script the next turns after those already taken (earlier indexes keep a harmless reply)."""
    model.set_steps([{"say": "(earlier turn)"}] * main_turns(model) + steps)


def summarize_wire(wire: Path, since: float = 0.0, until: float = float("inf")) -> None:
    start = None
    for t, direction, msg in harness.frames(wire):
        if not since <= t < until:
            continue
        start = start or t
        method = msg.get("method")
        if method in {"server/discover", "initialize"}:
            params = msg.get("params") or {}
            meta = params.get("_meta") or {}
            caps = params.get("capabilities") or meta.get("io.modelcontextprotocol/clientCapabilities")
            version = params.get("protocolVersion") or meta.get("io.modelcontextprotocol/protocolVersion")
            harness.say(f"  +{t - start:6.2f}s {method} version={version} capabilities={json.dumps(caps)}")
        elif method in {"tools/call", "tasks/get", "tasks/cancel", "tasks/result", "tasks/list"} or (
            method and method.startswith("notifications/") and direction == "c2s"
        ):
            params = msg.get("params") or {}
            detail = params.get("name") or params.get("taskId") or params.get("requestId") or ""
            task = (params.get("_meta") or {}).get("io.modelcontextprotocol/task") or params.get("task")
            harness.say(
                f"  +{t - start:6.2f}s c2s {method} id={msg.get('id')} {detail} {json.dumps(task) if task else ''}"
            )
        elif direction == "s2c" and "id" in msg and method is None:
            body = msg.get("result") or msg.get("error")
            harness.say(f"  +{t - start:6.2f}s s2c answer id={msg['id']}: {harness.short(body, 260)}")


def model_inputs(model: harness.FakeModelProcess, since: int = 0) -> None:
    for request in model.requests()[since:]:
        if not str(request.get("chosen", "")).startswith("step"):
            continue
        last = request["body"]["messages"][-1]
        content = last.get("content")
        text = content if isinstance(content, str) else json.dumps(content)
        harness.say(f"  t={request['t']:.1f} {request['chosen'][:70]} <- last message: {harness.short(text, 500)}")


def declared_tasks(wire: Path) -> str:
    for _t, _direction, msg in harness.frames(wire):
        if msg.get("method") in {"server/discover", "initialize"}:
            text = json.dumps(msg.get("params"))
            return "declares io.modelcontextprotocol/tasks" if "io.modelcontextprotocol/tasks" in text else "no tasks"
    return "no handshake seen"


def session_id(scratch: harness.Scratch) -> str:
    files = sorted((scratch.home / ".claude" / "projects").glob("*/*.jsonl"), key=lambda p: p.stat().st_mtime)
    return files[-1].stem


def wait_for_request(model: harness.FakeModelProcess, count: int, seconds: float) -> bool:
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        if len([r for r in model.requests() if str(r.get("chosen", "")).startswith("step")]) >= count:
            return True
        time.sleep(0.5)
    return False


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--after-resume", type=float, default=30.0)
    parser.add_argument("--skip-phase1", action="store_true")
    parser.add_argument("--exit-choice", choices=["stop", "background"], default="stop")
    args = parser.parse_args()
    ids = harness.world_ids()
    flaky = ids["Fix the flaky login test"]
    scratch = harness.Scratch.new("claude-tasks")
    prepare_home(scratch, hook=False)
    model = harness.FakeModelProcess(scratch, [])
    version = subprocess.run(
        [str(harness.client("claude")), "--version"], capture_output=True, text=True
    ).stdout.strip()
    harness.say(f"claude {version} interactive under tmux; scratch {scratch.root}")
    # One server command for both sessions (so one wire log): Claude Code records a fingerprint of the
    # transport with each task and polls a restored task only on a server whose fingerprint matches.
    wire1 = wire2 = scratch.root / "wire.jsonl"
    restarted = float("inf")
    session = "(none)"
    requests_before = 0
    pane = start_claude(scratch, model, wire1, [])
    try:
        harness.say(f"handshake: {declared_tasks(wire1)}")
        if not args.skip_phase1:
            create = {"agent_id": NEW_AGENT, "prompt": "Say hello.", "name": "Harness task"}
            then(
                model,
                [
                    {"tool": "cursor_create_agent", "args": create, **PREFIX},
                    {"tool": "cursor_wait", "args": {"runs": [{"agent_id": NEW_AGENT}], "wait_seconds": 50}, **PREFIX},
                    {"say": "Waiting in the background."},
                    {"say": "The run has finished: phase 1 done."},
                    {"say": "(extra)"},
                ],
            )
            pane.type("Create an agent and wait for it.")
            began = time.monotonic()
            woke = pane.wait_for("phase 1 done", 120)
            harness.say(f"phase 1: model woken with the result: {woke} after {time.monotonic() - began:.1f} s")
            (scratch.root / "screen-phase1.txt").write_text(pane.screen())
        then(
            model,
            [
                {"tool": "cursor_wait", "args": {"runs": [{"agent_id": flaky["id"]}], "wait_seconds": 50}, **PREFIX},
                {"say": "Waiting on the long run in the background."},
                {"say": "(after resume)"},
            ],
        )
        pane.type("Now wait for the flaky-test run.")
        pane.wait_for("long run in the background", 60)
        time.sleep(6)  # two polls of tasks/get
        (scratch.root / "screen-phase2.txt").write_text(pane.screen())
        pane.type("/exit")
        time.sleep(2)
        (scratch.root / "screen-exit.txt").write_text(pane.screen())
        if pane.alive():
            # The exit dialog: 1. Exit and stop tasks (default), 2. Move to background and exit, 3. Stay.
            pane.key(*(["Down"] * (0 if args.exit_choice == "stop" else 1)), "Enter")
            time.sleep(3)
        harness.say(f"after /exit the tmux pane is alive: {pane.alive()}")
        pane.kill()
        session = session_id(scratch)
        requests_before = len(model.requests())
        restarted = time.time()
        pane = start_claude(scratch, model, wire2, ["--resume", session])
        time.sleep(args.after_resume)
        (scratch.root / "screen-resumed.txt").write_text(pane.screen())
    finally:
        pane.kill()
        model.close()
    harness.say("wire of the first session:")
    summarize_wire(wire1, until=restarted)
    harness.say(f"wire after `claude --resume {session}` ({args.after_resume:.0f} s; exit choice {args.exit_choice}):")
    summarize_wire(wire2, since=restarted)
    harness.say("what the model was handed (first session):")
    model_inputs(model)
    harness.say("requests after the resume:")
    model_inputs(model, requests_before)
    harness.say("screen after the resume:\n" + (scratch.root / "screen-resumed.txt").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
