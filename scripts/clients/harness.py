"""What the drives share: where the clients are, a scratch folder per run, the fake model, the tee, the
simulated world's ids, and readers of the two logs.

Nothing here touches the network beyond loopback: the clients get a fake model API on 127.0.0.1, a HOME
of their own under the scratch folder, and dummy keys.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Json = dict[str, Any]
HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parents[1]
PYTHON = CHECKOUT / ".venv" / "bin" / "python"
SERVER = CHECKOUT / ".venv" / "bin" / "cursor-cloud-agents"
CLIENTS_BIN = Path(os.environ.get("CLIENTS_BIN", "/work/clients/node_modules/.bin"))
DUMMY_ANTHROPIC_KEY = "sk-ant-api03-dummy-offline-harness-key-000000000000000000000000000000000000-AA"
DUMMY_OPENAI_KEY = "sk-dummy-offline-harness"
QUIET_ENV = {
    # Claude Code: no telemetry, update checks, marketplace downloads or other calls home.
    "DISABLE_TELEMETRY": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1",
    # OpenCode: no models.dev fetch, no update check.
    "OPENCODE_DISABLE_MODELS_FETCH": "1",
    "OPENCODE_DISABLE_AUTOUPDATE": "1",
    "OPENCODE_DISABLE_SHARE": "1",
}


def client(name: str) -> Path:
    """The installed client binary, or exit 3 with how to install it."""
    path = CLIENTS_BIN / name
    if not path.exists():
        sys.stderr.write(f"{path} not found: install the clients first (scripts/clients/README.md, step 1)\n")
        sys.exit(3)
    return path


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


@dataclass
class Scratch:
    """A folder for one drive: HOME, a project, the logs. Kept after the run for reading."""

    root: Path
    home: Path = field(init=False)
    project: Path = field(init=False)

    def __post_init__(self) -> None:
        self.home = self.root / "home"
        self.project = self.root / "project"
        self.home.mkdir(parents=True, exist_ok=True)
        self.project.mkdir(parents=True, exist_ok=True)

    @classmethod
    def new(cls, name: str) -> Scratch:
        base = Path(os.environ.get("HARNESS_OUT", tempfile.gettempdir())) / "clients-harness"
        base.mkdir(parents=True, exist_ok=True)
        return cls(Path(tempfile.mkdtemp(prefix=f"{name}-{time.strftime('%H%M%S')}-", dir=base)))

    def env(self, **extra: str) -> dict[str, str]:
        env = {
            "PATH": f"{CLIENTS_BIN}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.home),
            "USER": os.environ.get("USER", "harness"),
            "LANG": "C.UTF-8",
            "TERM": os.environ.get("TERM", "xterm-256color"),
            "TMPDIR": str(self.root / "tmp"),
            **QUIET_ENV,
        }
        (self.root / "tmp").mkdir(exist_ok=True)
        env.update(extra)
        return env


class FakeModelProcess:
    """The fake model API as a child process, with its script file (rewritable while it runs)."""

    def __init__(self, scratch: Scratch, steps: list[Json], name: str = "model") -> None:
        self.script = scratch.root / f"{name}-script.json"
        self.log = scratch.root / f"{name}-requests.jsonl"
        self.set_steps(steps)
        command = [sys.executable, str(HERE / "fake_model.py"), "--script", str(self.script), "--log", str(self.log)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        self.url = self.process.stdout.readline().split()[-1]

    def set_steps(self, steps: list[Json]) -> None:
        self.script.write_text(json.dumps({"steps": steps}, indent=1))

    def requests(self) -> list[Json]:
        return read_jsonl(self.log)

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=5)


def tee_command(wire_log: Path, *server_env: str, stderr: Path | None = None, delay: float = 0.0) -> list[str]:
    """The command a client starts as its MCP server: the tee in front of the simulated server."""
    command = [sys.executable, str(HERE / "tee_server.py"), "--log", str(wire_log)]
    if delay:
        command += ["--delay", str(delay)]
    if stderr is not None:
        command += ["--stderr", str(stderr)]
    for item in server_env:
        command += ["--env", item]
    return command


def read_jsonl(path: Path) -> list[Json]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def frames(wire_log: Path) -> Iterator[tuple[float, str, Json]]:
    for entry in read_jsonl(wire_log):
        if "msg" in entry and isinstance(entry["msg"], dict):
            yield entry["t"], entry["dir"], entry["msg"]


def probe_call(tool: str, arguments: Json) -> Json:
    """One `tools/call` of a fresh simulated server (raw JSON-RPC, no client), its result as on the wire."""
    code = (
        "import anyio, json, sys\n"
        "sys.path.insert(0, 'scripts')  # devkit: the development tooling, kept out of the wheel\n"
        "from devkit.probe import probe\n"
        "async def main():\n"
        "    env = {'PATH': '/usr/bin:/bin', 'HOME': '/tmp', 'CURSOR_MCP_FIXTURE': '1'}\n"
        f"    r = await probe([{str(SERVER)!r}], env, call=({tool!r}, json.loads(sys.argv[1])))\n"
        "    print(json.dumps(r.call_result))\n"
        "anyio.run(main)\n"
    )
    command = [str(PYTHON), "-c", code, json.dumps(arguments)]
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=CHECKOUT)
    return json.loads(out.stdout)


def world_ids() -> dict[str, Json]:
    """The demo world's agents by name (its ids are seeded, the same in every server process)."""
    agents = probe_call("cursor_list_agents", {"limit": 20, "include_archived": True})["structuredContent"]["agents"]
    return {agent["name"]: agent for agent in agents}


def short(value: Any, chars: int = 400) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= chars else text[:chars] + f"... [{len(text)} chars]"


def copy_logs(scratch: Scratch, target: Path | None) -> None:
    if target is not None:
        shutil.copytree(scratch.root, target, dirs_exist_ok=True)
