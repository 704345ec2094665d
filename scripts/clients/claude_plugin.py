"""Drive (g): Claude Code as a person installs it, following docs/clients.md: the plugin from a local marketplace
(or the `.mcp.json` block), `claude -p` with the documented permission rule and start-up setting, the
`Elicitation` hook of docs/safety.md. Everything installed comes from `cursor_cloud_agents.clients`, the source
the docs' blocks and `config claude` are generated from, so what is driven is what is written.

    claude_plugin.py list [--runs 5] [--no-wait-setting] [--server-delay S] [--install plugin|mcpjson|add]
    claude_plugin.py delete [--install plugin|mcpjson|add] [--matcher M]   # docs/safety.md's hook lets a delete through

`list`: `claude -p` lists the agents, one fresh install per run (the plugin by default). `delete`: the documented
hook answers the question for each way of installing (all three by default); `--matcher cursor` is the control
that shows the old hook missing the plugin.

`cursor-cloud-agents` on the PATH Claude Code sees is a wrapper that starts this checkout's server (simulated,
writes and deletes allowed) through the tee, so the wire is logged; it passes on `CLAUDE_PLUGIN_ROOT` (what
Claude Code sets for a plugin's server) so the server can tell how it was installed. The marketplace is a copy
of this checkout's `.claude-plugin/` (the whole checkout would copy `.venv` into the plugin cache).
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import time

import harness
from claude_print_consent import prepare_home
from harness import Json

from cursor_cloud_agents import clients

WRAPPER = """#!/bin/sh
# cursor-cloud-agents as a client starts it: this checkout's server behind the tee (drive g). It notes whether
# the key reached it (the value is a dummy), then passes on what tells the server how it was installed.
if [ -n "$CURSOR_API_KEY" ]; then said=reached; else said="did not reach"; fi
echo "CURSOR_API_KEY $said the server" >> {notes}
exec {tee} ${{CLAUDE_PLUGIN_ROOT:+--env CLAUDE_PLUGIN_ROOT=$CLAUDE_PLUGIN_ROOT}} "$@"
"""
DUMMY_CURSOR_KEY = "crsr_dummy_offline_harness_key_0000000000"
"""Exported where Claude Code starts, as the README asks; the tee does not hand it to the simulated server."""


def install_command(scratch: harness.Scratch, delay: float = 0.0) -> None:
    """`cursor-cloud-agents` on the PATH: the tee in front of the simulated server, writes and deletes on;
    `delay` seconds before the server starts (a slow start)."""
    tee = harness.tee_command(
        scratch.root / "wire.jsonl",
        "CURSOR_MCP_ALLOW_WRITES=1",
        "CURSOR_MCP_ALLOW_DELETE=1",
        stderr=scratch.root / "server-stderr.log",
        delay=delay,
    )
    wrapper = scratch.root / "bin" / clients.COMMAND
    wrapper.parent.mkdir(exist_ok=True)
    notes = shlex.quote(str(scratch.root / "server-env.txt"))
    wrapper.write_text(WRAPPER.format(tee=shlex.join(tee), notes=notes))
    wrapper.chmod(0o755)


def claude_env(scratch: harness.Scratch, model_url: str, wait_setting: bool) -> dict[str, str]:
    env = scratch.env(ANTHROPIC_BASE_URL=model_url, ANTHROPIC_API_KEY=harness.DUMMY_ANTHROPIC_KEY)
    env["PATH"] = f"{scratch.root / 'bin'}:{env['PATH']}"
    env["CURSOR_API_KEY"] = DUMMY_CURSOR_KEY
    if wait_setting:
        env.update(clients.CLAUDE_PRINT_WAIT_ENV)
    return env


def install_plugin(scratch: harness.Scratch, claude: str, env: dict[str, str]) -> None:
    """The two commands of docs/clients.md, with a local copy of the marketplace for OWNER/REPO."""
    marketplace = scratch.root / "marketplace"
    shutil.copytree(harness.CHECKOUT / ".claude-plugin", marketplace / ".claude-plugin")
    for command in (["plugin", "marketplace", "add", str(marketplace)], ["plugin", "install", clients.PLUGIN_ID]):
        done = subprocess.run([claude, *command], env=env, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise SystemExit(f"claude {' '.join(command)} failed: {done.stdout}{done.stderr}")


APPROVE_PROJECT_SERVERS = True
"""`.mcp.json` installs: approve the project's server as a person does at the first interactive start
(`--unapproved`: the control, never approved)."""


def install_mcp_json(scratch: harness.Scratch) -> None:
    """The `.mcp.json` block of docs/clients.md in the project, approved as a person does at the first start."""
    (scratch.project / ".mcp.json").write_text(clients.snippet("claude", clients.COMMAND).text)
    if not APPROVE_PROJECT_SERVERS:
        return
    state = json.loads((scratch.home / ".claude.json").read_text())
    state["projects"][str(scratch.project)]["enabledMcpjsonServers"] = [clients.SERVER_NAME]
    (scratch.home / ".claude.json").write_text(json.dumps(state))


def install_mcp_add(claude: str, env: dict[str, str]) -> None:
    """The `claude mcp add` line of docs/clients.md, as written."""
    command = [claude, *shlex.split(clients.claude_mcp_add(clients.COMMAND))[1:]]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"{shlex.join(command)} failed: {done.stdout}{done.stderr}")


def install(scratch: harness.Scratch, claude: str, env: dict[str, str], how: str) -> str:
    """Install the server `how` docs/clients.md says; the permission rule `-p` needs for it."""
    if how == "plugin":
        install_plugin(scratch, claude, env)
        return clients.PLUGIN_PERMISSION
    if how == "mcpjson":
        install_mcp_json(scratch)
    else:
        install_mcp_add(claude, env)
    return clients.CLAUDE_PERMISSION


def add_hook(scratch: harness.Scratch, matcher: str | None) -> None:
    settings_path = scratch.home / ".claude" / "settings.json"
    settings = json.loads(settings_path.read_text())
    settings["hooks"] = json.loads(clients.elicitation_hook())["hooks"]
    if matcher is not None:  # a control: another matcher in the same hook
        settings["hooks"]["Elicitation"][0]["matcher"] = matcher
    settings_path.write_text(json.dumps(settings, indent=1))


def run_print(claude: str, scratch: harness.Scratch, env: dict[str, str], prompt: str, permission: str) -> Json:
    command = [claude, "-p", prompt, "--allowedTools", permission, "--output-format", "stream-json", "--verbose"]
    started = time.time()
    done = subprocess.run(command, cwd=scratch.project, env=env, capture_output=True, text=True, timeout=240)
    (scratch.root / "claude-stdout.jsonl").write_text(done.stdout)
    (scratch.root / "claude-stderr.log").write_text(done.stderr)
    return {"code": done.returncode, "seconds": time.time() - started}


def tool_results(model: harness.FakeModelProcess) -> list[tuple[bool, str]]:
    """Every tool result the model was handed: (is_error, text)."""
    found: list[tuple[bool, str]] = []
    for request in model.requests():
        if not str(request.get("chosen", "")).startswith("step"):
            continue
        found = []  # each request repeats the conversation: the last one holds every result
        for message in request["body"]["messages"]:
            content = message.get("content")
            for block in content if message.get("role") == "user" and isinstance(content, list) else []:
                if block.get("type") == "tool_result":
                    inner = block.get("content")
                    text = inner if isinstance(inner, str) else json.dumps(inner)
                    found.append((bool(block.get("is_error")), text))
    return found


def server_ready_after(scratch: harness.Scratch) -> float | None:
    """Seconds from the tee's start to the server's answer to the handshake."""
    start = None
    for entry in harness.read_jsonl(scratch.root / "wire.jsonl"):
        start = start or entry["t"]
        message = entry.get("msg")
        if entry["dir"] == "s2c" and isinstance(message, dict) and "result" in message:
            return entry["t"] - start
    return None


def first_model_request_after(scratch: harness.Scratch, model: harness.FakeModelProcess) -> float | None:
    wire = harness.read_jsonl(scratch.root / "wire.jsonl")
    requests = [r for r in model.requests() if str(r.get("chosen", "")).startswith("step")]
    if not wire or not requests:
        return None
    return requests[0]["t"] - wire[0]["t"]


def prefix(how: str) -> str:
    return (clients.PLUGIN_PERMISSION if how == "plugin" else clients.CLAUDE_PERMISSION) + "__"


def key_reached(scratch: harness.Scratch) -> str:
    notes = scratch.root / "server-env.txt"
    return notes.read_text().split("\n")[0] if notes.exists() else "(server never started)"


def one_list(claude: str, how: str, wait_setting: bool, index: int, delay: float) -> bool:
    scratch = harness.Scratch.new(f"claude-{how}-list{index}")
    prepare_home(scratch, hook=False)
    install_command(scratch, delay)
    steps: list[Json] = [
        {"tool": "cursor_list_agents", "args": {"limit": 5}, "prefix": prefix(how)},
        {"say": "Listed."},
    ]
    model = harness.FakeModelProcess(scratch, steps)
    env = claude_env(scratch, model.url, wait_setting)
    try:
        permission = install(scratch, claude, env, how)
        ran = run_print(claude, scratch, env, "List my Cursor agents.", permission)
    finally:
        model.close()
    results = tool_results(model)
    listed = bool(results) and not results[0][0] and '"agents"' in results[0][1]
    ready, asked = server_ready_after(scratch), first_model_request_after(scratch, model)
    seen = harness.short(results[0][1], 140) if results else "(no tool result)"
    harness.say(
        f"run {index}: exit {ran['code']} in {ran['seconds']:.1f} s; server answered the handshake after "
        f"{ready if ready is None else round(ready, 2)} s, first model request at "
        f"{asked if asked is None else round(asked, 2)} s; {key_reached(scratch)}; listed={listed}: {seen}"
    )
    harness.say(f"  scratch {scratch.root}")
    return listed


def delete_through_hook(claude: str, how: str, matcher: str | None) -> bool:
    scratch = harness.Scratch.new(f"claude-{how}-hook")
    prepare_home(scratch, hook=False)
    install_command(scratch)
    finished = harness.world_ids()["Add a README with setup instructions"]
    steps: list[Json] = [
        {"tool": "cursor_delete_agent", "args": {"agent_id": finished["id"]}, "prefix": prefix(how)},
        {"say": "Deleted."},
    ]
    model = harness.FakeModelProcess(scratch, steps)
    env = claude_env(scratch, model.url, wait_setting=True)
    try:
        permission = install(scratch, claude, env, how)
        add_hook(scratch, matcher)
        ran = run_print(claude, scratch, env, "Delete the README agent.", permission)
    finally:
        model.close()
    harness.say(f"{how}: claude -p exited {ran['code']} in {ran['seconds']:.1f} s; scratch {scratch.root}")
    for _t, direction, message in harness.frames(scratch.root / "wire.jsonl"):
        params = message.get("params") or {}
        if direction == "c2s" and message.get("method") == "tools/call":
            harness.say(f"  tools/call {params.get('name')} inputResponses={json.dumps(params.get('inputResponses'))}")
        if direction == "c2s" and message.get("method") is None and "result" in message:
            harness.say(f"  client answers {json.dumps(message['result'])[:200]}")
    results = tool_results(model)
    for is_error, text in results:
        harness.say(f"  model is told (is_error={is_error}): {harness.short(text, 400)}")
    return bool(results) and not results[-1][0] and '"deleted": true' in results[-1][1].replace('":true', '": true')


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["list", "delete"])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-wait-setting", action="store_true", help="without the documented start-up setting")
    parser.add_argument("--server-delay", type=float, default=0.0, help="seconds the server's start is delayed")
    parser.add_argument("--install", choices=["plugin", "mcpjson", "add", "all"], default=None)
    parser.add_argument("--matcher", help="a control: this matcher in the hook instead of the documented one")
    parser.add_argument("--unapproved", action="store_true", help="a control: .mcp.json's server never approved")
    args = parser.parse_args()
    global APPROVE_PROJECT_SERVERS  # one switch for the whole drive
    APPROVE_PROJECT_SERVERS = not args.unapproved
    claude = str(harness.client("claude"))
    version = subprocess.run([claude, "--version"], capture_output=True, text=True).stdout.strip()
    harness.say(f"claude {version}")
    if args.what == "list":
        setting = "without" if args.no_wait_setting else f"with {clients.CLAUDE_PRINT_WAIT_ENV}"
        delay = f"; the server's start delayed {args.server_delay} s" if args.server_delay else ""
        how = args.install or "plugin"
        harness.say(f"claude -p, installed: {how} (as docs/clients.md says), {setting}; the model calls at once{delay}")
        runs = range(1, args.runs + 1)
        listed = sum(one_list(claude, how, not args.no_wait_setting, index, args.server_delay) for index in runs)
        harness.say(f"listed the agents in {listed} of {args.runs} runs")
        return 0
    installs = ["plugin", "mcpjson", "add"] if args.install in (None, "all") else [args.install]
    control = f", matcher {args.matcher}" if args.matcher else ""
    harness.say(f"the hook of docs/safety.md: {clients.elicitation_hook()}{control}")
    for how in installs:
        harness.say(f"{how}: deleted through the hook: {delete_through_hook(claude, how, args.matcher)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
