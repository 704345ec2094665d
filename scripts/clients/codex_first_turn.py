"""Drive (h): `codex exec` with the configuration `cursor-cloud-agents config codex` prints: does the model's
first request carry our tools?

    codex_first_turn.py [--runs 10] [--without-required] [--server-delay S]

The `[mcp_servers.cursor]` table is `cursor_cloud_agents.clients.snippet("codex", ...)` word for word (what
`config codex` prints and docs/clients.md shows), its command being a wrapper that starts this checkout's server
(simulated) through the tee; the rest of `config.toml` points Codex at the fake model. `--without-required`
drops the `required = true` line (the race the setting closes); `--server-delay` slows the server's start.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import time

import harness
from harness import Json

from cursor_cloud_agents import clients


def provider(model_url: str) -> tuple[str, str]:
    """The top-level lines and the provider table that send Codex to the fake model."""
    top = 'model = "fake-model"\nmodel_provider = "fake"\napproval_policy = "never"\nsandbox_mode = "read-only"\n'
    table = (
        '[model_providers.fake]\nname = "fake model API (loopback)"\n'
        f'base_url = "{model_url}/v1"\nwire_api = "responses"\nenv_key = "FAKE_OPENAI_API_KEY"\n'
        "request_max_retries = 0\nstream_max_retries = 0\n"
    )
    return top, table


def wrapper(scratch: harness.Scratch, delay: float) -> str:
    tee = harness.tee_command(scratch.root / "wire.jsonl", stderr=scratch.root / "server-stderr.log", delay=delay)
    path = scratch.root / "bin" / clients.COMMAND
    path.parent.mkdir(exist_ok=True)
    path.write_text(f'#!/bin/sh\nexec {shlex.join(tee)} "$@"\n')
    path.chmod(0o755)
    return str(path)


def ours(body: Json) -> list[str]:
    """Our tools in a request: the `mcp__cursor` namespace's tools (direct mode)."""
    names: list[str] = []
    for tool in body.get("tools") or []:
        if tool.get("name") == f"mcp__{clients.SERVER_NAME}":
            names += [inner.get("name") for inner in tool.get("tools") or []]
    return names


def handshake_answered(scratch: harness.Scratch) -> float | None:
    start = None
    for entry in harness.read_jsonl(scratch.root / "wire.jsonl"):
        start = start or entry["t"]
        message = entry.get("msg")
        if entry["dir"] == "s2c" and isinstance(message, dict) and "result" in message:
            return entry["t"]
    return None


def one_run(codex: str, index: int, required: bool, delay: float) -> bool:
    scratch = harness.Scratch.new(f"codex-first-turn{index}")
    steps: list[Json] = [{"tool": "cursor_list_agents", "args": {"limit": 5}}, {"say": "Listed."}]
    model = harness.FakeModelProcess(scratch, steps)
    codex_home = scratch.root / "codex-home"
    codex_home.mkdir()
    registration = clients.snippet("codex", wrapper(scratch, delay)).text
    if not required:
        registration = "\n".join(line for line in registration.splitlines() if not line.startswith("required"))
    top, table = provider(model.url)
    (codex_home / "config.toml").write_text(f"{top}\n{registration}\n\n{table}")
    env = scratch.env(CODEX_HOME=str(codex_home), FAKE_OPENAI_API_KEY=harness.DUMMY_OPENAI_KEY)
    env["CURSOR_API_KEY"] = "unused-in-simulated-mode"  # what env_vars passes on; the tee does not forward it
    command = [codex, "exec", "--json", "--skip-git-repo-check", "List my Cursor agents."]
    spawned = time.time()
    try:
        done = subprocess.run(command, cwd=scratch.project, env=env, capture_output=True, text=True, timeout=180)
    finally:
        model.close()
    (scratch.root / "codex-stdout.jsonl").write_text(done.stdout)
    (scratch.root / "codex-stderr.log").write_text(done.stderr)
    requests = [r for r in model.requests() if str(r.get("chosen", "")).startswith("step")]
    first = requests[0] if requests else None
    tools = ours(first["body"]) if first else []
    answered = handshake_answered(scratch)
    wire = harness.read_jsonl(scratch.root / "wire.jsonl")
    started = wire[0]["t"] if wire else spawned
    first_at = f"{first['t'] - started:.2f} s" if first else "never"
    answered_at = f"{answered - started:.2f} s" if answered else "never"
    harness.say(
        f"run {index}: codex exited {done.returncode}; handshake answered at {answered_at}, first model request at "
        f"{first_at} (after the server's spawn); our tools in it: {len(tools)}"
    )
    return len(tools) > 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--without-required", action="store_true")
    parser.add_argument("--server-delay", type=float, default=0.0)
    args = parser.parse_args()
    codex = str(harness.client("codex"))
    version = subprocess.run([codex, "--version"], capture_output=True, text=True).stdout.strip()
    registration = clients.snippet("codex", clients.COMMAND).text
    if args.without_required:
        registration += "(without the `required = true` line)\n"
    harness.say(f"{version}; the registration (config codex):\n{registration}server delay {args.server_delay} s")
    carried = sum(one_run(codex, i, not args.without_required, args.server_delay) for i in range(1, args.runs + 1))
    harness.say(f"the model's first request carried our tools in {carried} of {args.runs} runs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
