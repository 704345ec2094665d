"""Drive (i), issue 44: each client installs the package as docs/clients.md says, with no key in its environment,
and its model's first turn calls `cursor_get_account`: does the server find the key `login` stored?

    install_drive.py claude|codex|opencode|gemini|all

Per client, in a fresh HOME: the simulator (`cursor-cloud-agents simulate`) on loopback; `cursor-cloud-agents
login --stdin` with the simulator's key, against it; a copy of the package files (what a clone of the repository
holds: the manifests `make plugins` writes, and `skills/`); the install, as written; then one scripted turn of
the client against the fake model. `CURSOR_API_KEY` is never set. `cursor-cloud-agents` on the PATH is a wrapper
that notes which variables reached it, then starts this checkout's server behind the tee, pointed at the
simulator (the only change: `CURSOR_API_BASE_URL`, since a client passes no such variable to a plugin's server).

A run passes when the model was handed `cursor_get_account`'s answer naming the simulator's key
(`Simulated API Key`): the server found the stored key.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import harness
from claude_print_consent import prepare_home
from codex_first_turn import provider
from harness import Json
from opencode_drive import opencode_config

from cursor_cloud_agents import clients
from cursor_cloud_agents.cli import plugins
from cursor_cloud_agents.simulator import SIMULATED_API_KEY

WRAPPER = """#!/bin/sh
# cursor-cloud-agents as the client starts it (drive i): note what reached it, then the server behind the tee.
{{ echo "HOME=${{HOME:-(unset)}}"; echo "CURSOR_API_KEY=${{CURSOR_API_KEY:+(set)}}"; }} >> {notes}
exec {tee} -- /usr/bin/env -u CURSOR_MCP_FIXTURE CURSOR_API_BASE_URL={url} {server} "$@"
"""
ACCOUNT = "Simulated API Key"
"""What `cursor_get_account` answers with the simulator's key: the proof the stored key was used."""


@dataclass
class Setup:
    scratch: harness.Scratch
    simulator: subprocess.Popen[str]
    url: str
    package: Path

    def close(self) -> None:
        self.simulator.terminate()
        self.simulator.wait(timeout=10)


def prepare(name: str) -> Setup:
    scratch = harness.Scratch.new(f"install-{name}")
    base = {"PATH": "/usr/bin:/bin", "HOME": str(scratch.home)}
    simulator = subprocess.Popen(
        [str(harness.SERVER), "simulate", "--scenario", "demo"], stdout=subprocess.PIPE, text=True, env=base
    )
    assert simulator.stdout is not None
    found = re.search(r"http://127\.0\.0\.1:\d+", simulator.stdout.readline())
    assert found, "the simulator did not print its URL"
    url = found.group()
    login = subprocess.run(
        [str(harness.SERVER), "login", "--stdin"],
        input=SIMULATED_API_KEY + "\n",
        env=base | {"CURSOR_API_BASE_URL": url},
        capture_output=True,
        text=True,
        timeout=60,
    )
    harness.say(f"  login (exit {login.returncode}): {login.stdout.strip()} {login.stderr.strip()}")
    package = scratch.root / "package"
    for relative in plugins.MANIFESTS:
        (package / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(harness.CHECKOUT / relative, package / relative)
    shutil.copytree(harness.CHECKOUT / "skills", package / "skills")
    tee = harness.tee_command(scratch.root / "wire.jsonl", stderr=scratch.root / "server-stderr.log")
    wrapper = scratch.root / "bin" / clients.COMMAND
    wrapper.parent.mkdir(exist_ok=True)
    notes = shlex.quote(str(scratch.root / "server-env.txt"))
    server = shlex.quote(str(harness.SERVER))
    wrapper.write_text(WRAPPER.format(tee=shlex.join(tee), notes=notes, url=url, server=server))
    wrapper.chmod(0o755)
    return Setup(scratch, simulator, url, package)


def client_env(setup: Setup, **extra: str) -> dict[str, str]:
    env = setup.scratch.env(**extra)
    env["PATH"] = f"{setup.scratch.root / 'bin'}:{env['PATH']}"
    env.pop("CURSOR_API_KEY", None)
    return env


def run(command: list[str], env: dict[str, str], cwd: Path, label: str, timeout: float = 240) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    out = (done.stdout + done.stderr).strip()
    harness.say(f"  $ {label}: exit {done.returncode}; {harness.short(out, 300)}")
    return out


def version(binary: str, env: dict[str, str]) -> str:
    return subprocess.run([binary, "--version"], capture_output=True, text=True, env=env).stdout.strip()


def steps(prefix: str = "", skill: Json | None = None) -> list[Json]:
    account: Json = {"tool": "cursor_get_account", "args": {}, "prefix": prefix}
    return [*([skill] if skill else []), account, {"say": "Checked the account."}]


def report(setup: Setup, model: harness.FakeModelProcess, skill: str = "delegate-to-cursor") -> bool:
    requests = [r for r in model.requests() if str(r.get("chosen", "")).startswith("step")]
    first = json.dumps(requests[0]["body"]) if requests else ""
    last = json.dumps(requests[-1]["body"]) if requests else ""
    tools = sorted(set(re.findall(r"cursor_[a-z_]+", first)) & {f"cursor_{n}" for n in ("get_account", "wait")})
    notes = setup.scratch.root / "server-env.txt"
    reached = notes.read_text().replace("\n", " ").strip() if notes.exists() else "(server never started)"
    found = ACCOUNT in last
    harness.say(
        f"  first model request: our tools {'present' if tools else 'absent'} ({', '.join(tools)}); "
        f"skill {skill!r} {'named' if skill in first else 'not named'} in it"
    )
    harness.say(f"  the server saw: {reached}")
    harness.say(f"  the model was handed the account of the stored key ({ACCOUNT!r}): {found}")
    harness.say(f"  scratch {setup.scratch.root}")
    return found


def drive_claude() -> bool:
    claude = str(harness.client("claude"))
    setup = prepare("claude")
    prepare_home(setup.scratch, hook=False)
    skill: Json = {"tool": "Skill", "args": {"skill": f"{clients.PLUGIN}:delegate-to-cursor"}}
    model = harness.FakeModelProcess(setup.scratch, steps(clients.PLUGIN_PERMISSION + "__", skill))
    env = client_env(setup, ANTHROPIC_BASE_URL=model.url, ANTHROPIC_API_KEY=harness.DUMMY_ANTHROPIC_KEY)
    env.update(clients.CLAUDE_PRINT_WAIT_ENV)
    harness.say(f"Claude Code {version(claude, env)}")
    try:
        cwd = setup.scratch.project
        run([claude, "plugin", "marketplace", "add", str(setup.package)], env, cwd, "claude plugin marketplace add")
        run([claude, "plugin", "install", clients.PLUGIN_ID], env, cwd, f"claude plugin install {clients.PLUGIN_ID}")
        out = run(
            [claude, "-p", "Check my Cursor account.", "--allowedTools", f"{clients.PLUGIN_PERMISSION} Skill"]
            + ["--output-format", "stream-json", "--verbose"],
            env,
            cwd,
            "claude -p",
        )
        (setup.scratch.root / "claude-stdout.jsonl").write_text(out)
    finally:
        model.close()
        setup.close()
    invoked = any("Delegate to Cursor Cloud Agents" in json.dumps(r["body"]) for r in model.requests())
    harness.say(f"  the skill's text reached the model after the Skill call: {invoked}")
    return report(setup, model)


def drive_codex() -> bool:
    codex = str(harness.client("codex"))
    setup = prepare("codex")
    model = harness.FakeModelProcess(setup.scratch, steps())
    codex_home = setup.scratch.root / "codex-home"
    codex_home.mkdir()
    top, table = provider(model.url)
    (codex_home / "config.toml").write_text(f"{top}\n{table}")
    env = client_env(setup, CODEX_HOME=str(codex_home), FAKE_OPENAI_API_KEY=harness.DUMMY_OPENAI_KEY)
    harness.say(version(codex, env))
    try:
        cwd = setup.scratch.project
        run([codex, "plugin", "marketplace", "add", str(setup.package)], env, cwd, "codex plugin marketplace add")
        run([codex, "plugin", "add", clients.PLUGIN_ID], env, cwd, f"codex plugin add {clients.PLUGIN_ID}")
        command = [codex, "exec", "--json", "--skip-git-repo-check", "Check my Cursor account."]
        (setup.scratch.root / "codex-stdout.jsonl").write_text(run(command, env, cwd, "codex exec"))
    finally:
        model.close()
        setup.close()
    return report(setup, model)


def drive_codex_interactive() -> bool:
    """Codex's interactive client (under tmux), the prompt typed once its start-up screen is up: the person's
    case, where the first turn comes after the plugin's server has answered."""
    from tmux import Pane  # the drives that need tmux import it

    codex = str(harness.client("codex"))
    setup = prepare("codex-tui")
    model = harness.FakeModelProcess(setup.scratch, steps())
    codex_home = setup.scratch.root / "codex-home"
    codex_home.mkdir()
    top, table = provider(model.url)
    trusted = f'[projects."{setup.scratch.project}"]\ntrust_level = "trusted"\n'
    (codex_home / "config.toml").write_text(f"{top}\n{table}\n{trusted}")
    env = client_env(setup, CODEX_HOME=str(codex_home), FAKE_OPENAI_API_KEY=harness.DUMMY_OPENAI_KEY)
    harness.say(version(codex, env))
    cwd = setup.scratch.project
    run([codex, "plugin", "marketplace", "add", str(setup.package)], env, cwd, "codex plugin marketplace add")
    run([codex, "plugin", "add", clients.PLUGIN_ID], env, cwd, f"codex plugin add {clients.PLUGIN_ID}")
    launcher = Pane.launcher(setup.scratch.root / "codex.sh", env, cwd, [codex])
    pane = Pane(f"install-drive-{setup.scratch.root.name}", launcher)
    try:
        pane.wait_for_any(("›", ">", "Ask Codex"), 60)
        (setup.scratch.root / "screen-start.txt").write_text(pane.screen())
        wire = setup.scratch.root / "wire.jsonl"
        ends = time.monotonic() + 30  # a person types for longer than the server takes to answer
        while time.monotonic() < ends and '"tools"' not in (wire.read_text() if wire.exists() else ""):
            time.sleep(0.5)
        listed = '"tools"' in wire.read_text()
        harness.say(f"  prompt typed once the server had listed its tools: {listed}")
        pane.type("Check my Cursor account.")
        pane.wait_for("Checked the account.", 90)
        (setup.scratch.root / "screen-end.txt").write_text(pane.screen())
    finally:
        pane.kill()
        model.close()
        setup.close()
    return report(setup, model)


def drive_opencode() -> bool:
    opencode = str(harness.client("opencode"))
    setup = prepare("opencode")
    model = harness.FakeModelProcess(setup.scratch, steps())
    config = opencode_config(model.url, [clients.COMMAND], 0, "anthropic")
    config["mcp"] = json.loads((setup.package / "opencode.json").read_text())["mcp"]  # the package's entry, as is
    project = setup.scratch.project
    (project / "opencode.json").write_text(json.dumps(config, indent=1))
    shutil.copytree(setup.package / "skills", project / ".opencode" / "skills")
    env = client_env(setup, ANTHROPIC_API_KEY=harness.DUMMY_ANTHROPIC_KEY)
    harness.say(f"OpenCode {version(opencode, env)}")
    try:
        out = run([opencode, "run", "Check my Cursor account."], env, project, "opencode run")
        (setup.scratch.root / "opencode-out.txt").write_text(out)
    finally:
        model.close()
        setup.close()
    return report(setup, model)


def drive_gemini() -> bool:
    gemini = str(harness.client("gemini"))
    setup = prepare("gemini")
    model = harness.FakeModelProcess(setup.scratch, steps())
    env = client_env(setup, GEMINI_API_KEY="dummy-offline-harness", GOOGLE_GEMINI_BASE_URL=model.url)
    # The API-key sign-in, chosen as a person does at the first start: with GOOGLE_GEMINI_BASE_URL alone, Gemini CLI
    # 0.61.0 picks its "gateway" sign-in and stops ("Invalid auth method selected"); this one still goes to the URL.
    settings = setup.scratch.home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    harness.say(f"Gemini CLI {version(gemini, env)}")
    try:
        cwd = setup.scratch.project
        run([gemini, "extensions", "validate", str(setup.package)], env, cwd, "gemini extensions validate")
        install = [gemini, "extensions", "install", str(setup.package), "--consent"]
        done = subprocess.run(install, input="y\n", cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
        harness.say(f"  $ gemini extensions install --consent: exit {done.returncode}; {done.stdout.strip()[-160:]}")
        run([gemini, "extensions", "list"], env, cwd, "gemini extensions list")
        run([gemini, "mcp", "list"], env, cwd, "gemini mcp list")
        prompt = [gemini, "-p", "Check my Cursor account.", "--yolo", "--output-format", "json"]
        (setup.scratch.root / "gemini-out.txt").write_text(run(prompt, env, cwd, "gemini -p"))
    finally:
        model.close()
        setup.close()
    return report(setup, model)


DRIVES: dict[str, Callable[[], bool]] = {
    "claude": drive_claude,
    "codex": drive_codex,
    "codex-tui": drive_codex_interactive,
    "opencode": drive_opencode,
    "gemini": drive_gemini,
}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("client", choices=[*DRIVES, "all"])
    args = parser.parse_args()
    chosen = list(DRIVES) if args.client == "all" else [args.client]
    passed = {name: DRIVES[name]() for name in chosen}
    harness.say(f"found the stored key: {passed}")
    return 0 if all(passed.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
