"""Drive (d): Claude Code runs a shell command in the background (Bash with `run_in_background`) and is told
when it exits: is the model invoked again, and with the command's output and exit status?

    claude_background_bash.py [--interactive] [--seconds 8] [--exit-code 1]

The command stands in for `cursor-cloud-agents wait` (sleep, print a short report, exit with a status).
Print mode (`claude -p`) by default; `--interactive` runs it under tmux.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time

import harness
from claude_print_consent import prepare_home
from harness import Json
from tmux import Pane

READY = ("for shortcuts", "shift+tab to cycle", "mode on")


def steps_for(seconds: int, code: int) -> list[Json]:
    command = f"sleep {seconds}; echo 'cursor: run-1 FINISHED in {seconds}s (stand-in report)'; exit {code}"
    bash = {"command": command, "run_in_background": True, "description": "Wait for the Cursor runs"}
    return [
        {"tool": "Bash", "args": bash},
        {"say": "Started the wait in the background."},
        {"say": "BACKGROUND-SEEN: the background command ended."},
        {"say": "(extra turn)"},
    ]


def report(model: harness.FakeModelProcess, started: float) -> None:
    for request in model.requests():
        if not str(request.get("chosen", "")).startswith("step"):
            continue
        last = request["body"]["messages"][-1]
        content = last.get("content")
        text = content if isinstance(content, str) else json.dumps(content)
        harness.say(f"  +{request['t'] - started:6.1f}s {request['chosen'][:60]} <- {harness.short(text, 900)}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--interactive", action="store_true")
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--exit-code", type=int, default=0)
    args = parser.parse_args()
    claude = harness.client("claude")
    scratch = harness.Scratch.new("claude-bg-" + ("tui" if args.interactive else "print"))
    prepare_home(scratch, hook=False)
    model = harness.FakeModelProcess(scratch, steps_for(args.seconds, args.exit_code))
    env = scratch.env(ANTHROPIC_BASE_URL=model.url, ANTHROPIC_API_KEY=harness.DUMMY_ANTHROPIC_KEY)
    common = ["--allowedTools", "Bash", "--permission-mode", "default"]
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
