"""Drive (d): Claude Code runs a shell command in the background (Bash with `run_in_background`) and is told
when it exits: is the model invoked again, and with the command's output and exit status?

    claude_background_bash.py [--interactive] [--seconds 8] [--exit-code 1]

The command stands in for `cursor-cloud-agents wait` (sleep, print a short report, exit with a status).
Print mode (`claude -p`) by default; `--interactive` runs it under tmux.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import time
from pathlib import Path

import harness
from claude_print_consent import prepare_home
from harness import Json
from tmux import Pane

READY = ("for shortcuts", "shift+tab to cycle", "mode on")


REAL_WAIT = f"{harness.SERVER} wait --active --simulated --speed 20 --timeout 1200"
"""`--real-wait`: our `wait` on the simulated world (its running run ends in about 30 s at that speed)."""


REAL_EVENTS = f"{harness.SERVER} events --simulated --speed 20 --until any"
"""`--monitor`: our `events` on the simulated world under Claude Code's Monitor tool (each line an event)."""


def monitor_steps() -> list[Json]:
    monitor = {"description": "Cursor runs", "timeout_ms": 300000, "command": REAL_EVENTS}
    return [
        {"tool": "Monitor", "args": monitor},
        {"say": "Watching the Cursor runs."},
        {"say": "EVENT-SEEN: an event line reached the model."},
        {"say": "(extra turn)"},
        {"say": "(extra turn)"},
    ]


def steps_for(seconds: int, code: int, real_wait: bool = False) -> list[Json]:
    command = f"sleep {seconds}; echo 'cursor: run-1 FINISHED in {seconds}s (stand-in report)'; exit {code}"
    if real_wait:
        command = REAL_WAIT
    bash = {"command": command, "run_in_background": True, "description": "Wait for the Cursor runs"}
    return [
        {"tool": "Bash", "args": bash},
        {"say": "Started the wait in the background."},
        {"say": "BACKGROUND-SEEN: the background command ended."},
        {"say": "(extra turn)"},
    ]


def _texts(message: Json) -> list[str]:
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    texts: list[str] = []
    for block in content or []:
        inner = block.get("content") if block.get("type") == "tool_result" else block.get("text")
        texts.append(inner if isinstance(inner, str) else json.dumps(inner))
    return texts


def report(model: harness.FakeModelProcess, started: float) -> None:
    """Per model request: what it was handed about the background command (the call's result, the
    notification), and the output file the notification names, as the model would read it."""
    shown: set[str] = set()
    for request in model.requests():
        if not str(request.get("chosen", "")).startswith("step"):
            continue
        harness.say(f"  +{request['t'] - started:6.1f}s {request['chosen'][:60]}")
        for message in request["body"]["messages"]:
            for text in _texts(message):
                wakes = ("task-notification", "running in background", '"event"', "monitor")
                if any(mark in text for mark in wakes) and text not in shown:
                    shown.add(text)
                    harness.say(f"    handed: {harness.short(text, 1500)}")
                    found = re.search(r"<output-file>([^<]+)</output-file>", text)
                    if found and Path(found.group(1)).exists():
                        harness.say(f"    the output file {found.group(1)} holds:")
                        for line in Path(found.group(1)).read_text().splitlines():
                            harness.say(f"      | {line}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--interactive", action="store_true")
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--exit-code", type=int, default=0)
    parser.add_argument("--real-wait", action="store_true", help=f"run `{REAL_WAIT}` instead of the stand-in")
    parser.add_argument("--monitor", action="store_true", help=f"the Monitor tool on `{REAL_EVENTS}`")
    args = parser.parse_args()
    if args.real_wait or args.monitor:
        args.seconds = 60
    claude = harness.client("claude")
    scratch = harness.Scratch.new("claude-bg-" + ("tui" if args.interactive else "print"))
    prepare_home(scratch, hook=False)
    steps = monitor_steps() if args.monitor else steps_for(args.seconds, args.exit_code, args.real_wait)
    model = harness.FakeModelProcess(scratch, steps)
    env = scratch.env(ANTHROPIC_BASE_URL=model.url, ANTHROPIC_API_KEY=harness.DUMMY_ANTHROPIC_KEY)
    common = ["--allowedTools", "Monitor" if args.monitor else "Bash", "--permission-mode", "default"]
    version = subprocess.run([str(claude), "--version"], capture_output=True, text=True).stdout.strip()
    harness.say(
        f"claude {version}; {'interactive (tmux)' if args.interactive else 'print mode'}; scratch {scratch.root}"
    )
    started = time.time()
    try:
        if args.interactive:
            launcher = Pane.launcher(scratch.root / "launch.sh", env, scratch.project, [str(claude), *common])
            pane = Pane(f"harness-{scratch.root.name}".replace(".", "-"), launcher)
            pane.wait_for_any(READY, 60)
            pane.type("Wait for the runs in the background.")
            seen = pane.wait_for("BACKGROUND-SEEN", args.seconds + 60)
            (scratch.root / "screen.txt").write_text(pane.screen())
            pane.kill()
            harness.say(f"model re-invoked after the command ended: {seen}")
        else:
            command = [
                str(claude),
                "-p",
                "Wait for the runs in the background.",
                *common,
                "--output-format",
                "stream-json",
                "--verbose",
            ]
            done = subprocess.run(
                command, cwd=scratch.project, env=env, capture_output=True, text=True, timeout=args.seconds + 120
            )
            (scratch.root / "claude-stdout.jsonl").write_text(done.stdout)
            harness.say(f"claude -p exited {done.returncode} after {time.time() - started:.1f} s")
            for line in done.stdout.splitlines():
                event = json.loads(line)
                if event.get("type") == "result":
                    harness.say(f"  final result: {harness.short(event.get('result'), 200)}")
    finally:
        model.close()
    harness.say("model requests (time since start, step, the last message it was handed):")
    report(model, started)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
